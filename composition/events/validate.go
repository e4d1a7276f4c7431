package events

import (
	"fmt"
	"math"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

// Limits of an events file, besides its size (MaxBytes).
const (
	// MaxDepth is how deep events may nest (an event inside a
	// PoissonSampled inside a SelfComposed is depth 3).
	MaxDepth = 20
	// MaxEvents is the number of event objects a file may hold.
	MaxEvents = 10000
	// MaxCount is the largest count of a SelfComposed, and of the total
	// number of mechanism runs once counts are multiplied out.
	MaxCount = 1e12
	// MaxDatasetSize bounds source_dataset_size.
	MaxDatasetSize = 1e12
)

// types lists the event types and, for each, its parameters in the order
// the documentation gives them.
var types = []struct {
	name   string
	params []string
}{
	{TypeGaussian, []string{"noise_multiplier"}},
	{TypeLaplace, []string{"noise_multiplier"}},
	{TypeRandomizedResponse, []string{"noise_parameter", "num_buckets"}},
	{TypeNoOp, nil},
	{TypePoissonSampled, []string{"sampling_probability", "event"}},
	{TypeSampledWithoutReplacement, []string{"source_dataset_size", "sample_size", "event"}},
	{TypeSelfComposed, []string{"count", "event"}},
	{TypeComposed, []string{"events"}},
	{TypeEpsilonDelta, []string{"epsilon", "delta"}},
	{TypeZCDp, []string{"rho", "xi?"}},
	{TypeDiscreteLaplace, []string{"noise_parameter", "sensitivity"}},
	{TypeDiscreteGaussian, []string{"sigma", "sensitivity?", "dimension?"}},
	{TypeSampledWithReplacement, []string{"source_dataset_size", "sample_size", "event"}},
	{TypeRepeatAndSelect, []string{"event", "mean", "shape"}},
	{TypeMixtureOfGaussians, []string{"standard_deviation", "sensitivities", "sampling_probs"}},
	{TypeTruncatedSubsampledGaussian, []string{"dataset_size", "sampling_probability", "truncated_batch_size", "noise_multiplier"}},
	{TypeSingleEpochTreeAggregation, []string{"noise_multiplier", "step_counts"}},
	{TypeExponentialMechanism, []string{"epsilon"}},
	{TypePermuteAndFlip, []string{"epsilon"}},
	{TypeNonPrivate, nil},
	{TypeUnsupported, nil},
	{TypeRandomAllocation, []string{"num_steps", "event"}},
}

// wrappers are the vocabulary's types that run an event of any kind (its
// parameters checked, its runs counted as the wrapper's).
var wrappers = map[string]bool{TypeSampledWithReplacement: true, TypeRepeatAndSelect: true}

func typeNames() string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.name
	}
	return strings.Join(names, ", ")
}

// present returns the parameters e sets, by key.
func (e *Event) present() map[string]bool {
	return map[string]bool{
		"noise_multiplier":     e.NoiseMultiplier != nil,
		"noise_parameter":      e.NoiseParameter != nil,
		"num_buckets":          e.NumBuckets != nil,
		"sampling_probability": e.SamplingProbability != nil,
		"source_dataset_size":  e.SourceDatasetSize != nil,
		"sample_size":          e.SampleSize != nil,
		"count":                e.Count != nil,
		"event":                e.Event != nil,
		"events":               e.Events != nil,
		"epsilon":              e.Epsilon != nil,
		"delta":                e.Delta != nil,
		"rho":                  e.Rho != nil,
		"xi":                   e.Xi != nil,
		"sigma":                e.Sigma != nil,
		"sensitivity":          e.Sensitivity != nil,
		"dimension":            e.Dimension != nil,
		"mean":                 e.Mean != nil,
		"shape":                e.Shape != nil,
		"standard_deviation":   e.StandardDeviation != nil,
		"sensitivities":        e.Sensitivities != nil,
		"sampling_probs":       e.SamplingProbs != nil,
		"dataset_size":         e.DatasetSize != nil,
		"truncated_batch_size": e.TruncatedBatchSize != nil,
		"step_counts":          e.StepCounts != nil,
		"num_steps":            e.NumSteps != nil,
	}
}

// keyOrder is the order in which stray and missing keys are reported.
var keyOrder = []string{"noise_multiplier", "noise_parameter", "num_buckets", "sampling_probability",
	"source_dataset_size", "sample_size", "count", "event", "events", "epsilon", "delta", "rho", "xi",
	"sigma", "sensitivity", "dimension", "mean", "shape", "standard_deviation", "sensitivities",
	"sampling_probs", "dataset_size", "truncated_batch_size", "step_counts", "num_steps"}

// Validate checks ev against the rules of the package documentation: known
// types with exactly their parameters, every parameter in its range, at
// most MaxDepth levels, MaxEvents events and MaxCount runs, and only
// combinations that some accountant supports. Errors are *dp.Error naming the
// field by its path in the file.
func (ev Events) Validate() error {
	_, _, err := ev.walk()
	return err
}

