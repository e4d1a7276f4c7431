package rdp

import (
	"math"
	"testing"
)

// FuzzSampledGaussian: for any rate, noise and order the curve is finite,
// non-negative, below the unsampled Gaussian, and non-decreasing in α.
func FuzzSampledGaussian(f *testing.F) {
	f.Add(0.01, 1.1, 2.5)
	f.Add(1e-6, 0.5, 1.01)
	f.Add(0.9, 30.0, 700.3)
	f.Fuzz(func(t *testing.T, q, z, alpha float64) {
		if !(q > 0 && q <= 1 && z >= 0.1 && z <= 1e3 && alpha > 1.001 && alpha <= 2000) {
			t.Skip()
		}
		s := SampledGaussian{Q: q, Z: z}
		e := s.Epsilon(alpha)
		if math.IsNaN(e) || e < 0 || math.IsInf(e, 0) {
			t.Fatalf("q=%v z=%v α=%v: ε = %v", q, z, alpha, e)
		}
		if g := alpha / (2 * z * z); e > g*(1+1e-9)+1e-12 {
			t.Fatalf("q=%v z=%v α=%v: %v above Gaussian %v", q, z, alpha, e, g)
		}
		// Monotone in α, up to floating noise and the conservative tail bound
		// of the fractional series (≤ fracTol of A_α − 1, so of ln A_α).
		// Where the series needed its sound but looser fallback (large z·q
		// at low orders), only the upper-bound properties above apply.
		exact := func(a float64) bool {
			if a == math.Trunc(a) || q == 1 {
				return true
			}
			_, ok := logAFrac(q, z, a)
			return ok
		}
		if !exact(alpha) || !exact(alpha*1.5) {
			return
		}
		if e2 := s.Epsilon(alpha * 1.5); e2 < e*(1-1e-7-2*fracTol)-1e-12 {
			t.Fatalf("q=%v z=%v: ε(%v) = %v < ε(%v) = %v", q, z, alpha*1.5, e2, alpha, e)
		}
	})
}

// FuzzLinearConversion: no NaN, non-increasing in δ, increasing in ρ,
// improved ≤ classic, and DeltaFor inverts EpsilonFor.
func FuzzLinearConversion(f *testing.F) {
	f.Add(0.1, 1e-5)
	f.Add(1e-9, 0.5)
	f.Add(1e3, 1e-300)
	f.Fuzz(func(t *testing.T, rho, delta float64) {
		if !(rho > 0 && rho < 1e8 && delta > 0 && delta < 1) {
			t.Skip()
		}
		e, a := LinearEpsilon(rho, delta, Improved)
		c, _ := LinearEpsilon(rho, delta, Classic)
		if math.IsNaN(e) || math.IsInf(e, 0) || e < 0 || !(a > 1) {
			t.Fatalf("ρ=%v δ=%v: ε = %v at α = %v", rho, delta, e, a)
		}
		if e > c*(1+1e-12) {
			t.Fatalf("ρ=%v δ=%v: improved %v > classic %v", rho, delta, e, c)
		}
		if e2, _ := LinearEpsilon(rho, delta/2, Improved); e2 < e*(1-1e-12) {
			t.Fatalf("ρ=%v: ε(δ/2) = %v < ε(δ) = %v", rho, e2, e)
		}
		if e3, _ := LinearEpsilon(rho*1.01, delta, Improved); e3 < e*(1-1e-12) {
			t.Fatalf("δ=%v: ε(1.01ρ) = %v < ε(ρ) = %v", delta, e3, e)
		}
		if e > 1e-6 && e < 1e6 {
			d, _ := DeltaFor(Linear(rho), e, Improved)
			// The optimal δ at ε is at most δ (the same order certifies it),
			// up to the order search's precision, which ln δ amplifies by α − 1.
			if d.Delta > delta*(1+1e-5) {
				t.Fatalf("ρ=%v δ=%v: δ(ε(δ)) = %v", rho, delta, d.Delta)
			}
		}
	})
}
