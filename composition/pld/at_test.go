package pld

import (
	"testing"

	"github.com/privamp/privamp/dp"
)

// TestAccountAtBuildsOnce: AccountAt reads δ(ε) off the PLDs it composes
// for ε(δ), and the numbers are those of the PLDs built separately (PLDs,
// then Delta), bit for bit: a DP-SGD run (accountOnce's path) under both
// relations, fixed-size batches, and a composition of two mechanisms (the
// tree builder's path). Its ε is Account's.
func TestAccountAtBuildsOnce(t *testing.T) {
	cases := []struct {
		name string
		e    dp.Event
		r    dp.Relation
	}{
		{"poisson", dp.DPSGD(0.05, 1.1, 60, dp.Poisson), dp.AddRemove},
		{"poisson replace-one", dp.DPSGD(0.05, 1.1, 40, dp.Poisson), dp.ReplaceOne},
		{"fixed-size", dp.DPSGDFixedSize(1000, 50, 1.2, 40), dp.ReplaceOne},
		{"composed", dp.Composed{Events: []dp.Event{dp.Gaussian{NoiseMultiplier: 3}, dp.Laplace{NoiseMultiplier: 2}}}, dp.AddRemove},
	}
	xs := []float64{0, 0.3, 1, 2.5}
	const delta = 1e-5
	a := Accountant{Options: Options{Interval: 2e-3}} // a coarse grid: the same code paths, fast
	for _, c := range cases {
		res, err := a.AccountAt(c.e, c.r, delta, xs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		plain, err := a.Account(c.e, c.r, delta)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Epsilon != plain.Epsilon || res.EpsilonOptimistic != plain.EpsilonOptimistic || plain.At != nil {
			t.Errorf("%s: AccountAt ε %v/%v, Account %v/%v (At %v)", c.name, res.Epsilon, res.EpsilonOptimistic, plain.Epsilon, plain.EpsilonOptimistic, plain.At)
		}
		sound, optim, err := a.PLDs(c.e, c.r, delta)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(res.At) != len(xs) {
			t.Fatalf("%s: %d deltas for %d ε", c.name, len(res.At), len(xs))
		}
		for i, x := range xs {
			got := res.At[i]
			if got.Epsilon != x || got.Delta != sound.Delta(x) || got.Optimistic != optim.Delta(x) {
				t.Errorf("%s at ε = %g: AccountAt δ %v (optimistic %v), the PLDs' %v (%v)", c.name, x, got.Delta, got.Optimistic, sound.Delta(x), optim.Delta(x))
			}
			if !(got.Delta > 0 && got.Optimistic <= got.Delta*(1+1e-9)+1e-15) {
				t.Errorf("%s at ε = %g: δ %v, optimistic %v", c.name, x, got.Delta, got.Optimistic)
			}
		}
	}
	if _, err := a.AccountAt(cases[0].e, cases[0].r, delta, []float64{-1}); err == nil {
		t.Error("a negative ε was accepted")
	}
}
