package plan

import (
	"fmt"
	"math"
)

// Mismatch is a field of a plan file's summary that its recomputation
// (Plan.Verify) contradicts beyond rounding.
type Mismatch struct {
	Field      string `json:"field"` // a path such as "summary.groups[2].achieved_max"
	Stored     string `json:"stored"`
	Recomputed string `json:"recomputed"`
}

func (m Mismatch) String() string {
	return fmt.Sprintf("%s: the file says %s, recomputed %s", m.Field, m.Stored, m.Recomputed)
}

// summaryTol is the relative difference between a stored and a recomputed
// summary number that counts as rounding: privamp writes every number
// exactly (shortest round-trip form), so only the last bits of a
// recomputation on another machine may differ.
const summaryTol = 1e-9

// summaryNumbers compares the summary's numbers with their recomputation
// and returns the fields that differ beyond rounding: max_achieved_ratio,
// binding_position, optimal, order_note, every group's fields,
// uniform_epsilon, uniform_delta, uniform_sigma, utility_bound and
// uniform_utility_bound. The source texts (sigma_source, eta_source,
// utility_source) describe and are not compared. q is the verification's
// problem, ev the recomputed ε (every position, or the ends and the stored
// binding position), v the verification.
func (p *Plan) summaryNumbers(q *problem, ev *evals, v *Verification) ([]Mismatch, error) {
	s := p.Summary
	out := []Mismatch{}
	num := func(field string, stored, re float64) {
		if stored == re || math.Abs(stored-re) <= summaryTol*math.Max(math.Abs(stored), math.Abs(re)) {
			return
		}
		out = append(out, Mismatch{field, fmt.Sprint(stored), fmt.Sprint(re)})
	}
	opt := func(field string, stored *float64, re float64) {
		switch {
		case stored == nil && (math.IsNaN(re) || math.IsInf(re, 0)):
		case stored == nil:
			out = append(out, Mismatch{field, "null", fmt.Sprint(re)})
		default:
			num(field, *stored, re)
		}
	}
	str := func(field, stored, re string) {
		if stored != re {
			out = append(out, Mismatch{field, fmt.Sprintf("%q", stored), fmt.Sprintf("%q", re)})
		}
	}
	num("summary.max_achieved_ratio", s.MaxAchievedRatio, v.WorstRatio)
	// the binding position: any position attaining the largest ratio
	if b := s.BindingPosition; b < 1 || b > p.N {
		out = append(out, Mismatch{"summary.binding_position", fmt.Sprint(b), fmt.Sprint(v.WorstPosition)})
	} else if e, _, err := p.Target(b); err == nil {
		if r := ev.eps(b) / e; math.Abs(r-v.WorstRatio) > summaryTol*v.WorstRatio {
			out = append(out, Mismatch{"summary.binding_position", fmt.Sprint(b), fmt.Sprint(v.WorstPosition)})
		}
	}
	optimal, note := q.optimality()
	if s.Optimal != optimal {
		out = append(out, Mismatch{"summary.optimal", fmt.Sprint(s.Optimal), fmt.Sprint(optimal)})
	}
	str("summary.order_note", s.OrderNote, note)
	if len(s.Groups) != len(v.Groups) && (len(s.Groups) > 0 || len(v.Groups) <= maxGroupsInSummary) {
		out = append(out, Mismatch{"summary.groups", fmt.Sprintf("%d groups", len(s.Groups)), fmt.Sprintf("%d groups", len(v.Groups))})
	} else if len(s.Groups) == len(v.Groups) {
		for i, g := range s.Groups {
			r := v.Groups[i]
			f := fmt.Sprintf("summary.groups[%d].", i)
			if g.First != r.First || g.Last != r.Last {
				out = append(out, Mismatch{f + "first", fmt.Sprintf("%d–%d", g.First, g.Last), fmt.Sprintf("%d–%d", r.First, r.Last)})
			}
			str(f+"tier", g.Tier, r.Tier)
			num(f+"epsilon", g.Epsilon, r.Epsilon)
			num(f+"delta", g.Delta, r.Delta)
			num(f+"achieved_min", g.AchievedMin, r.AchievedMin)
			num(f+"achieved_max", g.AchievedMax, r.AchievedMax)
			if d := math.Abs(g.SlackMin - r.SlackMin); d > summaryTol*g.Epsilon {
				out = append(out, Mismatch{f + "slack_min", fmt.Sprint(g.SlackMin), fmt.Sprint(r.SlackMin)})
			}
		}
	}
	// The uniform plan and the utility bounds depend on how η was chosen:
	// by the theorem's rule at each σ (the plan's η is then the rule's at
	// its σ) or given.
	o := q.s
	derived := o
	derived.Training.Loss.Eta = 0
	if eta, _, _ := derived.EtaRule(p.N, p.Sigma); math.Abs(eta-p.Eta) <= summaryTol*p.Eta {
		o = derived
	}
	u := *q
	u.s = o
	u.prepare()
	uni, err := uniform(&u)
	if err != nil {
		return nil, err
	}
	num("summary.uniform_epsilon", s.UniformEpsilon, uni.Epsilon)
	num("summary.uniform_delta", s.UniformDelta, uni.Delta)
	num("summary.uniform_sigma", s.UniformSigma, float64(uni.Sigma))
	opt("summary.uniform_utility_bound", s.UniformUtilityBound, float64(uni.Utility.Bound))
	opt("summary.utility_bound", s.UtilityBound, float64(o.Utility(p.N, p.Sigma).Bound))
	return out, nil
}
