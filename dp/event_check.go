package dp

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/field"
)

// MaxRuns is the most mechanism runs an event may describe in all (the
// counts of the SelfComposed events around each mechanism multiplied out
// and summed), as the events files allow.
const MaxRuns = 1e12

// Leaves calls f for each mechanism of e, sampled or not (every event that
// is not SelfComposed or Composed), with the number of times it runs: the
// product of the counts around it. It stops at f's first error.
func Leaves(e Event, f func(leaf Event, runs float64) error) error {
	var walk func(e Event, k float64) error
	walk = func(e Event, k float64) error {
		switch x := e.(type) {
		case SelfComposed:
			return walk(x.Event, k*float64(x.Count))
		case Composed:
			for _, c := range x.Events {
				if err := walk(c, k); err != nil {
					return err
				}
			}
			return nil
		}
		return f(e, k)
	}
	return walk(e, 1)
}

// Runs is the number of mechanism runs e describes in all.
func Runs(e Event) float64 {
	n := 0.0
	_ = Leaves(e, func(_ Event, k float64) error { n += k; return nil })
	return n
}

// Validate checks that e is an event privamp's accountants read under r:
// every parameter in its range (the ranges of docs/accounting.md), counts
// whole and at least 1, at most MaxRuns runs, sampling events that wrap a
// Gaussian, randomized response binary and, like sampling without
// replacement, under replace-one only. Errors are field errors named by the
// event's parameter.
func Validate(e Event, r Relation) error {
	if e == nil {
		return field.New("event", nil, "is missing")
	}
	var total float64
	var walk func(e Event, k float64) error
	walk = func(e Event, k float64) error {
		switch x := e.(type) {
		case SelfComposed:
			if x.Count < 1 || x.Count > MaxRuns {
				return field.New("count", x.Count, "must be a whole number in [1, 1e12]")
			}
			if x.Event == nil {
				return field.New("event", nil, "is required for a SelfComposed event")
			}
			return walk(x.Event, k*float64(x.Count))
		case Composed:
			if len(x.Events) == 0 {
				return field.New("events", nil, "is empty: a Composed event lists at least one event")
			}
			for _, c := range x.Events {
				if err := walk(c, k); err != nil {
					return err
				}
			}
			return nil
		}
		if a, ok := e.(RandomAllocation); ok && a.NumSteps >= 1 {
			k *= float64(a.NumSteps) // an epoch runs its mechanism at each step
		}
		if total += k; total > MaxRuns {
			return field.New("count", total, "makes more than 1e12 runs in all")
		}
		return checkLeaf(e, r)
	}
	return walk(e, 1)
}

func checkLeaf(e Event, r Relation) error {
	switch x := e.(type) {
	case Gaussian:
		return checkNoise(x.NoiseMultiplier)
	case Laplace:
		return checkNoise(x.NoiseMultiplier)
	case NoOp:
		return nil
	case RandomizedResponse:
		switch {
		case !(x.NoiseParameter > 0 && x.NoiseParameter <= 1):
			return field.New("noise_parameter", x.NoiseParameter, "must be in (0, 1] (0 would always report the true value: no privacy, ε = ∞)")
		case x.NumBuckets != 2:
			return field.New("num_buckets", x.NumBuckets, "must be 2: only binary randomized response is accounted here")
		case r != ReplaceOne:
			return field.New("neighbouring", r.String(), "must be replace-one for randomized response (one record's value is randomized, as in dp_accounting)")
		}
		return nil
	case PoissonSampled:
		if q := x.SamplingProbability; !(q > 0 && q <= 1) {
			return field.New("sampling_probability", q, "must be in (0, 1]")
		}
		return wrapsGaussian(x.Event, x.EventType())
	case SampledWithoutReplacement:
		n, m := x.SourceDatasetSize, x.SampleSize
		switch {
		case n < 1 || n > fixedSizeDenominator:
			return field.New("source_dataset_size", n, "must be a whole number in [1, 2^53]")
		case m < 1 || m > n:
			return field.New("sample_size", m, "must be a whole number in [1, source_dataset_size = %d]", n)
		case r != ReplaceOne:
			return field.New("neighbouring", r.String(), "must be replace-one for sampling without replacement: under add/remove the dataset size changes and no dominating pair for fixed-size batches is known")
		}
		return wrapsGaussian(x.Event, x.EventType())
	case RandomAllocation:
		switch {
		case x.NumSteps < 1 || x.NumSteps > MaxRuns:
			return field.New("num_steps", x.NumSteps, "must be a whole number in [1, 1e12]")
		case r != AddRemove:
			return field.New("neighbouring", r.String(), "must be add/remove for random allocation (balls-in-bins): its accounting (Feldman & Shenfeld 2025) is for a record added or removed; replace-one is not covered")
		}
		return wrapsGaussian(x.Event, x.EventType())
	case nil:
		return field.New("event", nil, "is missing")
	}
	if ok, err := checkVocab(e, r); ok {
		return err
	}
	return field.New("type", e.EventType(), "is not an event privamp accounts")
}

func checkNoise(z float64) error {
	if !(z > 0) || math.IsInf(z, 1) {
		return field.New("noise_multiplier", z, "must be a finite number > 0 (0 would be no noise and no privacy, ε = ∞)")
	}
	return nil
}

func wrapsGaussian(e Event, outer string) error {
	g, ok := e.(Gaussian)
	if !ok {
		name := fmt.Sprint(e)
		if e != nil {
			name = e.EventType()
		}
		return field.New("type", name, "cannot be sampled: %s wraps a Gaussian event only", outer)
	}
	return checkNoise(g.NoiseMultiplier)
}

// Epsilon0 is the ε₀ of binary randomized response that answers uniformly
// at random with probability p ∈ (0, 1] (NumBuckets 2): it reports the
// true bit with probability 1 − p/2, so ε₀ = ln((1 − p/2)/(p/2)) =
// ln(2 − p) − ln p, rounded up (each logarithm and 2 − p carry at most
// 2⁻⁵² relative error). p = 1 gives 0: the answer is independent of the
// record.
func (x RandomizedResponse) Epsilon0() float64 {
	p := x.NoiseParameter
	if p == 1 {
		return 0
	}
	a, c := math.Log(2-p), math.Log(p)
	e := a - c
	return e + 0x1p-50*(1+math.Abs(a)+math.Abs(c)+e)
}
