package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestEndsMatchEveryPosition checks EvaluateAllMax's claim: a plan decided
// at its groups' ends (Make and Verify with evaluateAllMax lowered to 0) has
// the same plan file, result, report and verification, bit for bit, as the
// same plan decided at every position, for each variant, batches, several
// passes and smooth losses; a plan with broken targets is still refused
// with every violation listed.
func TestEndsMatchEveryPosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	trials := 36
	if testing.Short() {
		trials = 12
	}
	checks := 0
	for trial := 0; trial < trials; trial++ {
		v := []Variant{PNSGD, Skip, Stop}[trial%3]
		s := baseSetting(v)
		n := 200 + rng.IntN(3000)
		if trial%4 == 1 && v == PNSGD {
			s.Training.Batch = int64(2 + rng.IntN(4))
		}
		if trial%4 == 2 && v == PNSGD {
			s.Training.Epochs = int64(2 + rng.IntN(3))
		}
		if trial%5 == 3 {
			s.Training.Loss.Smoothness = 1 + rng.Float64()
		}
		levels := []float64{0.5, 1, 2, 4, 8}[:1+rng.IntN(5)]
		pp := &People{Epsilon: make([]float64, n)}
		for i := range pp.Epsilon {
			pp.ID.Append("p" + strconv.Itoa(i))
			pp.Epsilon[i] = levels[rng.IntN(len(levels))]
		}
		name := fmt.Sprintf("trial %d (%s, n = %d, batch %d, epochs %d, β %g, %d levels)", trial, v, n, s.Training.Batch, s.Training.Epochs, s.Training.Loss.Smoothness, len(levels))
		run := func(ends bool) (res *Result, file, out, ver, broken []byte) {
			old := evaluateAllMax
			defer func() { evaluateAllMax = old }()
			if ends {
				evaluateAllMax = 0
			}
			res, err := Make(s, Budgets{People: pp})
			if err != nil || res.Plan == nil {
				t.Fatalf("%s: %v", name, err)
			}
			if ends != (res.Achieved == nil) {
				t.Fatalf("%s: ends %v, Achieved computed %v", name, ends, res.Achieved != nil)
			}
			var buf bytes.Buffer
			if _, err := res.Plan.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			file = bytes.Clone(buf.Bytes())
			prof, err := res.Profile(24)
			if err != nil {
				t.Fatal(err)
			}
			out, _ = json.Marshal([]any{res, res.Report(s, Shown{}), prof})
			p, err := Load(bytes.NewReader(file))
			if err != nil {
				t.Fatal(err)
			}
			vf, err := p.Verify()
			if err != nil || !vf.OK {
				t.Fatalf("%s: verify %v %+v", name, err, vf)
			}
			ver, _ = json.Marshal(vf)
			// Lower the targets of the least private group: broken.
			p.People.Epsilon[p.N-1] *= 0.5
			p.People.Epsilon[p.N-2] *= 0.5
			vb, err := p.Verify()
			if err != nil || vb.OK || vb.ViolationCount == 0 {
				t.Fatalf("%s: a broken plan verified: %v %+v", name, err, vb)
			}
			broken, _ = json.Marshal(vb)
			return res, file, out, ver, broken
		}
		resA, fileA, outA, verA, brA := run(false)
		resE, fileE, outE, verE, brE := run(true)
		// The ends path says so in its sources; otherwise the same bytes.
		n0 := fmt.Sprintf("n = %d \\u003e 0 with one δ", n)
		endsReport := "every person's ε bounded with package shifted at σ, η and their δ: " + n0 + ", so each budget group's ε is recomputed at its two ends and bounds the rest, since ε_t is monotone in t (proof at plan.EvaluateAllMax); "
		endsVerify := "; " + n0 + ": each group decided at its two ends, since ε_t is monotone in t (PerPerson.Monotone; proof at plan.EvaluateAllMax)"
		if !bytes.Contains(outE, []byte(endsReport)) || !bytes.Contains(verE, []byte(endsVerify)) {
			t.Fatalf("%s: the ends path's sources do not say so: %s", name, verE)
		}
		outE = bytes.ReplaceAll(outE, []byte(endsReport), []byte("every person's ε recomputed with package shifted at σ, η and their δ; "))
		verE = bytes.ReplaceAll(verE, []byte(endsVerify), nil)
		for _, c := range []struct {
			what string
			a, e []byte
		}{{"plan file", fileA, fileE}, {"result and report", outA, outE}, {"verification", verA, verE}, {"broken plan's verification", brA, brE}} {
			checks++
			if !bytes.Equal(c.a, c.e) {
				i := 0
				for i < len(c.a) && i < len(c.e) && c.a[i] == c.e[i] {
					i++
				}
				lo := max(0, i-300)
				t.Errorf("%s: %s differs at byte %d:\nevery position: %s\nends:           %s", name, c.what, i, c.a[lo:min(len(c.a), i+200)], c.e[lo:min(len(c.e), i+200)])
			}
		}
		// AchievedAll computes what the ends path left out.
		all, err := resE.AchievedAll()
		if err != nil {
			t.Fatal(err)
		}
		for i := range all {
			if all[i] != resA.Achieved[i] {
				t.Fatalf("%s: AchievedAll at %d: %v, every position %v", name, i+1, all[i], resA.Achieved[i])
			}
		}
	}
	t.Logf("%d plans, %d comparisons", trials, checks)
}

// TestEndsNotForManyGroups: a plan whose groups are many (here every
// person has their own budget) is computed at every position whatever its
// size: its ends would be most of its positions.
func TestEndsNotForManyGroups(t *testing.T) {
	defer func(m int64) { evaluateAllMax = m }(evaluateAllMax)
	evaluateAllMax = 0
	n := 400
	pp := &People{Epsilon: make([]float64, n)}
	for i := range pp.Epsilon {
		pp.ID.Append("p" + strconv.Itoa(i))
		pp.Epsilon[i] = 1 + float64(i)/100
	}
	res, err := Make(baseSetting(PNSGD), Budgets{People: pp})
	if err != nil || res.Achieved == nil || res.byEnds {
		t.Fatalf("%v: every position should be computed (Achieved %v)", err, res != nil && res.Achieved != nil)
	}
	pp.Epsilon = slices.Repeat([]float64{1}, n)
	if res, err = Make(baseSetting(PNSGD), Budgets{People: pp}); err != nil || res.Achieved != nil || !res.byEnds {
		t.Fatalf("%v: one group should be decided at its ends", err)
	}
}
