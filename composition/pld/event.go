package pld

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

// MaxRuns is the most runs of one mechanism the PLD accountant composes.
const MaxRuns = math.MaxInt32

// Accountant is the PLD accountant as a dp.Accountant: each mechanism's
// privacy loss distribution, discretized soundly (connect the dots,
// Doroshenko et al. 2022) on the grid of Options, composed by FFT (Koskela
// et al. 2020) with every truncated mass and FFT error added to δ. A run of
// one sampled Gaussian (dp.AsSampledGaussianRun: a DP-SGD run) is
// accounted as DPSGD or DPSGDReplaceOne account it, so a run gets the same
// ε whichever way it is described; any other event is built as its tree
// says. Options.Interval 0 is the default interval, which a DP-SGD run
// coarsens where its grid would be too large.
type Accountant struct{ Options Options }

// SourceEvents is the source of a PLD built from an event tree.
const SourceEvents = "PLD accountant (composition/pld): connect-the-dots discretization (Doroshenko et al. 2022), FFT composition (Koskela et al. 2020), every truncated mass and FFT error added to δ"

// Name is "pld".
func (Accountant) Name() string { return "pld" }

// Supports is nil for every event dp.Validate accepts whose mechanisms
// each run at most MaxRuns times and that has at most MaxDistinct distinct
// mechanisms, except those it refuses with the reason:
// Unsupported, ZCDp, DiscreteGaussian, SampledWithReplacement,
// TruncatedSubsampledGaussian, MixtureOfGaussians and RepeatAndSelect.
func (Accountant) Supports(e dp.Event, r dp.Relation) error {
	if err := dp.Validate(e, r); err != nil {
		return err
	}
	if err := refusal(e, r); err != nil {
		return err
	}
	if err := dp.Leaves(e, func(l dp.Event, k float64) error {
		if k > MaxRuns {
			return fmt.Errorf("a %s event runs %g times, more than the PLD accountant composes (%d)", l.EventType(), k, MaxRuns)
		}
		return nil
	}); err != nil {
		return err
	}
	if n := distinct(e); n > MaxDistinct {
		return fmt.Errorf("%d distinct mechanisms, more than the PLD accountant composes within its time budget (%d: each is discretized and transformed apart, about 25 ms apiece)", n, MaxDistinct)
	}
	return nil
}

// Account is the sound ε at delta of e under r with the optimistic
// estimate beside it (see Result).
func (a Accountant) Account(e dp.Event, r dp.Relation, delta float64) (Result, error) {
	return a.AccountAt(e, r, delta, nil)
}

// AccountAt is Account with δ at each of epsilons (Result.At) read off the
// same sound and optimistic PLDs that give ε, so that they are built once:
// the same numbers as Delta and PLDs give, at about half the work.
func (a Accountant) AccountAt(e dp.Event, r dp.Relation, delta float64, epsilons []float64) (Result, error) {
	for _, x := range epsilons {
		if err := field.NonNegative("epsilon", x); err != nil {
			return Result{}, err
		}
	}
	if err := a.Supports(e, r); err != nil {
		return Result{}, err
	}
	if err := field.OpenUnit("delta", delta); err != nil {
		return Result{}, err
	}
	if dp.HasNonPrivate(e) {
		inf := math.Inf(1)
		return Result{Guarantee: dp.Guarantee{Epsilon: dp.Loss(inf), Delta: dp.Loss(delta), Accountant: "pld", Source: SourceEvents + "; " + errNonPrivate.Error()}, EpsilonOptimistic: dp.Max(inf)}, nil
	}
	if run, ok := dp.AsSampledGaussianRun(e); ok && run.Sampling != dp.None && run.Rate < 1 {
		o := a.Options
		o.at = epsilons
		if r == dp.ReplaceOne {
			return DPSGDReplaceOne(run.Rate, run.Noise, int(run.Steps), delta, o)
		}
		return DPSGD(run.Rate, run.Noise, int(run.Steps), delta, o)
	}
	sound, optim, points, o, err := a.plds(e, r, delta)
	if err != nil {
		return Result{}, err
	}
	eps, eo := 0.0, 0.0
	if sound != nil {
		eps, _ = sound.Epsilon(delta)
	}
	if optim != nil {
		eo, _ = optim.Epsilon(delta)
	}
	src := SourceEvents
	_ = dp.Leaves(e, func(l dp.Event, _ float64) error {
		if _, ok := l.(dp.RandomAllocation); ok && !strings.Contains(src, SourceAllocation) {
			src += "; " + SourceAllocation
		}
		return nil
	})
	return Result{Guarantee: dp.Guarantee{Epsilon: dp.Loss(eps), Delta: dp.Loss(delta), Source: src}, EpsilonOptimistic: dp.Max(math.Min(eo, eps)),
		Discretization: dp.Num(o.Interval), Method: o.Discretization.String(), Points: points, At: deltasAt(sound, optim, epsilons)}, nil
}

