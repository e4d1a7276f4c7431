package zcdp

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// RhoEpsilon is the ε that ρ-zCDP implies at δ, tightest first.
type RhoEpsilon struct {
	Rho               dp.Loss `json:"rho"`
	dp.Guarantee              // ε by the improved conversion, optimal α
	Order             dp.Num  `json:"order"`
	BunSteinkeEpsilon dp.Loss `json:"bun_steinke_epsilon"`
	Method            string  `json:"method"`
}

// ToEpsilon converts ρ-zCDP to (ε, δ)-DP by the improved RDP conversion
// (Canonne–Kamath–Steinke 2020, Prop. 12, optimised over α), with Bun–Steinke
// 2016, Prop. 1.3 beside it.
func ToEpsilon(rho, delta float64) (RhoEpsilon, error) {
	if err := field.First(field.NonNegative("rho", rho), field.OpenUnit("delta", delta)); err != nil {
		return RhoEpsilon{}, err
	}
	tight, _ := Epsilon(rho, delta, RDP)
	_, order := rdp.LinearEpsilon(rho, delta, rdp.Improved)
	bs, _ := Epsilon(rho, delta, BunSteinke)
	return RhoEpsilon{Guarantee: dp.Guarantee{Epsilon: dp.Loss(tight), Delta: dp.Loss(delta), Source: RDP.Source()}, Rho: dp.Loss(rho), Order: dp.Num(order),
		BunSteinkeEpsilon: dp.Loss(bs), Method: "rdp-improved"}, nil
}

// RhoDelta is the δ that ρ-zCDP implies at ε.
type RhoDelta struct {
	Rho          dp.Loss `json:"rho"`
	dp.Guarantee         // δ by the improved conversion with Bretagnolle–Huber at small α
	Order        dp.Num  `json:"order"`
	ClassicDelta dp.Loss `json:"classic_delta"`
	Method       string  `json:"method"`
}

// ToDelta converts ρ-zCDP to the δ at ε, optimised over α, by the improved
// conversion (Canonne–Kamath–Steinke 2020, Prop. 12) and the classic one
// (Mironov 2017, Prop. 3).
func ToDelta(rho, eps float64) (RhoDelta, error) {
	if err := field.First(field.NonNegative("rho", rho), field.NonNegative("epsilon", eps)); err != nil {
		return RhoDelta{}, err
	}
	d, _ := rdp.DeltaFor(rdp.Linear(rho), eps, rdp.Improved)
	c, _ := rdp.DeltaFor(rdp.Linear(rho), eps, rdp.Classic)
	return RhoDelta{Guarantee: dp.Guarantee{Epsilon: dp.Loss(eps), Delta: dp.Loss(d.Delta), Source: rdp.Improved.Source()}, Rho: dp.Loss(rho), Order: dp.Num(d.Order),
		ClassicDelta: dp.Loss(c.Delta), Method: "rdp-improved"}, nil
}

// MaxRho is ρ*(ε, δ): the largest ρ whose zCDP guarantee implies (ε, δ)-DP.
type MaxRho struct {
	Epsilon       dp.Loss `json:"epsilon"`
	Delta         dp.Loss `json:"delta"`
	Rho           dp.Max  `json:"rho"`             // inverse of the improved conversion
	BunSteinkeRho dp.Max  `json:"bun_steinke_rho"` // (√(ln(1/δ)+ε) − √ln(1/δ))²
	// NoiseMultiplier is σ/Δ of one Gaussian release with ρ = ρ*: 1/√(2ρ*)
	// (ρ = Δ²/(2σ²), Bun–Steinke 2016, Prop. 1.6); +Inf (null) when ρ* = 0.
	NoiseMultiplier dp.Noise `json:"noise_multiplier"`
	Method          string   `json:"method"`
	Source          string   `json:"source"`
}

// ToRho returns ρ*(ε, δ) by RhoFor with the improved conversion, beside
// Bun–Steinke's closed form. Any ρ-zCDP mechanism with ρ ≤ ρ* is (ε, δ)-DP.
func ToRho(eps, delta float64) (MaxRho, error) {
	if err := field.First(field.NonNegative("epsilon", eps), field.OpenUnit("delta", delta)); err != nil {
		return MaxRho{}, err
	}
	tight, _ := RhoFor(eps, delta, RDP)
	bs, _ := RhoFor(eps, delta, BunSteinke)
	return MaxRho{Epsilon: dp.Loss(eps), Delta: dp.Loss(delta), Rho: dp.Max(tight), BunSteinkeRho: dp.Max(bs),
		NoiseMultiplier: dp.Noise(1 / math.Sqrt(2*tight)), Method: "rdp-improved-inverse", Source: rdp.Improved.Source()}, nil
}
