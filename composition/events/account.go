package events

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"
	"strings"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// Query is what Account is asked.
type Query struct {
	// Delta is the δ ∈ (0, 1) at which ε is reported.
	Delta float64
	// Accountant is rdp, pld or best ("" means best).
	Accountant composition.Accountant
	// Discretization is the PLD's grid interval h (0 means 1e-4).
	Discretization float64
	// Epsilons, if any, are ε ≥ 0 at which δ(ε) is reported too.
	Epsilons []float64
}

// Result is the accounting of an events file. Epsilon is the headline, a
// sound upper bound by the accountant named in Accountant (for best, the
// smaller of the two sound bounds); PLDEpsilon and RDPEpsilon are the two
// sound values when computed (absent with the reason in PLDNote or
// RDPNote), EpsilonOptimistic the PLD's optimistic estimate, a lower
// estimate of the mechanism's ε that is never a guarantee (absent, with
// the reason in PLDNote, where a replace-one phase is subsampled: the PLD's
// pair then only dominates the mechanism).
type Result struct {
	Epsilon           dp.Loss  `json:"epsilon"`
	Delta             dp.Loss  `json:"delta"`
	Accountant        string   `json:"accountant"`
	PLDEpsilon        *dp.Loss `json:"pld_epsilon,omitempty"`
	EpsilonOptimistic *dp.Max  `json:"epsilon_optimistic,omitempty"`
	RDPEpsilon        *dp.Loss `json:"rdp_epsilon,omitempty"`
	// RDPOrder is the order α at which the RDP bound was attained.
	RDPOrder dp.Num `json:"rdp_order,omitempty"`
	// Discretization is the PLD's grid interval h, Points the largest grid
	// the composition needed (both 0 when no PLD was computed).
	Discretization dp.Num `json:"discretization,omitempty"`
	Points         int    `json:"points,omitempty"`
	PLDSource      string `json:"pld_source,omitempty"`
	RDPSource      string `json:"rdp_source,omitempty"`
	// PLDNote and RDPNote say why an accountant's value is absent.
	PLDNote string `json:"pld_note,omitempty"`
	RDPNote string `json:"rdp_note,omitempty"`
	// Deltas are δ(ε) at the ε the query asked for.
	Deltas []DeltaAt `json:"deltas,omitempty"`
	// Neighbours is the relation the file was accounted under, as privamp
	// names it everywhere ("add-remove" or "replace-one").
	Neighbours string `json:"neighbours"`
	// Steps is the number of mechanism runs in all; Phases lists them.
	Steps  dp.Num  `json:"steps"`
	Phases []Phase `json:"phases"`
}

// DeltaAt is δ(ε) by each accountant: Delta is the headline (the smaller
// sound value), PLDDelta and RDPDelta the sound ones, DeltaOptimistic the
// PLD's optimistic estimate.
type DeltaAt struct {
	Epsilon         dp.Num   `json:"epsilon"`
	Delta           dp.Loss  `json:"delta"`
	PLDDelta        *dp.Loss `json:"pld_delta,omitempty"`
	DeltaOptimistic *dp.Max  `json:"delta_optimistic,omitempty"`
	RDPDelta        *dp.Loss `json:"rdp_delta,omitempty"`
}

// noteDominated says why a replace-one file with subsampling has no
// optimistic estimate.
const noteDominated = "replace-one PLD of a subsampled phase: a dominating pair (pld.SubsampledGaussianReplaceOne), not the mechanism's own; no optimistic estimate is shown, since rounded down it estimates the pair's ε, not the mechanism's, which may lie below it"

const (
	pldSource = "PLD accountant (composition/pld): connect-the-dots discretization (Doroshenko et al. 2022), FFT composition (Koskela et al. 2020), every truncated mass and FFT error added to δ"
	rdpSource = "RDP: Mironov 2017 (Gaussian, Laplace, composition; replace-one as remove then add, Prop. 11), Mironov–Talwar–Zhang 2019 (subsampled Gaussian), Canonne–Kamath–Steinke 2020, Prop. 12 (conversion)"
	// rdpSourceFixed is added where a phase samples without replacement.
	rdpSourceFixed = "; sampling without replacement: " + rdp.SourceFixedSize
)

