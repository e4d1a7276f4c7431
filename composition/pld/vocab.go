package pld

import (
	"errors"
	"math"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

// The PLD accountant's handling of the rest of dp_accounting's vocabulary
// (dp/vocab.go). It accounts EpsilonDelta, DiscreteLaplace,
// SingleEpochTreeAggregation, ExponentialMechanism, PermuteAndFlip and
// NonPrivate, and refuses the others with the reason (refusal).

// refusal is why the PLD accountant does not bound e under r (nil if it
// does).
func refusal(e dp.Event, r dp.Relation) error {
	return dp.Leaves(e, func(l dp.Event, _ float64) error {
		if err := dp.Unaccountable(l, r); err != nil {
			return err
		}
		switch l.(type) {
		case dp.ZCDp:
			return errors.New("a ZCDp event states a Rényi curve, not a privacy loss distribution (dp_accounting's PLD accountant refuses it too); rdp accounts it")
		case dp.DiscreteGaussian:
			return errors.New("a DiscreteGaussian has no PLD here (in more than one dimension it is not the one-dimensional loss; dp_accounting's PLD accountant refuses it too); rdp accounts it")
		case dp.TruncatedSubsampledGaussian:
			return errors.New("a TruncatedSubsampledGaussian has no PLD here: truncation couples the records (adding one can drop another from the batch), so the Poisson-subsampled Gaussian's pair does not apply, and the construction of arXiv 2508.15089 that dp_accounting follows is not implemented in privamp")
		case dp.RepeatAndSelect:
			return errors.New("RepeatAndSelect has a Rényi bound only (Papernot–Steinke 2022; dp_accounting's PLD accountant refuses it too)")
		}
		return nil
	})
}

// errNonPrivate is why an event with a NonPrivate part has no PLD.
var errNonPrivate = errors.New("a NonPrivate event has no finite privacy loss: ε = ∞")

// eventVocab is the PLD of an event of dp/vocab.go (ok false for other
// types; nil for one that reveals nothing).
func (b *treeBuilder) eventVocab(e dp.Event) (p *PLD, ok bool, err error) {
	switch x := e.(type) {
	case dp.EpsilonDelta:
		if x.Epsilon == 0 && x.Delta == 0 {
			return nil, true, nil
		}
		p, err := PrivacyParameters(x.Epsilon, x.Delta, b.opt)
		return p, true, err
	case dp.ExponentialMechanism:
		// Treated as any ε-DP mechanism (the worst pair), as dp_accounting.
		if x.Epsilon == 0 {
			return nil, true, nil
		}
		p, err := PrivacyParameters(x.Epsilon, 0, b.opt)
		return p, true, err
	case dp.PermuteAndFlip:
		// ε-DP (McKenna–Sheldon 2020): the worst ε-DP pair. dp_accounting
		// uses the Laplace mechanism's PLD, which lies below it; privamp
		// has no proof that permute-and-flip is dominated by Laplace.
		if x.Epsilon == 0 {
			return nil, true, nil
		}
		p, err := PrivacyParameters(x.Epsilon, 0, b.opt)
		return p, true, err
	case dp.DiscreteLaplace:
		p, err := DiscreteLaplace(x.NoiseParameter, x.Sensitivity*int64(b.sens), b.opt)
		return p, true, err
	case dp.SingleEpochTreeAggregation:
		// One Gaussian of ℓ2-sensitivity √depth·Δ (Kairouz et al. 2021,
		// App. D; rdp.curveVocab).
		s := math.Nextafter(b.sens*math.Sqrt(float64(x.Depth())), math.Inf(1))
		p, err := Gaussian(s, x.NoiseMultiplier, b.opt)
		return p, true, err
	case dp.NonPrivate:
		return nil, true, errNonPrivate
	case dp.MixtureOfGaussians:
		// The Poisson-subsampled Gaussian that dominates it
		// (dp.MixtureOfGaussians.Dominating): a looser PLD than
		// dp_accounting's own mixture PLD wherever the sensitivities take
		// more than one positive value, the same one otherwise.
		q, z := x.Dominating()
		if q == 0 {
			return nil, true, nil
		}
		p, err := SubsampledGaussian(q, z, b.opt)
		return p, true, err
	}
	return nil, false, nil
}

// dlapLoss is the discrete Laplace mechanism: P = DLap(a) at 0, Q = DLap(a)
// at D (pmf tanh(a/2)·e^{−a|x|} on the integers); L(x) = a(|x−D| − |x|),
// which is aD for x ≤ 0, a(D − 2x) on [0, D] and −aD for x ≥ D.
type dlapLoss struct {
	a float64
	d int64
}

func (g dlapLoss) eps0() float64 { return g.a * float64(g.d) }

func (g dlapLoss) bounds(float64) (float64, float64) { return -g.eps0(), g.eps0() }

// at is the loss at the integer x ∈ [0, D], as tails compares it.
func (g dlapLoss) at(x int64) float64 { return g.a * float64(g.d-2*x) }

func (g dlapLoss) tails(l float64) (pa, pb, qa, qb, r float64) {
	e0 := g.eps0()
	switch {
	case l >= e0:
		return 0, 1, 0, 1, 0
	case l < -e0:
		return 1, 0, 1, 0, 0
	}
	// L(X) > l ⟺ X ≤ k, k the largest integer in [0, D−1] whose loss
	// exceeds l (the losses fall with x; the comparison is the one at).
	k := int64(math.Ceil((float64(g.d)-l/g.a)/2)) - 1
	k = min(max(k, 0), g.d-1)
	for k > 0 && !(g.at(k) > l) {
		k--
	}
	for k+1 < g.d && g.at(k+1) > l {
		k++
	}
	c := 1 + math.Exp(-g.a)
	// P(X ≥ k+1) = e^{−a(k+1)}/(1 + e^{−a}); Q(X ≤ k) = P(Y ≤ k − D) =
	// e^{a(k−D)}/(1 + e^{−a}) (k − D ≤ −1).
	pb = math.Exp(-g.a*float64(k+1)) / c
	qa = math.Exp(g.a*float64(k-g.d)) / c
	return 1 - pb, pb, qa, 1 - qa, 8 + 3*g.a*float64(g.d+1)
}

// DiscreteLaplace returns the PLD of the discrete Laplace mechanism with
// noise parameter a (pmf ∝ e^{−a|x|} on the integers) and integer
// ℓ1-sensitivity D: aD-DP, its loss taking the D + 1 values a(D − 2x),
// x = 0…D (dp_accounting's DiscreteLaplacePrivacyLoss; Ghosh–Roughgarden–
// Sundararajan 2012 for the geometric mechanism). It is symmetric.
func DiscreteLaplace(a float64, sensitivity int64, opt Options) (*PLD, error) {
	if err := field.Positive("noise_parameter", a); err != nil {
		return nil, err
	}
	if sensitivity < 1 {
		return nil, field.New("sensitivity", sensitivity, "must be a whole number ≥ 1")
	}
	if e := a * float64(sensitivity); math.IsInf(e, 1) {
		return nil, field.New("noise_parameter", a, "gives ε₀ = a·D = %g, outside (0, ∞)", e)
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	f, err := discretize(dlapLoss{a: a, d: sensitivity}, o, nil)
	if err != nil {
		return nil, err
	}
	return &PLD{opt: o, remove: f}, nil
}