// Epsilon is the PLD's sound ε at delta.
func (a Accountant) Epsilon(e dp.Event, r dp.Relation, delta float64) (dp.Guarantee, error) {
	res, err := a.Account(e, r, delta)
	if err != nil {
		return dp.Guarantee{}, err
	}
	return dp.Guarantee{Epsilon: res.Epsilon, Delta: res.Delta, Accountant: "pld", Source: res.Source, Assumptions: dp.Assumptions(e, r)}, nil
}

// Delta is the PLD's sound δ at eps.
func (a Accountant) Delta(e dp.Event, r dp.Relation, eps float64) (dp.Guarantee, error) {
	if err := a.Supports(e, r); err != nil {
		return dp.Guarantee{}, err
	}
	if err := field.NonNegative("epsilon", eps); err != nil {
		return dp.Guarantee{}, err
	}
	if dp.HasNonPrivate(e) {
		return dp.Guarantee{Epsilon: dp.Loss(eps), Delta: 1, Accountant: "pld", Source: SourceEvents + "; " + errNonPrivate.Error(), Assumptions: dp.Assumptions(e, r)}, nil
	}
	a.Options.SoundOnly = true // δ is the sound PLD's alone
	sound, _, err := a.PLDs(e, r, 0)
	if err != nil {
		return dp.Guarantee{}, err
	}
	d := 0.0
	if sound != nil {
		d = sound.Delta(eps)
	}
	return dp.Guarantee{Epsilon: dp.Loss(eps), Delta: dp.Loss(d), Accountant: "pld", Source: SourceEvents, Assumptions: dp.Assumptions(e, r)}, nil
}

// PLDs builds the sound and the optimistic PLD of e under r (both nil for
// an event that reveals nothing; the optimistic one nil under
// Options.SoundOnly), tuned for queries at delta (0: untuned), on the grid
// of a.Options (Interval 0: DefaultInterval).
func (a Accountant) PLDs(e dp.Event, r dp.Relation, delta float64) (sound, optimistic *PLD, err error) {
	if err := a.Supports(e, r); err != nil {
		return nil, nil, err
	}
	sound, optimistic, _, _, err = a.plds(e, r, delta)
	return sound, optimistic, err
}

