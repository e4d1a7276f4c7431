package verify

import (
	"fmt"
	"strings"

	"github.com/privamp/privamp/answer"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/shifted/plan"
)

// claimAnswer is privamp verify's JSON object for a claim.
type claimAnswer struct {
	Command    string `json:"command"`
	File       string `json:"file"`
	Trajectory string `json:"trajectory,omitempty"`
	Verification
}

// planAnswer is privamp verify's JSON object for a plan.
type planAnswer struct {
	Command string `json:"command"`
	File    string `json:"file"`
	*PlanVerification
}

// Report lays out the verification of the claim read from file (and the
// trajectory read from trajectory; empty: none): the verdict and the route
// that decided it, the claimed and certified ε, what was cross-checked and
// what taken on trust, and the table of checks. A DP-SGD claim's rows are
// its accountant's.
func (v Verification) Report(file, trajectory string) *answer.Report {
	tr := v.Training
	r := &answer.Report{Title: fmt.Sprintf("privamp verify %s: %s", file, v.Verdict), Result: claimAnswer{"verify", file, trajectory, v}, CSVAll: true, Assumptions: v.Assumptions, Notes: v.Notes}
	r.Table = &answer.Table{Header: []string{"check", "status", "basis", "value", "bound", "detail"}}
	for _, ch := range v.Checks {
		r.Table.Rows = append(r.Table.Rows, []string{ch.Name, string(ch.Status), ch.Basis, answer.CheckNum(ch.Value), answer.CheckNum(ch.Bound), ch.Detail})
	}
	if d := v.DPSGD; d != nil {
		at := fmt.Sprint("δ = ", d.Delta)
		r.Add("verdict", v.Verdict.String(), "", "via "+v.Via)
		r.Add("run", d.String(), "", "claim")
		r.Add("claimed ε", v.ClaimedEpsilon, at, "claim")
		r.Add("certified ε", v.WorstEpsilon, at, v.Source)
		r.Add("taken on trust", strings.Join(v.Trusted, "; "), "", "nothing the claim brings can contradict them")
		if v.Verdict == dp.Invalid {
			r.Add("noise multiplier that makes the claim true", v.NoiseMultiplierNeeded, "", v.Via+", calibrated and verified")
		}
		return r
	}
	add := func(when bool, q string, val any, u, s string) {
		if when {
			r.Add(q, val, u, s)
		}
	}
	delta := fmt.Sprintf("δ = %g", tr.Delta)
	add(true, "verdict", v.Verdict.String(), "", "via "+v.Via)
	add(true, "run", fmt.Sprintf("%s; n = %d private + %d public, %s; η, σ, L, β, m = %g, %g, %g, %g, %g", tr.Name(), tr.N, tr.Public, quantity.Count(tr.Steps(), "step", "steps"),
		tr.Loss.Eta, tr.Sigma, tr.Loss.Lipschitz, tr.Loss.Smoothness, tr.Loss.StrongConvexity), "", "claim")
	add(v.ClaimedEpsilon != nil, "claimed ε (worst case)", v.ClaimedEpsilon, delta, "claim")
	add(v.Via == ViaAmplification && v.WorstIndex > 0, fmt.Sprintf("certified ε (worst case, index %d)", v.WorstIndex), v.WorstEpsilon, delta, v.Source)
	// a contradicted claim gets no argument, composition included
	add(v.Via != ViaNone && v.Via != ViaDelta, "plain composition ε", v.CompositionEpsilon, delta, "every iterate released; needs only ‖∇f‖ ≤ L")
	add(v.Verdict == dp.Invalid, "σ that makes the claim true", v.SigmaNeeded, "", "shifted.Training.CalibrateSigma (bisection over the sound bound)")
	for _, iv := range v.PerIndex {
		add(true, fmt.Sprintf("index %d: claimed / certified ε", iv.Index), fmt.Sprintf("%s / %s", iv.Claimed, iv.Certified), delta, map[bool]string{true: "ok", false: "below the bound"}[iv.OK])
	}
	add(true, "cross-checked", strings.Join(v.CrossChecked, "; "), "", "against the trajectory or the other constants")
	add(true, "taken on trust", answer.Or(strings.Join(v.Trusted, "; "), "nothing"), "", "nothing the claim brings can contradict them")
	return r
}

// Report lays out the verification of plan p read from file: the verdict,
// the largest achieved/target ratio, the people above their target, the
// checks, and a table of the budget groups (or of the violations).
func (pv *PlanVerification) Report(file string, p *plan.Plan) *answer.Report {
	v := pv.Verification
	s, _ := p.Options()
	r := &answer.Report{Title: fmt.Sprintf("privamp verify %s: %s (a per-person privacy plan)", file, pv.Verdict), Result: &planAnswer{"verify", file, pv}, CSVAll: true, Assumptions: v.Assumptions, Notes: pv.Notes}
	add := func(q string, val any, src string) { r.Add(q, val, "", src) }
	add("verdict", pv.Verdict.String(), "via "+pv.Via+"; every position's ε checked with package shifted (recomputed, or for a plan of over 2^20 people sharing one δ, or a huge tier plan, bounded at each group's ends by the monotonicity of ε_t: see the count's source) and compared with its target")
	add("plan", fmt.Sprintf("%s, %s, order %s; σ, η, L, β, m = %g, %g, %g, %g, %g", quantity.Count(p.N, "person", "people"), s.Name(), p.Order, p.Sigma, p.Eta, p.Lipschitz, p.Smoothness, p.StrongConvexity), "plan file")
	if e, d, err := p.Target(v.WorstPosition); err == nil {
		add("largest achieved/target", dp.Loss(v.WorstRatio), fmt.Sprintf("index %d (%sε = %s, δ = %s)", v.WorstPosition, p.WhoAt(v.WorstPosition), quantity.Nearest(e), quantity.Nearest(d)))
	}
	add("people above their target", fmt.Sprintf("%s of %s", quantity.Int(float64(v.ViolationCount)), quantity.Int(float64(v.Checked))), "recomputed ε > target ε; "+v.Source)
	for _, ch := range pv.Checks {
		add("check: "+ch.Name, string(ch.Status), ch.Detail)
	}
	if pv.Via == ViaComposition {
		add("plain composition ε", pv.CompositionEpsilon, fmt.Sprintf("δ = %g; every iterate released; needs only ‖∇f‖ ≤ L; above the target of %s", p.Delta, quantity.Count(pv.CompositionShort, "person", "people")))
	}
	if len(v.Groups) > 0 && len(v.Groups) <= plan.MaxTable && v.ViolationCount == 0 {
		r.Table = plan.GroupTable(p, v.Groups)
	} else if v.ViolationCount > 0 {
		r.Table = &answer.Table{Header: []string{"index", "who", "target ε", "δ", "achieved ε"}}
		for _, vi := range v.Violations[:min(len(v.Violations), plan.MaxTable)] {
			r.Table.Rows = append(r.Table.Rows, []string{quantity.Int(float64(vi.Position)), answer.Or(vi.ID, vi.Tier), quantity.Nearest(vi.Epsilon), quantity.Nearest(vi.Delta), dp.Loss(vi.Achieved).String()})
		}
	}
	if pv.SigmaNeeded != nil {
		add("σ that meets every target", *pv.SigmaNeeded, fmt.Sprintf("privamp plan on the same budgets and setting (η = %s fixed)", quantity.Nearest(p.Eta)))
	}
	return r
}
