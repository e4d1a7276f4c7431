package zcdp

import (
	"errors"
	"math"

	"github.com/privamp/privamp/internal/numeric"

	"github.com/privamp/privamp/rdp"
)

// Gaussian returns the ρ of the Gaussian mechanism with ℓ2-sensitivity Δ and
// noise standard deviation σ: ρ = Δ²/(2σ²) (Bun–Steinke 2016, Prop. 1.6),
// rounded up.
func Gaussian(sensitivity, sigma float64) float64 {
	return float64(rdp.Gaussian(sensitivity, sigma))
}

// FromPureDP returns ρ = ε²/2, rounded up: every ε-DP mechanism is
// (ε²/2)-zCDP (Bun–Steinke 2016, Prop. 1.4).
func FromPureDP(eps float64) float64 { return numeric.DivUp(numeric.MulUp(eps, eps), 2) }

// Compose returns the ρ of the adaptive composition of ρ_i-zCDP mechanisms:
// Σ ρ_i (Bun–Steinke 2016, Lemma 1.7), rounded up.
func Compose(rhos ...float64) float64 {
	var s float64
	for _, r := range rhos {
		s = numeric.AddUp(s, r)
	}
	return s
}

// Curve returns ρ-zCDP as an RDP curve.
func Curve(rho float64) rdp.Linear { return rdp.Linear(rho) }

// Method names a conversion between ρ-zCDP and (ε, δ)-DP.
type Method int

const (
	// RDP converts through the RDP curve ρα with the improved conversion
	// (Canonne–Kamath–Steinke 2020, Prop. 12), optimised over α. Tightest.
	RDP Method = iota
	// BunSteinke is ε = ρ + 2√(ρ ln(1/δ)) (Bun–Steinke 2016, Prop. 1.3).
	BunSteinke
)

// Source returns the citation of the method.
func (m Method) Source() string {
	if m == BunSteinke {
		return "Bun–Steinke 2016, Prop. 1.3"
	}
	return "RDP curve ρα with Canonne–Kamath–Steinke 2020, Prop. 12, optimal α"
}

// String returns a short name.
func (m Method) String() string {
	if m == BunSteinke {
		return "bun-steinke"
	}
	return "rdp"
}

// ErrDelta is returned for δ outside (0, 1).
var ErrDelta = errors.New("delta must be in (0, 1)")

// Epsilon returns the ε of the (ε, δ)-DP guarantee that ρ-zCDP implies by the
// method. Non-finite ρ gives +Inf. The value is an upper bound on the exact
// real value of the method's formula (rounding errors bounded and added),
// for every δ in (0, 1), subnormal δ included.
func Epsilon(rho, delta float64, m Method) (float64, error) {
	if !(delta > 0 && delta < 1) {
		return math.NaN(), ErrDelta
	}
	if !(rho >= 0) {
		return math.NaN(), errors.New("rho must be ≥ 0")
	}
	if m == BunSteinke {
		r := numeric.Exact(rho)
		L := numeric.Exact(numeric.NegLogUp(delta))
		return r.Add(r.Mul(L).Sqrt().Scale(2)).Up(), nil
	}
	e, _ := rdp.LinearEpsilon(rho, delta, rdp.Improved)
	return e, nil
}