// plds is PLDs with the largest grid built and the options used. A single
// run of one mechanism (or one SelfComposed) is built as its tree says; a
// composition of several is flattened into its mechanisms and their counts
// (the PLD of a composition is the convolution of its mechanisms' PLDs in
// any order) and composed by ComposeFor, tuned for delta as a single phase
// is (the sound PLD; the optimistic one has no rounding bounds to tune).
func (a Accountant) plds(e dp.Event, r dp.Relation, delta float64) (sound, optim *PLD, points int, o Options, err error) {
	o = a.Options
	if o.Interval == 0 {
		o.Interval = DefaultInterval
	}
	if k := dp.Runs(e); k >= 1 && k <= MaxRuns {
		o = o.For(int(k), delta)
	}
	bs := &treeBuilder{rel: r, sens: r.Sensitivity(), opt: o}
	run, isRun := dp.AsSampledGaussianRun(e)
	if _, ok := e.(dp.SelfComposed); ok && delta > 0 && (delta < 1e-9 || isRun && run.Sampling != dp.None) {
		// A file that is one mechanism run k times is self-composed with
		// FFTs tuned for δ (SelfComposeFor): at tiny δ the untilted FFT's
		// rounding bound alone would exceed δ. It is not used inside a
		// composition (the tilt is tuned for the final ε) nor at larger δ,
		// where the untilted bound is already far below δ, except for a
		// DP-SGD run, whose FFTs are tuned as DPSGD tunes them so that its
		// δ(ε) agrees with Account's ε.
		bs.delta = delta
	}
	bo := *bs
	bo.opt.Discretization = Optimistic
	leaves := 0
	_ = dp.Leaves(e, func(dp.Event, float64) error { leaves++; return nil })
	build := func(b *treeBuilder, d float64) (*PLD, error) {
		if leaves < 2 {
			return b.build(e)
		}
		return b.composeAll(e, d)
	}
	if leaves >= 2 && o.Progress != nil {
		// Progress: per builder, each distinct mechanism discretized and
		// transformed once per direction (more if the tilt is retried:
		// done then stops short of total until the end).
		builders := int64(2)
		if o.SoundOnly {
			builders = 1
		}
		c := &counter{p: o.Progress, total: builders * 3 * int64(distinct(e))}
		o.Progress.Report(0, c.total)
		bs.count, bo.count = c, c
		defer o.Progress.Report(c.total, c.total)
	}
	var errOpt error
	done := make(chan struct{})
	optimistic := func() {
		defer close(done)
		if !o.SoundOnly {
			optim, errOpt = build(&bo, 0)
		}
	}
	if leaves >= 2 && distinct(e) > pairwiseParts {
		// Many mechanisms: one PLD at a time (each keeps every
		// mechanism's masses while its window is chosen; composeAll
		// discretizes and composeMany transforms on two goroutines).
		sound, err = build(bs, delta)
		runtime.GC() // the sound PLD's mechanisms, before the optimistic ones
		if err == nil {
			optimistic()
		} else {
			close(done)
		}
	} else {
		go optimistic()
		sound, err = build(bs, delta)
	}
	<-done
	if err == nil {
		err = errOpt
	}
	if err != nil {
		return nil, nil, 0, o, err
	}
	return sound, optim, bs.points, o, nil
}

// gcEvery is how many mechanisms composeAll discretizes between garbage
// collections.
const gcEvery = 16

// treeBuilder turns a checked event tree into one PLD.
type treeBuilder struct {
	rel    dp.Relation
	sens   float64
	opt    Options
	delta  float64 // the query's δ: self-compositions are tuned for it
	points int     // the largest grid built
	// count, if not nil, counts composeAll's units of work.
	count *counter
}

func (b *treeBuilder) tick() {
	if b.count != nil {
		b.count.tick()
	}
}

func (b *treeBuilder) seen(p *PLD) *PLD {
	if p != nil && p.Len() > b.points {
		b.points = p.Len()
	}
	return p
}

// build returns the PLD of e, or nil for an event that reveals nothing
// (NoOp, randomized response with noise parameter 1).
func (b *treeBuilder) build(e dp.Event) (*PLD, error) {
	p, err := b.event(e)
	return b.seen(p), err
}

