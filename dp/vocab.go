package dp

import (
	"errors"
	"math"

	"github.com/privamp/privamp/internal/field"
)

// The rest of dp_accounting's DpEvent vocabulary (dp_event.py). Each type
// is accounted by the accountants that support it (rdp.Accountant,
// pld.Accountant, composition.Tight); the others refuse it with the reason
// (Supports). Parameters that state a guarantee (EpsilonDelta, ZCDp,
// ExponentialMechanism, PermuteAndFlip) are declared: they hold under the
// neighbouring relation the event is accounted under, and are not scaled
// by it. Parameters that state a sensitivity (DiscreteLaplace,
// DiscreteGaussian, MixtureOfGaussians) bound one record's contribution,
// as dp_accounting's documentation defines them (‖v_i‖ ≤ C); like a
// Gaussian's, it is doubled under replace-one (Relation.Sensitivity).

// EpsilonDelta is a mechanism declared (Epsilon, Delta)-DP
// (EpsilonDeltaDpEvent).
type EpsilonDelta struct{ Epsilon, Delta float64 }

// ZCDp is a mechanism declared (Xi, Rho)-zCDP: D_α ≤ Xi + Rho·α for every
// α > 1 (ZCDpEvent; Bun–Steinke 2016, Def. 1.1).
type ZCDp struct{ Rho, Xi float64 }

// DiscreteLaplace adds discrete Laplace noise of pmf ∝ e^{−a|x|} on the
// integers, a = NoiseParameter, to an integer sum whose records each move
// it by at most Sensitivity in ℓ1 (DiscreteLaplaceDpEvent).
type DiscreteLaplace struct {
	NoiseParameter float64
	Sensitivity    int64
}

// DiscreteGaussian adds discrete Gaussian noise of pmf ∝ e^{−x²/(2σ²)},
// σ = Sigma, on the integers (independently per coordinate) to an integer
// vector whose records each move it by at most Sensitivity in ℓ2
// (DiscreteGaussianDpEvent; Canonne–Kamath–Steinke 2020). Dimension is the
// number of coordinates, 0 if unknown.
type DiscreteGaussian struct {
	Sigma, Sensitivity float64
	Dimension          int64
}

// SampledWithReplacement runs Event on SampleSize records drawn uniformly
// with replacement from SourceDatasetSize (SampledWithReplacementDpEvent).
type SampledWithReplacement struct {
	SourceDatasetSize, SampleSize int64
	Event                         Event
}

// RepeatAndSelect runs Event a random number of times (mean Mean; Shape
// picks the distribution: +Inf Poisson, 1 geometric, 0 logarithmic,
// otherwise truncated negative binomial) and releases the best run only
// (RepeatAndSelectDpEvent; Papernot–Steinke 2022).
type RepeatAndSelect struct {
	Event       Event
	Mean, Shape float64
}

// MixtureOfGaussians outputs N(0, σ²) on one data set and the mixture
// Σ p_i N(c_i, σ²) on its neighbour, σ = StandardDeviation, c_i =
// Sensitivities[i], p_i = SamplingProbs[i] (MixtureOfGaussiansDpEvent).
type MixtureOfGaussians struct {
	StandardDeviation            float64
	Sensitivities, SamplingProbs []float64
}

// TruncatedSubsampledGaussian is a Gaussian with noise multiplier
// NoiseMultiplier on a Poisson sample of rate SamplingProbability from
// DatasetSize records, cut to at most TruncatedBatchSize records by a
// random subset (TruncatedSubsampledGaussianDpEvent).
type TruncatedSubsampledGaussian struct {
	DatasetSize         int64
	SamplingProbability float64
	TruncatedBatchSize  int64
	NoiseMultiplier     float64
}

// SingleEpochTreeAggregation is tree aggregation of Gaussian-noised sums
// (one tree per entry of StepCounts, that many leaves each), every record
// in at most one leaf across all trees (SingleEpochTreeAggregationDpEvent;
// Kairouz et al. 2021, App. D).
type SingleEpochTreeAggregation struct {
	NoiseMultiplier float64
	StepCounts      []int64
}

