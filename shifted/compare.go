package shifted

import (
	"errors"
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// Comparison sets amplification by iteration against amplification by
// sampling and plain composition for the same run (FMTT18 Table 1 and §1):
// n records, batches of b, E epochs, noise σ on the batch's gradient sum
// divided by the nominal b (the last, smaller batch of a pass too),
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
	// SamplingReplaceOne is the same under replace-one neighbours, like for
	// like with Iteration: the smaller of the RDP remove-then-add bound and
	// the PLD's provable replace-one pair (Sampling.ReplaceOne).
	SamplingReplaceOne rdp.DP
	// SamplingReplaceOneByPLD is set when the PLD gave SamplingReplaceOne;
	// SamplingReplaceOneRDP is the RDP remove-then-add ε beside it.
	SamplingReplaceOneByPLD bool
	// SamplingAddRemoveByPLD is set when the PLD gave SamplingAddRemove.
	SamplingAddRemoveByPLD bool
	SamplingReplaceOneRDP  float64
	// sampling is the Sampling the rows above come from.
	sampling Sampling
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
	return compare(run, run, delta, conv)
}

// compare is Compare with the iteration guarantee g of the run (SGD, or
// Domain when a bounded domain is declared).
func compare(run SGD, g PerPerson, delta float64, conv rdp.Conversion) (Comparison, error) {
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
	smp, err := SamplingOf(run, delta, conv)
	if err != nil {
		return Comparison{}, err
	}
	c.SamplingAddRemove, c.SamplingReplaceOne, c.SamplingReplaceOneByPLD, c.SamplingReplaceOneRDP = smp.AddRemove, smp.ReplaceOne, smp.ReplaceOneByPLD, smp.ReplaceOneRDP
	c.SamplingAddRemoveByPLD, c.sampling = smp.AddRemoveByPLD, smp
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
	if c.Iteration, err = Summarize(g, delta, conv, atLeastTiny(c.SamplingReplaceOne.Epsilon)); err != nil {
		return Comparison{}, err
	}
	c.IterationWins = c.Iteration.CountUnder
	ar, err := Summarize(g, delta, conv, atLeastTiny(c.SamplingAddRemove.Epsilon))
	if err != nil {
		return Comparison{}, err
	}
	c.IterationWinsAddRemove = ar.CountUnder
	if math.IsInf(c.SamplingReplaceOne.Epsilon, 1) {
		c.IterationWins = run.N
	}
	return c, nil
}

// Sampling is DP-SGD's accounting of the same run (FMTT18 Table 1's
// "amplification by sampling"): Poisson sampling at rate Q = b/n over the n
// private records, Steps = E·⌈n/b⌉, noise multiplier Z = bσ/L on the summed
// batch gradient (Mironov–Talwar–Zhang 2019). Every iterate may be released,
// but the sampling must stay secret.
type Sampling struct {
	Q, Z  float64
	Steps int64
	// AddRemove is the usual add/remove-one guarantee by
	// composition.Tight, the accountant of `privamp dpsgd`: the smaller of
	// RDP (rdp.SampledGaussian) and the PLD (both directions), which
	// AddRemoveByPLD says gave it (its Order is then NaN); at q = 1 the
	// exact Gaussian profile where it is smaller than RDP.
	AddRemove      rdp.DP
	AddRemoveByPLD bool
	// ReplaceOne is the replace-one guarantee: the smaller of two bounds
	// proved for every pair of gradients, RDP's removal then addition
	// (rdp.SampledGaussianReplaceOne, Mironov 2017 Prop. 11) and the PLD's
	// symmetrized sensitivity-2 pair (pld.SubsampledGaussianReplaceOne;
	// Balle–Barthe–Gaboardi 2018, Thm 2; Dong–Roth–Su 2022), by
	// composition.Tight as for AddRemove. With the PLD its Order is NaN. Both are looser than dp_accounting's replace-one PLD (a tighter
	// pair without a proof privamp can check): 1.2–5.8× on the
	// configurations of bench/dp_accounting_replace.py.
	ReplaceOne rdp.DP
	// ReplaceOneByPLD is set when the PLD gave ReplaceOne; ReplaceOneRDP is
	// the RDP bound beside it.
	ReplaceOneByPLD bool
	ReplaceOneRDP   float64
	// AddRemoveBy and ReplaceOneBy name the accountant that gave each row
	// (composition.AccountRDP, AccountPLD or AccountAnalyticGaussian).
	AddRemoveBy, ReplaceOneBy string
}

// SamplingOf returns the sampling accounting of run; its public records,
// if any, are left out (sampling has none).
func SamplingOf(run SGD, delta float64, conv rdp.Conversion) (Sampling, error) {
	return samplingOf(run, delta, conv, true)
}

