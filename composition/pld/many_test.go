package pld

import (
	"math"
	"testing"
)

// composeMany on m distinct Gaussians (each discretized on the grid; the
// one-window composition, not the exact √Σμ² rule) against the exact
// profile of the Gaussian with μ² = Σ k_i μ_i² (Dong–Roth–Su 2019,
// Cor. 3.3): the sound ε at every δ is at least the exact one and within
// 0.5% of it, δ(ε) at the exact ε at least the exact δ, for the tilted
// (δ > 0) and the untilted (δ = 0) compositions (the untilted one within
// 0.5% only at δ ≥ 1e-9: below, its unweighted rounding bound weighs); the
// optimistic one lies below the exact ε, by at most h per composition.
func TestComposeManyGaussians(t *testing.T) {
	ms, deltas := []int{5, 40, 300}, []float64{1e-5, 1e-9, 1e-12}
	if testing.Short() {
		ms, deltas = []int{12}, []float64{1e-5, 1e-12}
	}
	checks := 0
	for _, m := range ms {
		for _, delta := range deltas {
			mu2 := 0.0
			var parts, opt []Part
			for i := 0; i < m; i++ {
				z := float64(m) * (1 + float64(i)/float64(m)) / 2 // μ_i = 1/z_i: Σμ² about 1.4
				k := 1 + i%3
				o := Options{}.For(2*m, delta)
				p, err := Gaussian(1, z, o)
				if err != nil {
					t.Fatal(err)
				}
				o.Discretization = Optimistic
				q, err := Gaussian(1, z, o)
				if err != nil {
					t.Fatal(err)
				}
				parts, opt = append(parts, Part{PLD: p, Count: k}), append(opt, Part{PLD: q, Count: k})
				mu2 += float64(k) / (z * z)
			}
			mu := math.Sqrt(mu2)
			exact, _ := exactGaussianEpsilon(mu, delta)
			for _, tune := range []float64{delta, 0} {
				d, err := composeMany(parts, tune, nil)
				if err != nil {
					t.Fatal(err)
				}
				e, _ := d.Epsilon(delta)
				t.Logf("m=%d δ=%g tuned %v: ε %.6f, exact %.6f (%+.2e)", m, delta, tune > 0, e, exact, e/exact-1)
				if e < exact-1e-9 || (tune > 0 || delta >= 1e-9) && e > exact*1.005 {
					t.Errorf("m=%d δ=%g tuned %v: ε %v, exact %v", m, delta, tune > 0, e, exact)
				}
				if got, want := d.Delta(exact), exactGaussianDelta(mu, exact); got < want*(1-1e-9) {
					t.Errorf("m=%d: δ(%v) = %v below the exact %v", m, exact, got, want)
				}
				checks += 2
			}
			d, err := composeMany(opt, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Optimistic: rounded down by up to h per composition.
			if e, _ := d.Epsilon(delta); e > exact*(1+1e-6) || e < exact-float64(2*m)*1e-4 {
				t.Errorf("m=%d δ=%g optimistic: ε %v, exact %v", m, delta, e, exact)
			}
		}
	}
	t.Logf("%d checks", checks)
}

// composeMany on distinct Poisson-sampled Gaussians against the pairwise
// path (composePairwise, ComposeFor's for at most pairwiseParts) on the
// same discretized PLDs: the one-window ε is at most the pairwise one
// (+10⁻⁶ relative) and within 0.2% of it (both are sound bounds on the same
// mechanisms: only their truncation and rounding terms differ).
func TestComposeManySampled(t *testing.T) {
	ms, deltas := []int{6, 20}, []float64{1e-6, 1e-10}
	if testing.Short() {
		ms, deltas = ms[:1], deltas[1:]
	}
	for _, m := range ms {
		for _, delta := range deltas {
			var parts []Part
			for i := 0; i < m; i++ {
				p, err := SubsampledGaussian(0.01+0.002*float64(i%4), 1+float64(i)/float64(m), Options{}.For(m*20, delta))
				if err != nil {
					t.Fatal(err)
				}
				parts = append(parts, Part{PLD: p, Count: 1 + 19*(i%2)})
			}
			old, err := composePairwise(parts, delta)
			if err != nil {
				t.Fatal(err)
			}
			eo, _ := old.Epsilon(delta)
			d, err := composeMany(parts, delta, nil)
			if err != nil {
				t.Fatal(err)
			}
			e, _ := d.Epsilon(delta)
			t.Logf("m=%d δ=%g: one window ε %.6f, pairwise %.6f (%+.2e)", m, delta, e, eo, e/eo-1)
			if e > eo*(1+1e-6) || e < eo*(1-2e-3) {
				t.Errorf("m=%d δ=%g: one window ε %v, pairwise %v", m, delta, e, eo)
			}
		}
	}
}
