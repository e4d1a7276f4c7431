package composition

import (
	"math"
	"strings"

	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// The accountants' names, as flags and outputs spell them. Every one gives
// a sound upper bound on ε; best reports the smaller of the RDP and the PLD
// bound, which is sound because each is.
const (
	AccountRDP  = "rdp"
	AccountPLD  = "pld"
	AccountBest = "best"
	// AccountAnalyticGaussian names the exact Gaussian profile that gives
	// the headline of a run of one Gaussian on every record (a DP-SGD run at
	// q = 1); it is reported, not chosen.
	AccountAnalyticGaussian = "analytic-gaussian"
)

// Tight is privamp's tightest sound accountant (a dp.Accountant): for a
// sampled run of one Gaussian at rate 1 (dp.AsSampledGaussianRun: DP-SGD at
// q = 1, every record in every batch) the exact Gaussian profile (Dong–Roth–Su 2019, Cor.
// 3.3; Balle–Wang 2018, Thm 8) or RDP where smaller; otherwise the smaller
// of the PLD accountant's (pld.Accountant) and the RDP accountant's
// (rdp.Accountant) bound, RDP alone, with the reason, wherever the PLD does
// not apply or has no finite bound. Only, if set, restricts it to one of
// the two (AccountRDP or AccountPLD), which then refuses what it cannot
// answer.
type Tight struct {
	// Only is "" or AccountBest (both, the smaller), AccountRDP or AccountPLD.
	Only string
	// Interval is the PLD's grid interval (0: pld.DefaultInterval, which a
	// DP-SGD run coarsens where its grid would be too large).
	Interval float64
	// Conversion is the RDP-to-DP conversion (zero value: rdp.Improved).
	Conversion rdp.Conversion
	// SoundOnly computes what the headline needs and nothing beside it:
	// no PLD optimistic estimate (pld.Options.SoundOnly; Account's
	// PLD.EpsilonOptimistic is then 0 and DeltaAt.DeltaOptimistic nil) and,
	// when Only is AccountPLD, no RDP value beside the PLD's (Account's RDP
	// nil). The headline is the same bit for bit.
	SoundOnly bool
	// Progress, if not nil, hears how far the PLD accountant is with a
	// composition of several mechanisms (pld.Options.Progress).
	Progress dp.Progress `json:"-"`
}

// Tightest is the tightest accountant with its defaults.
func Tightest() Tight { return Tight{} }

// Named returns the accountant a flag or field names: rdp, pld or best.
func Named(name string) (Tight, error) {
	switch name {
	case AccountRDP, AccountPLD, AccountBest:
		return Tight{Only: name}, nil
	}
	return Tight{}, field.New("accountant", name, "must be rdp, pld or best")
}

// Name is AccountBest, or the one accountant Only names.
func (t Tight) Name() string {
	if t.Only == "" {
		return AccountBest
	}
	return t.Only
}

// Supports is nil if t answers for e under r: best answers where either
// accountant does, and otherwise says why neither does.
func (t Tight) Supports(e dp.Event, r dp.Relation) error {
	switch t.Only {
	case AccountPLD:
		return pld.Accountant{}.Supports(e, r)
	case AccountRDP:
		return rdp.Accountant{}.Supports(e, r)
	}
	re := rdp.Accountant{}.Supports(e, r)
	if re == nil {
		return nil
	}
	pe := pld.Accountant{}.Supports(e, r)
	if pe == nil {
		return nil
	}
	if _, ok := field.As(re); ok { // a parameter out of range: both say so
		return re
	}
	return field.New("type", e.EventType(), "is refused by both accountants: rdp: %v; pld: %v", re, pe)
}

// Epsilon is t's headline ε at delta.
func (t Tight) Epsilon(e dp.Event, r dp.Relation, delta float64) (dp.Guarantee, error) {
	a, err := t.Account(e, r, delta, nil)
	if err != nil {
		return dp.Guarantee{}, err
	}
	return dp.Guarantee{Epsilon: a.Epsilon, Delta: a.Delta, Accountant: a.Accountant, Source: a.Source,
		Assumptions: dp.Assumptions(e, r)}, nil
}

// Delta is t's δ at eps: the smaller sound δ of the accountants t runs.
func (t Tight) Delta(e dp.Event, r dp.Relation, eps float64) (dp.Guarantee, error) {
	var best dp.Guarantee
	var errs []string
	try := func(a dp.Accountant) {
		g, err := a.Delta(e, r, eps)
		switch {
		case err != nil:
			errs = append(errs, a.Name()+": "+err.Error())
		case best.Accountant == "" || g.Delta < best.Delta:
			best = g
		}
	}
	if t.Only != AccountPLD {
		try(rdp.Accountant{Conversion: t.Conversion})
	}
	if t.Only != AccountRDP {
		try(pld.Accountant{Options: pld.Options{Interval: t.Interval}})
	}
	if best.Accountant == "" {
		return dp.Guarantee{}, field.New("accountant", t.Name(), "has no bound here: %s", strings.Join(errs, "; "))
	}
	return best, nil
}

// Accounting is Tight's full answer: the headline (Epsilon by Accountant,
// with its Source) and what each accountant found beside it.
type Accounting struct {
	dp.Guarantee
	// Mu is the μ of the one Gaussian a run at rate 1 composes to (0
	// otherwise), Exact its exact ε.
	Mu, Exact float64
	// PLD is the PLD accountant's answer (nil: not computed, PLDNote says
	// why). Dominated says that the PLD is of a dominating pair, not the
	// mechanism's own (replace-one with sampling below rate 1): its
	// optimistic estimate is then not an estimate of the mechanism's ε.
	PLD       *pld.Result
	Dominated bool
	// RDP is the RDP accountant's answer (nil: not computed).
	RDP       *rdp.DP
	RDPSource string
	// PLDNote and RDPNote say why an accountant's value is absent or not
	// the headline.
	PLDNote, RDPNote string
	// Deltas are δ(ε) at the epsilons asked for.
	Deltas []DeltaAt
}

// DeltaAt is δ(ε) by each accountant: Delta is the headline (the smaller
// sound value), PLDDelta and RDPDelta the sound ones, DeltaOptimistic the
// PLD's optimistic estimate (nil where not computed).
type DeltaAt struct {
	Epsilon         dp.Num   `json:"epsilon"`
	Delta           dp.Loss  `json:"delta"`
	PLDDelta        *dp.Loss `json:"pld_delta,omitempty"`
	DeltaOptimistic *dp.Max  `json:"delta_optimistic,omitempty"`
	RDPDelta        *dp.Loss `json:"rdp_delta,omitempty"`
}

// noteExact is why a run at rate 1 has no PLD.
const noteExact = "at q = 1 the exact Gaussian profile is tight; no PLD needed"

// Account accounts e under r at delta, and δ(ε) at epsilons, by every
// accountant t runs. The RDP accountant always runs (it is cheap), the PLD
// accountant unless Only is AccountRDP; a run at rate 1 has the exact
// Gaussian instead of the PLD. Errors in e are field errors (dp.Check);
// AccountPLD refuses what the PLD cannot answer, naming why.
func (t Tight) Account(e dp.Event, r dp.Relation, delta float64, epsilons []float64) (Accounting, error) {
	switch t.Only {
	case "", AccountBest, AccountRDP, AccountPLD:
	default:
		return Accounting{}, field.New("accountant", t.Only, "must be rdp, pld or best")
	}
	if err := dp.Validate(e, r); err != nil {
		return Accounting{}, err
	}
	if err := field.OpenUnit("delta", delta); err != nil {
		return Accounting{}, err
	}
	for _, x := range epsilons {
		if err := field.NonNegative("epsilon", x); err != nil {
			return Accounting{}, err
		}
	}
	res := Accounting{Guarantee: dp.Guarantee{Delta: dp.Loss(delta)}}
	if dp.HasNonPrivate(e) {
		return nonPrivate(t, delta, epsilons), nil
	}
	ra := rdp.Accountant{Conversion: t.Conversion}
	if t.Only != AccountPLD {
		if err := ra.Supports(e, r); err != nil {
			if t.Only == AccountRDP {
				return Accounting{}, field.New("accountant", t.Only, "does not apply: %s", err.Error())
			}
			res.RDPNote = "RDP does not apply: " + err.Error()
		}
	}
	run, isRun := dp.AsSampledGaussianRun(e)
	exact := isRun && run.Sampling != dp.None && run.Rate == 1
	pa := pld.Accountant{Options: pld.Options{Interval: t.Interval, SoundOnly: t.SoundOnly, Progress: t.Progress}}
	switch {
	case t.Only == AccountRDP:
	case exact:
		res.PLDNote = noteExact
	default:
		if err := pa.Supports(e, r); err != nil {
			res.PLDNote = "PLD does not apply: " + err.Error()
		}
	}
	if res.PLDNote != "" || t.Only == AccountRDP {
		ra.Progress = t.Progress // RDP alone: its long sums report progress
	}
	if t.Only == AccountPLD && res.PLDNote != "" {
		return Accounting{}, field.New("accountant", t.Only, "does not apply: %s", strings.TrimPrefix(res.PLDNote, "PLD does not apply: "))
	}
	if res.RDPNote != "" && res.PLDNote != "" { // neither accountant bounds e
		return Accounting{}, field.New("type", e.EventType(), "is refused by both accountants: rdp: %s; pld: %s",
			strings.TrimPrefix(res.RDPNote, "RDP does not apply: "), strings.TrimPrefix(res.PLDNote, "PLD does not apply: "))
	}

	// Under replace-one a sampled mechanism below rate 1 has a dominating
	// pair, not its own (pld.SubsampledGaussianReplaceOne).
	if r == dp.ReplaceOne {
		_ = dp.Leaves(e, func(l dp.Event, _ float64) error {
			switch x := l.(type) {
			case dp.PoissonSampled:
				res.Dominated = res.Dominated || x.SamplingProbability < 1
			case dp.SampledWithoutReplacement:
				res.Dominated = res.Dominated || x.SampleSize < x.SourceDatasetSize
			}
			return nil
		})
	}
	// The RDP accountant runs beside the PLD's, in parallel (it does not
	// depend on it; on two cores it fills the time the PLD's three
	// compositions leave). Under SoundOnly the PLD asked for alone answers
	// without RDP beside it.
	type rdpAnswer struct {
		c     rdp.Curve
		pr    rdp.DP
		src   string
		err   error
		panic any
	}
	var rdpDone chan rdpAnswer
	if res.RDPNote == "" && !(t.SoundOnly && t.Only == AccountPLD) {
		rdpDone = make(chan rdpAnswer, 1)
		go func() {
			var a rdpAnswer
			defer func() {
				a.panic = recover() // re-raised by the caller, as if it had run there
				rdpDone <- a
			}()
			if a.c, a.err = ra.Curve(e, r); a.err != nil {
				return
			}
			if a.pr, a.err = ra.AccountFor(e, a.c, delta); a.err != nil {
				return
			}
			a.src = ra.SourceFor(e, a.pr) // Epsilon's source, without accounting again
		}()
	}
	if t.Only != AccountRDP && res.PLDNote == "" {
		p, err := pa.AccountAt(e, r, delta, epsilons) // δ(ε) from the same PLDs: built once
		switch {
		case err == nil:
			res.PLD = &p
		case t.Only == AccountPLD || t.Interval != 0 && isField(err, "discretization"):
			return Accounting{}, err
		default:
			res.PLDNote = "PLD not computed: " + err.Error()
		}
		if res.PLD != nil && math.IsInf(float64(p.Epsilon), 1) {
			res.PLDNote = "the PLD's bounds on its own rounding exceed δ: no finite PLD bound at this δ"
			if t.Only == AccountPLD { // asked for alone, it has no answer: refuse rather than print none
				return Accounting{}, field.New("accountant", t.Only, "has no finite bound here: %s; best or rdp answer", res.PLDNote)
			}
		}
	}

	var c rdp.Curve
	var pr rdp.DP
	if rdpDone != nil {
		a := <-rdpDone
		if a.panic != nil {
			panic(a.panic)
		}
		if a.err != nil {
			return Accounting{}, a.err
		}
		c, pr = a.c, a.pr
		res.RDP, res.RDPSource = &pr, a.src
	} else if res.PLD == nil { // the PLD was the only accountant and did not answer
		return Accounting{}, field.New("accountant", t.Name(), "has no bound here: %s; %s", res.PLDNote, res.RDPNote)
	}

	switch {
	case exact:
		res.Mu = math.Sqrt(float64(run.Steps)) * r.Sensitivity() / run.Noise
		x, err := GaussianEpsilon(res.Mu, delta)
		if err != nil {
			return Accounting{}, err
		}
		res.Exact = x
		res.Epsilon, res.Accountant, res.Source = dp.Loss(pr.Epsilon), AccountRDP, res.RDPSource
		if x <= pr.Epsilon { // both are sound: keep the smaller
			res.Epsilon, res.Accountant = dp.Loss(x), AccountAnalyticGaussian
			res.Source = "q = 1: T steps are one Gaussian with μ = √T·Δ/z (Dong–Roth–Su 2019, Cor. 3.3), exact profile (Balle–Wang 2018, Thm 8)"
		}
	case t.Only == AccountPLD, res.RDP == nil, t.Only != AccountRDP && res.PLD != nil && !math.IsInf(float64(res.PLD.Epsilon), 1) &&
		float64(res.PLD.Epsilon) <= pr.Epsilon:
		res.Epsilon, res.Accountant, res.Source = res.PLD.Epsilon, AccountPLD, res.PLD.Source
	default:
		res.Epsilon, res.Accountant, res.Source = dp.Loss(pr.Epsilon), AccountRDP, res.RDPSource
		if t.Only != AccountRDP && res.PLDNote != "" && !exact { // the fallback, named
			res.PLDNote += "; ε is RDP's bound"
		}
	}

	if len(epsilons) == 0 {
		return res, nil
	}
	var at []pld.DeltaAt
	if res.PLD != nil {
		if at = res.PLD.At; len(at) != len(epsilons) { // not read off by AccountAt: build the PLDs
			sound, optim, err := pa.PLDs(e, r, delta)
			if err != nil {
				return Accounting{}, err
			}
			at = make([]pld.DeltaAt, len(epsilons))
			for i, x := range epsilons {
				if at[i].Epsilon = x; sound != nil {
					at[i].Delta = sound.Delta(x)
				}
				if optim != nil { // nil under SoundOnly
					at[i].Optimistic = optim.Delta(x)
				}
			}
		}
	}
	for i, x := range epsilons {
		d := DeltaAt{Epsilon: dp.Num(x), Delta: 1}
		if exact {
			ed := dp.Loss(GaussianDelta(res.Mu, x))
			d.Delta = ed
		}
		if res.PLD != nil {
			ds, do := at[i].Delta, at[i].Optimistic
			pd, od := dp.Loss(ds), dp.Max(math.Min(do, ds))
			d.PLDDelta, d.Delta = &pd, pd
			if !res.Dominated && !t.SoundOnly {
				d.DeltaOptimistic = &od
			}
		}
		if t.Only != AccountPLD && res.RDP != nil {
			pr, err := ra.DeltaFor(e, c, x)
			if err != nil {
				return Accounting{}, err
			}
			rd := dp.Loss(pr.Delta)
			d.RDPDelta = &rd
			if t.Only == AccountRDP && !exact || rd < d.Delta {
				d.Delta = rd
			}
		}
		res.Deltas = append(res.Deltas, d)
	}
	return res, nil
}

// isField reports whether err is a field error on name.
func isField(err error, name string) bool {
	fe, ok := field.As(err)
	return ok && fe.Field == name
}

// sourceNonPrivate is the source of the answer to a run with a NonPrivate
// event.
const sourceNonPrivate = "a NonPrivate event (dp_accounting's NonPrivateDpEvent) releases without a privacy guarantee: ε = ∞ at every δ, δ = 1 at every ε"

// nonPrivate is t's answer to a run with a NonPrivate event: no finite ε.
func nonPrivate(t Tight, delta float64, epsilons []float64) Accounting {
	inf := dp.Loss(math.Inf(1))
	res := Accounting{Guarantee: dp.Guarantee{Epsilon: inf, Delta: dp.Loss(delta), Accountant: t.Name(), Source: sourceNonPrivate}}
	for _, x := range epsilons {
		res.Deltas = append(res.Deltas, DeltaAt{Epsilon: dp.Num(x), Delta: 1})
	}
	return res
}
