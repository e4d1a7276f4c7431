package dp

import (
	"math"
	"math/big"
)

// Event is one description of what a run did to the data, in the
// vocabulary of Google's dp_accounting (dp_event.py: the DpEvent classes,
// named here without the suffix). An event says what ran, not how it is
// accounted: an Accountant turns it into a guarantee. The events JSON of
// composition/events is the wire form of the same values.
//
// The set is open: a new mechanism or sampling scheme is a new type with an
// EventType method; accountants that do not know it say so (Supports).
type Event interface {
	// EventType is the dp_accounting class name without "DpEvent"
	// ("Gaussian", "PoissonSampled", …).
	EventType() string
}

// Gaussian is one release with Gaussian noise of standard deviation
// NoiseMultiplier times the sensitivity (dp_accounting's GaussianDpEvent).
type Gaussian struct{ NoiseMultiplier float64 }

// Laplace is one release with Laplace noise of scale NoiseMultiplier times
// the sensitivity (LaplaceDpEvent).
type Laplace struct{ NoiseMultiplier float64 }

// RandomizedResponse answers uniformly at random among NumBuckets values
// with probability NoiseParameter, and truthfully otherwise
// (RandomizedResponseDpEvent).
type RandomizedResponse struct {
	NoiseParameter float64
	NumBuckets     int64
}

// NoOp reveals nothing (NoOpDpEvent).
type NoOp struct{}

// PoissonSampled runs Event on a sample that holds each record
// independently with probability SamplingProbability
// (PoissonSampledDpEvent).
type PoissonSampled struct {
	SamplingProbability float64
	Event               Event
}

// SampledWithoutReplacement runs Event on SampleSize records drawn
// uniformly without replacement from SourceDatasetSize
// (SampledWithoutReplacementDpEvent): privamp's "fixed-size" batches.
type SampledWithoutReplacement struct {
	SourceDatasetSize, SampleSize int64
	Event                         Event
}

// RandomAllocation runs Event at each of NumSteps steps, and uses each
// record in exactly one of them, chosen uniformly at random and
// independently of the other records: one epoch of balls-in-bins batches
// (Chua et al., "Scalable DP-SGD: Shuffling vs. Poisson Subsampling",
// NeurIPS 2024, balls-and-bins; "random allocation" of 1 out of t steps in
// Feldman & Shenfeld, "Privacy amplification by random allocation", arXiv
// 2502.08202). dp_accounting has no such event; the name is the papers'.
// Event is a Gaussian; neighbours are add/remove.
type RandomAllocation struct {
	NumSteps int64
	Event    Event
}

// SelfComposed runs Event Count times, adaptively (SelfComposedDpEvent).
type SelfComposed struct {
	Event Event
	Count int64
}

// Composed runs Events one after the other, adaptively (ComposedDpEvent).
type Composed struct{ Events []Event }

func (Gaussian) EventType() string                  { return "Gaussian" }
func (Laplace) EventType() string                   { return "Laplace" }
func (RandomizedResponse) EventType() string        { return "RandomizedResponse" }
func (NoOp) EventType() string                      { return "NoOp" }
func (PoissonSampled) EventType() string            { return "PoissonSampled" }
func (SampledWithoutReplacement) EventType() string { return "SampledWithoutReplacement" }
func (SelfComposed) EventType() string              { return "SelfComposed" }
func (RandomAllocation) EventType() string          { return "RandomAllocation" }
func (Composed) EventType() string                  { return "Composed" }

// Rate is the chance m/n that a given record is in the sample.
func (s SampledWithoutReplacement) Rate() float64 {
	return float64(s.SampleSize) / float64(s.SourceDatasetSize)
}

// fixedSizeDenominator is the largest dataset size a rate is written over
// (2⁵³, where every whole number is a float64).
const fixedSizeDenominator = 1 << 53

