package pld

import (
	"errors"
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"
	"strings"
	"sync/atomic"

	"github.com/privamp/privamp/internal/field"
)

// Result is the PLD accountant's answer: a sound ε and the optimistic
// estimate below it (the exact ε lies in [EpsilonOptimistic, Epsilon]).
type Result struct {
	// Guarantee: Epsilon is an upper bound on the exact ε at Delta (sound
	// discretization, all truncated mass and FFT error added to δ).
	dp.Guarantee
	// EpsilonOptimistic is the optimistic (rounded-down) estimate, a lower
	// estimate and never a guarantee (printed rounded down).
	EpsilonOptimistic dp.Max `json:"epsilon_optimistic"`
	// Discretization is the grid interval h.
	Discretization dp.Num `json:"discretization"`
	// Method is the sound discretization used ("connect-the-dots" or
	// "pessimistic").
	Method string `json:"method"`
	// Points is the largest grid the composition needed.
	Points int `json:"points"`
	// At is δ at the ε asked of AccountAt, read off the same PLDs as
	// Epsilon (nil when none was asked).
	At []DeltaAt `json:"-"`
}

// DeltaAt is δ at Epsilon from a sound PLD (Delta, an upper bound) and
// from the optimistic one (Optimistic, an estimate from below, never a
// guarantee).
type DeltaAt struct {
	Epsilon, Delta, Optimistic float64
}

// deltasAt reads δ at each of xs off the sound and the optimistic PLD (nil
// PLDs: an event that reveals nothing, δ = 0).
func deltasAt(sound, optim *PLD, xs []float64) []DeltaAt {
	if len(xs) == 0 {
		return nil
	}
	out := make([]DeltaAt, len(xs))
	for i, x := range xs {
		out[i].Epsilon = x
		if sound != nil {
			out[i].Delta = sound.Delta(x)
		}
		if optim != nil { // nil under SoundOnly: no optimistic δ
			out[i].Optimistic = optim.Delta(x)
		}
	}
	return out
}

const source = "PLD accountant: Doroshenko et al. 2022 (connect the dots), Meiser–Mohammadi 2018 (privacy buckets), Koskela et al. 2020 (FFT)"

// accountBoth builds the one-step sound and optimistic PLDs with build and
// returns ε at delta of their k-fold compositions. The sound PLD composes
// both directions; the optimistic estimate composes only the direction
// whose sound Chernoff bound on ε is larger (the one that decides ε): the
// optimistic ε of one direction is already an estimate from below of the
// exact ε, which is the larger of the two directions'. The three
// compositions run in parallel.
func accountBoth(delta float64, k int, opt Options, build func(Options) (*PLD, error)) (Result, error) {
	if err := field.OpenUnit("delta", delta); err != nil {
		return Result{}, err
	}
	if opt.Discretization == Optimistic {
		return Result{}, field.New("discretization_method", opt.Discretization.String(), "must be sound (connect-the-dots or pessimistic); the optimistic estimate is always reported beside it")
	}
	o, err := opt.withDefaults()
	if err != nil {
		return Result{}, err
	}
	// A default interval whose one-step grid would exceed autoPoints, or
	// whose composed window would exceed autoWindow, is coarsened: each
	// retry takes the interval the refusing grid named, or scales it by the
	// window's excess.
	o.coarsen = opt.Interval == 0
	if o.coarsen {
		o.MaxPoints = min(o.MaxPoints, autoWindow)
	}
	coarsened := false
	for try := 0; ; try++ {
		r, err := accountOnce(delta, k, o, build, coarsened)
		var c *coarserGrid
		var w *overCap
		switch {
		case try == 4 || !o.coarsen:
			return r, err
		case errors.As(err, &c):
			o.Interval = math.Max(c.H, o.Interval)
		case errors.As(err, &w):
			o.Interval *= w.points / float64(w.cap) * 1.05
		default:
			return r, err
		}
		coarsened = true
	}
}

// autoWindow caps the composed window (the FFT length) of a composition
// whose interval is left to its default: 2²² points, a few hundred MB in
// all. Past it the interval is coarsened (accountBoth).
var autoWindow = 1 << 22 // a variable only so that a -short test can shrink it

// overCap is a composed window over the point cap: points needed, cap.
type overCap struct {
	err    error
	points float64
	cap    int
}

func (e *overCap) Error() string { return e.err.Error() }
func (e *overCap) Unwrap() error { return e.err }

