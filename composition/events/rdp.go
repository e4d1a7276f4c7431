package events

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/rdp"
)

// rdpCurve returns the RDP curve of a validated event tree.
func rdpCurve(e *Event, rel dp.Relation, sens float64) rdp.Curve {
	switch e.Type {
	case TypeNoOp:
		return rdp.Linear(0)
	case TypeGaussian:
		return rdp.Gaussian(sens, *e.NoiseMultiplier) // Mironov 2017, Prop. 7
	case TypeLaplace:
		// Mironov 2017, Prop. 6 at sensitivity 1 with scale b/Δ (Δ = 1 or 2:
		// the division is exact).
		return rdp.Laplace{Scale: *e.NoiseMultiplier / sens}
	case TypeRandomizedResponse:
		return rdp.PureDP{Eps: rrEpsilon(*e.NoiseParameter)}
	case TypePoissonSampled:
		q, z := *e.SamplingProbability, *e.Event.NoiseMultiplier
		if rel == dp.ReplaceOne { // remove then add (Mironov 2017, Prop. 11)
			return rdp.SampledGaussianReplaceOne{Q: q, Z: z}
		}
		return rdp.SampledGaussian{Q: q, Z: z} // Mironov–Talwar–Zhang 2019
	case TypeSampledWithoutReplacement: // replace_one only (validated)
		n, m, z := *e.SourceDatasetSize, *e.SampleSize, *e.Event.NoiseMultiplier
		// The dominating pair's Rényi divergence (exact Gaussian at m = n).
		return rdp.SampledGaussianFixedSize{Gamma: float64(m) / float64(n), Z: z}
	case TypeSelfComposed:
		return rdp.Repeat(rdpCurve(e.Event, rel, sens), float64(*e.Count))
	case TypeComposed:
		cs := make([]rdp.Curve, len(e.Events))
		for i := range e.Events {
			cs[i] = rdpCurve(&e.Events[i], rel, sens)
		}
		return rdp.Compose(cs...)
	}
	panic("events: no RDP curve for event type " + e.Type)
}

// rdpEpsilon returns ε(δ) by the RDP curve c under the improved conversion
// (Canonne–Kamath–Steinke 2020, Prop. 12), optimised over real orders.
func rdpEpsilon(c rdp.Curve, delta float64) (rdp.DP, error) {
	dp, err := rdp.EpsilonFor(c, delta, rdp.Improved)
	if err == nil && math.IsNaN(dp.Epsilon) {
		dp.Epsilon = math.Inf(1)
	}
	return dp, err
}

// rdpDelta returns δ(ε) by the RDP curve c (improved conversion, and the
// total-variation bound where it is smaller).
func rdpDelta(c rdp.Curve, eps float64) (float64, error) {
	dp, err := rdp.DeltaFor(c, eps, rdp.Improved)
	return dp.Delta, err
}
