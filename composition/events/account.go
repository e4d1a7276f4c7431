package events

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

// Query is what Account is asked.
type Query struct {
	// Delta is the δ ∈ (0, 1) at which ε is reported.
	Delta float64
	// Accountant is rdp, pld or best ("" means best).
	Accountant string
	// Discretization is the PLD's grid interval h (0 means 1e-4).
	Discretization float64
	// Epsilons, if any, are ε ≥ 0 at which δ(ε) is reported too.
	Epsilons []float64
	// Profile asks for δ(ε) at one ε and on the ε–δ curve (Result.Profile).
	Profile composition.ProfileQuery
	// SoundOnly computes the headline alone (composition.Tight.SoundOnly):
	// no EpsilonOptimistic nor DeltaOptimistic, and under the pld
	// accountant no RDPEpsilon. The headline is the same.
	SoundOnly bool
}

// Result is the accounting of an events file. Epsilon is the headline, a
// sound upper bound by the accountant named in Accountant (for best, the
// smaller of the two sound bounds), with that accountant's Source and the
// Assumptions it rests on (dp.Assumptions); PLDEpsilon and RDPEpsilon are the two
// sound values when computed (absent with the reason in PLDNote or
// RDPNote), EpsilonOptimistic the PLD's optimistic estimate, a lower
// estimate of the mechanism's ε that is never a guarantee (absent, with
// the reason in PLDNote, where a replace-one phase is subsampled: the PLD's
// pair then only dominates the mechanism).
type Result struct {
	dp.Guarantee
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
	Deltas []composition.DeltaAt `json:"deltas,omitempty"`
	// Profile is δ(ε) where Query.Profile asks.
	*composition.Profile
	// Neighbours is the relation the file was accounted under, as privamp
	// names it everywhere ("add-remove" or "replace-one").
	Neighbours dp.Relation `json:"neighbours"`
	// Steps is the number of mechanism runs in all; Phases lists them.
	Steps  dp.Num  `json:"steps"`
	Phases []Phase `json:"phases"`
}

// DeltaAt is δ(ε) by each accountant (composition.DeltaAt).
type DeltaAt = composition.DeltaAt

// noteDominated says why a replace-one file with subsampling has no
// optimistic estimate.
const noteDominated = "replace-one PLD of a subsampled phase: a dominating pair (pld.SubsampledGaussianReplaceOne), not the mechanism's own; no optimistic estimate is shown, since rounded down it estimates the pair's ε, not the mechanism's, which may lie below it"

// Account accounts the run ev describes at q.Delta: the file is decoded
// into its dp.Event (Events.DP) and accounted by composition.Tight, the one
// accountant privamp has, so a file that describes a DP-SGD run gets the ε
// privamp dpsgd gives that run. Both accountants run where they apply (the
// RDP one always, being cheap; the PLD one unless q.Accountant is rdp);
// best reports the smaller sound ε, and pld or rdp report theirs or refuse,
// naming why the accountant does not apply to the file. Where the PLD does
// not apply (more than 2³¹−1 runs of one mechanism) or fails at the default
// discretization (a grid over pld's point cap), best falls back to RDP with
// the reason in PLDNote; a discretization the query sets that needs too
// many points is refused as a field error on "discretization". A sampled
// Gaussian at rate 1 (every record in every step) is the exact Gaussian
// (composition.Tight). Errors in q are field errors; ev is validated first.
func Account(ev Events, q Query) (Result, error) {
	phases, steps, err := ev.walk()
	if err != nil {
		return Result{}, err
	}
	a := q.Accountant
	if a == "" {
		a = composition.AccountBest
	}
	t, err := composition.Named(a)
	if err != nil {
		return Result{}, err
	}
	if q.Discretization != 0 {
		if err := field.Positive("discretization", q.Discretization); err != nil {
			return Result{}, err
		}
	}
	t.Interval, t.SoundOnly, t.Progress = q.Discretization, q.SoundOnly, q.Profile.Progress
	e, rel := ev.DP()
	if a != composition.AccountRDP {
		for _, ph := range phases {
			if float64(ph.Count) > maxPLDCount {
				note := fmt.Sprintf("PLD does not apply: %s runs %s times, more than the PLD accountant composes (%d)", ph.Path, ph.Count, maxPLDCount)
				if a == composition.AccountPLD {
					return Result{}, field.New("accountant", a, "does not apply: %s", note)
				}
				break
			}
		}
	}
	top := 0.0
	if q.Profile.Curve {
		top = t.CurveTop(e, rel, q.Delta)
	}
	acc, err := t.Account(e, rel, q.Delta, append(slices.Clip(q.Epsilons), q.Profile.Epsilons(top)...))
	if err != nil {
		return Result{}, refusedAt(err, phases)
	}
	ds := acc.Deltas
	if len(ds) > len(q.Epsilons) {
		ds = ds[:len(q.Epsilons):len(q.Epsilons)]
	}
	g := acc.Guarantee
	g.Assumptions = dp.Assumptions(e, rel)
	res := Result{Guarantee: g, Neighbours: rel,
		Steps: dp.Num(steps), Phases: phases, PLDNote: acc.PLDNote, RDPNote: acc.RDPNote, Deltas: ds,
		Profile: q.Profile.Split(acc.Deltas[len(ds):])}
	if p := acc.PLD; p != nil {
		pe, po := p.Epsilon, p.EpsilonOptimistic
		res.PLDEpsilon, res.Discretization, res.Points, res.PLDSource = &pe, p.Discretization, p.Points, p.Source
		switch {
		case acc.Dominated && res.PLDNote == "":
			res.PLDNote = noteDominated
		case !acc.Dominated && !q.SoundOnly:
			res.EpsilonOptimistic = &po
		}
	}
	if r := acc.RDP; r != nil {
		re := dp.Loss(r.Epsilon)
		res.RDPEpsilon, res.RDPOrder, res.RDPSource = &re, dp.Num(r.Order), acc.RDPSource
	}
	if strings.HasPrefix(res.PLDNote, "PLD does not apply: a ") { // name the phase by its path in the file
		for _, ph := range phases {
			if float64(ph.Count) > maxPLDCount {
				res.PLDNote = fmt.Sprintf("PLD does not apply: %s runs %s times, more than the PLD accountant composes (%d); ε is RDP's bound", ph.Path, ph.Count, maxPLDCount)
				break
			}
		}
	}
	return res, nil
}

// maxPLDCount is the most runs of one mechanism the PLD accountant
// composes.
const maxPLDCount = math.MaxInt32

// refusedAt names, in a refusal by both accountants (a field error on
// "type"), the first phase of the file that neither covers, by its path.
func refusedAt(err error, phases []Phase) error {
	fe, ok := field.As(err)
	if !ok || fe.Field != "type" {
		return err
	}
	for _, ph := range phases {
		if !ph.PLD && !ph.RDP {
			return &dp.Error{Where: dp.InputFile, Field: ph.Path + ".type", Value: ph.Mechanism, Reason: fe.Reason}
		}
	}
	return err
}