// accountOnce is accountBoth at one interval (o set; coarsened: say so in
// the source).
func accountOnce(delta float64, k int, o Options, build func(Options) (*PLD, error), coarsened bool) (Result, error) {
	sound1, err := build(o)
	if err != nil {
		return Result{}, err
	}
	if o.SoundOnly {
		sound, err := sound1.selfComposeAt(k, delta)
		if err != nil {
			return Result{}, err
		}
		e, _ := sound.Epsilon(delta)
		at := deltasAt(sound, nil, o.at)
		points := sound.Len()
		sound.release()
		return result(e, 0, delta, o, points, coarsened, at), nil
	}
	oo := o
	oo.Discretization = Optimistic
	optim1, err := build(oo)
	if err != nil {
		return Result{}, err
	}
	optDir := optim1.remove
	if sound1.add != nil && optim1.add != nil {
		_, cr := sound1.remove.tiltFor(k, delta)
		_, ca := sound1.add.tiltFor(k, delta)
		if ca > cr {
			optDir = optim1.add
		}
	}
	// With δ asked at some ε (o.at), the optimistic PLD's other direction
	// is composed too: δ is the larger of the two directions' (PLD.Delta).
	var other *pmf
	if len(o.at) > 0 && optim1.add != nil {
		other = optim1.add
		if optDir == optim1.add {
			other = optim1.remove
		}
	}
	var optK, otherK *pmf
	var errOpt, errOther error
	var stop atomic.Bool // raised when the sound composition fails
	optDir.stop = &stop
	if other != nil {
		other.stop = &stop
	}
	done := make(chan struct{})
	go func() { // the optimistic estimate in parallel
		defer close(done)
		optK, errOpt = optDir.selfComposeAt(k, o.MaxPoints, delta)
		if errOpt == nil && other != nil {
			otherK, errOther = other.selfComposeAt(k, o.MaxPoints, delta)
		}
	}()
	sound, err := sound1.selfComposeAt(k, delta)
	if err != nil {
		stop.Store(true) // the optimistic estimate is not needed
	}
	<-done
	if errOpt == nil {
		errOpt = errOther
	}
	if err != nil || errOpt != nil {
		for _, f := range []*pmf{optK, otherK} {
			if f != nil {
				putBuf(f.p)
			}
		}
		if err != nil {
			return Result{}, err
		}
		return Result{}, errOpt
	}
	e, _ := sound.Epsilon(delta)
	eo := optK.profile(false).epsilon(delta)
	var at []DeltaAt
	if len(o.at) > 0 {
		optim := &PLD{opt: optim1.opt, remove: optK}
		if otherK != nil {
			if optDir == optim1.add {
				optim.remove, optim.add = otherK, optK
			} else {
				optim.add = otherK
			}
		}
		at = deltasAt(sound, optim, o.at)
	}
	points := sound.Len()
	sound.release()
	putBuf(optK.p)
	if otherK != nil {
		putBuf(otherK.p)
	}
	return result(e, eo, delta, o, points, coarsened, at), nil
}

// result is accountOnce's answer: sound ε e, optimistic eo (0 under
// SoundOnly), at delta on the grid of o, and δ at the ε asked (at).
func result(e, eo, delta float64, o Options, points int, coarsened bool, at []DeltaAt) Result {
	src := source
	if coarsened {
		src += fmt.Sprintf("; grid interval coarsened from %g to %.4g so that one mechanism's grid stays within %d points and a composition within %d (sound, less tight)", DefaultInterval, o.Interval, autoPoints, autoWindow)
	}
	return Result{Guarantee: dp.Guarantee{Epsilon: dp.Loss(e), Delta: dp.Loss(delta), Source: src}, EpsilonOptimistic: dp.Max(math.Min(eo, e)), Discretization: dp.Num(o.Interval),
		Method: o.Discretization.String(), Points: points, At: at}
}

// DPSGD accounts for steps of the Poisson-subsampled Gaussian (DP-SGD with
// sampling rate q and noise multiplier z) under add/remove-one neighbours.
func DPSGD(q, z float64, steps int, delta float64, opt Options) (Result, error) {
	if steps < 1 {
		return Result{}, field.New("steps", steps, "must be a whole number ≥ 1")
	}
	if !(q > 0 && q <= 1) {
		return Result{}, field.New("sampling_rate", q, "must be in (0, 1]")
	}
	if err := field.Positive("noise", z); err != nil {
		return Result{}, err
	}
	if err := field.OpenUnit("delta", delta); err != nil {
		return Result{}, err
	}
	opt = opt.tailFor(steps, delta)
	// The sound and optimistic grids share one table of tails, filled by
	// the first (the grid does not depend on the discretization method).
	var cache [2][]tl
	return accountBoth(delta, steps, opt, func(o Options) (*PLD, error) {
		return subsampledGaussian(q, z, o, &cache)
	})
}

