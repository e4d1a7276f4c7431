package main

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/privamp/privamp/shifted/plan"
)

// planInfeasible reports a cap that some budgets cannot meet (exit 1).
func planInfeasible(a *app, f *planFlags, what string, out *planResult) error {
	res, inf := out.Result, out.Infeasible
	capFlag := fmt.Sprintf("--target-excess-risk %g", f.opt.TargetExcessRisk)
	if inf.CapField == "max_sigma" {
		capFlag = fmt.Sprintf("--max-sigma %g", f.opt.MaxSigma)
	}
	r := &report{Title: fmt.Sprintf("privamp plan: INFEASIBLE under %s — %d of %d people cannot get their budget", capFlag, inf.UnreachableCount, res.N), Result: out}
	var allowed any = inf.Cap
	if inf.Cap == 0 {
		allowed = "0 (the utility target is missed even without noise)"
	}
	r.Rows = []row{
		{"people", res.N, "", what},
		{"σ needed for every budget", inf.SigmaNeeded, "", res.SigmaSource},
		{"σ allowed", allowed, "", inf.CapSource + " (" + capFlag + ")"},
		{"people whose budget is unreachable", inf.UnreachableCount, "", "ε recomputed with package shifted at σ = the cap, in the planned order"},
		{"smallest ε anyone can have under the cap", inf.Floor, "", "the most private position at σ = the cap"},
		{"remedy: public records at the end", planRemedy(inf.Public), "", "FMTT18 Cor 31: public records after the private ones add steps after everyone"},
		{"remedy: more people with the loosest budget", planRemedy(inf.People), "", "extra records placed after the planned people (they too must meet the loosest budget)"},
	}
	if f.out+f.plotPath != "" {
		res.Notes = append(res.Notes, "no plan or plot written: the plan is infeasible")
	}
	tb := &table{Header: []string{"positions", "who", "target ε", "δ", "smallest ε possible under the cap"}}
	for i, u := range inf.Unreachable {
		if i == planMaxTable {
			res.Notes = append(res.Notes, fmt.Sprintf("the table lists the first %d of %d unreachable entries; --json or --csv lists them all", planMaxTable, len(inf.Unreachable)))
			break
		}
		ach := u.Achievable.String()
		if u.AchievableMin != u.Achievable {
			ach = u.AchievableMin.String() + " – " + ach
		}
		tb.Rows = append(tb.Rows, []string{planPositions(u.First, u.Last), u.ID + u.Tier, fmtNum(u.Epsilon), fmtNum(u.Delta), ach})
	}
	r.Table = tb
	r.Notes = append(res.Notes, "more noise lowers every ε: the cap comes from utility; raise it, accept the listed budgets, or add the records above",
		inf.Public.Reason, inf.People.Reason)
	r.Notes = slices.DeleteFunc(r.Notes, func(s string) bool { return s == "" })
	res.Notes = r.Notes
	write := func() error { return render(a.out, a.mode, r) }
	if a.mode.csv {
		write = func() error { return inf.WriteCSV(a.out) }
	}
	if err := write(); err != nil {
		return err
	}
	pub := "none helps"
	if inf.Public.Found {
		pub = strconv.FormatInt(inf.Public.Count, 10)
	}
	return &exitError{code: exitFailure, msg: fmt.Sprintf("plan infeasible under %s: %d people cannot get their budget (see the table; public records needed: %s)", capFlag, inf.UnreachableCount, pub)}
}

// planRemedy describes a remedy; its σ is rounded up (quantity.Noise), so
// the printed σ meets every budget too.
func planRemedy(rm plan.Remedy) string {
	if !rm.Found {
		return "none (see the notes)"
	}
	s := fmt.Sprintf("%d (then σ = %s, utility bound %s)", rm.Count, rm.Sigma, planBound(rm.Utility.Bound))
	if rm.Verified {
		return s + "; recomputed: every target met"
	}
	return s + "; " + rm.Reason
}
