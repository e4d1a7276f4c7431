package pld

import (
	"math"
	"testing"
)

// Regression for tiny δ: k runs of the Gaussian mechanism (and DP-SGD at
// q = 1, the same mechanism) at δ = 1e-12 and 1e-14. The old bounds on
// rounding error (an ℓ1 sum of every mass's error bound, and the FFT's ℓ2
// error times √(grid points)) exceeded δ, so the sound ε was +Inf; now it
// must be finite, at least the exact ε of the composed Gaussian
// (μ = √k/σ, Balle–Wang 2018; exactGaussianEpsilon), and above it by no
// more than the discretization error (10⁻⁵ relative here; measured about 10⁻⁷).
func TestTinyDeltaAgainstExactGaussian(t *testing.T) {
	cases := []struct {
		sigma float64
		k     int
		delta float64
	}{{10, 1000, 1e-12}, {5, 2000, 1e-14}, {2, 100, 1e-12}, {1, 3, 1e-12}, {0.8, 40, 1e-12}}
	if testing.Short() {
		cases = cases[:1] // δ = 1e-12 at 1000 compositions; all five in make test
	}
	for _, c := range cases {
		exact, _ := exactGaussianEpsilon(math.Sqrt(float64(c.k))/c.sigma, c.delta)
		r, err := GaussianComposed(1, c.sigma, c.k, c.delta, Options{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := DPSGD(1, c.sigma, c.k, c.delta, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []float64{float64(r.Epsilon), float64(d.Epsilon)} {
			t.Logf("σ=%v k=%d δ=%g: PLD %.7f exact %.7f (%+.2e rel)", c.sigma, c.k, c.delta, e, exact, e/exact-1)
			if !(e >= exact && e <= exact*(1+1e-5)) {
				t.Errorf("σ=%v k=%d δ=%g: sound ε %v, exact %v", c.sigma, c.k, c.delta, e, exact)
			}
		}
		if o := float64(r.EpsilonOptimistic); !(o <= exact) {
			t.Errorf("σ=%v k=%d δ=%g: optimistic %v above exact %v", c.sigma, c.k, c.delta, o, exact)
		}
	}
}