// DPSGDReplaceOne accounts for steps of DP-SGD under replace-one
// neighbours with the dominating PLD of SubsampledGaussianReplaceOne:
// gamma is the sampling rate q (Poisson) or b/n (fixed-size batches of b
// drawn without replacement from n), z the noise multiplier.
func DPSGDReplaceOne(gamma, z float64, steps int, delta float64, opt Options) (Result, error) {
	if steps < 1 {
		return Result{}, field.New("steps", steps, "must be a whole number ≥ 1")
	}
	if err := checkGammaNoise(gamma, z); err != nil {
		return Result{}, err
	}
	// A default interval is coarsened as for add/remove (accountBoth). The
	// ε = 0 that a coarsened grid once gave at δ = 3.4e-287 was logMGF's
	// underflow at a zero top mass (fixed; TestCoarseReplaceOneTinyDelta).
	var cache []tl // R's tails, shared by the sound and optimistic grids
	if o, err := opt.withDefaults(); err == nil && gamma < 1 {
		o.coarsen = opt.Interval == 0 // as accountBoth: a grid it would coarsen is not filled here
		var c *coarserGrid
		if _, err := discretize(sampledLoss{q: gamma, z: z / 2}, o, &cache); err != nil && !errors.As(err, &c) {
			return Result{}, err
		}
	}
	r, err := accountBoth(delta, steps, opt.tailFor(steps, delta), func(o Options) (*PLD, error) {
		return subsampledGaussianReplaceOne(gamma, z, o, &cache)
	})
	r.Source = sourceReplaceOne + strings.TrimPrefix(r.Source, source) // keeps a coarsening note
	return r, err
}

const sourceReplaceOne = "PLD accountant, replace-one: the symmetrized pair ((1−γ)N(0,z²)+γN(2,z²), N(0,z²)) (Balle–Barthe–Gaboardi 2018, Thm 2; Zhu–Dong–Wang 2022; Dong–Roth–Su 2022) discretized by Doroshenko et al. 2022 (connect the dots), composed by FFT (Koskela et al. 2020)"

// GaussianComposed accounts for k runs of the Gaussian mechanism
// (sensitivity Δ, noise σ).
func GaussianComposed(sensitivity, sigma float64, k int, delta float64, opt Options) (Result, error) {
	if err := field.OpenUnit("delta", delta); err != nil {
		return Result{}, err
	}
	if k < 1 {
		return Result{}, field.New("count", k, "must be a whole number ≥ 1")
	}
	return accountBoth(delta, k, opt.tailFor(k, delta), func(o Options) (*PLD, error) {
		return Gaussian(sensitivity, sigma, o)
	})
}

func build(r dp.Relation, q, z float64, o Options) (*PLD, error) {
	if r == dp.ReplaceOne {
		if err := checkGammaNoise(q, z); err != nil {
			return nil, err
		}
		return subsampledGaussianReplaceOne(q, z, o, nil)
	}
	return SubsampledGaussian(q, z, o)
}

// CalibrateDPSGD is CalibrateDPSGDFor under add/remove neighbours.
func CalibrateDPSGD(q float64, steps int, delta, target float64, opt Options) (float64, error) {
	return CalibrateDPSGDFor(dp.AddRemove, q, steps, delta, target, opt)
}

// CalibrateDPSGDFor returns the smallest noise multiplier z (to a relative
// tolerance of 10⁻³, rounded up) for which the sound PLD gives ε ≤ target
// for steps of DP-SGD with sampling rate q (under dp.ReplaceOne: γ, which is
// b/n for fixed-size batches) at δ under the relation rel. It is
// CalibrateDPSGDWith with no other bound.
func CalibrateDPSGDFor(rel dp.Relation, q float64, steps int, delta, target float64, opt Options) (float64, error) {
	z, _, err := CalibrateDPSGDWith(rel, q, steps, delta, target, opt, 1, nil)
	return z, err
}