// DPSGD is the event of a DP-SGD run (Abadi et al. 2016): steps of the
// Gaussian mechanism with noise multiplier z on a batch sampled at rate q,
// Poisson (each record independently) or WithoutReplacement (batches of
// b records out of n with b/n = q; DPSGDFixedSize where b and n are known).
// A rate without sizes is written as the fraction m/n of smallest n whose
// float64 quotient is q (a continued-fraction convergent), and where none
// with n ≤ 2⁵³ is, as m/2⁵³ with m = ⌈q·2⁵³⌉ > q: a larger rate, which
// only raises ε. With None every step sees every record (q is ignored).
// With BallsInBins an epoch is k = round(1/q) steps (the caller checks
// that 1/q is whole: rdp.DPSGD does) among which each record is used once,
// and the run is ⌈steps/k⌉ epochs: a last partial epoch is accounted as a
// whole one (its releases are a post-processing of the whole epoch's).
func DPSGD(q, z float64, steps int64, s Sampling) Event {
	var step Event = Gaussian{NoiseMultiplier: z}
	switch s {
	case BallsInBins:
		k := max(int64(math.Round(1/q)), 1)
		return SelfComposed{Event: RandomAllocation{NumSteps: k, Event: step}, Count: (steps + k - 1) / k}
	case Poisson:
		step = PoissonSampled{SamplingProbability: q, Event: step}
	case WithoutReplacement:
		m, n := fraction(q)
		step = SampledWithoutReplacement{SourceDatasetSize: n, SampleSize: m, Event: step}
	}
	return SelfComposed{Event: step, Count: steps}
}

// fraction returns m/n whose float64 quotient is q ∈ (0, 1] with the
// smallest n ≤ 2⁵³ among q's continued-fraction convergents, else m =
// ⌈q·2⁵³⌉ over 2⁵³ (then m/n ≥ q, exactly: a power-of-two denominator).
func fraction(q float64) (m, n int64) {
	// The convergents h/k of q's exact value num/den (a float64 is a
	// dyadic rational), in integers.
	r := new(big.Rat).SetFloat64(q)
	num, den := new(big.Int).Set(r.Num()), new(big.Int).Set(r.Denom())
	h0, h1, k0, k1 := big.NewInt(0), big.NewInt(1), big.NewInt(1), big.NewInt(0)
	limit := big.NewInt(fixedSizeDenominator)
	a, rem := new(big.Int), new(big.Int)
	for den.Sign() != 0 {
		a.QuoRem(num, den, rem)
		h0, h1 = h1, new(big.Int).Add(new(big.Int).Mul(a, h1), h0)
		k0, k1 = k1, new(big.Int).Add(new(big.Int).Mul(a, k1), k0)
		if k1.Cmp(limit) > 0 {
			break
		}
		if k1.Sign() > 0 && float64(h1.Int64())/float64(k1.Int64()) == q {
			return h1.Int64(), k1.Int64()
		}
		num, den = den, new(big.Int).Set(rem)
	}
	m = int64(q * fixedSizeDenominator)
	if float64(m) < q*fixedSizeDenominator {
		m++
	}
	return m, fixedSizeDenominator
}

// DPSGDFixedSize is the event of a DP-SGD run with batches of exactly
// batch records drawn without replacement from n at each step.
func DPSGDFixedSize(n, batch int64, z float64, steps int64) Event {
	return SelfComposed{Event: SampledWithoutReplacement{SourceDatasetSize: n, SampleSize: batch,
		Event: Gaussian{NoiseMultiplier: z}}, Count: steps}
}

// SampledGaussianRun is an event that is a sampled Gaussian run Steps
// times: the shape of a DP-SGD run.
type SampledGaussianRun struct {
	Rate     float64 // the sampling probability q, or m/n; 1 without sampling
	Noise    float64 // the noise multiplier z
	Steps    int64
	Sampling Sampling
}

// AsSampledGaussianRun reports whether e is k runs (nested SelfComposed
// counts multiply) of one Gaussian, Poisson-sampled or sampled without
// replacement or not sampled: the events a DP-SGD run writes, which the
// accountants treat as one run.
func AsSampledGaussianRun(e Event) (SampledGaussianRun, bool) {
	r := SampledGaussianRun{Steps: 1, Rate: 1, Sampling: None}
	for {
		s, ok := e.(SelfComposed)
		if !ok {
			break
		}
		r.Steps *= s.Count
		e = s.Event
	}
	switch s := e.(type) {
	case PoissonSampled:
		r.Rate, r.Sampling, e = s.SamplingProbability, Poisson, s.Event
	case SampledWithoutReplacement:
		r.Rate, r.Sampling, e = s.Rate(), WithoutReplacement, s.Event
	}
	g, ok := e.(Gaussian)
	r.Noise = g.NoiseMultiplier
	return r, ok
}