// walker validates the tree and flattens it into phases.
type walker struct {
	rel    dp.Relation
	events int
	steps  float64
	phases []Phase
}

// walk validates ev and returns its phases and total number of runs.
func (ev Events) walk() ([]Phase, float64, error) {
	if _, err := dp.ParseRelation("neighbouring", ev.Neighbouring); err != nil {
		return nil, 0, &dp.Error{Where: dp.InputFile, Field: "neighbouring", Value: ev.Neighbouring,
			Reason: fmt.Sprintf("must be %q or %q (privamp's add-remove or replace-one), got %q", "add_or_remove_one", "replace_one", ev.Neighbouring)}
	}
	w := &walker{rel: ev.relation()}
	if err := w.event(&ev.Event, "event", 1, 1); err != nil {
		return nil, 0, err
	}
	return w.phases, w.steps, nil
}

func bad(path string, value any, format string, args ...any) error {
	return &dp.Error{Where: dp.InputFile, Field: path, Value: value, Reason: fmt.Sprintf(format, args...)}
}

// event validates e at path, nested depth deep, run mult times in all.
func (w *walker) event(e *Event, path string, depth int, mult float64) error {
	if depth > MaxDepth {
		return bad(path, nil, "events nest more than %d deep", MaxDepth)
	}
	if w.events++; w.events > MaxEvents {
		return bad(path, nil, "the file holds more than %d events", MaxEvents)
	}
	if err := shape(e, path); err != nil {
		return err
	}
	switch e.Type {
	case TypeSelfComposed:
		k := *e.Count
		if k < 1 || k > MaxCount {
			return bad(path+".count", k, "must be a whole number in [1, 1e12], got %d", k)
		}
		if mult*float64(k) > MaxCount {
			return bad(path+".count", k, "makes %g runs in all; at most 1e12 are supported", mult*float64(k))
		}
		return w.event(e.Event, path+".event", depth+1, mult*float64(k))
	case TypeComposed:
		if len(e.Events) == 0 {
			return bad(path+".events", nil, "is empty: a Composed event lists at least one event")
		}
		for i := range e.Events {
			if err := w.event(&e.Events[i], fmt.Sprintf("%s.events[%d]", path, i), depth+1, mult); err != nil {
				return err
			}
		}
		return nil
	}
	if wrappers[e.Type] { // its event is checked as a file of its own, its runs counted here
		inner := &walker{rel: w.rel, events: w.events}
		if err := inner.event(e.Event, path+".event", depth+1, 1); err != nil {
			return err
		}
		w.events = inner.events
	}
	if err := w.leaf(e, path); err != nil {
		return err
	}
	if e.Event != nil && !wrappers[e.Type] { // the Gaussian a sampling event wraps
		if err := w.leaf(e.Event, path+".event"); err != nil {
			return err
		}
		if w.events++; w.events > MaxEvents {
			return bad(path+".event", nil, "the file holds more than %d events", MaxEvents)
		}
	}
	runs := mult
	if e.NumSteps != nil { // an epoch of random allocation runs its Gaussian at each step
		runs *= float64(*e.NumSteps)
	}
	if w.steps += runs; w.steps > MaxCount {
		return bad(path, nil, "makes more than 1e12 runs in all")
	}
	w.phases = append(w.phases, phaseOf(e, path, mult, w.rel))
	return nil
}

// shape checks that e's type is known and that it sets exactly the
// parameters of its type.
func shape(e *Event, path string) error {
	var params []string
	known := false
	for _, t := range types {
		if t.name == e.Type {
			params, known = t.params, true
		}
	}
	if !known {
		reason := fmt.Sprintf("unknown event type %q; allowed: %s", e.Type, typeNames())
		if strings.HasSuffix(e.Type, "DpEvent") {
			reason += fmt.Sprintf(" (write %q for dp_accounting's %s)", strings.TrimSuffix(e.Type, "DpEvent"), e.Type)
		}
		return &dp.Error{Where: dp.InputFile, Field: path + ".type", Value: e.Type, Reason: reason}
	}
	has := e.present()
	allowed := map[string]bool{}
	var required []string
	for _, p := range params {
		if q, optional := strings.CutSuffix(p, "?"); optional {
			allowed[q] = true
			continue
		}
		allowed[p] = true
		required = append(required, p)
	}
	for _, k := range keyOrder {
		if has[k] && !allowed[k] {
			what := "no parameters"
			if len(params) > 0 {
				what = "only " + strings.ReplaceAll(strings.Join(params, ", "), "?", " (optional)")
			}
			return bad(path+"."+k, nil, "is not a parameter of a %s event (it has %s)", e.Type, what)
		}
	}
	for _, p := range required {
		if !has[p] {
			return bad(path+"."+p, nil, "is required for a %s event", e.Type)
		}
	}
	return nil
}