// ExponentialMechanism is the Epsilon-DP exponential mechanism
// (ExponentialMechanismDpEvent).
type ExponentialMechanism struct{ Epsilon float64 }

// PermuteAndFlip is the Epsilon-DP permute-and-flip mechanism
// (PermuteAndFlipDpEvent; McKenna–Sheldon 2020).
type PermuteAndFlip struct{ Epsilon float64 }

// NonPrivate is a release with no privacy guarantee (NonPrivateDpEvent):
// every accountant answers ε = ∞ (δ = 1 at every ε).
type NonPrivate struct{}

// UnsupportedEvent is an operation with no DP description
// (UnsupportedDpEvent): every accountant refuses it. (dp.Unsupported is
// the Status of a check.)
type UnsupportedEvent struct{}

func (EpsilonDelta) EventType() string                { return "EpsilonDelta" }
func (ZCDp) EventType() string                        { return "ZCDp" }
func (DiscreteLaplace) EventType() string             { return "DiscreteLaplace" }
func (DiscreteGaussian) EventType() string            { return "DiscreteGaussian" }
func (SampledWithReplacement) EventType() string      { return "SampledWithReplacement" }
func (RepeatAndSelect) EventType() string             { return "RepeatAndSelect" }
func (MixtureOfGaussians) EventType() string          { return "MixtureOfGaussians" }
func (TruncatedSubsampledGaussian) EventType() string { return "TruncatedSubsampledGaussian" }
func (SingleEpochTreeAggregation) EventType() string  { return "SingleEpochTreeAggregation" }
func (ExponentialMechanism) EventType() string        { return "ExponentialMechanism" }
func (PermuteAndFlip) EventType() string              { return "PermuteAndFlip" }
func (NonPrivate) EventType() string                  { return "NonPrivate" }
func (UnsupportedEvent) EventType() string            { return "Unsupported" }

// Depth is the number of nodes of the trees that hold one leaf and are
// released: ⌈log₂(n + 1)⌉ for the largest tree of n leaves (the dyadic
// intervals that contain a step and end by step n; Kairouz et al. 2021,
// App. D, as dp_accounting counts them).
func (t SingleEpochTreeAggregation) Depth() int64 {
	var n int64
	for _, s := range t.StepCounts {
		n = max(n, s)
	}
	d := int64(0)
	for ; n > 0; n >>= 1 {
		d++
	}
	return d
}

// Dominating is the Poisson-subsampled Gaussian whose pair dominates m's:
// rate q = P(C > 0) (the sampling probabilities of the positive
// sensitivities, summed and rounded up) and noise multiplier z = σ/c_max
// (rounded down). The mixture pair is a post-processing of it by one
// channel on both sides: draw i among the positive sensitivities with
// probability p_i/q and map y to (c_i/c_max)·y plus independent
// N(0, σ²(1 − (c_i/c_max)²)) noise, which sends N(0, σ²) to itself and
// N(c_max, σ²) to N(c_i, σ²); by data processing every hockey-stick and
// Rényi divergence of the mixture, in both directions, is at most the
// subsampled Gaussian's. It is exact where the sensitivities are 0 and one
// value c. q = 0 (no positive sensitivity) reveals nothing.
func (m MixtureOfGaussians) Dominating() (q, z float64) {
	cmax := 0.0
	for i, c := range m.Sensitivities {
		if c > 0 && m.SamplingProbs[i] > 0 {
			q += m.SamplingProbs[i]
			cmax = max(cmax, c)
		}
	}
	if q == 0 {
		return 0, 0
	}
	q = math.Min(1, q*(1+0x1p-50))
	return q, math.Nextafter(m.StandardDeviation/cmax, 0)
}

// HasNonPrivate reports whether e holds a NonPrivate event.
func HasNonPrivate(e Event) bool {
	found := false
	_ = Leaves(e, func(l Event, _ float64) error {
		_, ok := l.(NonPrivate)
		found = found || ok
		return nil
	})
	return found
}

