package shifted

import (
	"fmt"
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
