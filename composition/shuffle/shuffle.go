// Package shuffle accounts DP-SGD with shuffled fixed-size batches: each
// epoch shuffles the n records once and cuts T = ⌈n/b⌉ consecutive batches
// (the data loaders of Opacus, JAX and TensorFlow). No tight accountant of
// this sampler is known; privamp gives the interval that holds the truth:
//
//   - an upper bound without amplification: a record lands in one batch per
//     epoch, so an epoch is at most one (adaptive) Gaussian release of
//     sensitivity Δ (1 under add/remove, 2 under replace-one, in units of
//     the clip norm) at noise z, and E epochs compose to one Gaussian
//     mechanism with μ = √E·Δ/z (Dong–Roth–Su 2019, Cor. 3.3, adaptive
//     composition), whose ε is exact (Balle–Wang 2018, Thm 8:
//     composition.GaussianEpsilon);
//   - a lower bound (Chua et al., ICML 2024 and NeurIPS 2024; see lower.go):
//     an instance whose privacy loss is at least this, so a claim below it
//     is false for shuffled batches;
//   - the ε people report for it: the Poisson-subsampled accountant at
//     q = b/n and the same steps, which does not describe this sampler.
//
// Add/remove neighbours are read as zero-out (ZeroOut): the neighbour's
// record keeps its slot in the shuffle and contributes nothing, so the
// batch sizes and every other record's batch are the same in both runs,
// which the upper bound needs. Where removing a record re-cuts the n − 1
// others into batches, every coupling of the two shuffles moves a second
// record between batches when the removed one was not in the last batch,
// and Δ = 1 per epoch is not proved here. The lower bound holds under both
// readings (lower.go).
package shuffle

