package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted/plan"
	"github.com/spf13/cobra"
)

func init() { register(newVerifyCmd) }

// Exit statuses of verify (0 is VALID).
const (
	exitInvalid     = 1
	exitUnsupported = 3
)

func newVerifyCmd(a *app) *cobra.Command {
	var trajectory string
	cmd := &cobra.Command{
		Use:   "verify (CLAIM.json | PLAN.json)",
		Short: "Check a training run's claimed (ε, δ), or a per-person privacy plan, against the bound privamp can prove",
		Long: `Reads a claim — the algorithm, its parameters and the claimed ε (worst case or per index), optionally
with a trajectory CSV of the user's own training — recomputes the sound per-person bound (package
shifted), checks every assumption it needs against the stated constants and the trajectory, and
answers:

  VALID        (exit 0) the claimed ε is at least a bound privamp can prove
  INVALID      (exit 1) the assumptions hold but the claim is below the smallest certifiable ε;
               prints that ε and the σ that would make the claim true
  UNSUPPORTED  (exit 3) an assumption fails (which one is printed) and plain composition does not
               support the claim either; prints what composition gives

A malformed claim exits with status 2 and names the field or line.

Claim format (JSON object; unknown keys are refused):
  "algorithm"         "pnsgd" (Alg. 1; Alg. 2 with epochs > 1), "skip" or "stop"     required
  "n"                 number of examples (private + public)                      required
  "batch", "epochs"   examples per step, fixed-order passes                       default 1, 1
  "order"             "fixed" or "shuffled" (one pass after a secret shuffle)     default "fixed"
  "eta", "sigma"      step size η, gradient noise σ (Z ~ N(0, σ²I) added to the   required
                      averaged gradient, step w ← Π_K(w − η(g + Z)))
  "lipschitz"         L: every per-example gradient norm ≤ L                      required
  "smoothness"        β (η ≤ 2/β is checked); omitted: amplification unsupported
  "strong_convexity"  m ≥ 0                                                         default 0
  "radius"            R of the domain (informational)                             default none
  "public"            the last m examples are public (Cor. 31)                   default 0
  "tasks"             k Stop-PNSGD runs on the same data (Thm 32)                 default 1
  "delta"             δ in (0, 1)                                                 required
  "epsilon"           claimed worst-case ε over the private indices
  "per_index"         [{"index": t, "epsilon": e}, ...] claimed ε of index t (1-based)
                      (at least one of "epsilon" and "per_index")
  "trajectory"        CSV with columns step, grad_norm, step_size (as written by
                      privamp run --trace; path relative to the claim file)
  "description"       free text

See examples/claim.json.

A plan written by 'privamp plan --out' (a JSON object with "format": "privamp-plan"; format in
'go doc github.com/privamp/privamp/shifted/plan') is verified as a claim about every person: each
position's ε is recomputed with package shifted at the plan's σ, η, L, β, m and the person's δ, and
the answer is VALID (exit 0) when every one is at most its target, or INVALID (exit 1) with the
violations (position, id or tier, target, achieved) and the σ that re-planning the same budgets needs.`,
		Args: cobra.ExactArgs(1),
		Example: `  privamp verify examples/claim.json
  privamp verify examples/plan/plan.json`,
	}
	cmd.Flags().StringVar(&trajectory, "trajectory", "", "trajectory CSV (overrides the claim's \"trajectory\")")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		path := args[0]
		data, err := os.ReadFile(path)
		if err != nil {
			return badInput("cannot open claim %s: %v", path, unwrapPathErr(err))
		}
		if isPlanFile(data) {
			if trajectory != "" {
				return badInput("--trajectory applies to claims; %s is a privamp plan", path)
			}
			return verifyPlan(a, path, data)
		}
		claim, err := optimizer.ParseClaim(bytes.NewReader(data))
		if err != nil {
			return badInput("%s: %v", path, err)
		}
		tpath := claim.Trajectory
		if trajectory != "" {
			tpath = trajectory
		} else if tpath != "" && !filepath.IsAbs(tpath) {
			tpath = filepath.Join(filepath.Dir(path), tpath)
		}
		var trace []optimizer.TracePoint
		if tpath != "" {
			tf, err := os.Open(tpath)
			if err != nil {
				return badInput("%s: field \"trajectory\": cannot open %s: %v", path, tpath, unwrapPathErr(err))
			}
			trace, err = optimizer.ReadTrace(tf)
			tf.Close()
			if err != nil {
				return badInput("%s: %v", tpath, err)
			}
		}
		v, err := optimizer.Verify(claim, trace)
		if err != nil {
			return err
		}
		if err := render(a.out, a.mode, verifyReport(path, claim, tpath, v)); err != nil {
			return err
		}
		switch v.Verdict {
		case optimizer.Invalid:
			return &exitError{code: exitInvalid}
		case optimizer.Unsupported:
			return &exitError{code: exitUnsupported}
		}
		return nil
	}
	return cmd
}