// Noise multipliers a calibration searches.
const (
	MinCalibratedNoise = 1e-3
	MaxCalibratedNoise = 1e6
)

// CalibrateDPSGDWith returns the smallest noise multiplier z in
// [MinCalibratedNoise, MaxCalibratedNoise] (to a relative tolerance of
// 10⁻³, on the safe side) whose certified ε is at most target, and that ε.
// The certified ε at z is the sound PLD's ε (as DPSGD or DPSGDReplaceOne
// give it; +Inf where the PLD cannot answer, e.g. a grid over the cap) or
// other(z) where other is not nil and gives less (a second sound bound,
// such as RDP, that then answers where the PLD cannot). Every candidate is
// checked at the requested interval, not extrapolated: the answer meets the
// target. guess (> 0; 1 if unknown) is where the search starts.
//
// The certified ε falls as z grows (more noise, less privacy loss), so the
// search brackets the root geometrically from the guess (numeric.SolveUp)
// and bisects. It runs first on a grid ten times coarser (cheap: its ε is
// at least the fine one's, connect-the-dots on a refined grid being
// dominated, and differs from it by little) and then brackets again from
// that root at the requested grid by steps of 0.2% (widened as needed), so
// the fine PLD is evaluated about three times. If the target is met at MinCalibratedNoise
// it returns dp.ErrBelowMin with that z; if not even at
// MaxCalibratedNoise, a field error on target_epsilon.
func CalibrateDPSGDWith(rel dp.Relation, q float64, steps int, delta, target float64, opt Options, guess float64, other func(z float64) float64) (float64, float64, error) {
	if err := field.Positive("target_epsilon", target); err != nil {
		return 0, 0, err
	}
	if opt.Discretization == Optimistic {
		return 0, 0, field.New("discretization_method", opt.Discretization.String(), "must be sound for a calibration")
	}
	if steps < 1 {
		return 0, 0, field.New("steps", steps, "must be a whole number ≥ 1")
	}
	if err := field.OpenUnit("delta", delta); err != nil {
		return 0, 0, err
	}
	if !(q > 0 && q <= 1) {
		return 0, 0, field.New("sampling_rate", q, "must be in (0, 1]")
	}
	if rel != dp.AddRemove && rel != dp.ReplaceOne {
		return 0, 0, field.New("relation", int(rel), "must be add-remove or replace-one")
	}
	o, err := opt.tailFor(steps, delta).withDefaults()
	if err != nil {
		return 0, 0, err
	}
	if opt.Interval == 0 {
		// Every noise level tried builds its own grids: a default grid
		// is held to autoPoints = 2²¹ points (half of accountBoth's windows, as a
		// calibration tries a dozen or more), and where the PLD would
		// need more, other (RDP) answers at that z. This keeps a
		// calibration within the accounting budget (docs/accounting.md,
		// Time and memory).
		o.MaxPoints = min(o.MaxPoints, autoPoints)
	}
	if !(guess > 0) || math.IsInf(guess, 0) {
		guess = 1
	}
	tried, total := int64(0), int64(calibrationSteps)
	opt.Progress.Report(0, total)
	family := func(z float64) dp.Event {
		tried++ // once per noise level: SolveUp asks each z once
		total = max(total, tried+1)
		opt.Progress.Report(tried, total)
		return dp.DPSGD(q, z, int64(steps), dp.Poisson)
	}
	defer func() { opt.Progress.Report(total, total) }()
	solve := func(c *certifier, x0, f, tol float64) (float64, error) {
		z, _, err := dp.Calibrate(c, family, rel, delta, target, dp.Search{Guess: x0, Factor: f, Min: MinCalibratedNoise, Max: MaxCalibratedNoise, RelTol: tol})
		return z, err
	}
	coarse := o
	coarse.Interval = 10 * o.Interval
	f := 1.002
	zc, err := solve(&certifier{o: coarse, other: other, memo: map[float64]float64{}}, guess, 1.5, 1e-3)
	if err != nil { // the coarse grid did not answer: search the fine one from the guess
		zc, f = guess, 1.5
	}
	fine := &certifier{o: o, other: other, memo: map[float64]float64{}}
	z, err := solve(fine, zc, f, 1e-3)
	switch {
	case err == dp.ErrBelowMin:
		return z, fine.epsilon(rel, q, z, steps, delta), err
	case err != nil:
		return 0, 0, field.New("target_epsilon", target, "is not met with a noise multiplier up to %g", float64(MaxCalibratedNoise))
	}
	return z, fine.epsilon(rel, q, z, steps, delta), nil
}