// samplingOf is SamplingOf; without replaceOne it leaves the replace-one
// fields zero (their PLD is the costly part). Each row is the one
// accountant's (composition.Tight, as `privamp dpsgd` accounts the same
// run: dp.DPSGD with Poisson sampling): the smaller of RDP and the PLD
// below q = 1, the exact Gaussian profile or RDP at q = 1.
func samplingOf(run SGD, delta float64, conv rdp.Conversion, replaceOne bool) (Sampling, error) {
	s := samplingRun(run)
	t := composition.Tight{Conversion: conv}
	var err error
	if s.AddRemove, s.AddRemoveBy, _, err = s.account(t, dp.AddRemove, delta); err != nil {
		return Sampling{}, err
	}
	s.AddRemoveByPLD = s.AddRemoveBy == composition.AccountPLD
	if !replaceOne {
		s.ReplaceOne = rdp.DP{Epsilon: math.NaN()}
		return s, nil
	}
	if s.ReplaceOne, s.ReplaceOneBy, s.ReplaceOneRDP, err = s.account(t, dp.ReplaceOne, delta); err != nil {
		return Sampling{}, err
	}
	s.ReplaceOneByPLD = s.ReplaceOneBy == composition.AccountPLD
	return s, nil
}

// account is the ε of the run s under rel at delta by t, the accountant
// that gave it, and RDP's ε beside it. The Order is RDP's where RDP gave
// the ε, NaN otherwise.
func (s Sampling) account(t composition.Tight, rel dp.Relation, delta float64) (rdp.DP, string, float64, error) {
	acc, err := t.Account(dp.DPSGD(s.Q, s.Z, s.Steps, dp.Poisson), rel, delta, nil)
	if err != nil {
		return rdp.DP{}, "", 0, err
	}
	d := rdp.DP{Epsilon: float64(acc.Epsilon), Delta: delta, Order: math.NaN(), Conversion: t.Conversion}
	rdpEps := math.NaN()
	if acc.RDP != nil {
		rdpEps = acc.RDP.Epsilon
		if acc.Accountant == composition.AccountRDP {
			d = *acc.RDP
		}
	}
	return d, acc.Accountant, rdpEps, nil
}

// samplingRun is the DP-SGD run that run is compared with, not yet
// accounted: Poisson sampling at q = b/n, noise multiplier z = bσ/L on the
// summed batch gradient, the same E·⌈n/b⌉ steps.
func samplingRun(run SGD) Sampling {
	run.Public = 0
	b := run.batch()
	return Sampling{Q: float64(b) / float64(run.N), Z: float64(b) * run.Sigma / run.Loss.Lipschitz, Steps: run.epochs() * run.StepsPerEpoch()}
}

// Looseness returns ReplaceOne.Epsilon / AddRemove.Epsilon: the scale by
// which the replace-one ε may overstate the true replace-one ε, assuming
// (as is typical) that the true one is no smaller than the add/remove one.
// It is not a measured gap. It is 1 when the ratio is undefined (both ε
// are 0, or neither is finite): there is then nothing to overstate.
func (s Sampling) Looseness() float64 {
	if r := s.ReplaceOne.Epsilon / s.AddRemove.Epsilon; !math.IsNaN(r) {
		return r
	}
	return 1
}

// AddRemoveSource cites the add/remove bound that was used.
func (s Sampling) AddRemoveSource(conv rdp.Conversion) string {
	if s.AddRemoveBy == composition.AccountAnalyticGaussian {
		return "exact Gaussian profile at q = 1 (every record in every batch; Balle–Wang 2018, Thm 8; Dong–Roth–Su 2019, Cor. 3.3), below the RDP bound"
	}
	if s.AddRemoveByPLD {
		return "PLD of the Poisson-subsampled Gaussian, both directions of add/remove (connect-the-dots, Doroshenko et al. 2022; Zhu–Dong–Wang 2022), below the RDP bound (Mironov–Talwar–Zhang 2019)"
	}
	return "Mironov–Talwar–Zhang 2019 (Poisson-subsampled Gaussian, add/remove); " + conv.Source()
}

// ReplaceOneSource cites the replace-one bound that was used and says
// that it is loose.
func (s Sampling) ReplaceOneSource(conv rdp.Conversion) string {
	if s.ReplaceOneBy == composition.AccountAnalyticGaussian {
		return fmt.Sprintf("exact Gaussian profile at q = 1 with sensitivity 2 (every record in every batch; Balle–Wang 2018, Thm 8; Dong–Roth–Su 2019, Cor. 3.3), below RDP's remove then add (%s)", dp.Loss(s.ReplaceOneRDP))
	}
	if s.ReplaceOneByPLD {
		return fmt.Sprintf("PLD of the symmetrized pair ((1−q)N(0,z²)+qN(2,z²), N(0,z²)) (Balle–Barthe–Gaboardi 2018, Thm 2; Dong–Roth–Su 2022; connect-the-dots, Doroshenko et al. 2022), below RDP's remove then add (%s); loose: a tighter replace-one pair exists without a proof privamp can check", dp.Loss(s.ReplaceOneRDP))
	}
	return "Mironov–Talwar–Zhang 2019 + Mironov 2017 Prop. 11 (replace = remove then add; below the PLD's provable replace-one pair here; loose: a tighter replace-one pair exists without a proof privamp can check); " + conv.Source()
}