// isPlanFile reports whether data is a JSON object with "format":
// "privamp-plan" (a plan written by privamp plan).
func isPlanFile(data []byte) bool {
	var head struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &head) == nil && head.Format == plan.Format
}

// planMaxViolations is the most violations the table lists.
const planMaxViolations = 50

// verifyPlan recomputes every person's ε of a plan (plan.Verify): VALID
// when each is at most the target, else INVALID with the violations.
func verifyPlan(a *app, path string, data []byte) error {
	p, err := plan.Load(bytes.NewReader(data))
	if err != nil {
		return badInput("%s: %v", path, err)
	}
	v, err := p.Verify()
	if err != nil {
		return badInput("%s: %v", path, err)
	}
	verdict := "VALID"
	if !v.OK {
		verdict = "INVALID"
	}
	s, _ := p.Options()
	r := &report{Title: fmt.Sprintf("privamp verify %s: %s (a per-person privacy plan)", path, verdict)}
	add := func(q, val, u, src string) { r.Rows = append(r.Rows, row{q, val, u, src}) }
	what := fmt.Sprintf("%d people", p.N)
	if p.People == nil {
		what += fmt.Sprintf(" in %d tiers", len(p.Tiers))
	}
	add("verdict", verdict, "", "every position's ε recomputed with package shifted and compared with its target")
	add("plan", fmt.Sprintf("%s, %s, order %s", what, s.Name(), p.Order), "", "plan file")
	add("σ, η, L, β, m", fmt.Sprintf("%g, %g, %g, %g, %g", p.Sigma, p.Eta, p.Lipschitz, p.Smoothness, p.StrongConvexity), "", "plan file")
	add("positions recomputed", fmtInt(float64(v.Checked)), "", v.Source)
	if v.WorstPosition > 0 {
		e, d, _ := p.Target(v.WorstPosition)
		add("largest achieved/target", strconv.FormatFloat(v.WorstRatio, 'f', 10, 64), "",
			fmt.Sprintf("position %d (%sε = %s, δ = %s)", v.WorstPosition, planWhoAt(p, v.WorstPosition), fmtNum(e), fmtNum(d)))
	}
	add("people above their target", fmtInt(float64(v.ViolationCount)), "", "recomputed ε > target ε")
	if v.OK {
		if len(v.Groups) > 0 && len(v.Groups) <= planMaxTable {
			r.Table = planGroupTable(p, v.Groups)
		}
	} else {
		tb := &table{Header: []string{"position", "who", "target ε", "δ", "achieved ε"}}
		for i, vi := range v.Violations {
			if i == planMaxViolations {
				r.Notes = append(r.Notes, fmt.Sprintf("the table lists the first %d of %d violations; --json lists %d", planMaxViolations, v.ViolationCount, len(v.Violations)))
				break
			}
			tb.Rows = append(tb.Rows, []string{fmtInt(float64(vi.Position)), nonEmpty(vi.ID, vi.Tier), fmtNum(vi.Epsilon), fmtNum(vi.Delta), fmtEps(vi.Achieved)})
		}
		r.Table = tb
		if res, err := plan.Make(s, plan.Budgets{People: p.People, Tiers: p.Tiers}); err == nil && res.Plan != nil {
			add("σ that meets every target", fmtUp(res.Plan.Sigma), "", fmt.Sprintf("privamp plan on the same budgets and setting (η = %s fixed)", fmtNum(p.Eta)))
			r.Notes = append(r.Notes, fmt.Sprintf("%d people's recomputed ε exceeds their target; re-planning the same budgets needs σ = %s (the plan has %s)", v.ViolationCount, fmtUp(res.Plan.Sigma), fmtNum(p.Sigma)))
		}
	}
	r.Assumptions = v.Assumptions
	r.Notes = append(r.Notes, "VALID means every recomputed ε ≤ its target; plans written by privamp plan keep a relative margin of 5e-10 below each target")
	obj := map[string]any{"verdict": verdict, "plan": path, "kind": "plan", "n": p.N, "variant": string(p.Variant),
		"sigma": p.Sigma, "eta": p.Eta, "checked": v.Checked, "worst_ratio": num(v.WorstRatio), "worst_position": v.WorstPosition,
		"violation_count": v.ViolationCount, "source": v.Source}
	vs := make([]map[string]any, len(v.Violations))
	for i, vi := range v.Violations {
		m := map[string]any{"position": vi.Position, "epsilon": vi.Epsilon, "delta": vi.Delta, "achieved": num(vi.Achieved)}
		if vi.ID != "" {
			m["id"] = vi.ID
		}
		if vi.Tier != "" {
			m["tier"] = vi.Tier
		}
		vs[i] = m
	}
	obj["violations"] = vs
	if gs := planGroupsJSON(v.Groups); gs != nil {
		obj["groups"] = gs
	}
	r.JSON = obj
	if err := render(a.out, a.mode, r); err != nil {
		return err
	}
	if !v.OK {
		return &exitError{code: exitInvalid}
	}
	return nil
}

