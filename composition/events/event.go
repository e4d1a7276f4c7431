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
	}
	panic("events: unvalidated event type " + e.Type)
}
