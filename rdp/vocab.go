package rdp

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/numeric"
)

// The RDP accountant's handling of the rest of dp_accounting's vocabulary
// (dp/vocab.go). It accounts EpsilonDelta, ZCDp, DiscreteLaplace,
// DiscreteGaussian, SingleEpochTreeAggregation, ExponentialMechanism,
// PermuteAndFlip and NonPrivate, and refuses the others with the reason
// (refusal).

// refusal is why the RDP accountant does not bound e under r (nil if it
// does).
func refusal(e dp.Event, r dp.Relation) error {
	return dp.Leaves(e, func(l dp.Event, _ float64) error {
		if err := dp.Unaccountable(l, r); err != nil {
			return err
		}
		switch l.(type) {
		case dp.TruncatedSubsampledGaussian:
			return fmt.Errorf("a TruncatedSubsampledGaussian has no RDP curve here: truncation couples the records (adding one can drop another from the batch), so the Poisson-subsampled Gaussian's curve does not apply (dp_accounting's RDP accountant refuses it too)")
		case dp.RepeatAndSelect:
			return fmt.Errorf("RepeatAndSelect (Papernot–Steinke 2022) is not implemented here: its bound needs the inner event's whole RDP curve and the repetition distribution's parameters, which privamp does not yet compute")
		}
		return nil
	})
}

// curveVocab is the curve of an event of dp/vocab.go (ok false for other
// types); sens is the relation's sensitivity (1 or 2).
func curveVocab(e dp.Event, sens float64) (Curve, bool) {
	switch x := e.(type) {
	case dp.EpsilonDelta:
		// The δ part is carried by ExtraDelta; the rest is ε-DP, whose RDP
		// is at most randomized response's (PureDP).
		return PureDP{Eps: x.Epsilon}, true
	case dp.ZCDp:
		return ZCDP{Rho: x.Rho, Xi: x.Xi}, true
	case dp.DiscreteLaplace:
		// a·Δ-DP (the loss a(|x−Δ| − |x|) lies in [−aΔ, aΔ]).
		return PureDP{Eps: numeric.MulUp(x.NoiseParameter, float64(x.Sensitivity)*sens)}, true
	case dp.DiscreteGaussian:
		// ½(Δ/σ)²-zCDP (Canonne–Kamath–Steinke 2020, Prop. 5 as
		// dp_accounting cites it, in one dimension; coordinates are independent, so the divergences add
		// to α‖Δ‖²/(2σ²) in any dimension).
		return Gaussian(numeric.MulUp(x.Sensitivity, sens), x.Sigma), true
	case dp.SingleEpochTreeAggregation:
		// A record is in one leaf of one tree: it moves Depth released
		// nodes by its sensitivity each, one Gaussian of ℓ2-sensitivity
		// √Depth·Δ (Kairouz et al. 2021, App. D).
		return Gaussian(math.Nextafter(sens*math.Sqrt(float64(x.Depth())), math.Inf(1)), x.NoiseMultiplier), true
	case dp.ExponentialMechanism:
		// ε-bounded range, so ε²/8-zCDP (Cesar–Rogers 2021;
		// Dong–Durfee–Rogers 2020), and ε-DP (PureDP): the smaller.
		return minCurve{Linear(numeric.MulUp(x.Epsilon, x.Epsilon) / 8 * (1 + 0x1p-50)), PureDP{Eps: x.Epsilon}}, true
	case dp.PermuteAndFlip:
		// ε-DP (McKenna–Sheldon 2020): randomized response's curve
		// bounds every ε-DP mechanism's. dp_accounting uses the Laplace
		// mechanism's, which is smaller; privamp has no proof that
		// permute-and-flip's loss is dominated by Laplace's.
		return PureDP{Eps: x.Epsilon}, true
	case dp.NonPrivate:
		return Linear(math.Inf(1)), true
	case dp.MixtureOfGaussians:
		// Dominated by the Poisson-subsampled Gaussian (dp.MixtureOfGaussians.Dominating).
		if q, z := x.Dominating(); q > 0 {
			return SampledGaussian{Q: q, Z: z}, true
		}
		return Linear(0), true
	}
	return nil, false
}

// ZCDP is the curve ε(α) = ξ + ρα of (ξ, ρ)-zCDP (Bun–Steinke 2016,
// Def. 1.1), rounded up.
type ZCDP struct{ Rho, Xi float64 }

// Epsilon returns ξ + ρα rounded up.
func (z ZCDP) Epsilon(alpha float64) float64 {
	return numeric.AddUp(z.Xi, Linear(z.Rho).Epsilon(alpha))
}

// minCurve is the pointwise smaller of two sound curves.
type minCurve [2]Curve

func (m minCurve) Epsilon(alpha float64) float64 {
	return math.Min(m[0].Epsilon(alpha), m[1].Epsilon(alpha))
}

// ExtraDelta is the δ the EpsilonDelta events of e add to every (ε, δ)
// bound, Σ count·δ_i rounded up (at most 1): an (ε_i, δ_i)-DP mechanism is,
// outside an event of probability δ_i under each of the two data sets, an
// ε_i-DP one (Kairouz–Oh–Viswanath 2015, Thm 2.1), and the union bound over
// the runs adds their δ_i (dp_accounting composes them as 1 − Π(1 − δ_i),
// which is at most this).
func ExtraDelta(e dp.Event) float64 {
	s := 0.0
	_ = dp.Leaves(e, func(l dp.Event, k float64) error {
		if x, ok := l.(dp.EpsilonDelta); ok && x.Delta > 0 {
			s = numeric.AddUp(s, numeric.MulUp(k, x.Delta))
		}
		return nil
	})
	return math.Min(s, 1)
}

// SourceVocab names the papers behind the vocabulary's curves.
const SourceVocab = "mixture of Gaussians as the subsampled Gaussian that dominates it (a post-processing, dp.MixtureOfGaussians.Dominating); declared (ε, δ)-DP as randomized response's curve plus δ (Kairouz–Oh–Viswanath 2015, Thm 2.1); zCDP as ξ + ρα (Bun–Steinke 2016); discrete Gaussian ½(Δ/σ)²-zCDP (Canonne–Kamath–Steinke 2020); tree aggregation one Gaussian of sensitivity √depth (Kairouz et al. 2021, App. D); exponential mechanism ε²/8-zCDP by bounded range (Cesar–Rogers 2021); discrete Laplace and permute-and-flip ε-DP"

// hasVocab reports whether e holds an event of dp/vocab.go.
func hasVocab(e dp.Event) bool {
	found := false
	_ = dp.Leaves(e, func(l dp.Event, _ float64) error {
		_, ok := curveVocab(l, 1)
		found = found || ok
		return nil
	})
	return found
}
