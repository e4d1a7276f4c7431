package zcdp

import (
	"errors"
	"math"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// Gaussian returns the ρ of the Gaussian mechanism with ℓ2-sensitivity Δ and
// noise standard deviation σ: ρ = Δ²/(2σ²) (Bun–Steinke 2016, Prop. 1.6).
func Gaussian(sensitivity, sigma float64) float64 {
	return sensitivity * sensitivity / (2 * sigma * sigma)
}

// FromPureDP returns ρ = ε²/2: every ε-DP mechanism is (ε²/2)-zCDP
// (Bun–Steinke 2016, Prop. 1.4).
func FromPureDP(eps float64) float64 { return eps * eps / 2 }

// Compose returns the ρ of the adaptive composition of ρ_i-zCDP mechanisms:
// Σ ρ_i (Bun–Steinke 2016, Lemma 1.7).
func Compose(rhos ...float64) float64 {
	var s float64
	for _, r := range rhos {
		s += r
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
// method. Non-finite ρ gives +Inf.
func Epsilon(rho, delta float64, m Method) (float64, error) {
	if !(delta > 0 && delta < 1) {
		return math.NaN(), ErrDelta
	}
	if !(rho >= 0) {
		return math.NaN(), errors.New("rho must be ≥ 0")
	}
	if m == BunSteinke {
		return rho + 2*math.Sqrt(rho*math.Log(1/delta)), nil
	}
	e, _ := rdp.LinearEpsilon(rho, delta, rdp.Improved)
	return e, nil
}

// RhoFor returns ρ*(ε, δ), the largest ρ such that ρ-zCDP implies
// (ε, δ)-DP by the method. For BunSteinke it is the closed form
// (√(ln(1/δ) + ε) − √ln(1/δ))². For RDP it is max over α of
//
//	ρ(α) = [ε − ln(1 − 1/α) + (ln δ + ln α)/(α − 1)] / α,
//
// the ρ at which the improved conversion at order α gives exactly ε; every α
// gives a valid ρ, and the maximum is found by golden-section search on
// ln(α − 1). It returns 0 when no ρ > 0 certifies the target.
func RhoFor(eps, delta float64, m Method) (float64, error) {
	if !(delta > 0 && delta < 1) {
		return math.NaN(), ErrDelta
	}
	if !(eps >= 0) || math.IsInf(eps, 1) {
		return math.NaN(), errors.New("epsilon must be finite and ≥ 0")
	}
	L := math.Log(1 / delta)
	// (√(L+ε) − √L)² = ε²/(√(L+ε) + √L)², stable for small ε.
	den := math.Sqrt(L+eps) + math.Sqrt(L)
	bs := eps * eps / (den * den)
	if m == BunSteinke {
		return bs, nil
	}
	rhoAt := func(x float64) float64 {
		a := 1 + math.Exp(x)
		return (eps - math.Log1p(-1/a) + (math.Log(delta)+math.Log(a))/(a-1)) / a
	}
	// The Bun–Steinke optimum α = 1 + √(L/ρ) is a good centre.
	centre := math.Log(math.Sqrt(L / math.Max(bs, 1e-300)))
	_, negRho := numeric.MinimizeUnimodal(func(x float64) float64 { return -rhoAt(x) }, centre-12, centre+12, 100)
	r := math.Max(-negRho, bs) // the closed form is also valid
	return math.Max(r, 0), nil
}

// Delta returns the δ of the (ε, δ)-DP guarantee that ρ-zCDP implies through
// its RDP curve, optimised over α.
func Delta(rho, eps float64) (float64, error) {
	dp, err := rdp.DeltaFor(rdp.Linear(rho), eps, rdp.Improved)
	return dp.Delta, err
}