// LoosenessNote says plainly how loose the replace-one baseline may be.
func (s Sampling) LoosenessNote() string {
	return fmt.Sprintf("the replace-one sampling baseline is loose: it is the smaller of RDP's removal then addition (Mironov 2017 Prop. 11) and the PLD's provable symmetrized pair, and dp_accounting's replace-one PLD (a tighter pair that privamp cannot prove dominates) is 1.2–5.8× below it on the configurations measured; here it is %s× the add/remove ε. That ratio is the scale of the possible looseness (a replace-one ε, typically no smaller than the add/remove one, may be below the row by up to this factor), not a measured gap; comparisons with iteration against this row may favour iteration by that much",
		dp.Num(s.Looseness()))
}

// stepsNote says which run the sampling rows account when `dpsgd --epochs`
// counts the same epochs differently: the comparison's sampling rows take
// the fixed-order run's E·⌈n/b⌉ steps (like for like), dpsgd takes
// ⌈E·n/b⌉, the expected number of Poisson batches in E epochs (TF-Privacy's
// rule, rdp.DPSGD). Where the two differ the note gives dpsgd's step count
// and its add/remove ε (the PLD, as the add/remove row when it applies), so
// the two numbers are not read as one run counted twice; "" where they agree.
func stepsNote(c Comparison, delta float64, conv rdp.Conversion) string {
	n, b, e := c.Run.N, c.Run.Batch, c.Run.epochs()
	steps := int64(math.Ceil(float64(e) * float64(n) / float64(b)))
	if steps == c.Steps() {
		return ""
	}
	note := fmt.Sprintf("the sampling rows account %d steps (%d passes × ⌈%d/%d⌉ batches, as the fixed-order run they are compared with); DP-SGD accounting by epochs (the dpsgd command, n = %d, batch %d, %d epochs) counts ⌈E·n/b⌉ = %d steps (the expected number of Poisson batches in %d epochs, TF-Privacy's rule)",
		c.Steps(), e, n, b, n, b, e, steps, e)
	q, z := float64(b)/float64(n), float64(b)*c.Run.Sigma/c.Run.Loss.Lipschitz
	if g, err := (composition.Tight{Conversion: conv}).Epsilon(dp.DPSGD(q, z, steps, dp.Poisson), dp.AddRemove, delta); err == nil {
		note += fmt.Sprintf(" and gives the add/remove ε %s for them", g.Epsilon)
	}
	return note + ": the same training described two ways, not two accountings of one run"
}

// nonEmpty returns the non-empty strings of ss.
func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// ComparisonReport is the comparison of one Training (Compare), ready to
// print: ε as loss quantities, the wins, the verdict, sources, assumptions
// and notes.
type ComparisonReport struct {
	N          int64   `json:"n"`
	Batch      int64   `json:"batch"`
	Epochs     int64   `json:"epochs"`
	Steps      int64   `json:"steps"`
	Sigma      float64 `json:"sigma"`
	Lipschitz  float64 `json:"lipschitz"`
	Delta      float64 `json:"delta"`
	Conversion string  `json:"conversion"`
	// Iteration summarises the per-index ε by amplification by iteration;
	// Indices holds the indices asked for.
	Iteration Summary        `json:"iteration"`
	Indices   []IndexEpsilon `json:"indices,omitempty"`
	// Sampling (add/remove, and the provable but loose replace-one bound:
	// the smaller of RDP remove-then-add and the PLD's replace-one pair), the
	// ratio of the two (the scale of the replace-one row's possible
	// looseness), and the composition bound of every iterate (worst record).
	SamplingReplaceOneEpsilon dp.Loss  `json:"sampling_replace_one_epsilon"`
	SamplingAddRemoveEpsilon  dp.Loss  `json:"sampling_add_remove_epsilon"`
	SamplingLooseness         dp.Num   `json:"sampling_replace_one_looseness"`
	CompositionEpsilon        dp.Loss  `json:"composition_epsilon"`
	IterationWins             int64    `json:"iteration_wins"`
	IterationWinsAddRemove    int64    `json:"iteration_wins_add_remove"`
	Verdict                   string   `json:"verdict"`
	IterationSource           string   `json:"iteration_source"`
	SamplingAddRemoveSource   string   `json:"sampling_add_remove_source"`
	SamplingReplaceOneSource  string   `json:"sampling_replace_one_source"`
	CompositionSource         string   `json:"composition_source"`
	Assumptions               []string `json:"assumptions"`
	Notes                     []string `json:"notes"`
}

