package shifted

import (
	"errors"
	"math"

	"github.com/privamp/privamp/rdp"
)

// Comparison sets amplification by iteration against amplification by
// sampling and plain composition for the same run (FMTT18 Table 1 and §1):
// n records, batches of b, E epochs, noise σ on the average gradient,
// gradients bounded by L, the same δ.
type Comparison struct {
	Run   SGD
	Delta float64
	// Iteration summarises the per-index guarantees of the fixed-order run
	// that releases only its final iterate (replace-one neighbours).
	Iteration Summary
	// SamplingAddRemove is DP-SGD's accounting for the run with Poisson
	// sampling at rate q = b/n, E·⌈n/b⌉ steps and noise multiplier z = bσ/L
	// (rdp.SampledGaussian): every iterate may be released, but the sampling
	// must stay secret. Its neighbours are add/remove-one.
	SamplingAddRemove rdp.DP
	// SamplingReplaceOne is the same under replace-one neighbours
	// (rdp.SampledGaussianReplaceOne), like for like with Iteration.
	SamplingReplaceOne rdp.DP
	// Composition releases every iterate of the fixed-order run: the E
	// Gaussian steps that use the worst-placed record compose (Lemma 27 and
	// composition; replace-one).
	Composition rdp.DP
	// IterationWins is the number of indices (always 1..IterationWins) whose
	// ε_t by iteration is at most SamplingReplaceOne's ε;
	// IterationWinsAddRemove compares with SamplingAddRemove instead.
	IterationWins, IterationWinsAddRemove int64
}

// Steps returns the number of noisy steps E·⌈n/b⌉.
func (c Comparison) Steps() int64 { return c.Run.epochs() * c.Run.StepsPerEpoch() }

// Compare computes the comparison. The run must have no public records.
func Compare(run SGD, delta float64, conv rdp.Conversion) (Comparison, error) {
	if err := checkDelta(delta); err != nil {
		return Comparison{}, err
	}
	if run.Public != 0 {
		return Comparison{}, errors.New("the comparison with sampling needs a run without public records")
	}
	if err := run.Check(); err != nil {
		return Comparison{}, err
	}
	c := Comparison{Run: run, Delta: delta}
	b := run.batch()
	q := float64(b) / float64(run.N)
	z := float64(b) * run.Sigma / run.Loss.Lipschitz
	steps := float64(c.Steps())
	var err error
	if c.SamplingAddRemove, err = rdp.EpsilonFor(rdp.Repeat(rdp.SampledGaussian{Q: q, Z: z}, steps), delta, conv); err != nil {
		return Comparison{}, err
	}
	if c.SamplingReplaceOne, err = rdp.EpsilonFor(rdp.Repeat(rdp.SampledGaussianReplaceOne{Q: q, Z: z}, steps), delta, conv); err != nil {
		return Comparison{}, err
	}
	loc := Local{SGD: run}
	worst := int64(1)
	for _, t := range []int64{run.N, 1} {
		if loc.LogRho(t) > loc.LogRho(worst) {
			worst = t
		}
	}
	e, a := epsFromLogRho(loc.LogRho(worst), delta, conv)
	c.Composition = rdp.DP{Epsilon: e, Delta: delta, Order: a, Conversion: conv}
	// Summarize ignores a target of 0; count ε_t = 0 ties as wins instead.
	atLeastTiny := func(e float64) float64 { return math.Max(e, math.SmallestNonzeroFloat64) }
	if c.Iteration, err = Summarize(run, delta, conv, atLeastTiny(c.SamplingReplaceOne.Epsilon)); err != nil {
		return Comparison{}, err
	}
	c.IterationWins = c.Iteration.CountUnder
	ar, err := Summarize(run, delta, conv, atLeastTiny(c.SamplingAddRemove.Epsilon))
	if err != nil {
		return Comparison{}, err
	}
	c.IterationWinsAddRemove = ar.CountUnder
	if math.IsInf(c.SamplingReplaceOne.Epsilon, 1) {
		c.IterationWins = run.N
	}
	return c, nil
}
