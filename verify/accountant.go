package verify

import (
	"fmt"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// Options configure VerifyDPSGD (and VerifyWith).
type Options struct {
	// Accountant certifies a DP-SGD claim's run: any dp.Accountant (its
	// ε(δ) a sound upper bound) plugs in without a change to the claim
	// code. nil is composition.Tightest(), the ε `privamp dpsgd` prints.
	Accountant dp.Accountant
}

// accountant returns o's accountant, composition.Tightest() when none is
// set.
func (o Options) accountant() dp.Accountant {
	if o.Accountant == nil {
		return composition.Tightest()
	}
	return o.Accountant
}

// via is how a verification names the accountant a (its Via): privamp's
// own accountants by what they are, any other by its Name.
func via(a dp.Accountant) string {
	switch a.Name() {
	case composition.AccountBest:
		return "tightest accountant (PLD or RDP)"
	case composition.AccountRDP:
		return "RDP accountant"
	case composition.AccountPLD:
		return "PLD accountant"
	}
	return a.Name()
}

// Event is the run r with noise multiplier z as a dp.Event, the one
// description every accountant reads: r.Steps steps of the Gaussian on a
// Poisson sample at rate q, or on batches of r.Batch drawn without
// replacement from r.N (dp.DPSGDFixedSize; from the rate alone where the
// claim gives no sizes), as `privamp dpsgd` builds the same run
// (rdp.DPSGD.Event). A shuffled run has no event of its own: it is
// accounted here as Poisson sampling, for reference only.
func (r DPSGDRun) Event(z float64) dp.Event {
	if r.Sampling == SamplingBallsInBins {
		return dp.DPSGD(float64(r.SamplingRate), z, r.Steps, dp.BallsInBins)
	}
	if r.Sampling != SamplingFixedSize {
		return dp.DPSGD(float64(r.SamplingRate), z, r.Steps, dp.Poisson)
	}
	if r.N > 0 && r.Batch > 0 {
		return dp.DPSGDFixedSize(r.N, r.Batch, z, r.Steps)
	}
	return dp.DPSGD(float64(r.SamplingRate), z, r.Steps, dp.WithoutReplacement)
}

// runEpsilon is a's ε for the run r at r.Delta.
func runEpsilon(a dp.Accountant, r DPSGDRun) (dp.Guarantee, error) {
	return a.Epsilon(r.Event(float64(r.NoiseMultiplier)), r.Neighbours, float64(r.Delta))
}

// noiseSearch is where noiseFor looks: noise multipliers in [10⁻³, 10⁶],
// to relative resolution 10⁻⁹.
var noiseSearch = dp.Search{Min: 1e-3, Max: 1e6, RelTol: 1e-9}

// noiseFor returns the smallest noise multiplier (up to noiseSearch's
// resolution) for which a certifies ε ≤ epsilon for r with its noise
// multiplier replaced: dp.Calibrate (the one bisection), started at r's
// own noise multiplier, and then asked of a once more. An uncertified value
// is never returned: where a does not certify the answer when asked again,
// or no noise multiplier ≤ 10⁶ meets the target, it is an error.
func noiseFor(a dp.Accountant, r DPSGDRun, epsilon float64) (float64, error) {
	if z, ok := dpsgdNoiseFor(a, r, epsilon); ok {
		return z, nil
	}
	s := noiseSearch
	s.Guess = float64(r.NoiseMultiplier)
	z, _, err := dp.Calibrate(a, r.Event, r.Neighbours, float64(r.Delta), epsilon, s)
	if err != nil && err != dp.ErrBelowMin {
		return 0, fmt.Errorf("the %s certifies ε ≤ %g with no noise multiplier ≤ %g", via(a), epsilon, s.Max)
	}
	at := r
	at.NoiseMultiplier = dp.Noise(z)
	if g, err := runEpsilon(a, at); err != nil || float64(g.Epsilon) > epsilon {
		return 0, fmt.Errorf("the %s's calibration gave noise multiplier %g, which it does not certify for ε ≤ %g when asked again", via(a), z, epsilon)
	}
	return z, nil
}

// dpsgdNoiseFor is, for privamp's own accountant (composition.Tight), the
// noise multiplier `privamp dpsgd --target-epsilon` calibrates for the same
// run (composition.DPSGDWith: the PLD's coarse-then-fine calibration, from
// RDP's answer), so that a claim's "noise needed" is the number dpsgd
// prints; it is returned only where a certifies it when asked again. ok is
// false for any other accountant, or where that calibration has no
// certified answer (noiseFor then searches with dp.Calibrate).
func dpsgdNoiseFor(a dp.Accountant, r DPSGDRun, epsilon float64) (float64, bool) {
	t, isTight := a.(composition.Tight)
	if !isTight {
		return 0, false
	}
	d := rdp.DPSGD{Steps: float64(r.Steps), Delta: float64(r.Delta), Neighbours: r.Neighbours, Calibrate: true,
		TargetEpsilon: epsilon, Conversion: t.Conversion, SamplingRate: float64(r.SamplingRate)}
	if r.Sampling == SamplingBallsInBins {
		d.Sampling = dp.BallsInBins
	}
	if r.Sampling == SamplingFixedSize {
		d.Sampling = dp.WithoutReplacement
		if r.N > 0 && r.Batch > 0 {
			d.SamplingRate, d.N, d.Batch = 0, float64(r.N), float64(r.Batch)
		}
	}
	res, err := composition.DPSGDWith(d, t.Name())
	if err != nil {
		return 0, false
	}
	at := r
	at.NoiseMultiplier = res.NoiseMultiplier
	if g, err := runEpsilon(a, at); err != nil || !(float64(g.Epsilon) <= epsilon) {
		return 0, false
	}
	return float64(res.NoiseMultiplier), true
}
