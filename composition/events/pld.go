package events

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/composition/pld"
)

// maxPLDCount is the most runs of one mechanism the PLD accountant
// composes (as composition.DPSGDWith).
const maxPLDCount = math.MaxInt32

// pldBuilder turns a validated events tree into one PLD.
type pldBuilder struct {
	rel    dp.Relation
	sens   float64
	opt    pld.Options
	delta  float64 // the query's δ: self-compositions are tuned for it
	points int     // the largest grid built
}

func (b *pldBuilder) seen(p *pld.PLD) *pld.PLD {
	if p != nil && p.Len() > b.points {
		b.points = p.Len()
	}
	return p
}

// build returns the PLD of e, or nil for an event that reveals nothing
// (NoOp, randomized response with noise_parameter 1).
func (b *pldBuilder) build(e *Event) (*pld.PLD, error) {
	p, err := b.event(e)
	return b.seen(p), err
}

func (b *pldBuilder) event(e *Event) (*pld.PLD, error) {
	switch e.Type {
	case TypeNoOp:
		return nil, nil
	case TypeGaussian:
		// Gaussian(sensitivity Δ, σ = noise_multiplier): μ = Δ/z
		// (Balle–Wang 2018, Thm 8).
		return pld.Gaussian(b.sens, *e.NoiseMultiplier, b.opt)
	case TypeLaplace:
		return pld.Laplace(b.sens, *e.NoiseMultiplier, b.opt)
	case TypeRandomizedResponse:
		eps0 := rrEpsilon(*e.NoiseParameter)
		if eps0 == 0 {
			return nil, nil
		}
		return pld.RandomizedResponse(eps0, b.opt)
	case TypePoissonSampled:
		q, z := *e.SamplingProbability, *e.Event.NoiseMultiplier
		switch {
		case b.rel == dp.AddRemove:
			return pld.SubsampledGaussian(q, z, b.opt)
		case q == 1: // every record in every batch: the Gaussian with Δ = 2
			return pld.Gaussian(b.sens, z, b.opt)
		}
		return pld.SubsampledGaussianReplaceOne(q, z, b.opt)
	case TypeSampledWithoutReplacement: // replace_one only (validated)
		n, m, z := *e.SourceDatasetSize, *e.SampleSize, *e.Event.NoiseMultiplier
		if m == n {
			return pld.Gaussian(b.sens, z, b.opt)
		}
		return pld.SubsampledGaussianReplaceOne(float64(m)/float64(n), z, b.opt)
	case TypeSelfComposed:
		k, in := *e.Count, e.Event
		for in.Type == TypeSelfComposed { // nested counts multiply
			k *= *in.Count
			in = in.Event
		}
		if in.Type == TypeGaussian {
			// k Gaussians with μ compose exactly to one with μ√k
			// (Dong–Roth–Su 2019, Cor. 3.3); Δ√k is rounded up.
			s := b.sens
			if k > 1 {
				s = math.Nextafter(s*math.Sqrt(float64(k)), math.Inf(1))
			}
			return pld.Gaussian(s, *in.NoiseMultiplier, b.opt)
		}
		p, err := b.build(in)
		if err != nil || p == nil || k == 1 {
			return p, err
		}
		if b.delta > 0 && b.delta < 1 {
			return p.SelfComposeFor(int(k), b.delta)
		}
		return p.SelfCompose(int(k))
	case TypeComposed:
		var acc *pld.PLD
		for i := range e.Events {
			p, err := b.build(&e.Events[i])
			if err != nil {
				return nil, err
			}
			switch {
			case p == nil:
			case acc == nil:
				acc = p
			default:
				if acc, err = b.seen(acc).Compose(p); err != nil {
					return nil, err
				}
			}
		}
		return acc, nil
	}
	panic("events: unvalidated event type " + e.Type)
}

// composeAll returns the PLD of the validated tree e flattened into its
// mechanisms, each with the product of the counts around it (a Gaussian run
// k times is one Gaussian with √k times the sensitivity, as in event), by
// pld.ComposeFor at delta (0: untuned); nil if nothing is revealed.
func (b *pldBuilder) composeAll(e *Event, delta float64) (*pld.PLD, error) {
	var parts []pld.Part
	var visit func(e *Event, k int64) error
	visit = func(e *Event, k int64) error {
		switch e.Type {
		case TypeSelfComposed:
			return visit(e.Event, k**e.Count)
		case TypeComposed:
			for i := range e.Events {
				if err := visit(&e.Events[i], k); err != nil {
					return err
				}
			}
			return nil
		}
		if e.Type == TypeGaussian && k > 1 {
			s := math.Nextafter(b.sens*math.Sqrt(float64(k)), math.Inf(1))
			p, err := pld.Gaussian(s, *e.NoiseMultiplier, b.opt)
			if err != nil {
				return err
			}
			parts = append(parts, pld.Part{PLD: p, Count: 1})
			return nil
		}
		p, err := b.event(e)
		if p != nil {
			b.seen(p)
			parts = append(parts, pld.Part{PLD: p, Count: int(k)})
		}
		return err
	}
	if err := visit(e, 1); err != nil || len(parts) == 0 {
		return nil, err
	}
	p, err := pld.ComposeFor(parts, delta)
	return b.seen(p), err
}

// rrEpsilon is the ε₀ of binary randomized response that answers uniformly
// at random with probability p ∈ (0, 1] (dp_accounting's
// RandomizedResponseDpEvent with num_buckets 2): it reports the true bit
// with probability 1 − p/2, so ε₀ = ln((1 − p/2)/(p/2)) = ln(2 − p) − ln p,
// rounded up (each logarithm and 2 − p carry at most 2⁻⁵² relative
// error). p = 1 gives 0: the answer is independent of the record.
func rrEpsilon(p float64) float64 {
	if p == 1 {
		return 0
	}
	a, c := math.Log(2-p), math.Log(p)
	e := a - c
	return e + 0x1p-50*(1+math.Abs(a)+math.Abs(c)+e)
}
