package rdp

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
)

// PointConversion is what one RDP point (α, ε(α)) implies: the ε at a δ, or
// the δ at an ε, by the improved conversion (Canonne–Kamath–Steinke 2020,
// Prop. 12; with Bretagnolle–Huber for δ) beside the classic one (Mironov
// 2017, Prop. 3). Other orders of the same mechanism could give less.
type PointConversion struct {
	Order      dp.Num  `json:"order"`
	RDPEpsilon dp.Loss `json:"rdp_epsilon"`
	dp.Guarantee
	// Classic is the classic conversion's ε (ToEpsilon) or δ (ToDelta).
	ClassicEpsilon dp.Loss `json:"classic_epsilon,omitempty"`
	ClassicDelta   dp.Loss `json:"classic_delta,omitempty"`
	Method         string  `json:"method"`
}

func checkPoint(order, rdpEps float64) error {
	if !(order > 1) || math.IsNaN(order) || math.IsInf(order, 0) {
		return field.New("order", order, "must be a finite number > 1")
	}
	return field.NonNegative("rdp_epsilon", rdpEps)
}

// PointToEpsilon converts (α, ε(α))-RDP to the ε at δ.
func PointToEpsilon(order, rdpEps, delta float64) (PointConversion, error) {
	if err := field.First(checkPoint(order, rdpEps), field.OpenUnit("delta", delta)); err != nil {
		return PointConversion{}, err
	}
	return PointConversion{Guarantee: dp.Guarantee{Epsilon: dp.Loss(PointEpsilon(order, rdpEps, delta, Improved)), Delta: dp.Loss(delta), Source: Improved.Source()}, Order: dp.Num(order), RDPEpsilon: dp.Loss(rdpEps),
		ClassicEpsilon: dp.Loss(PointEpsilon(order, rdpEps, delta, Classic)), Method: "improved"}, nil
}

// PointToDelta converts (α, ε(α))-RDP to the δ at ε.
func PointToDelta(order, rdpEps, eps float64) (PointConversion, error) {
	if err := field.First(checkPoint(order, rdpEps), field.NonNegative("epsilon", eps)); err != nil {
		return PointConversion{}, err
	}
	return PointConversion{Guarantee: dp.Guarantee{Epsilon: dp.Loss(eps), Delta: dp.Loss(deltaUp(PointLogDelta(order, rdpEps, eps, Improved))), Source: Improved.Source()}, Order: dp.Num(order), RDPEpsilon: dp.Loss(rdpEps),
		ClassicDelta: dp.Loss(deltaUp(PointLogDelta(order, rdpEps, eps, Classic))), Method: "improved"}, nil
}

// deltaUp is δ ≥ e^ld, capped at 1: a positive δ that underflows a float64
// is the smallest positive float64 (2^−1074), never 0, which would claim
// pure DP (order 1000, ε(α) = 0.01 gives δ ≈ 10^−43438 at ε = 2).
func deltaUp(ld float64) float64 { return math.Min(numeric.ExpUp(ld), 1) }