import (
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// Run is a shuffled-batch DP-SGD run.
type Run struct {
	N          int64       // records (≥ 2)
	Batch      int64       // batch size b, 2 ≤ b ≤ N
	Epochs     int64       // E ≥ 1 (each a full pass over the records)
	Noise      float64     // noise multiplier z = σ/C > 0
	Delta      float64     // δ ∈ (0, 1)
	Neighbours dp.Relation // add/remove (zero value; read as ZeroOut) or replace-one
	// Persistent: one shuffle for all epochs (the same batches every
	// epoch) instead of a fresh shuffle per epoch (the default).
	Persistent bool
}

// StepsPerEpoch is T = ⌈n/b⌉.
func (r Run) StepsPerEpoch() int64 { return (r.N + r.Batch - 1) / r.Batch }

// Validate reports the first field out of range as a *dp.Error.
func (r Run) Validate() error {
	switch {
	case r.N < 2:
		return field.New("n", r.N, "must be a whole number ≥ 2")
	case r.Batch < 2 || r.Batch > r.N:
		return field.New("batch", r.Batch, "must be a whole number in [2, n = %d] for shuffled batches", r.N)
	case r.Epochs < 1 || r.Epochs > 1e6:
		return field.New("epochs", r.Epochs, "must be a whole number in [1, 1e6] for shuffled batches (each epoch a full pass)")
	case !(r.Noise > 0) || math.IsInf(r.Noise, 1):
		return field.New("noise", r.Noise, "must be a finite number > 0")
	}
	return field.OpenUnit("delta", r.Delta)
}

// Result is the interval privamp can state for a shuffled run.
type Result struct {
	N               dp.Num      `json:"n"`
	Batch           dp.Num      `json:"batch"`
	Epochs          dp.Num      `json:"epochs"`
	StepsPerEpoch   dp.Num      `json:"steps_per_epoch"`
	Steps           dp.Num      `json:"steps"`
	NoiseMultiplier dp.Noise    `json:"noise_multiplier"`
	Delta           dp.Loss     `json:"delta"`
	Neighbours      dp.Relation `json:"neighbours"`
	Persistent      bool        `json:"persistent"`
	// EpsilonLower is a lower bound on the run's ε at Delta: no smaller ε
	// holds for every pair of neighbours (printed rounded down).
	EpsilonLower dp.Max `json:"epsilon_lower"`
	LowerSource  string `json:"lower_source"`
	// EpsilonUpper is a sound ε (no amplification by shuffling assumed).
	EpsilonUpper dp.Loss `json:"epsilon_upper"`
	Mu           dp.Num  `json:"mu"`
	UpperSource  string  `json:"upper_source"`
	// EpsilonPoisson is what the Poisson-subsampled accountant reports at
	// q = b/n and E·T steps: not a guarantee for shuffled batches.
	EpsilonPoisson dp.Loss `json:"epsilon_poisson_reported"`
	PoissonSource  string  `json:"poisson_source"`
}

// Source strings.
const (
	UpperSourceText = "no amplification: each epoch is at most one Gaussian release of sensitivity Δ at noise z; E epochs compose to μ = √E·Δ/z (Dong–Roth–Su 2019, Cor. 3.3), exact ε (Balle–Wang 2018, Thm 8)"
	lowerSourceText = "Chua et al. (ICML 2024, arXiv 2403.17673; NeurIPS 2024, arXiv 2411.04205): ABLQ with shuffled batches, 1-D instance, sets {max_t w_t ≤ C} (as in the authors' dpsgd_batch_sampler_accounting)"
)

// ZeroOut is the assumption the upper bound makes of add/remove neighbours.
const ZeroOut = "add/remove read as zero-out (Kairouz et al. 2021): the neighbour's example keeps its place in the shuffle and contributes nothing, so batch sizes and every other example's batch are unchanged (the upper bound needs this; with n − 1 examples re-cut into batches it is not proved)"

// Sensitivity is Δ in units of the clip norm: 1 (add/remove, read as
// zero-out) or 2 (replace-one).
func (r Run) Sensitivity() float64 {
	if r.Neighbours == dp.ReplaceOne {
		return 2
	}
	return 1
}

// Mu is μ = √E·Δ/z of the upper bound.
func (r Run) Mu() float64 { return math.Sqrt(float64(r.Epochs)) * r.Sensitivity() / r.Noise }

// Upper returns the sound ε of the run without amplification.
func Upper(r Run) (float64, error) {
	if err := r.Validate(); err != nil {
		return 0, err
	}
	return composition.GaussianEpsilon(r.Mu(), r.Delta)
}

// Lower returns a lower bound on the run's ε at r.Delta (see lower.go) and
// its source.
func Lower(r Run) (float64, string, error) {
	if err := r.Validate(); err != nil {
		return 0, "", err
	}
	T, rep := r.StepsPerEpoch(), r.Neighbours == dp.ReplaceOne
	single := func(sigma float64) float64 {
		return lowerEpsilon(func(eps float64) float64 { return cubeDelta(sigma, T, eps, rep) }, r.Delta)
	}
	if r.Epochs == 1 || r.Persistent {
		src := lowerSourceText + "; single epoch"
		if r.Epochs > 1 {
			src += " at z/√E (one order for all epochs: the E copies of each batch sum averaged)"
		}
		return single(r.Noise / math.Sqrt(float64(r.Epochs))), src, nil
	}
	// Tails of total mass ≤ 10⁻⁴·δ are dropped: δ is lowered by at most that.
	d := composedDist(r.Noise, T, r.Epochs, rep, 0.5e-4*r.Delta/float64(r.Epochs))
	src := lowerSourceText + "; epochs reshuffled: the per-epoch max composed, losses rounded down to a grid of " + dp.Num(d.h).String()
	e := lowerEpsilon(d.delta, r.Delta)
	// One epoch alone is a post-processing of E: its bound holds too, and
	// is the larger where the slices' masses underflow (noise ≲ 0.05).
	if e1 := single(r.Noise); e1 > e {
		return e1, lowerSourceText + "; the first epoch alone (the composed epochs' masses underflow here)", nil
	}
	return e, src, nil
}

// Account returns the lower and upper bounds of the run and the Poisson
// number reported for it (composition.DPSGDWith with the accountant named
// a: rdp, pld or best; "" is best).
func Account(r Run, a string) (Result, error) {
	if a == "" {
		a = composition.AccountBest
	}
	up, err := Upper(r)
	if err != nil {
		return Result{}, err
	}
	lo, lsrc, err := Lower(r)
	if err != nil {
		return Result{}, err
	}
	T := r.StepsPerEpoch()
	pr, err := composition.DPSGDWith(rdp.DPSGD{N: float64(r.N), Batch: float64(r.Batch), Steps: float64(T * r.Epochs),
		Noise: r.Noise, Delta: r.Delta, Neighbours: r.Neighbours}, a)
	if err != nil {
		return Result{}, err
	}
	return Result{N: dp.Num(r.N), Batch: dp.Num(r.Batch), Epochs: dp.Num(r.Epochs), StepsPerEpoch: dp.Num(T),
		Steps: dp.Num(T * r.Epochs), NoiseMultiplier: dp.Noise(r.Noise), Delta: dp.Loss(r.Delta),
		Neighbours: r.Neighbours, Persistent: r.Persistent,
		EpsilonLower: dp.Max(math.Min(lo, up)), LowerSource: lsrc,
		EpsilonUpper: dp.Loss(up), Mu: dp.Num(r.Mu()), UpperSource: UpperSourceText,
		EpsilonPoisson: pr.Epsilon, PoissonSource: "Poisson subsampling at q = b/n: " + pr.Source + " (describes a different sampler)"}, nil
}

// FromDPSGD reads a shuffled run from the DP-SGD description the dpsgd
// command and claims use: n, batch and whole epochs, the noise multiplier
// (no calibration), δ and the relation. Errors name the DP-SGD field.
func FromDPSGD(d rdp.DPSGD) (Run, error) {
	whole := func(name string, v float64) (int64, error) {
		if v == 0 {
			return 0, field.New(name, nil, "is required for shuffled batches (n, batch and whole epochs)")
		}
		if v != math.Trunc(v) || !(v >= 1) || v > 1e15 {
			return 0, field.New(name, v, "must be a whole number ≥ 1 for shuffled batches (every epoch a full pass over n records in batches of batch)")
		}
		return int64(v), nil
	}
	switch {
	case d.Calibrate:
		return Run{}, field.New("target_epsilon", d.TargetEpsilon, "is not available for shuffled batches: give the noise multiplier (no calibration: the answer is an interval)")
	case d.SamplingRate != 0:
		return Run{}, field.New("sampling_rate", d.SamplingRate, "is not used by shuffled batches: give n and batch")
	case d.Steps != 0:
		return Run{}, field.New("steps", d.Steps, "is not used by shuffled batches: give epochs (whole passes)")
	}
	n, err := whole("n", d.N)
	if err != nil {
		return Run{}, err
	}
	b, err := whole("batch", d.Batch)
	if err != nil {
		return Run{}, err
	}
	e, err := whole("epochs", d.Epochs)
	if err != nil {
		return Run{}, err
	}
	r := Run{N: n, Batch: b, Epochs: e, Noise: d.Noise, Delta: d.Delta, Neighbours: d.Neighbours}
	return r, r.Validate()
}

// Assumptions are what the bounds of r assume, as privamp dpsgd --sampling
// shuffle prints them (and package query returns them).
func (r Result) Assumptions() []string {
	a := []string{
		"each epoch shuffles the n examples once (afresh every epoch) and cuts ⌈n/batch⌉ consecutive batches: every example is in exactly one batch per epoch",
		"per-example gradients are clipped to ℓ2 norm ≤ C and the summed batch gradient gets N(0, (zC)²I) noise",
		"neighbouring data sets: " + r.Neighbours.String() + "; all intermediate models may be released",
	}
	if r.Neighbours == dp.AddRemove {
		a = append(a, ZeroOut)
	}
	return a
}

// Notes say how to read the interval of r, as privamp dpsgd --sampling
// shuffle prints them.
func (r Result) Notes() []string {
	return []string{
		"the ε of shuffled batches lies in [lower, upper]: a claim below the lower bound is false; one at or above the upper bound holds",
		"the Poisson ε is what Opacus, TF-Privacy and JAX users commonly report for this run; it is a guarantee for Poisson sampling only, not for shuffled batches",
	}
}
