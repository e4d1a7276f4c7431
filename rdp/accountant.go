package rdp

import (
	"math"
	"sync/atomic"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/numeric"
)

// Accountant is the RDP accountant as a dp.Accountant: an event's Rényi
// curve (Mironov 2017; Mironov–Talwar–Zhang 2019 for the subsampled
// Gaussian; replace-one as remove then add, Mironov 2017, Prop. 11; fixed-
// size batches by SampledGaussianFixedSize), converted to (ε, δ) with
// Conversion at the optimal real order.
type Accountant struct {
	Conversion Conversion
	// Progress, if not nil, hears how far ε(δ) of a long composition (a
	// sum of parallelSum or more distinct curves, each order costing
	// milliseconds) is: one step per order evaluated, out of an upper
	// bound on their number, and done = total at the end.
	Progress dp.Progress `json:"-"`
}

// Source names the papers behind the RDP accountant's bounds.
const Source = "RDP: Mironov 2017 (Gaussian, Laplace, composition; replace-one as remove then add, Prop. 11), Mironov–Talwar–Zhang 2019 (subsampled Gaussian), Canonne–Kamath–Steinke 2020, Prop. 12 (conversion)"

// Name is "rdp".
func (Accountant) Name() string { return "rdp" }

// Supports is nil for every event dp.Validate accepts except those it
// refuses with the reason: Unsupported, SampledWithReplacement,
// TruncatedSubsampledGaussian, MixtureOfGaussians and RepeatAndSelect.
func (Accountant) Supports(e dp.Event, r dp.Relation) error {
	if err := dp.Validate(e, r); err != nil {
		return err
	}
	return refusal(e, r)
}

// Curve is the Rényi curve of e under r (e checked by Supports).
// The δ of EpsilonDelta events is not on the curve: ExtraDelta.
func (a Accountant) Curve(e dp.Event, r dp.Relation) (Curve, error) {
	if err := a.Supports(e, r); err != nil {
		return nil, err
	}
	return curveOf(e, r, r.Sensitivity()), nil
}

func curveOf(e dp.Event, r dp.Relation, sens float64) Curve {
	switch x := e.(type) {
	case dp.NoOp:
		return Linear(0)
	case dp.Gaussian:
		return Gaussian(sens, x.NoiseMultiplier) // Mironov 2017, Prop. 7
	case dp.Laplace:
		// Mironov 2017, Prop. 6 at sensitivity 1 with scale b/Δ (Δ = 1 or 2:
		// the division is exact).
		return Laplace{Scale: x.NoiseMultiplier / sens}
	case dp.RandomizedResponse:
		return PureDP{Eps: x.Epsilon0()}
	case dp.PoissonSampled:
		q, z := x.SamplingProbability, x.Event.(dp.Gaussian).NoiseMultiplier
		if r == dp.ReplaceOne { // remove then add (Mironov 2017, Prop. 11)
			return SampledGaussianReplaceOne{Q: q, Z: z}
		}
		return SampledGaussian{Q: q, Z: z} // Mironov–Talwar–Zhang 2019
	case dp.SampledWithoutReplacement: // replace-one only (dp.Check)
		// The dominating pair's Rényi divergence (exact Gaussian at m = n).
		return SampledGaussianFixedSize{Gamma: x.Rate(), Z: x.Event.(dp.Gaussian).NoiseMultiplier}
	case dp.RandomAllocation: // add/remove only (dp.Check)
		return AllocationCurve(x.NumSteps, x.Event.(dp.Gaussian).NoiseMultiplier).Table()
	case dp.SelfComposed:
		return Repeat(curveOf(x.Event, r, sens), float64(x.Count))
	case dp.Composed:
		cs := make([]Curve, len(x.Events))
		for i, c := range x.Events {
			cs[i] = curveOf(c, r, sens)
		}
		return Compose(cs...)
	}
	if c, ok := curveVocab(e, sens); ok {
		return c
	}
	panic("rdp: no curve for event type " + e.EventType())
}

// Account is ε(δ) of e under r with the order it was attained at. The δ
// of EpsilonDelta events (ExtraDelta) is taken from delta before the
// conversion; where it is delta or more, or e holds a NonPrivate event, ε
// is +Inf.
func (a Accountant) Account(e dp.Event, r dp.Relation, delta float64) (DP, error) {
	c, err := a.Curve(e, r)
	if err != nil {
		return DP{}, err
	}
	return a.AccountFor(e, c, delta)
}