func verifyReport(path string, c *optimizer.Claim, tpath string, v optimizer.Verification) *report {
	r := &report{Title: fmt.Sprintf("privamp verify %s: %s", path, v.Verdict)}
	add := func(q, val, u, s string) { r.Rows = append(r.Rows, row{q, val, u, s}) }
	delta := fmt.Sprintf("δ = %g", c.Delta)
	add("verdict", v.Verdict.String(), "", "via "+v.Via)
	add("algorithm", fmt.Sprintf("%s, n = %d, batch %d, epochs %d, order %s", c.Variant, c.N, c.Batch, c.Epochs, c.Order), "", "claim")
	add("η, σ, L, β, m", fmt.Sprintf("%g, %g, %g, %g, %g", c.Eta, c.Sigma, c.Lipschitz, c.Smoothness, c.StrongConvexity), "", "claim")
	if c.Epsilon != nil {
		add("claimed ε (worst case)", fmtEps(*c.Epsilon), delta, "claim")
	}
	if !math.IsNaN(v.Certified) {
		add(fmt.Sprintf("certified ε (worst case, index %d)", v.WorstIndex), fmtEps(v.Certified), delta, v.Source)
	}
	add("plain composition ε", fmtEps(v.Composition), delta, "Gaussian steps composed; needs only ‖∇f‖ ≤ L")
	if v.Verdict == optimizer.Invalid {
		add("σ that makes the claim true", fmtUp(v.SigmaNeeded), "", "smallest σ with every claimed ε certified (bisection over the sound bound)")
	}
	for _, iv := range v.PerIndex {
		status := "ok"
		if !iv.OK {
			status = "below the bound"
		}
		add(fmt.Sprintf("index %d: claimed / certified", iv.Index), fmt.Sprintf("%s / %s", fmtNum(iv.Claimed), fmtEps(iv.Certified)), joinNonEmpty("; ", delta, status), v.Source)
	}
	r.Table = &table{Header: []string{"check", "status", "value", "bound", "detail"}}
	for _, ch := range v.Checks {
		r.Table.Rows = append(r.Table.Rows, []string{ch.Name, ch.Status, fmtCheck(ch.Value), fmtCheck(ch.Bound), ch.Detail})
	}
	r.Assumptions = v.Assumptions
	r.Notes = append(r.Notes, v.Notes...)
	switch v.Verdict {
	case optimizer.Invalid:
		r.Notes = append(r.Notes, fmt.Sprintf("the smallest ε privamp certifies for these parameters is %s (worst case); with σ = %s the claim holds", fmtEps(v.Certified), fmtNum(v.SigmaNeeded)))
	case optimizer.Unsupported:
		for _, f := range v.Failed {
			r.Notes = append(r.Notes, "assumption fails: "+f)
		}
		r.Notes = append(r.Notes, fmt.Sprintf("plain composition (every iterate released) gives ε = %s at δ = %g instead", fmtEps(v.Composition), c.Delta))
	}
	obj := map[string]any{"verdict": v.Verdict.String(), "via": v.Via, "delta": c.Delta, "claim": path}
	if c.Epsilon != nil {
		obj["claimed_epsilon"] = *c.Epsilon
	}
	if !math.IsNaN(v.Certified) {
		epsJSON(obj, "certified_epsilon", v.Certified)
		obj["worst_index"] = v.WorstIndex
	}
	epsJSON(obj, "composition_epsilon", v.Composition)
	if v.Verdict == optimizer.Invalid {
		obj["sigma_needed"] = num(v.SigmaNeeded)
	}
	if v.Source != "" {
		obj["source"] = v.Source
	}
	if tpath != "" {
		obj["trajectory"] = tpath
	}
	per := make([]map[string]any, len(v.PerIndex))
	for i, iv := range v.PerIndex {
		per[i] = map[string]any{"index": iv.Index, "claimed": iv.Claimed, "certified": num(iv.Certified), "ok": iv.OK}
	}
	if len(per) > 0 {
		obj["per_index"] = per
	}
	cj := make([]map[string]any, len(v.Checks))
	for i, ch := range v.Checks {
		cj[i] = map[string]any{"name": ch.Name, "status": ch.Status, "value": num(ch.Value), "bound": num(ch.Bound), "detail": ch.Detail}
	}
	obj["checks"] = cj
	if len(v.Failed) > 0 {
		obj["failed_assumptions"] = v.Failed
	}
	r.JSON = obj
	return r
}
