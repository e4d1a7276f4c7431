package bst14

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/optimizer"
)

// writeNeighbours writes issue 22's hole-3 pair: n rows "1,1", and the same
// with the first label −1 (replace-one neighbours).
func writeNeighbours(t *testing.T, n int) (a, b string) {
	t.Helper()
	dir := t.TempDir()
	rows := strings.Repeat("1,1\n", n)
	a, b = filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	if err := os.WriteFile(a, []byte("x,y\n"+rows), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("x,y\n1,-1\n"+rows[4:]), 0o644); err != nil {
		t.Fatal(err)
	}
	return a, b
}

// Issue 22, hole 3: the exponential mechanism and localization decided to
// run or refuse from the measured span of the private loss over the grid
// (refused above e^700): on these two neighbours one refused and the other
// released θ. The decision now uses declared values only: both run.
func TestExpMechNeighboursSameDecision(t *testing.T) {
	a, b := writeNeighbours(t, 2051)
	spec := func(path string, l2 float64) Spec {
		return Spec{Data: optimizer.DataSpec{Path: path, Label: "y", FeatureBound: 1}, Loss: optimizer.LossSpec{L2: l2}, Radius: 1}
	}
	for _, path := range []string{a, b} {
		r, err := RunExpMech(spec(path, 0), ExpMechParams{TargetEpsilon: 1, Common: Common{Seed: 1}})
		if err != nil {
			t.Fatalf("expmech on %s: %v (want a release on both neighbours)", filepath.Base(path), err)
		}
		if math.Abs(r.W[0]) > 1 {
			t.Errorf("sample %v outside C", r.W)
		}
		l, err := RunLocalize(spec(path, 0.1), LocalizeParams{TargetEpsilon: 1, Common: Common{Seed: 1}})
		if err != nil {
			t.Fatalf("localize on %s: %v (want a release on both neighbours)", filepath.Base(path), err)
		}
		if math.Abs(l.W[0]) > 1 {
			t.Errorf("localize sample %v outside C", l.W)
		}
	}
}

// At a span far beyond the float64 range (temp·Σℓ varies by up to εn/2 =
// 4000 over C at ε = 40, n = 200; about e^1100 here) the sampler still draws the exponential mechanism's
// law: a Kolmogorov–Smirnov test against the CDF integrated on a fine grid
// (critical value 1.95/√N), and the same test at a wrong temperature fails.
func TestExpMechSamplerLargeSpan(t *testing.T) {
	pr := problem(t, synth(200, 1, 0))
	temp := 40 / (2 * pr.Constants.L * 2)
	smp, err := newSampler(pr, region{R: 1}, temp)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range smp.logM {
		lo, hi = math.Min(lo, m), math.Max(hi, m)
	}
	t.Logf("span e^%.0f", hi-lo)
	if hi-lo < 745 {
		t.Fatalf("span e^%.0f: want a span beyond float64 (e^745) for this test", hi-lo)
	}
	N := 1500
	if testing.Short() {
		N = 400
	}
	rng := dataset.NewRand(11)
	xs := make([]float64, N)
	for i := range xs {
		xs[i] = smp.draw(rng)[0]
	}
	sort.Float64s(xs)
	gx, gc := density1D(pr, temp, 40000)
	ks := func(cdf []float64) float64 {
		d := 0.0
		for i, x := range xs {
			F := cdf[min(sort.SearchFloat64s(gx, x), len(cdf)-1)]
			d = math.Max(d, math.Max(math.Abs(F-float64(i)/float64(N)), math.Abs(F-float64(i+1)/float64(N))))
		}
		return d
	}
	crit := 1.95 / math.Sqrt(float64(N))
	if d := ks(gc); d > crit {
		t.Errorf("KS distance %v > %v at span e^%.0f", d, crit, hi-lo)
	}
	if _, gc2 := density1D(pr, 3*temp, 40000); ks(gc2) <= crit {
		t.Errorf("the KS test cannot tell temperature 3×")
	}
}

// bernoulliExp has probability e^{−a} for a across the float64 range's
// edge: a = 0.5, 2.5 (binomial z-test at 6 sd) and a = 800, where e^{−a}
// underflows to 0 and the coins are what keeps it positive in real
// arithmetic (the test only checks it runs in constant expected time).
func TestBernoulliExp(t *testing.T) {
	rng := dataset.NewRand(3)
	const N = 200000
	for _, a := range []float64{0, 0.5, 2.5} {
		k := 0
		for range N {
			if bernoulliExp(rng, a) {
				k++
			}
		}
		p := math.Exp(-a)
		if z := math.Abs(float64(k)/N-p) / math.Sqrt(p*(1-p)/N+1e-300); z > 6 {
			t.Errorf("a = %v: frequency %v, want %v (z = %.1f)", a, float64(k)/N, p, z)
		}
	}
	for range 1000 {
		if bernoulliExp(rng, 800) {
			t.Fatal("e^{−800} came up")
		}
	}
}
