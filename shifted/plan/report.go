package plan

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/privamp/privamp/answer"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/quantity"
)

// MaxTable is the most budget groups (or unreachable entries, or
// violations) an answer's table lists one by one.
const MaxTable = 50

// Shown is what a caller did beside making a plan, as its answer states it:
// the budgets in words, the files it writes the plan and its plot to
// (empty: none; an infeasible plan's answer says they were not written), and Flag, its
// spelling of an option named by its Options field or output format
// ("max_sigma", "target_excess_risk", "csv", "json").
type Shown struct {
	What               string
	PlanFile, PlotFile string
	Flag               answer.Flag
}

// written is the files a caller wrote from a plan, as its JSON states them.
type written struct {
	PlanFile string `json:"plan_file,omitempty"`
	PlotFile string `json:"plot_file,omitempty"`
}

// answerResult is privamp plan's JSON object: Result's keys, plus the files written.
type answerResult struct {
	Command string `json:"command"`
	*Result
	written
}

// Report lays out a feasible plan made with o: σ, η, the utility bound,
// the worst person, the comparison with the uniform plan, and a table of
// the budget groups (or of log-spaced positions when there are more than
// MaxTable groups).
func (res *Result) Report(o Options, s Shown) *answer.Report {
	p, u, uu := res.Plan, res.Utility, res.Uniform.Utility
	r := &answer.Report{Title: fmt.Sprintf("privamp plan: a per-person privacy schedule for %s (%s, δ = %s)", s.What, res.Run, quantity.Nearest(res.Delta)),
		Result: answerResult{"plan", res, written{s.PlanFile, s.PlotFile}}, Assumptions: res.Assumptions, Notes: res.Notes}
	order, opt := "ascending budget, strictest first", "optimal (exchange argument: package shifted/plan)"
	if res.Order == "descending" {
		order = "descending budget, strictest last"
	}
	if !res.Optimal {
		opt = "heuristic: " + res.OrderNote
	}
	e, d, _ := p.Target(res.WorstIndex)
	r.Add("people (positions 1..n)", res.N, "", s.What)
	r.Add("order", order, "", opt)
	r.Add("noise σ", res.Sigma, "", res.SigmaSource+"; per-person curves: "+res.Source)
	r.Add("step size η", res.Eta, "", res.EtaSource)
	r.Add("utility bound E[F(W)] − F*", u.Bound.OrNone(), u.Label(), u.Source)
	r.Add("every target met", "yes: largest achieved/target = "+strconv.FormatFloat(res.MaxAchievedRatio, 'f', 10, 64), "", recomputed(res)+o.Conversion.Source())
	r.Add("worst person (sets σ)", fmt.Sprintf("position %d (%sε = %s, δ = %s)", res.WorstIndex, p.WhoAt(res.WorstIndex), quantity.Nearest(e), quantity.Nearest(d)), "", "the position with the largest achieved/target")
	r.Add(fmt.Sprintf("uniform plan σ (everyone ε = %s, δ = %s)", quantity.Nearest(res.Uniform.Epsilon), quantity.Nearest(res.Uniform.Delta)), res.Uniform.Sigma, "", "the same computation with every budget set to the strictest")
	r.Add("noise versus uniform", ratio(res.NoiseRatio, "less noise"), "", fmt.Sprintf("σ/σ_uniform = %s", res.NoiseRatio))
	r.Add("utility bound, uniform plan", uu.Bound.OrNone(), uu.Label(), uu.Source)
	r.Add("utility bound versus uniform", ratio(res.UtilityRatio, "better"), map[bool]string{true: "compares a VACUOUS bound: says little"}[u.Vacuous || uu.Vacuous], "ratio of the two bounds above")
	if s.PlanFile != "" {
		r.Add("plan written to", s.PlanFile, "", fmt.Sprintf("JSON, format %q version %d", Format, Version))
	}
	if s.PlotFile != "" {
		r.Add("plot written to", s.PlotFile, "", "ε per position")
	}
	if len(res.Groups) > 0 && len(res.Groups) <= MaxTable {
		r.Table = GroupTable(p, res.Groups)
		return r
	}
	tb := &answer.Table{Header: []string{"position", "who", "target ε", "δ", "achieved ε", "slack"}}
	pts, _ := res.Profile(24)
	for _, pt := range pts {
		tb.Rows = append(tb.Rows, []string{quantity.Int(float64(pt.Index)), pt.ID, quantity.Nearest(pt.Epsilon), quantity.Nearest(pt.Delta), pt.Achieved.String(), quantity.Down(pt.Epsilon - float64(pt.Achieved))})
	}
	r.Table = tb
	r.Notes = append(r.Notes, "many budget groups: the table shows log-spaced positions; "+s.Flag.Spell("csv")+" prints every person")
	return r
}

// ratio formats 1/r: how many times the uniform plan's value exceeds this plan's.
func ratio(r dp.Num, word string) string {
	if !(r > 0) || math.IsInf(float64(r), 0) {
		return "n/a"
	}
	return fmt.Sprintf("%s× %s", 1/r, word)
}

