package verify

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/composition/shuffle"
	"github.com/privamp/privamp/dp"
)

// ShuffleBounds is what privamp can say of a claim on shuffled batches:
// the run's ε lies in [EpsilonLower, EpsilonUpper] (composition/shuffle).
type ShuffleBounds struct {
	StepsPerEpoch int64   `json:"steps_per_epoch"`
	Epochs        int64   `json:"epochs"`
	EpsilonLower  dp.Max  `json:"epsilon_lower"`
	LowerSource   string  `json:"lower_source"`
	EpsilonUpper  dp.Loss `json:"epsilon_upper"`
	UpperSource   string  `json:"upper_source"`
}

// shuffleRun reads the shuffled run of r: n and batch_size, and whole
// epochs (given, or steps a multiple of T = ⌈n/batch_size⌉). ok is false,
// with the reason, when the claim does not describe one.
func shuffleRun(r DPSGDRun) (run shuffle.Run, why string) {
	if r.N == 0 {
		return run, "shuffled batches are bounded from n and batch_size; the claim gives sample_rate only"
	}
	T := (r.N + r.Batch - 1) / r.Batch
	E := float64(r.Epochs)
	if E == 0 {
		E = float64(r.Steps) / float64(T)
	}
	if E != math.Trunc(E) || E < 1 {
		return run, fmt.Sprintf("shuffled batches are bounded for whole epochs (full passes of ⌈n/batch_size⌉ = %d steps); the claim's run is %g epochs", T, E)
	}
	run = shuffle.Run{N: r.N, Batch: r.Batch, Epochs: int64(E), Noise: float64(r.NoiseMultiplier), Delta: float64(r.Delta), Neighbours: r.Neighbours}
	if err := run.Validate(); err != nil {
		return run, err.Error()
	}
	return run, ""
}

// verifyShuffle decides a claim on shuffled batches with the bounds of
// composition/shuffle: dp.Invalid when the lower bound exceeds the claimed
// ε (no (ε, δ) with that ε holds for the instance of Chua et al.), dp.Valid
// when the claim is at least the upper bound (no amplification assumed),
// dp.Unsupported with the interval otherwise; WorstEpsilon is the upper
// bound (certified) in all three. It returns false when the claim does not
// describe a shuffled run it can bound (v untouched).
func verifyShuffle(v *Verification, r DPSGDRun, claimed float64) (bool, error) {
	run, why := shuffleRun(r)
	if why != "" {
		return false, nil
	}
	up, err := shuffle.Upper(run)
	if err != nil {
		return true, err
	}
	lo, lsrc, err := shuffle.Lower(run)
	if err != nil {
		return true, err
	}
	lo = math.Min(lo, up)
	b := &ShuffleBounds{StepsPerEpoch: run.StepsPerEpoch(), Epochs: run.Epochs, EpsilonLower: dp.Max(lo), LowerSource: lsrc,
		EpsilonUpper: dp.Loss(up), UpperSource: shuffle.UpperSourceText}
	// The upper bound is certified whatever the verdict.
	v.Shuffle, v.Via, v.WorstEpsilon, v.CompositionEpsilon = b, ViaShuffle, dp.Loss(up), dp.Loss(up)
	v.Checks = append(v.Checks, check("shuffled batches", dp.Assumed, float64(run.Epochs), nan(), BasisTrust,
		fmt.Sprintf("one shuffle per epoch cut into ⌈n/batch_size⌉ = %d consecutive batches, %d epochs: each example is in exactly one batch per epoch", b.StepsPerEpoch, run.Epochs)))
	if run.Neighbours == dp.AddRemove {
		v.Assumptions = append(v.Assumptions, shuffle.ZeroOut)
	}
	interval := fmt.Sprintf("for these shuffled batches ε lies in [%s, %s] at δ = %g: lower bound by %s; upper bound by %s", b.EpsilonLower, b.EpsilonUpper, float64(r.Delta), lsrc, shuffle.UpperSourceText)
	v.Notes = append(v.Notes, interval)
	switch {
	case claimed >= up:
		v.Verdict, v.Source = dp.Valid, shuffle.UpperSourceText
	case lo > claimed:
		v.Verdict, v.Source = dp.Invalid, lsrc
		v.Checks = append(v.Checks, check("claimed ε ≥ lower bound", dp.Fail, claimed, lo, BasisArithmetic,
			fmt.Sprintf("the claimed ε = %g is below the lower bound %s of Chua et al.'s instance: no (ε, δ)-DP guarantee with this ε holds for shuffled batches", claimed, b.EpsilonLower)))
		if mu, err := composition.CalibrateGaussian(claimed, float64(r.Delta)); err == nil && mu > 0 {
			v.NoiseMultiplierNeeded = dp.Noise(math.Sqrt(float64(run.Epochs)) * run.Sensitivity() / mu)
			v.Notes = append(v.Notes, fmt.Sprintf("with noise multiplier %s (the rest unchanged) the upper bound meets the claim", v.NoiseMultiplierNeeded))
		}
	default:
		v.Verdict = dp.Unsupported
	}
	return true, nil
}

func nan() float64 { return math.NaN() }
