package shifted

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/privamp/privamp/answer"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/quantity"
)

// The answers of privamp pnsgd and cni, laid out for showing (package answer).

// analysisAnswer is privamp pnsgd's JSON object.
type analysisAnswer struct {
	Command string `json:"command"`
	Analysis
}

// Report lays out the analysis: the run's inputs, ε at the indices asked
// for or the summary's highlights and share under the target, and the ε if
// every iterate were released.
func (an Analysis) Report() *answer.Report {
	at := "at δ = " + quantity.Nearest(an.Delta)
	r := &answer.Report{Title: fmt.Sprintf("Per-person privacy by amplification by iteration: %s, n = %s", an.Name, quantity.Int(float64(an.N))),
		Result: analysisAnswer{"pnsgd", an}, Assumptions: an.Assumptions, Notes: an.Notes}
	r.Add("n (private records)", quantity.Int(float64(an.N)), "", "input")
	r.Add("σ (gradient noise)", dp.Noise(an.Sigma), "std of N(0,σ²I) on batch sum / nominal b", "input")
	r.Add("z (noise multiplier)", dp.Num(an.NoiseMultiplier()), "bσ/L: N(0,(zL)²I) on the batch sum", "input")
	r.Add("L (Lipschitz)", dp.Num(an.Loss.Lipschitz), "declared", "input")
	if sm := an.Smoothing; sm != nil {
		r.Add("smoothing λ", dp.Num(sm.Lambda), "β = L/λ = "+quantity.Nearest(sm.Smoothness), sm.Source)
		r.Add("smoothing error", dp.Noise(sm.Error), "|f̂ − f| ≤ Lλ√d", "FMTT18 Thm 33")
	}
	for _, p := range an.Indices { // ρ_t is in the JSON
		r.Add(fmt.Sprintf("ε at index %d", p.Index), p.Epsilon, at, an.Source)
	}
	if s := an.Summary; s != nil {
		for _, h := range s.Highlights() {
			r.Add(fmt.Sprintf("ε, %s (index %d)", h.Label, h.Index), dp.Loss(h.Epsilon), at, an.Source)
		}
		if s.Target > 0 {
			r.Add("records with ε ≤ "+quantity.Nearest(s.Target), fmt.Sprintf("%s of %s (%.4g%%)", quantity.Int(float64(s.CountUnder)), quantity.Int(float64(an.N)), 100*s.ShareUnder), at, an.Source+"; monotone in the index")
		}
	}
	if !an.CompositionFallback {
		r.Add("ε if every iterate were released (worst record)", an.AllIteratesEpsilon, at, an.AllIteratesSource)
	}
	return r
}

// solutionAnswer is privamp cni's JSON object.
type solutionAnswer struct {
	Command string `json:"command"`
	SolutionReport
	AllocationFile string `json:"allocation_file,omitempty"`
}

// Answer lays out the bound of a contractive noisy iteration: K, ε and the
// order, the RDP ε at the orders asked for, and the segments of the convex
// minorant; allocation is the file the optimal shifts were written to
// (empty: none).
func (res SolutionReport) Answer(allocation string) *answer.Report {
	r := &answer.Report{Title: fmt.Sprintf("Contractive noisy iteration: %s steps in %s", quantity.Int(float64(res.Steps)), quantity.Count(res.Runs, "run", "runs")),
		Table:  &answer.Table{Header: []string{"segment", "first step", "last step", "K share", "shift at first step"}},
		Result: solutionAnswer{"cni", res, allocation}, Assumptions: res.Assumptions, Notes: res.Notes, CSVAll: true}
	r.Add("K (zCDP: D_α ≤ αK for all α > 1)", res.Rho, res.RhoNote, res.Source)
	r.Add("ε", res.Epsilon, "at δ = "+quantity.Nearest(float64(res.Delta)), res.EpsilonSource)
	r.Add("optimal order α", answer.Order(float64(res.Order)), "", "minimised over real α > 1")
	for _, v := range res.RDP {
		r.Add(fmt.Sprintf("RDP ε(α = %s)", quantity.Nearest(v.Alpha)), v.Epsilon, "αK", res.Source)
	}
	for i, s := range res.Segments {
		r.Table.Rows = append(r.Table.Rows, []string{strconv.Itoa(i + 1), quantity.Int(float64(s.First)), quantity.Int(float64(s.Last)), s.Rho.String(), s.FirstShift.String()})
	}
	return r
}

// comparisonAnswer is privamp compare's (and the main job's) JSON object.
type comparisonAnswer struct {
	Command string `json:"command"`
	ComparisonReport
}