// CompareTraining compares a fixed-order PNSGD run without public records
// whose step contracts (NewModel) with sampling and composition (Compare),
// and evaluates o.Indices as well.
func CompareTraining(r Training, o Options) (ComparisonReport, error) {
	o.CompositionFallback = false
	if r.Variant != VariantPNSGD {
		return ComparisonReport{}, field.New("variant", string(r.Variant), "must be pnsgd: the comparison with sampling is for the fixed-order run")
	}
	if r.Public != 0 {
		return ComparisonReport{}, field.New("public", r.Public, "must be 0: sampling has no public records")
	}
	m, err := NewModel(r, o)
	if err != nil {
		return ComparisonReport{}, err
	}
	r, conv := m.Training, o.Conversion
	run := r.sgd()
	c, err := compare(run, m.Guarantee, r.Delta, conv)
	if err != nil {
		return ComparisonReport{}, err
	}
	smp := c.sampling
	out := ComparisonReport{
		N: r.N, Batch: r.Batch, Epochs: r.Epochs, Steps: c.Steps(), Sigma: r.Sigma, Lipschitz: r.Loss.Lipschitz, Delta: r.Delta,
		Conversion: conv.String(), Iteration: c.Iteration, // its count under a target is IterationWins
		SamplingReplaceOneEpsilon: dp.Loss(c.SamplingReplaceOne.Epsilon), SamplingAddRemoveEpsilon: dp.Loss(c.SamplingAddRemove.Epsilon),
		SamplingLooseness: dp.Num(smp.Looseness()), CompositionEpsilon: dp.Loss(c.Composition.Epsilon),
		IterationWins: c.IterationWins, IterationWinsAddRemove: c.IterationWinsAddRemove, Verdict: c.Verdict(),
		IterationSource:          m.Source() + "; " + conv.Source(),
		SamplingAddRemoveSource:  smp.AddRemoveSource(conv),
		SamplingReplaceOneSource: smp.ReplaceOneSource(conv),
		CompositionSource:        Local{SGD: run}.Source() + "; " + conv.Source(),
		Assumptions:              append(run.Assumptions(), "sampling: Poisson sampling at rate q = b/n, the summed batch gradient (clipped to norm L) gets N(0, (bσ)²I) noise: noise multiplier z = bσ/L; the same number of steps, E·⌈n/b⌉ (each fixed-order pass is ⌈n/b⌉ batches, the last one partial)"),
		Notes: append(append(m.Notes, c.Verdict(), smp.LoosenessNote()), append(nonEmpty(stepsNote(c, r.Delta, conv)),
			"the neighbour relations differ: amplification by iteration is proved for replace-one neighbours; DP-SGD's sampling analysis for add/remove-one. The replace-one sampling row is the like-for-like comparison; the two relations' ε are not interchangeable",
			"sampling needs secret Poisson sampling (every record joins each batch independently) but covers every released iterate; iteration needs a fixed order, a contractive step (η ≤ 2/β) and hidden intermediate iterates, and protects early records most")...),
	}
	out.Iteration.Target = 0
	for _, t := range o.Indices {
		p, err := m.At(t, conv)
		if err != nil {
			return ComparisonReport{}, err
		}
		out.Indices = append(out.Indices, p)
	}
	return out, nil
}

// Verdict says for which records iteration wins (against the replace-one
// sampling ε).
func (c Comparison) Verdict() string {
	n, k := c.Run.N, c.IterationWins
	loss := func(x float64) string { return dp.Loss(x).String() }
	samp := loss(c.SamplingReplaceOne.Epsilon)
	switch {
	case c.SamplingReplaceOne.Epsilon == 0 && c.Iteration.Worst.Epsilon == 0:
		return "both analyses give ε = 0 for every record (the noise swamps the signal)"
	case k >= n:
		return fmt.Sprintf("iteration wins for every record: even the last one (ε = %s) is below sampling's %s (replace-one)", loss(c.Iteration.Worst.Epsilon), samp)
	case k == 0:
		return fmt.Sprintf("sampling wins for every record: its ε = %s (replace-one) is below iteration's best, %s", samp, loss(c.Iteration.Best.Epsilon))
	}
	return fmt.Sprintf("iteration is at least as good as sampling for the records at positions 1..%d (%.4g%% of them, processed earliest); sampling (replace-one, ε = %s) is better for the last %d, whose ε by iteration rises to %s at the end; releasing every iterate (composition) gives the worst-placed record %s",
		k, 100*float64(k)/float64(n), samp, n-k, loss(c.Iteration.Worst.Epsilon), loss(math.Max(c.Composition.Epsilon, 0)))
}
