package events

import (
	"github.com/privamp/privamp/dp"
)

// The event types, named as dp_accounting's DpEvent classes without the
// "DpEvent" suffix (dp_event.py).
const (
	TypeGaussian                  = "Gaussian"
	TypeLaplace                   = "Laplace"
	TypeRandomizedResponse        = "RandomizedResponse"
	TypeNoOp                      = "NoOp"
	TypePoissonSampled            = "PoissonSampled"
	TypeSampledWithoutReplacement = "SampledWithoutReplacement"
	TypeSelfComposed              = "SelfComposed"
	TypeComposed                  = "Composed"
	// The rest of dp_accounting's vocabulary (dp/vocab.go).
	TypeEpsilonDelta                = "EpsilonDelta"
	TypeZCDp                        = "ZCDp"
	TypeDiscreteLaplace             = "DiscreteLaplace"
	TypeDiscreteGaussian            = "DiscreteGaussian"
	TypeSampledWithReplacement      = "SampledWithReplacement"
	TypeRepeatAndSelect             = "RepeatAndSelect"
	TypeMixtureOfGaussians          = "MixtureOfGaussians"
	TypeTruncatedSubsampledGaussian = "TruncatedSubsampledGaussian"
	TypeSingleEpochTreeAggregation  = "SingleEpochTreeAggregation"
	TypeExponentialMechanism        = "ExponentialMechanism"
	TypePermuteAndFlip              = "PermuteAndFlip"
	TypeNonPrivate                  = "NonPrivate"
	TypeUnsupported                 = "Unsupported"
	// TypeRandomAllocation is balls-in-bins (dp.RandomAllocation): not a
	// dp_accounting class; the name is Feldman & Shenfeld's.
	TypeRandomAllocation = "RandomAllocation"
)

// Event is one node of the events tree as the file writes it: Type names the
// event, and the parameters of that type are set (nil or empty: absent).
// Parameters of other types must be absent. See the package documentation
// for each type's parameters and their ranges.
type Event struct {
	Type string `json:"type" jsonin:"required"`
	// Gaussian, Laplace: the noise scale over the sensitivity (> 0).
	NoiseMultiplier *float64 `json:"noise_multiplier"`
	// RandomizedResponse: the probability of answering uniformly at random.
	NoiseParameter *float64 `json:"noise_parameter"`
	NumBuckets     *int64   `json:"num_buckets"`
	// PoissonSampled: each record is in the sample with this probability.
	SamplingProbability *float64 `json:"sampling_probability"`
	// SampledWithoutReplacement: a batch of SampleSize distinct records out of SourceDatasetSize.
	SourceDatasetSize *int64 `json:"source_dataset_size"`
	SampleSize        *int64 `json:"sample_size"`
	// SelfComposed: how many times Event runs.
	Count *int64 `json:"count"`
	// RandomAllocation: the steps of one epoch; each record is used in one of them.
	NumSteps *int64 `json:"num_steps"`
	// PoissonSampled, SampledWithoutReplacement, RandomAllocation, SelfComposed: the event
	// that runs (on the sample, or Count times).
	Event *Event `json:"event"`
	// Composed: the events that run one after the other (adaptively).
	Events []Event `json:"events"`

	// The rest of dp_accounting's vocabulary, named as its DpEvent fields
	// (dp/vocab.go says what each means).
	// EpsilonDelta, ExponentialMechanism, PermuteAndFlip: a declared ε.
	Epsilon *float64 `json:"epsilon"`
	// EpsilonDelta: a declared δ.
	Delta *float64 `json:"delta"`
	// ZCDp: ρ and ξ (ξ may be absent: 0).
	Rho *float64 `json:"rho"`
	Xi  *float64 `json:"xi"`
	// DiscreteGaussian: σ; DiscreteLaplace, DiscreteGaussian: one record's
	// sensitivity (a whole number for DiscreteLaplace; DiscreteGaussian's
	// may be absent: 1); DiscreteGaussian's dimension (may be absent).
	Sigma       *float64 `json:"sigma"`
	Sensitivity *float64 `json:"sensitivity"`
	Dimension   *int64   `json:"dimension"`
	// RepeatAndSelect: the mean and shape of the number of runs.
	Mean  *float64 `json:"mean"`
	Shape *float64 `json:"shape"`
	// MixtureOfGaussians.
	StandardDeviation *float64  `json:"standard_deviation"`
	Sensitivities     []float64 `json:"sensitivities"`
	SamplingProbs     []float64 `json:"sampling_probs"`
	// TruncatedSubsampledGaussian (with sampling_probability and
	// noise_multiplier).
	DatasetSize        *int64 `json:"dataset_size"`
	TruncatedBatchSize *int64 `json:"truncated_batch_size"`
	// SingleEpochTreeAggregation (with noise_multiplier): each tree's
	// number of steps, a list ([n] for one tree).
	StepCounts []int64 `json:"step_counts"`
}