// AccountFor is Account of e, whose curve is c (Curve): for a caller that
// has the curve already (as DeltaFor).
func (a Accountant) AccountFor(e dp.Event, c Curve, delta float64) (DP, error) {
	if !(delta > 0 && delta < 1) {
		return DP{}, ErrDelta
	}
	if dp.HasNonPrivate(e) {
		return DP{Epsilon: math.Inf(1), Delta: delta, Conversion: a.Conversion}, nil
	}
	dx := ExtraDelta(e)
	if dx >= delta {
		return DP{Epsilon: math.Inf(1), Delta: delta, Conversion: a.Conversion}, nil
	}
	if sm, ok := c.(*sum); ok && a.Progress != nil && len(sm.curves) >= parallelSum {
		// The same curve with a counter: optimizeOrder evaluates +Inf,
		// the default orders, at most 80 doublings and 60 refinements
		// (and the conversion a few more).
		total := int64(len(DefaultOrders()) + 160)
		var done atomic.Int64
		cp := *sm
		cp.tick = func() { a.Progress.Report(min(done.Add(1), total-1), total) }
		c = &cp
		defer a.Progress.Report(total, total)
	}
	p, err := EpsilonFor(c, math.Nextafter(delta-dx, 0), a.Conversion)
	p.Delta = delta
	if err == nil && math.IsNaN(p.Epsilon) {
		p.Epsilon = math.Inf(1)
	}
	return p, err
}

// Epsilon is the RDP bound on ε at delta.
func (a Accountant) Epsilon(e dp.Event, r dp.Relation, delta float64) (dp.Guarantee, error) {
	p, err := a.Account(e, r, delta)
	if err != nil {
		return dp.Guarantee{}, err
	}
	return dp.Guarantee{Epsilon: dp.Loss(p.Epsilon), Delta: dp.Loss(delta), Accountant: "rdp", Source: a.SourceFor(e, p), Assumptions: dp.Assumptions(e, r)}, nil
}

// Delta is the RDP bound on δ at epsilon (the conversion, and the total-
// variation bound where it is smaller).
func (a Accountant) Delta(e dp.Event, r dp.Relation, eps float64) (dp.Guarantee, error) {
	c, err := a.Curve(e, r)
	if err != nil {
		return dp.Guarantee{}, err
	}
	p, err := a.DeltaFor(e, c, eps)
	if err != nil {
		return dp.Guarantee{}, err
	}
	return dp.Guarantee{Epsilon: dp.Loss(eps), Delta: dp.Loss(p.Delta), Accountant: "rdp", Source: a.SourceFor(e, p), Assumptions: dp.Assumptions(e, r)}, nil
}

// DeltaFor is δ(eps) of e, whose curve is c (Curve): the conversion's δ
// plus ExtraDelta, and 1 where e holds a NonPrivate event.
func (a Accountant) DeltaFor(e dp.Event, c Curve, eps float64) (DP, error) {
	if dp.HasNonPrivate(e) {
		if !(eps >= 0) || math.IsInf(eps, 1) {
			return DeltaFor(c, eps, a.Conversion) // the same refusal
		}
		return DP{Epsilon: eps, Delta: 1, Conversion: a.Conversion}, nil
	}
	p, err := DeltaFor(c, eps, a.Conversion)
	if err != nil {
		return p, err
	}
	if dx := ExtraDelta(e); dx > 0 {
		p.Delta = math.Min(numeric.AddUp(p.Delta, dx), 1)
	}
	return p, nil
}

// SourceFor is Source with what the event e and the answer p add: the
// source Epsilon and Delta state.
func (a Accountant) SourceFor(e dp.Event, p DP) string {
	s := Source
	if a.Conversion != Improved {
		s += "; " + a.Conversion.Source()
	}
	wor := false
	_ = dp.Leaves(e, func(l dp.Event, _ float64) error {
		_, ok := l.(dp.SampledWithoutReplacement)
		wor = wor || ok
		return nil
	})
	if wor {
		s += "; sampling without replacement: " + SourceFixedSize
	}
	if hasVocab(e) {
		s += "; " + SourceVocab
	}
	alloc := false
	_ = dp.Leaves(e, func(l dp.Event, _ float64) error {
		_, ok := l.(dp.RandomAllocation)
		alloc = alloc || ok
		return nil
	})
	if alloc {
		s += "; balls-in-bins: " + SourceAllocation
	}
	if p.TotalVariation {
		s += "; ε = 0 by total variation ≤ √(1 − e^{−KL}) (Bretagnolle–Huber)"
	}
	return s
}
