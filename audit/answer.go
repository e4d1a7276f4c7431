package audit

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/answer"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/quantity"
)

// The answers of privamp audit, laid out for showing (package answer).

// Answer lays out the neighbouring-runs audit: the verdict (lower bound
// against the proven bound), the runs, the derived η and σ, the lower,
// proven, exact and composition ε, the measured test, and its check.
func (rep *Report) Answer() *answer.Report {
	res := rep.Run
	r := &answer.Report{Title: fmt.Sprintf("privamp audit: %s on %s, %s loss, canary at index %d", res.Name, res.Description, res.Declared.Loss, rep.Index),
		CSVAll: true, Command: "audit", Result: rep, Notes: res.Notes}
	add := r.Add
	dl := fmt.Sprintf("δ = %g", res.Privacy.Delta)
	add("verdict", map[bool]string{true: "lower bound ≤ proven bound", false: "lower bound ABOVE the proven bound"}[rep.Check.Status == dp.Pass], "measured", rep.Check.Detail)
	add("runs", fmt.Sprintf("%d + %d", rep.Trials, rep.Trials), "given", fmt.Sprintf("S and S' (index %d replaced), %d workers, seed %d", rep.Index, rep.Workers, res.Seed))
	add("η, σ", fmt.Sprintf("%s, %s", res.Derived.Eta, res.Derived.Sigma), "derived", answer.JoinNonEmpty("; ", res.Derived.EtaSource, res.Derived.SigmaSource))
	add("ε lower bound (audit)", rep.Lower, dl, fmt.Sprintf("Clopper–Pearson, %g%% confidence", 100*rep.Confidence))
	add("ε upper bound (proven)", rep.Guarantee.Epsilon, dl, rep.Source)
	if !math.IsNaN(float64(rep.Exact)) {
		add("ε exact", rep.Exact, dl, "final iterate Gaussian: exact privacy profile")
	}
	add("ε by plain composition", res.Privacy.Composition, dl, "every iterate released")
	add("statistic means S / S'", fmt.Sprintf("%s / %s (sd %s)", quantity.Nearest(rep.MeanIn), quantity.Nearest(rep.MeanOut), quantity.Nearest(rep.SD)), "measured", "⟨w, e⟩, e the canary's direction")
	op := map[bool]string{true: "≥", false: "≤"}[rep.Greater]
	add("test", fmt.Sprintf("say S when ⟨w, e⟩ %s %s", op, quantity.Nearest(rep.Threshold)), "measured", "threshold chosen on the first half of the runs")
	add("true / false positives", fmt.Sprintf("%d / %d of %d", rep.TP, rep.FP, rep.EvalTrials), "measured", "second half")
	add("TPR lower, FPR upper", fmt.Sprintf("%s, %s", quantity.Nearest(rep.TPRLow), quantity.Nearest(rep.FPRHigh)), "measured", "one-sided Clopper–Pearson bounds")
	add("μ (Gaussian DP), ε if μ-GDP", fmt.Sprintf("[%s, %s], ε ≥ %s", rep.GDP.MuLower, rep.GDP.MuUpper, rep.GDP.EpsilonLower), dl, rep.GDP.Source)
	r.Table = &answer.Table{Header: []string{"check", "status", "value", "bound", "detail"},
		Rows: [][]string{{rep.Check.Name, string(rep.Check.Status), rep.Lower.String(), rep.Guarantee.Epsilon.String(), rep.Check.Detail}}}
	r.Notes = append(r.Notes, fmt.Sprintf("with %d evaluation runs the audit cannot certify much above ln(%d) ≈ %.1f", rep.EvalTrials, rep.EvalTrials, math.Log(float64(rep.EvalTrials))))
	return r
}

// Answer lays out the audit of the canary scores read from path: the
// verdict against an upper bound where one was given, the lower bound, and
// one table row per estimator; flag spells the option that gave the scores.
func (ev *Evaluation) Answer(path string, flag answer.Flag) *answer.Report {
	at := fmt.Sprintf("at δ = %g, %s%% confidence", ev.Delta, quantity.Nearest(100*ev.Confidence))
	r := &answer.Report{Title: fmt.Sprintf("privamp audit %s %s: %s (%d members, %d non-members)", flag.Spell("scores"), path, quantity.Count(ev.Canaries, "canary", "canaries"), ev.Members, ev.NonMembers),
		Command: "audit", Result: ev, CSVAll: true, Notes: ev.Notes, Table: &answer.Table{Header: []string{"estimator", "epsilon_lower", "detail", "reason"}}}
	add := r.Add
	if c := ev.Comparison; c != nil {
		r.Title += ": " + c.Verdict.String()
		add("verdict", c.Verdict.String(), "", c.Statement)
		add("ε upper bound", c.EpsilonUpper, fmt.Sprintf("at δ = %g", c.Delta), c.Source)
	}
	add("ε lower bound", ev.EpsilonLower, at, answer.JoinNonEmpty("", map[bool]string{true: "estimator: " + ev.Estimator}[ev.Estimator != ""], ev.Reason))
	if t := ev.Threshold; t != nil {
		op := map[bool]string{true: "≥", false: "≤"}[t.Greater]
		d := fmt.Sprintf("member when score %s %s: %d of %d members, %d of %d non-members (TPR ≥ %s, FPR ≤ %s)", op, quantity.Nearest(t.Threshold), t.TP, t.Members, t.FP, t.NonMembers, quantity.Nearest(t.TPRLow), quantity.Nearest(t.FPRHigh))
		add("ε lower, threshold attack", t.EpsilonLower, map[string]string{"grid": "union bound over the grid"}[t.Method]+map[string]string{"split": "threshold chosen on the other half"}[t.Method], t.Source)
		r.Table.Rows = append(r.Table.Rows, []string{"threshold", t.EpsilonLower.String(), d, t.Reason})
	}
	if g := ev.GDP; g != nil {
		add("μ (Gaussian DP)", fmt.Sprintf("[%s, %s]", g.MuLower, g.MuUpper), quantity.Nearest(100*g.IntervalConfidence)+"% interval", g.Source)
		add("ε if the run is μ-GDP", fmt.Sprintf("[%s, %s]", g.EpsilonLower, g.EpsilonUpper), quantity.Nearest(100*g.IntervalConfidence)+fmt.Sprintf("%% interval at δ = %g", ev.Delta), g.Assumption)
		r.Table.Rows = append(r.Table.Rows, []string{"gdp", g.EpsilonLower.String(), fmt.Sprintf("μ in [%s, %s]; a bound on ε only if the run is μ-GDP", g.MuLower, g.MuUpper), g.Reason})
	}
	if o := ev.OneRun; o != nil {
		add("ε lower, one run", o.EpsilonLower, fmt.Sprintf("%d of %d guesses right, %d canaries", o.Correct, o.Guesses, o.Canaries), o.Source)
		r.Table.Rows = append(r.Table.Rows, []string{"one_run", o.EpsilonLower.String(), fmt.Sprintf("%d of %d guesses right, %d canaries", o.Correct, o.Guesses, o.Canaries), o.Reason})
	}
	return r
}