// leaf checks the parameters of a mechanism or sampling event (its shape
// already checked).
func (w *walker) leaf(e *Event, path string) error {
	switch e.Type {
	case TypeGaussian, TypeLaplace:
		z := *e.NoiseMultiplier
		if !(z > 0) || math.IsInf(z, 1) {
			return bad(path+".noise_multiplier", z, "must be a finite number > 0, got %v (0 would be no noise and no privacy, ε = ∞)", z)
		}
	case TypeRandomizedResponse:
		p := *e.NoiseParameter
		if !(p > 0 && p <= 1) {
			return bad(path+".noise_parameter", p, "must be in (0, 1], got %v (0 would always report the true value: no privacy, ε = ∞)", p)
		}
		if k := *e.NumBuckets; k != 2 {
			return bad(path+".num_buckets", k, "must be 2, got %d: only binary randomized response is accounted here", k)
		}
		if w.rel != dp.ReplaceOne {
			return bad(path+".type", e.Type, "is accounted under replace_one neighbouring only (one record's value is randomized, as in dp_accounting); the file says %s", w.rel)
		}
	case TypePoissonSampled:
		q := *e.SamplingProbability
		if !(q > 0 && q <= 1) {
			return bad(path+".sampling_probability", q, "must be in (0, 1], got %v", q)
		}
		return wrapsGaussian(e, path)
	case TypeSampledWithoutReplacement:
		n, m := *e.SourceDatasetSize, *e.SampleSize
		if n < 1 || n > MaxDatasetSize {
			return bad(path+".source_dataset_size", n, "must be a whole number in [1, 1e12], got %d", n)
		}
		if m < 1 || m > n {
			return bad(path+".sample_size", m, "must be a whole number in [1, source_dataset_size = %d], got %d", n, m)
		}
		if w.rel != dp.ReplaceOne {
			return bad(path+".type", e.Type, "is accounted under replace_one neighbouring only: under add_or_remove_one the dataset size changes and no dominating pair for fixed-size batches is known; use PoissonSampled, or replace_one")
		}
		return wrapsGaussian(e, path)
	case TypeDiscreteLaplace:
		if c := *e.Sensitivity; c != math.Trunc(c) || !(c >= 1 && c <= 1<<40) {
			return bad(path+".sensitivity", c, "must be a whole number in [1, 2^40], got %v (the discrete Laplace adds integer noise to an integer sum)", c)
		}
	case TypeRandomAllocation:
		if k := *e.NumSteps; k < 1 || k > MaxCount {
			return bad(path+".num_steps", k, "must be a whole number in [1, 1e12], got %d", k)
		}
		if w.rel != dp.AddRemove {
			return bad(path+".type", e.Type, "is accounted under add_or_remove_one neighbouring only (Feldman & Shenfeld's random allocation); the file says %s", w.rel)
		}
		return wrapsGaussian(e, path)
	}
	if _, vocab := vocabTypes[e.Type]; vocab {
		// The vocabulary's parameters are checked by dp.Validate, one rule
		// for the library and the file; the field is named by its path.
		x := e.dp()
		if wrappers[e.Type] { // the event inside was checked on its own
			x = withNoOp(x)
		}
		if err := dp.Validate(x, w.rel); err != nil {
			if fe, ok := field.As(err); ok {
				return bad(path+"."+fe.Field, fe.Value, "%s", fe.Reason)
			}
			return err
		}
	}
	return nil
}

// vocabTypes are the types of dp/vocab.go, checked by dp.Validate.
var vocabTypes = map[string]struct{}{TypeEpsilonDelta: {}, TypeZCDp: {}, TypeDiscreteLaplace: {}, TypeDiscreteGaussian: {},
	TypeSampledWithReplacement: {}, TypeRepeatAndSelect: {}, TypeMixtureOfGaussians: {}, TypeTruncatedSubsampledGaussian: {},
	TypeSingleEpochTreeAggregation: {}, TypeExponentialMechanism: {}, TypePermuteAndFlip: {}, TypeNonPrivate: {}, TypeUnsupported: {}}

// withNoOp is the wrapper x with NoOp in place of its event.
func withNoOp(x dp.Event) dp.Event {
	switch w := x.(type) {
	case dp.SampledWithReplacement:
		w.Event = dp.NoOp{}
		return w
	case dp.RepeatAndSelect:
		w.Event = dp.NoOp{}
		return w
	}
	return x
}

// wrapsGaussian checks that a sampling event wraps a Gaussian, the only
// mechanism with a subsampled PLD and RDP curve here.
func wrapsGaussian(e *Event, path string) error {
	in, p := e.Event, path+".event"
	if err := shape(in, p); err != nil {
		return err
	}
	switch in.Type {
	case TypeGaussian:
		return nil
	case TypeLaplace:
		return bad(p+".type", in.Type, "cannot be sampled here: privamp has no PLD or RDP curve of the subsampled Laplace mechanism; %s wraps a Gaussian event only", e.Type)
	}
	return bad(p+".type", in.Type, "cannot be sampled: %s wraps a Gaussian event only", e.Type)
}
