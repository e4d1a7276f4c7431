//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The accounting commands' budget (docs/accounting.md, "Time and memory"): every
// run on values the flags accept finishes within budgetTime of CPU (user +
// system, all threads: a shared machine stretches wall time, not CPU time)
// and budgetHeap (a grid that would need more is coarsened or refused up
// front), and ends with exit 0 and a number, or exit 2 and one line naming
// what is wrong. The CPU time measured includes the test's own heap
// sampling (a stop-the-world ReadMemStats every 20 ms) and the garbage
// collector's, so the test allows 1.5 × budgetTime; wall time is only
// checked against 4 × budgetTime, for hangs.
const (
	budgetTime = 10 * time.Second
	budgetHeap = 1 << 30
)

// fuzzValue draws a flag value: mostly log-uniform in [lo, hi], sometimes
// an edge (0, negative, huge, tiny, not a number, 1e3-style integers).
func fuzzValue(r *rand.Rand, lo, hi float64, whole bool) string {
	switch r.IntN(12) {
	case 0:
		return []string{"0", "-1", "1e300", "1e-300", "NaN", "Inf", "x", "1e3", "2.5", "1"}[r.IntN(10)]
	case 1:
		if r.IntN(2) == 0 {
			return strconv.FormatFloat(lo, 'g', -1, 64)
		}
		return strconv.FormatFloat(hi, 'g', -1, 64)
	}
	v := math.Exp(math.Log(lo) + r.Float64()*(math.Log(hi)-math.Log(lo)))
	if whole {
		v = math.Round(v)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// fuzzArgs draws one accounting command with random flag values.
func fuzzArgs(r *rand.Rand) []string {
	v := func(lo, hi float64) string { return fuzzValue(r, lo, hi, false) }
	w := func(lo, hi float64) string { return fuzzValue(r, lo, hi, true) }
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	switch r.IntN(6) {
	case 0, 1:
		a := []string{"dpsgd", "--delta", v(1e-300, 0.5)}
		if r.IntN(3) == 0 {
			a = append(a, "--n", w(10, 1e7), "--batch", w(1, 1e5), pick("--epochs", "--steps"), v(1, 1e4))
		} else {
			a = append(a, "--sampling-rate", v(1e-6, 1), "--steps", w(1, 1e6))
		}
		if r.IntN(3) == 0 {
			a = append(a, "--target-epsilon", v(1e-3, 50))
		} else {
			a = append(a, "--noise", v(0.1, 1e4))
		}
		if r.IntN(3) == 0 {
			a = append(a, "--neighbours", "replace-one")
		}
		if r.IntN(4) == 0 {
			a = append(a, "--accountant", pick("rdp", "pld", "best"))
		}
		return a
	case 2:
		a := []string{"gaussian", "--delta", v(1e-300, 0.5), "--compositions", w(1, 1e6)}
		if r.IntN(3) == 0 {
			return append(a, "--target-epsilon", v(1e-3, 100))
		}
		return append(a, "--sigma", v(0.05, 1e4), "--sensitivity", v(0.1, 10))
	case 3:
		a := []string{"laplace", "--delta", v(1e-300, 0.5), "--compositions", w(1, 1e5)}
		if r.IntN(3) == 0 {
			return append(a, "--target-epsilon", v(1e-3, 100))
		}
		return append(a, "--scale", v(0.01, 1e4))
	case 4:
		a := []string{"compose", "--epsilon", v(1e-4, 1000), "--compositions", w(1, 1e5)}
		if r.IntN(2) == 0 {
			a = append(a, "--delta", v(1e-300, 0.1))
		}
		if r.IntN(2) == 0 {
			a = append(a, "--target-delta", v(1e-300, 0.999))
		} else {
			a = append(a, "--delta-prime", v(1e-300, 0.5))
		}
		if r.IntN(2) == 0 {
			a = append(a, "--method", pick("pld", "optimal", "advanced", "basic"))
		}
		return a
	}
	switch r.IntN(3) {
	case 0:
		return []string{"convert", "--rho", v(1e-6, 1e4), pick("--delta", "--epsilon"), v(1e-300, 10)}
	case 1:
		return []string{"convert", "--epsilon", v(1e-4, 1000), "--delta", v(1e-300, 0.5)}
	}
	return []string{"convert", "--order", v(1.01, 1e6), "--rdp-epsilon", v(1e-6, 1e3), pick("--delta", "--epsilon"), v(1e-300, 10)}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakHeap samples the heap every 20 ms while f runs and returns the largest
// HeapAlloc seen above the heap at the start.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > base && m.HeapAlloc-base > peak.Load() {
					peak.Store(m.HeapAlloc - base)
				}
			}
		}
	}()
	f()
	close(done)
	<-stopped
	return peak.Load()
}