// checkVocab checks the parameters of the events of this file; it returns
// false for a type it does not know.
func checkVocab(e Event, r Relation) (bool, error) {
	switch x := e.(type) {
	case EpsilonDelta:
		if !(x.Epsilon >= 0) || math.IsInf(x.Epsilon, 1) {
			return true, field.New("epsilon", x.Epsilon, "must be a finite number ≥ 0")
		}
		if !(x.Delta >= 0 && x.Delta < 1) {
			return true, field.New("delta", x.Delta, "must be in [0, 1)")
		}
	case ZCDp:
		if !(x.Rho >= 0) || math.IsInf(x.Rho, 1) {
			return true, field.New("rho", x.Rho, "must be a finite number ≥ 0")
		}
		if !(x.Xi >= 0) || math.IsInf(x.Xi, 1) {
			return true, field.New("xi", x.Xi, "must be a finite number ≥ 0")
		}
	case DiscreteLaplace:
		if !(x.NoiseParameter > 0) || math.IsInf(x.NoiseParameter, 1) {
			return true, field.New("noise_parameter", x.NoiseParameter, "must be a finite number > 0 (0 would be no noise and no privacy, ε = ∞)")
		}
		if x.Sensitivity < 1 || x.Sensitivity > 1<<40 {
			return true, field.New("sensitivity", x.Sensitivity, "must be a whole number in [1, 2^40]")
		}
	case DiscreteGaussian:
		if !(x.Sigma > 0) || math.IsInf(x.Sigma, 1) {
			return true, field.New("sigma", x.Sigma, "must be a finite number > 0 (0 would be no noise and no privacy, ε = ∞)")
		}
		if !(x.Sensitivity > 0) || math.IsInf(x.Sensitivity, 1) {
			return true, field.New("sensitivity", x.Sensitivity, "must be a finite number > 0")
		}
		if x.Dimension < 0 {
			return true, field.New("dimension", x.Dimension, "must be a whole number ≥ 1, or absent if unknown")
		}
	case SampledWithReplacement:
		n, m := x.SourceDatasetSize, x.SampleSize
		switch {
		case n < 1 || n > fixedSizeDenominator:
			return true, field.New("source_dataset_size", n, "must be a whole number in [1, 2^53]")
		case m < 1:
			return true, field.New("sample_size", m, "must be a whole number ≥ 1")
		case x.Event == nil:
			return true, field.New("event", nil, "is required for a SampledWithReplacement event")
		}
		return true, Validate(x.Event, r)
	case RepeatAndSelect:
		if !(x.Mean >= 1) || math.IsInf(x.Mean, 1) {
			return true, field.New("mean", x.Mean, "must be a finite number ≥ 1")
		}
		if !(x.Shape >= 0) {
			return true, field.New("shape", x.Shape, "must be ≥ 0 (0 logarithmic, 1 geometric, +Inf Poisson)")
		}
		if x.Event == nil {
			return true, field.New("event", nil, "is required for a RepeatAndSelect event")
		}
		return true, Validate(x.Event, r)
	case MixtureOfGaussians:
		if !(x.StandardDeviation > 0) || math.IsInf(x.StandardDeviation, 1) {
			return true, field.New("standard_deviation", x.StandardDeviation, "must be a finite number > 0 (0 would be no noise and no privacy, ε = ∞)")
		}
		if len(x.Sensitivities) == 0 || len(x.Sensitivities) != len(x.SamplingProbs) {
			return true, field.New("sensitivities", len(x.Sensitivities), "must list at least one value, as many as sampling_probs (%d)", len(x.SamplingProbs))
		}
		sum := 0.0
		for i, c := range x.Sensitivities {
			if !(c >= 0) || math.IsInf(c, 1) {
				return true, field.New("sensitivities", c, "must hold finite numbers ≥ 0 (entry %d)", i)
			}
			p := x.SamplingProbs[i]
			if !(p >= 0 && p <= 1) {
				return true, field.New("sampling_probs", p, "must hold numbers in [0, 1] (entry %d)", i)
			}
			sum += p
		}
		if math.Abs(sum-1) > 1e-9 {
			return true, field.New("sampling_probs", sum, "must sum to 1")
		}
	case TruncatedSubsampledGaussian:
		switch {
		case x.DatasetSize < 1:
			return true, field.New("dataset_size", x.DatasetSize, "must be a whole number ≥ 1")
		case !(x.SamplingProbability > 0 && x.SamplingProbability <= 1):
			return true, field.New("sampling_probability", x.SamplingProbability, "must be in (0, 1]")
		case x.TruncatedBatchSize < 1:
			return true, field.New("truncated_batch_size", x.TruncatedBatchSize, "must be a whole number ≥ 1")
		}
		return true, checkNoise(x.NoiseMultiplier)
	case SingleEpochTreeAggregation:
		if len(x.StepCounts) == 0 {
			return true, field.New("step_counts", nil, "must list at least one tree's number of steps")
		}
		for _, s := range x.StepCounts {
			if s < 1 || s > MaxRuns {
				return true, field.New("step_counts", s, "must hold whole numbers in [1, 1e12]")
			}
		}
		return true, checkNoise(x.NoiseMultiplier)
	case ExponentialMechanism:
		if !(x.Epsilon >= 0) || math.IsInf(x.Epsilon, 1) {
			return true, field.New("epsilon", x.Epsilon, "must be a finite number ≥ 0")
		}
	case PermuteAndFlip:
		if !(x.Epsilon >= 0) || math.IsInf(x.Epsilon, 1) {
			return true, field.New("epsilon", x.Epsilon, "must be a finite number ≥ 0")
		}
	case NonPrivate, UnsupportedEvent:
	default:
		return false, nil
	}
	return true, nil
}