// GroupTable lists runs of positions with one budget and their achieved ε
// (the answers of a plan, of its verification and of a run that follows it).
func GroupTable(p *Plan, groups []GroupResult) *answer.Table {
	tb := &answer.Table{Header: []string{"positions", "count", "who", "target ε", "δ", "achieved ε (min – max)", "min slack"}}
	for _, gr := range groups {
		tb.Rows = append(tb.Rows, []string{Positions(gr.First, gr.Last), quantity.Int(float64(gr.Last - gr.First + 1)), p.WhoIn(gr.First, gr.Last, gr.Tier),
			quantity.Nearest(gr.Epsilon), quantity.Nearest(gr.Delta), dp.Loss(gr.AchievedMin).String() + " – " + dp.Loss(gr.AchievedMax).String(), quantity.Down(gr.SlackMin)})
	}
	return tb
}

// WhoAt names the person at position t for a parenthesis: `"id", ` or `tier, `.
func (p *Plan) WhoAt(t int64) string {
	if p.People != nil {
		return fmt.Sprintf("%q, ", p.Who(t))
	}
	return p.Who(t) + ", "
}

// InfeasibleReport lays out why no plan meets the cap of o (res.Infeasible
// set): σ needed and allowed, the people who cannot get their budget, the
// remedies; and the one-line failure message. It sets res.Notes to the
// answer's notes.
func (res *Result) InfeasibleReport(o Options, s Shown) (*answer.Report, string) {
	inf := res.Infeasible
	capFlag := fmt.Sprintf("%s %g", s.Flag.Spell("target_excess_risk"), o.TargetExcessRisk)
	if inf.CapField == "max_sigma" {
		capFlag = fmt.Sprintf("%s %g", s.Flag.Spell("max_sigma"), o.MaxSigma)
	}
	r := &answer.Report{Title: fmt.Sprintf("privamp plan: INFEASIBLE under %s — %d of %s cannot get their budget", capFlag, inf.UnreachableCount, quantity.Count(res.N, "person", "people")),
		Result: answerResult{Command: "plan", Result: res}}
	var allowed any = inf.Cap
	if inf.Cap == 0 {
		allowed = "0 (the utility target is missed even without noise)"
	}
	r.Add("people", res.N, "", s.What)
	r.Add("σ needed for every budget", inf.SigmaNeeded, "", res.SigmaSource)
	r.Add("σ allowed", allowed, "", inf.CapSource+" ("+capFlag+")")
	r.Add("people whose budget is unreachable", inf.UnreachableCount, "", "ε recomputed with package shifted at σ = the cap, in the planned order")
	r.Add("smallest ε anyone can have under the cap", inf.Floor, "", "the most private position at σ = the cap")
	r.Add("remedy: public records at the end", inf.Public.Summary(), "", "FMTT18 Cor 31: public records after the private ones add steps after everyone")
	r.Add("remedy: more people with the loosest budget", inf.People.Summary(), "", "extra records placed after the planned people (they too must meet the loosest budget)")
	if s.PlanFile+s.PlotFile != "" {
		res.Notes = append(res.Notes, "no plan or plot written: the plan is infeasible")
	}
	tb := &answer.Table{Header: []string{"positions", "who", "target ε", "δ", "smallest ε possible under the cap"}}
	for i, u := range inf.Unreachable {
		if i == MaxTable {
			res.Notes = append(res.Notes, fmt.Sprintf("the table lists the first %d of %d unreachable entries; %s or %s lists them all", MaxTable, len(inf.Unreachable), s.Flag.Spell("json"), s.Flag.Spell("csv")))
			break
		}
		ach := u.Achievable.String()
		if u.AchievableMin != u.Achievable {
			ach = u.AchievableMin.String() + " – " + ach
		}
		tb.Rows = append(tb.Rows, []string{Positions(u.First, u.Last), u.ID + u.Tier, quantity.Nearest(u.Epsilon), quantity.Nearest(u.Delta), ach})
	}
	r.Table = tb
	r.Notes = append(res.Notes, "more noise lowers every ε: the cap comes from utility; raise it, accept the listed budgets, or add the records above",
		inf.Public.Reason, inf.People.Reason)
	r.Notes = slices.DeleteFunc(r.Notes, func(s string) bool { return s == "" })
	res.Notes = r.Notes
	pub := "none helps"
	if inf.Public.Found {
		pub = strconv.FormatInt(inf.Public.Count, 10)
	}
	return r, fmt.Sprintf("plan infeasible under %s: %s cannot get their budget (see the table; public records needed: %s)", capFlag, quantity.Count(inf.UnreachableCount, "person", "people"), pub)
}

// recomputed says how the plan's ε were checked: at every position, or at
// each budget group's ends (EvaluateAllMax).
func recomputed(res *Result) string {
	if res.byEnds {
		return fmt.Sprintf("every person's ε bounded with package shifted at σ, η and their δ: n = %d > %d with one δ, so each budget group's ε is recomputed at its two ends and bounds the rest, since ε_t is monotone in t (proof at plan.EvaluateAllMax); ", res.N, evaluateAllMax)
	}
	return "every person's ε recomputed with package shifted at σ, η and their δ; "
}
