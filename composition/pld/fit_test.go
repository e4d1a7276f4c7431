package pld

import (
	"math"
	"testing"
)

// A window raised by fitWindow to halve its FFT (k Gaussian mechanisms,
// composed tilted for δ = 1e-6, whose windows are just over a power of
// two) against the exact profile of the μ = √k/σ Gaussian (Balle–Wang
// 2018): δ(ε) ≥ exact at every ε, below the raised bottom (where the bound
// on the mass below it carries δ), inside and at the top (where the sums
// the FFT wraps from below land), and ε(δ) ≥ exact. Without the bound on
// the mass below the window the check fails under it (it can fail).
func TestFittedWindowAgainstExactGaussian(t *testing.T) {
	cases := []struct {
		sigma float64
		k, n  int // n: the fitted window, a power of two
	}{{3, 84, 32768}, {1, 36, 65536}, {10, 56, 8192}}
	if testing.Short() {
		cases = cases[:1]
	}
	const delta = 1e-6
	for _, c := range cases {
		mu := math.Sqrt(float64(c.k)) / c.sigma
		p, err := Gaussian(1, c.sigma, Options{Interval: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		// The window before the fit is over n points, after it exactly n.
		f := p.remove
		tt, _ := f.tiltFor(c.k, delta)
		lo, _ := f.chernoffAt(c.k, tiltTail, false, tt)
		hi, _ := f.chernoffAt(c.k, tiltTailHi, true, tt)
		if hi-lo+1 <= c.n || f.fitWindow(c.k, lo, hi, tt) != hi-c.n+1 {
			t.Fatalf("σ=%v k=%d: window [%d, %d] (%d points) not fitted to %d", c.sigma, c.k, lo, hi, hi-lo+1, c.n)
		}
		q, err := p.SelfComposeFor(c.k, delta)
		if err != nil {
			t.Fatal(err)
		}
		g := q.remove
		if len(g.p) != c.n {
			t.Fatalf("σ=%v k=%d: composed window %d points, want %d", c.sigma, c.k, len(g.p), c.n)
		}
		bottom, top := float64(g.lo)*g.h, float64(g.lo+len(g.p)-1)*g.h
		exactE, _ := exactGaussianEpsilon(mu, delta)
		if e := mustEps(t, q, delta); !(e >= exactE && e <= exactE+1e-3) {
			t.Errorf("σ=%v k=%d: ε %v, exact %v", c.sigma, c.k, e, exactE)
		}
		failed := false
		for i := 0; i <= 40; i++ {
			eps := bottom * float64(i) / 30 // 0 … the bottom, then up to the top
			if i > 30 {
				eps = bottom + (top-bottom)*float64(i-30)/10
			}
			exact := exactGaussianDelta(mu, eps)
			if got := q.Delta(eps); got < exact {
				t.Errorf("σ=%v k=%d ε=%.4f (window [%.3f, %.3f]): δ %v < exact %v", c.sigma, c.k, eps, bottom, top, got, exact)
			}
			saved := g.below
			g.below = 0
			if q.Delta(eps) < exact {
				failed = true
			}
			g.below = saved
		}
		if !failed {
			t.Errorf("σ=%v k=%d: without the mass below the window every δ(ε) is still ≥ exact; the check cannot fail", c.sigma, c.k)
		}
	}
}

// fmax and fmin are math.Max and math.Min bit for bit, signed zeros,
// infinities and NaN included.
func TestFminFmax(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, 5e-324, math.Inf(1), math.Inf(-1), math.NaN(), 2.5, 2.5}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for _, x := range vals {
		for _, y := range vals {
			if !same(fmax(x, y), math.Max(x, y)) || !same(fmin(x, y), math.Min(x, y)) {
				t.Errorf("fmax/fmin(%v, %v) = %v, %v; math: %v, %v", x, y, fmax(x, y), fmin(x, y), math.Max(x, y), math.Min(x, y))
			}
		}
	}
}