// vocabAssumption is what a guarantee about an event of this file assumes
// beyond Assumptions' common ones ("" for other events).
func vocabAssumption(e Event) string {
	switch e.(type) {
	case EpsilonDelta, ZCDp, ExponentialMechanism, PermuteAndFlip:
		return "declared guarantees (EpsilonDelta, ZCDp, ExponentialMechanism, PermuteAndFlip) are taken as stated, for this neighbouring relation; the exponential mechanism's ε is its ε-DP parameter (ε-bounded range)"
	case DiscreteLaplace, DiscreteGaussian:
		return "discrete Laplace and Gaussian noise is added to an integer-valued sum whose records each move it by at most the stated sensitivity (ℓ1 resp. ℓ2; doubled under replace-one)"
	case SingleEpochTreeAggregation:
		return "tree aggregation: every record is in at most one leaf across all trees, and only completed nodes are released"
	case MixtureOfGaussians:
		return "a mixture of Gaussians outputs N(0, σ²) on one data set and the stated mixture on its neighbour (add/remove)"
	}
	return ""
}

// Unaccountable is why no privamp accountant bounds the leaf event l under
// r, for the reasons that hold for every accountant (nil otherwise; each
// accountant then adds its own refusals): a mixture of Gaussians describes
// an add/remove pair only, an Unsupported event has no DP description, and
// sampling with replacement has no amplification bound here.
func Unaccountable(l Event, r Relation) error {
	switch l.(type) {
	case MixtureOfGaussians:
		if r != AddRemove {
			return errors.New("a MixtureOfGaussians describes an add/remove pair (N(0, σ²) on one data set, the mixture on the other): under replace-one it is not accounted (dp_accounting refuses it too)")
		}
	case UnsupportedEvent:
		return errors.New("an Unsupported event has no DP description: no accountant bounds it")
	case SampledWithReplacement:
		return errors.New("sampling with replacement is not accounted: a record may be drawn several times into one batch, and privamp has no amplification bound for it (dp_accounting has none either)")
	}
	return nil
}