// Events is an events file: the neighbouring relation ("" means
// add_or_remove_one) and the one event that describes the whole run.
type Events struct {
	Neighbouring string `json:"neighbouring"`
	Event        Event  `json:"event" jsonin:"required"`
}

// relation returns the neighbouring relation (dp.ParseRelation: "" is
// add/remove; walk has refused anything it does not read).
func (ev Events) relation() dp.Relation {
	r, _ := dp.ParseRelation("neighbouring", ev.Neighbouring)
	return r
}

// DP is the run the validated file describes as a dp.Event (the wire form
// decoded), with its neighbouring relation.
func (ev Events) DP() (dp.Event, dp.Relation) { return ev.Event.dp(), ev.relation() }

// dp converts a validated event.
func (e *Event) dp() dp.Event {
	switch e.Type {
	case TypeGaussian:
		return dp.Gaussian{NoiseMultiplier: *e.NoiseMultiplier}
	case TypeLaplace:
		return dp.Laplace{NoiseMultiplier: *e.NoiseMultiplier}
	case TypeRandomizedResponse:
		return dp.RandomizedResponse{NoiseParameter: *e.NoiseParameter, NumBuckets: *e.NumBuckets}
	case TypeNoOp:
		return dp.NoOp{}
	case TypePoissonSampled:
		return dp.PoissonSampled{SamplingProbability: *e.SamplingProbability, Event: e.Event.dp()}
	case TypeSampledWithoutReplacement:
		return dp.SampledWithoutReplacement{SourceDatasetSize: *e.SourceDatasetSize, SampleSize: *e.SampleSize, Event: e.Event.dp()}
	case TypeSelfComposed:
		return dp.SelfComposed{Event: e.Event.dp(), Count: *e.Count}
	case TypeRandomAllocation:
		return dp.RandomAllocation{NumSteps: *e.NumSteps, Event: e.Event.dp()}
	case TypeComposed:
		es := make([]dp.Event, len(e.Events))
		for i := range e.Events {
			es[i] = e.Events[i].dp()
		}
		return dp.Composed{Events: es}
	case TypeEpsilonDelta:
		return dp.EpsilonDelta{Epsilon: *e.Epsilon, Delta: *e.Delta}
	case TypeZCDp:
		return dp.ZCDp{Rho: *e.Rho, Xi: or(e.Xi, 0)}
	case TypeDiscreteLaplace:
		return dp.DiscreteLaplace{NoiseParameter: *e.NoiseParameter, Sensitivity: int64(*e.Sensitivity)}
	case TypeDiscreteGaussian:
		var d int64
		if e.Dimension != nil {
			d = *e.Dimension
		}
		return dp.DiscreteGaussian{Sigma: *e.Sigma, Sensitivity: or(e.Sensitivity, 1), Dimension: d}
	case TypeSampledWithReplacement:
		return dp.SampledWithReplacement{SourceDatasetSize: *e.SourceDatasetSize, SampleSize: *e.SampleSize, Event: e.Event.dp()}
	case TypeRepeatAndSelect:
		return dp.RepeatAndSelect{Event: e.Event.dp(), Mean: *e.Mean, Shape: *e.Shape}
	case TypeMixtureOfGaussians:
		return dp.MixtureOfGaussians{StandardDeviation: *e.StandardDeviation, Sensitivities: e.Sensitivities, SamplingProbs: e.SamplingProbs}
	case TypeTruncatedSubsampledGaussian:
		return dp.TruncatedSubsampledGaussian{DatasetSize: *e.DatasetSize, SamplingProbability: *e.SamplingProbability,
			TruncatedBatchSize: *e.TruncatedBatchSize, NoiseMultiplier: *e.NoiseMultiplier}
	case TypeSingleEpochTreeAggregation:
		return dp.SingleEpochTreeAggregation{NoiseMultiplier: *e.NoiseMultiplier, StepCounts: e.StepCounts}
	case TypeExponentialMechanism:
		return dp.ExponentialMechanism{Epsilon: *e.Epsilon}
	case TypePermuteAndFlip:
		return dp.PermuteAndFlip{Epsilon: *e.Epsilon}
	case TypeNonPrivate:
		return dp.NonPrivate{}
	case TypeUnsupported:
		return dp.UnsupportedEvent{}
	}
	panic("events: unvalidated event type " + e.Type)
}

// or is *p, or def where p is nil (an optional parameter left out).
func or(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}