// RhoFor returns ρ*(ε, δ), the largest ρ such that ρ-zCDP implies
// (ε, δ)-DP by the method. For BunSteinke it is the closed form
// (√(ln(1/δ) + ε) − √ln(1/δ))² (Bun–Steinke 2016, Prop. 1.3), lowered by
// an ulp or two if rounding makes it convert back above ε. For RDP it
// inverts rdp.LinearEpsilon, the improved conversion (Canonne–Kamath–Steinke
// 2020, Prop. 12) optimised over α:
//
// with x = α − 1 and L = ln(1/δ), the conversion of ρα is
// ρ(1+x) + ln(x/(1+x)) + (L − ln(1+x))/x, minimised where ρx² = L − ln(1+x).
// Along that curve of optima ρ(x) = A/x² with A = L − ln(1+x), and the
// optimal ε is
//
//	ε(x) = A(1 + 2x)/x² + ln(x/(1 + x)),  ε′(x) = −1/x² − 2A(1 + x)/x³ < 0,
//
// falling from +∞ (x → 0) to ln(1 − δ) < 0 (x → 1/δ − 1); so ε(x) = ε has one
// root x*, found by safeguarded Newton steps, and ρ* = A(x*)/x*². The result
// is checked with rdp.LinearEpsilon and lowered by a few ulps if rounding puts
// the converted ε above the target: the ρ returned always converts back to at
// most ε. It returns 0 when ε = 0.
func RhoFor(eps, delta float64, m Method) (float64, error) {
	if !(delta > 0 && delta < 1) {
		return math.NaN(), ErrDelta
	}
	if !(eps >= 0) || math.IsInf(eps, 1) {
		return math.NaN(), errors.New("epsilon must be finite and ≥ 0")
	}
	if eps == 0 {
		return 0, nil
	}
	L := numeric.NegLogUp(delta) // ρ* falls with L: an upper bound errs low
	bs := bunSteinkeInverse(eps, L)
	ok := func(r float64) bool { // the method's own (rounded-up) conversion
		e, _ := Epsilon(r, delta, m)
		return e <= eps
	}
	if m == BunSteinke {
		return lowerUntil(ok, bs), nil
	}
	if L < 1e-6 {
		// δ within 1e-6 of 1: the optimal orders crowd against α = 1 and
		// Newton on x = α − 1 loses precision; invert the conversion itself
		// by bisection on ρ, which keeps ρ* monotone in ε.
		hi := math.Max(bs, 1)
		for ok(hi) && hi < 1e300 {
			hi *= 4
		}
		if r, err := numeric.Bisect(ok, math.Max(bs, 1e-300), hi, 1e-12, false); err == nil {
			return r, nil
		}
		return bs, nil
	}
	rho, _ := RhoForWarm(eps, L, 0)
	if rho = lowerUntil(ok, rho); ok(rho) && rho >= bs {
		return rho, nil
	}
	return lowerUntil(ok, bs), nil
}

// lowerUntil lowers ρ by growing relative steps (from one ulp) until ok
// holds: closed forms and Newton roots can convert back a rounding error
// above the target.
func lowerUntil(ok func(float64) bool, rho float64) float64 {
	for i := 0; i < 64 && !ok(rho); i++ {
		rho *= 1 - math.Ldexp(1, i-52)
	}
	return rho
}

// bunSteinkeInverse is (√(L+ε) − √L)² = ε²/(√(L+ε) + √L)², stable for small ε.
func bunSteinkeInverse(eps, L float64) float64 {
	den := math.Sqrt(L+eps) + math.Sqrt(L)
	return eps / den * (eps / den)
}

// RhoForWarm is RhoFor(ε, δ, RDP) for callers that invert many targets: it
// takes L = ln(1/δ), starts Newton's iteration at x0 = α − 1 when x0 is in
// range (a nearby target's root; 0: none), returns the root x* as well, and
// skips RhoFor's final check, so callers must verify the ρ they use (or use
// RhoFor). It is never below the Bun–Steinke inverse.
func RhoForWarm(eps, L, x0 float64) (rho, x float64) {
	f := func(x float64) (val, der float64) {
		A := L - math.Log1p(x)
		val = A*(1+2*x)/(x*x) + math.Log(x/(1+x)) - eps
		der = -1/(x*x) - 2*A*(1+x)/(x*x*x)
		return
	}
	// ε(x) − eps is decreasing: the bracket keeps lo > 0 side, hi < 0 side.
	lo, hi := 0.0, math.Expm1(L) // 1/δ − 1
	x = x0
	if !(x > lo && x < hi) {
		den := math.Sqrt(L+eps) + math.Sqrt(L)
		x = math.Sqrt(L) * den / eps // the Bun–Steinke optimum
	}
	if !(x > lo && x < hi) {
		x = 0.5 * (lo + hi)
	}
	for i := 0; i < 200; i++ {
		v, d := f(x)
		if v > 0 {
			lo = x
		} else {
			hi = x
		}
		nx := x - v/d
		if !(nx > lo && nx < hi) {
			if lo > 0 {
				nx = math.Sqrt(lo) * math.Sqrt(hi) // the bracket spans decades
			} else {
				nx = 0.5 * hi
			}
		}
		if math.Abs(nx-x) <= 1e-15*x {
			x = nx
			break
		}
		x = nx
	}
	A := L - math.Log1p(x)
	return math.Max(A/(x*x), bunSteinkeInverse(eps, L)), x
}

// Delta returns the δ of the (ε, δ)-DP guarantee that ρ-zCDP implies through
// its RDP curve, optimised over α.
func Delta(rho, eps float64) (float64, error) {
	dp, err := rdp.DeltaFor(rdp.Linear(rho), eps, rdp.Improved)
	return dp.Delta, err
}