// calibrationSteps is about how many noise levels CalibrateDPSGDWith
// accounts: on the coarse grid 2 to bracket from RDP's guess and 9 to
// bisect a factor 1.5 to 1e-3, on the fine grid 3 (bracket 1.002, bisect).
const calibrationSteps = 14

// certifier is the accountant a DP-SGD calibration searches with: the sound
// PLD's ε on the grid of o (+Inf where the PLD cannot answer, e.g. a grid
// over the cap), or other's where smaller. It reads DP-SGD runs
// (dp.AsSampledGaussianRun) only, and answers each noise level once.
type certifier struct {
	o     Options
	other func(z float64) float64
	memo  map[float64]float64
}

func (c *certifier) Name() string { return "pld" }

func (c *certifier) Supports(e dp.Event, r dp.Relation) error {
	if run, ok := dp.AsSampledGaussianRun(e); !ok || run.Sampling == dp.None {
		return field.New("event", e.EventType(), "is not a sampled Gaussian run: the calibration certifies DP-SGD runs only")
	}
	return dp.Validate(e, r)
}

func (c *certifier) Epsilon(e dp.Event, r dp.Relation, delta float64) (dp.Guarantee, error) {
	if err := c.Supports(e, r); err != nil {
		return dp.Guarantee{}, err
	}
	run, _ := dp.AsSampledGaussianRun(e)
	eps := c.epsilon(r, run.Rate, run.Noise, int(run.Steps), delta)
	return dp.Guarantee{Epsilon: dp.Loss(eps), Delta: dp.Loss(delta), Accountant: "pld", Source: source}, nil
}

func (c *certifier) Delta(e dp.Event, r dp.Relation, eps float64) (dp.Guarantee, error) {
	return dp.Guarantee{}, errors.New("pld: a calibration certifies ε only")
}

func (c *certifier) epsilon(rel dp.Relation, q, z float64, steps int, delta float64) (e float64) {
	if e, ok := c.memo[z]; ok {
		return e
	}
	defer func() { c.memo[z] = e }()
	e, err := epsilonDPSGD(rel, q, z, steps, delta, c.o)
	if err != nil {
		e = math.Inf(1)
	}
	if c.other != nil {
		e = math.Min(e, c.other(z))
	}
	return e
}

// epsilonDPSGD is the sound ε at delta of steps of DP-SGD under rel, the
// Epsilon of DPSGD (add/remove) or DPSGDReplaceOne without the optimistic
// estimate.
func epsilonDPSGD(rel dp.Relation, q, z float64, steps int, delta float64, o Options) (float64, error) {
	p, err := build(rel, q, z, o)
	if err != nil {
		return 0, err
	}
	if p, err = p.selfComposeAt(steps, delta); err != nil {
		return 0, err
	}
	defer p.release()
	return p.Epsilon(delta)
}

// tailFor returns opt tuned for k compositions queried at delta. The
// default TailMass (when it is not set) is lowered: each step's truncated
// upper tail is added to δ k times, so it is kept at most 10⁻⁶·δ/k (at
// most DefaultTailMass, at least 10⁻³⁰⁰); the grid grows only like
// √ln(1/TailMass). Masses whose relative error bound is at most
// relCap = 10⁻⁴/k (within [10⁻¹⁰, 10⁻⁶]) count as relative, so the factor
// on δ is at most (1 + relCap)^k ≤ e^{10⁻⁴} for k ≤ 10⁶.
func (opt Options) tailFor(k int, delta float64) Options {
	return opt.For(k, delta)
}

// For returns opt tuned for a run of k mechanism runs in all (the sum of
// the counts of every phase, for a composition of several) queried at
// delta: the truncated tail mass per run and the relative error cap are set
// as the single-mechanism accountants set them (see tailFor), so that a
// multi-phase composition is as tight as a single-phase one. Fields the
// caller set are kept.
func (opt Options) For(k int, delta float64) Options {
	if opt.TailMass == 0 && k >= 1 && delta > 0 {
		opt.TailMass = math.Max(math.Min(DefaultTailMass, 1e-6*delta/float64(k)), 1e-300)
	}
	if k >= 1 {
		opt.relCap = math.Min(1e-6, math.Max(1e-10, 1e-4/float64(k)))
	}
	return opt
}