// Account accounts the run ev describes at q.Delta. Both accountants run
// where they apply (the RDP one always, being cheap; the PLD one unless
// q.Accountant is rdp); best reports the smaller sound ε, and pld or rdp
// report theirs or refuse, naming why the accountant does not apply to the
// file. Where the PLD does not apply (more than 2³¹−1 runs of one mechanism)
// or fails at the default discretization (a grid over pld's point cap),
// best falls back to RDP with the reason in PLDNote; a discretization the
// query sets that needs too many points is refused as a field error on
// "discretization". Errors in q are field errors; ev is validated first.
func Account(ev Events, q Query) (Result, error) {
	phases, steps, err := ev.walk()
	if err != nil {
		return Result{}, err
	}
	a := q.Accountant
	if a == "" {
		a = composition.AccountBest
	}
	if _, err := composition.ParseAccountant(string(a)); err != nil {
		return Result{}, err
	}
	if err := field.OpenUnit("delta", q.Delta); err != nil {
		return Result{}, err
	}
	for _, e := range q.Epsilons {
		if err := field.NonNegative("epsilon", e); err != nil {
			return Result{}, err
		}
	}
	opt := pld.Options{Interval: q.Discretization}
	if q.Discretization != 0 {
		if err := field.Positive("discretization", q.Discretization); err != nil {
			return Result{}, err
		}
	} else {
		opt.Interval = pld.DefaultInterval
	}
	if steps >= 1 && steps <= math.MaxInt32 {
		opt = opt.For(int(steps), q.Delta)
	}
	res := Result{Delta: dp.Loss(q.Delta), Neighbours: ev.relation().String(), Steps: dp.Num(steps), Phases: phases}
	withoutReplacement := false
	for _, ph := range phases {
		withoutReplacement = withoutReplacement || ph.Sampling == SamplingWithoutReplacement
		switch {
		case !ph.RDP && res.RDPNote == "":
			res.RDPNote = fmt.Sprintf("RDP does not apply to %s", ph.Path)
		case !ph.PLD && res.PLDNote == "":
			res.PLDNote = fmt.Sprintf("PLD does not apply: %s runs %s times, more than the PLD accountant composes (%d)", ph.Path, ph.Count, maxPLDCount)
		}
	}
	switch {
	case a == composition.AccountPLD && res.PLDNote != "":
		return Result{}, field.New("accountant", string(a), "does not apply: %s", res.PLDNote)
	case a == composition.AccountRDP && res.RDPNote != "":
		return Result{}, field.New("accountant", string(a), "does not apply: %s", res.RDPNote)
	}

	// Under replace-one a subsampled phase has a dominating pair, not its
	// own (pld.SubsampledGaussianReplaceOne): the optimistic estimate is
	// then about that pair and is not reported.
	dominated := false
	for _, ph := range phases {
		dominated = dominated || res.Neighbours == dp.ReplaceOne.String() && ph.Sampling != SamplingNone && ph.SamplingProbability < 1
	}
	var sound, optim *pld.PLD
	if a != composition.AccountRDP && res.PLDNote == "" {
		var points int
		sound, optim, points, err = buildPLD(ev, phases, opt, q.Delta)
		switch {
		case err == nil:
			res.Discretization, res.Points, res.PLDSource = dp.Num(opt.Interval), points, pldSource
		case a == composition.AccountPLD || q.Discretization != 0 && isField(err, "discretization"):
			return Result{}, err
		default:
			res.PLDNote = "PLD not computed: " + err.Error()
		}
	}
	if res.PLDSource != "" { // the PLD was built (nil: nothing revealed)
		e, eo := 0.0, 0.0
		if sound != nil {
			e, _ = sound.Epsilon(q.Delta)
			eo, _ = optim.Epsilon(q.Delta)
		}
		pe, po := dp.Loss(e), dp.Max(math.Min(eo, e))
		res.PLDEpsilon = &pe
		if dominated {
			res.PLDNote = noteDominated
		} else {
			res.EpsilonOptimistic = &po
		}
		if math.IsInf(e, 1) {
			res.PLDNote = "the PLD's bounds on its own rounding exceed δ: no finite PLD bound at this δ"
			if a == composition.AccountPLD { // asked for alone, it has no answer: refuse rather than print none
				return Result{}, field.New("accountant", string(a), "has no finite bound here: %s; best or rdp answer", res.PLDNote)
			}
		}
	}

	var curve interface{ Epsilon(float64) float64 }
	if res.RDPNote == "" {
		c := rdpCurve(&ev.Event, ev.relation(), ev.sensitivity())
		pr, err := rdpEpsilon(c, q.Delta)
		if err != nil {
			return Result{}, err
		}
		re := dp.Loss(pr.Epsilon)
		res.RDPEpsilon, res.RDPOrder, res.RDPSource, curve = &re, dp.Num(pr.Order), rdpSource, c
		if withoutReplacement {
			res.RDPSource += rdpSourceFixed
		}
		if pr.TotalVariation {
			res.RDPSource += "; ε = 0 by total variation ≤ √(1 − e^{−KL}) (Bretagnolle–Huber)"
		}
	}

	switch {
	case a == composition.AccountPLD, a == composition.AccountBest && res.PLDEpsilon != nil &&
		(res.RDPEpsilon == nil || *res.PLDEpsilon <= *res.RDPEpsilon):
		res.Epsilon, res.Accountant = *res.PLDEpsilon, string(composition.AccountPLD)
	case res.RDPEpsilon != nil:
		res.Epsilon, res.Accountant = *res.RDPEpsilon, string(composition.AccountRDP)
		if a == composition.AccountBest && res.PLDNote != "" { // the fallback, named
			res.PLDNote += "; ε is RDP's bound"
		}
	default:
		return Result{}, field.New("accountant", string(a), "does not apply: neither accountant covers this file (%s; %s)",
			strings.TrimPrefix(res.PLDNote, "PLD "), strings.TrimPrefix(res.RDPNote, "RDP "))
	}

	for _, eps := range q.Epsilons {
		d := DeltaAt{Epsilon: dp.Num(eps), Delta: 1}
		if res.PLDEpsilon != nil {
			ds, do := 0.0, 0.0
			if sound != nil {
				ds, do = sound.Delta(eps), optim.Delta(eps)
			}
			pd, od := dp.Loss(ds), dp.Max(math.Min(do, ds))
			d.PLDDelta, d.Delta = &pd, pd
			if !dominated {
				d.DeltaOptimistic = &od
			}
		}
		if curve != nil && a != composition.AccountPLD {
			pr, err := rdpDelta(curve, eps)
			if err != nil {
				return Result{}, err
			}
			rd := dp.Loss(pr)
			d.RDPDelta = &rd
			if a == composition.AccountRDP || rd < d.Delta {
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

// buildPLD builds the sound (connect-the-dots) and the optimistic PLD of ev
// in parallel; both are nil for a file that reveals nothing. A file of one
// phase is built as its tree says; a file of several is flattened into its
// mechanisms and their counts (the PLD of a composition is the convolution
// of its mechanisms' PLDs in any order) and composed by pld.ComposeFor,
// tuned for delta as a single phase is (the sound PLD; the optimistic one
// has no rounding bounds to tune).
func buildPLD(ev Events, phases []Phase, opt pld.Options, delta float64) (sound, optim *pld.PLD, points int, err error) {
	bs := &pldBuilder{rel: ev.relation(), sens: ev.sensitivity(), opt: opt}
	if ev.Event.Type == TypeSelfComposed && delta < 1e-9 {
		// A file that is one mechanism run k times is self-composed with
		// FFTs tuned for δ (pld.SelfComposeFor): at tiny δ the untilted FFT's
		// rounding bound alone would exceed δ. It is not used inside a
		// composition (the tilt is tuned for the final ε) nor at larger δ,
		// where the untilted bound is already far below δ.
		bs.delta = delta
	}
	bo := *bs
	bo.opt.Discretization = pld.Optimistic
	build := func(b *pldBuilder, d float64) (*pld.PLD, error) {
		if len(phases) < 2 {
			return b.build(&ev.Event)
		}
		return b.composeAll(&ev.Event, d)
	}
	var errOpt error
	done := make(chan struct{})
	go func() {
		defer close(done)
		optim, errOpt = build(&bo, 0)
	}()
	sound, err = build(bs, delta)
	<-done
	if err == nil {
		err = errOpt
	}
	if err != nil {
		return nil, nil, 0, err
	}
	return sound, optim, bs.points, nil
}