// Answer lays out the comparison: iteration's ε (highlights and the
// indices asked for), sampling's under both relations, composition's, and
// for how many records iteration is at most sampling.
func (c ComparisonReport) Answer() *answer.Report {
	at := "at δ = " + quantity.Nearest(c.Delta)
	r := &answer.Report{
		Title: fmt.Sprintf("Amplification by iteration vs sampling: n = %d, batch %d, %s, %s, %s", c.N, c.Batch, quantity.Count(c.Epochs, "epoch", "epochs"), quantity.Count(c.Steps, "step", "steps"),
			Training{Batch: c.Batch, Sigma: c.Sigma, Loss: Loss{Lipschitz: c.Lipschitz}}.NoiseForms()),
		Result: comparisonAnswer{"compare", c}, Assumptions: c.Assumptions, Notes: c.Notes,
	}
	for _, h := range c.Iteration.Highlights() {
		r.Add(fmt.Sprintf("iteration, %s (index %d)", h.Label, h.Index), dp.Loss(h.Epsilon).String(), at+", replace-one", c.IterationSource)
	}
	for _, p := range c.Indices {
		r.Add(fmt.Sprintf("iteration, index %d", p.Index), p.Epsilon, at+", replace-one", c.IterationSource)
	}
	r.Add("sampling, replace-one (like for like, loose)", c.SamplingReplaceOneEpsilon, fmt.Sprintf("%s, everyone; may be up to %s× too high (see the notes)", at, c.SamplingLooseness), c.SamplingReplaceOneSource)
	r.Add("sampling, add/remove (DP-SGD's usual)", c.SamplingAddRemoveEpsilon, at+", everyone", c.SamplingAddRemoveSource)
	r.Add("composition, every iterate released (worst record)", c.CompositionEpsilon, at+", replace-one", c.CompositionSource)
	for _, w := range []struct {
		vs string
		k  int64
	}{{"replace-one", c.IterationWins}, {"add/remove", c.IterationWinsAddRemove}} {
		r.Add("iteration ≤ sampling ("+w.vs+") for", fmt.Sprintf("%s of %s records (%.4g%%)", quantity.Int(float64(w.k)), quantity.Int(float64(c.N)), 100*float64(w.k)/float64(c.N)),
			map[bool]string{true: "indices 1.." + quantity.Int(float64(w.k)), false: "none"}[w.k > 0], "ε_t is non-decreasing in t")
	}
	return r
}

// Report lays out the curve of run's worst record against the number of
// passes: one table row per number of passes, the burn-in and limit of the
// bounded domain, and the last pass's ε; flag spells the options a reader
// can add.
func (c EpochCurve) Report(run Training, flag answer.Flag) *answer.Report {
	r := &answer.Report{Title: fmt.Sprintf("ε of the worst record (index %d) against the number of passes: n = %d, %s, δ = %s", c.WorstIndex, c.N, run.NoiseForms(), quantity.Nearest(c.Delta)),
		Result: c, Command: "epochs", CSVAll: true, Notes: slices.DeleteFunc([]string{c.DomainNote}, func(s string) bool { return s == "" }),
		Table: &answer.Table{Header: []string{"epochs", "fmtt18_epsilon", "domain_epsilon", "domain_window_start", "sampling_epsilon"}}}
	cell := func(e *dp.Loss) string {
		if e == nil {
			return "—"
		}
		return e.String()
	}
	if c.Radius == 0 {
		r.Notes = append(r.Notes, "no bounded domain declared: give "+flag.Spell("radius")+" R (every step projects onto a ball of radius R) and "+flag.Spell("eta")+" for the bound that stops growing")
	}
	for _, p := range c.Points {
		d, s := p.Domain, p.Sampling
		r.Table.Rows = append(r.Table.Rows, []string{strconv.FormatInt(p.Epochs, 10), p.FMTT18.String(), cell(d), strconv.FormatInt(p.DomainStart, 10), cell(s)})
	}
	if c.LimitEpsilon != nil {
		r.Add("burn-in (passes)", strconv.FormatInt(c.BurnIn, 10), map[bool]string{true: "exact", false: "over the listed passes"}[c.BurnInExact], c.DomainSource)
		r.Add("ε after the burn-in (limit)", *c.LimitEpsilon, "worst record", c.DomainSource)
		r.Add("burn-in and limit, first record", fmt.Sprintf("%s, ε = %s", quantity.Count(c.BurnInFirst, "pass", "passes"), c.LimitEpsilonFirst), "", c.DomainSource)
	}
	last := c.Points[len(c.Points)-1]
	r.Add(fmt.Sprintf("ε after %s (FMTT18)", quantity.Count(last.Epochs, "pass", "passes")), last.FMTT18, "worst record", c.FMTT18Source)
	if last.Sampling != nil {
		r.Add(fmt.Sprintf("ε after %s (DP-SGD, replace-one)", quantity.Count(last.Epochs, "pass", "passes")), *last.Sampling, "everyone", c.SamplingSource)
	}
	return r
}