func (b *treeBuilder) event(e dp.Event) (*PLD, error) {
	switch x := e.(type) {
	case dp.NoOp:
		return nil, nil
	case dp.Gaussian:
		// Gaussian(sensitivity Δ, σ = noise_multiplier): μ = Δ/z
		// (Balle–Wang 2018, Thm 8).
		return Gaussian(b.sens, x.NoiseMultiplier, b.opt)
	case dp.Laplace:
		return Laplace(b.sens, x.NoiseMultiplier, b.opt)
	case dp.RandomizedResponse:
		eps0 := x.Epsilon0()
		if eps0 == 0 {
			return nil, nil
		}
		return RandomizedResponse(eps0, b.opt)
	case dp.PoissonSampled:
		q, z := x.SamplingProbability, x.Event.(dp.Gaussian).NoiseMultiplier
		switch {
		case b.rel == dp.AddRemove:
			return SubsampledGaussian(q, z, b.opt)
		case q == 1: // every record in every batch: the Gaussian with Δ = 2
			return Gaussian(b.sens, z, b.opt)
		}
		return SubsampledGaussianReplaceOne(q, z, b.opt)
	case dp.SampledWithoutReplacement: // replace-one only (dp.Check)
		z := x.Event.(dp.Gaussian).NoiseMultiplier
		if x.SampleSize == x.SourceDatasetSize {
			return Gaussian(b.sens, z, b.opt)
		}
		return SubsampledGaussianReplaceOne(x.Rate(), z, b.opt)
	case dp.SelfComposed:
		k, in := x.Count, x.Event
		for {
			s, ok := in.(dp.SelfComposed) // nested counts multiply
			if !ok {
				break
			}
			k *= s.Count
			in = s.Event
		}
		if g, ok := in.(dp.Gaussian); ok {
			// k Gaussians with μ compose exactly to one with μ√k
			// (Dong–Roth–Su 2019, Cor. 3.3); Δ√k is rounded up.
			s := b.sens
			if k > 1 {
				s = math.Nextafter(s*math.Sqrt(float64(k)), math.Inf(1))
			}
			return Gaussian(s, g.NoiseMultiplier, b.opt)
		}
		p, err := b.build(in)
		if err != nil || p == nil || k == 1 {
			return p, err
		}
		if b.delta > 0 && b.delta < 1 {
			return p.SelfComposeFor(int(k), b.delta)
		}
		return p.SelfCompose(int(k))
	case dp.RandomAllocation: // add/remove only (dp.Check)
		z := x.Event.(dp.Gaussian).NoiseMultiplier
		return RandomAllocation(x.NumSteps, z/b.sens, b.opt)
	case dp.Composed:
		var acc *PLD
		for _, c := range x.Events {
			p, err := b.build(c)
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
	if p, ok, err := b.eventVocab(e); ok {
		return p, err
	}
	panic("pld: unchecked event type " + e.EventType())
}

// composeAll returns the PLD of the checked tree e flattened into its
// distinct mechanisms (groupLeaves: identical ones grouped, their counts
// added; every unsampled Gaussian merged into one, gaussianSensitivity), by
// ComposeFor at delta (0: untuned); nil if nothing is revealed. Each
// mechanism discretized, and each transformed by ComposeFor's one-window
// composition, ticks b.tick.
func (b *treeBuilder) composeAll(e dp.Event, delta float64) (*PLD, error) {
	groups, gaussians := groupLeaves(e)
	var parts []Part
	if len(gaussians) > 0 {
		s, z := gaussianSensitivity(gaussians, b.sens)
		p, err := Gaussian(s, z, b.opt)
		if err != nil {
			return nil, err
		}
		parts = append(parts, Part{PLD: b.seen(p), Count: 1})
		b.tick()
	}
	// The mechanisms are discretized on two goroutines (each from its own
	// parameters; the grid's size is noted after).
	ps, errs := make([]*PLD, len(groups)), make([]error, len(groups))
	many := len(groups)+min(1, len(gaussians)) > pairwiseParts
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(2, len(groups)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(groups); i = int(next.Add(1)) - 1 {
				ps[i], errs[i] = b.event(groups[i].ev)
				if ps[i] != nil && many {
					// For the one-window composition, end masses of at
					// most 10·TailMass are moved to the tail bound (top)
					// and up to the first kept point (bottom): at most
					// 10·Σk·TailMass ≤ 10⁻⁵δ more is added to δ
					// (Options.For); the window's Chernoff bounds see
					// shorter, lighter tails, and the masses kept (copied
					// to their trimmed length) take a third less memory.
					for _, f := range ps[i].dirs() {
						f.trimTiny(10 * b.opt.TailMass)
						f.p = slices.Clip(append([]float64(nil), f.p...))
					}
				}
				b.tick()
				if i%gcEvery == gcEvery-1 {
					// A discretization leaves about 2 MB of tables behind:
					// collected now, before the heap grows to twice the
					// masses kept (2,000 sampled Gaussians: 0.38 GB kept,
					// 1 GB resident without this).
					runtime.GC()
				}
			}
		}()
	}
	wg.Wait()
	for i, p := range ps {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if p != nil {
			b.seen(p)
			parts = append(parts, Part{PLD: p, Count: int(groups[i].count)})
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	p, err := composeParts(parts, delta, b.tick)
	return b.seen(p), err
}