// TestAccountingBudgetFuzz runs random accounting commands (seeded; 20
// under -short, 150 otherwise) and checks each against the budget and the
// exit contract: 0 with a number (JSON whose epsilon, delta, sigma, rho or
// noise multiplier is a number, never null unless the answer is "no finite
// guarantee"), or 2 with one line naming the problem; never a panic, never
// another status. Its first full run found laplace --compositions 45996
// --delta 3.5e-244 at 62 s and 2.3 GB (now the composed window is capped
// and the interval coarsened) and ρ = −∞ printed for σ = 1e-300.
func TestAccountingBudgetFuzz(t *testing.T) {
	runs, seed := 150, uint64(23)
	if testing.Short() {
		// Another seed: its first 16 runs draw both exit statuses in 0.05 s
		// of CPU (its 20th, a dpsgd calibration at δ = 4.6e-298 by RDP,
		// takes 1 s alone; make test's 150 runs of seed 23 hold such cases).
		runs, seed = 16, 34
	}
	r := rand.New(rand.NewPCG(seed, 6))
	var slowest time.Duration
	var slowArgs []string
	var heaviest uint64
	codes := map[int]int{}
	for i := 0; i < runs; i++ {
		args := append(fuzzArgs(r), "--json")
		var out, errs string
		var code int
		var took, wall time.Duration
		heap := peakHeap(func() {
			start, cpu0 := time.Now(), cpuTime()
			out, errs, code = runCLI(args...)
			wall, took = time.Since(start), cpuTime()-cpu0
		})
		codes[code]++
		if took > slowest {
			slowest, slowArgs = took, args
		}
		heaviest = max(heaviest, heap)
		name := strings.Join(args, " ")
		if took > budgetTime*3/2 || wall > 4*budgetTime || heap > budgetHeap {
			t.Errorf("%s: %v CPU (%v wall) and %d MB, over the budget of %v and %d MB", name, took, wall, heap>>20, budgetTime, budgetHeap>>20)
		}
		switch code {
		case exitOK:
			if err := hasNumber(out); err != nil {
				// ε = +∞ is written as null: allowed where the answer says
				// so ("no finite guarantee": no noise to speak of, or a
				// bound that overflows).
				text, _, _ := runCLI(args[:len(args)-1]...)
				if !strings.Contains(text, "no finite guarantee") {
					t.Errorf("%s: exit 0 but %v:\n%s", name, err, out)
				}
			}
		case exitBadInput:
			if strings.Count(strings.TrimSuffix(errs, "\n"), "\n") != 0 || !strings.HasPrefix(errs, "privamp: ") || out != "" {
				t.Errorf("%s: exit 2 but stderr %q, stdout %d bytes", name, errs, len(out))
			}
		default:
			t.Errorf("%s: exit %d: %s", name, code, errs)
		}
		if strings.Contains(errs, "internal error") {
			t.Errorf("%s: %s", name, errs)
		}
	}
	if codes[exitOK] == 0 || codes[exitBadInput] == 0 {
		t.Errorf("exit codes %v: the runs no longer exercise both the answer and the refusal", codes)
	}
	t.Logf("%d runs, exit codes %v; slowest %v CPU (%s); largest heap %d MB", runs, codes, slowest, strings.Join(slowArgs, " "), heaviest>>20)
}

// hasNumber checks that a JSON answer carries its number: one of the
// headline keys is a number and none of them is null.
func hasNumber(out string) error {
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		return fmt.Errorf("not one JSON object: %v", err)
	}
	found := false
	for _, k := range []string{"epsilon", "delta", "sigma", "rho", "noise_multiplier", "total_delta"} {
		v, ok := obj[k]
		if !ok {
			continue
		}
		if v == nil {
			return fmt.Errorf("%q is null", k)
		}
		if _, isNum := v.(float64); isNum {
			found = true
		}
	}
	if !found {
		return fmt.Errorf("no epsilon, delta, sigma, rho or noise_multiplier")
	}
	return nil
}
