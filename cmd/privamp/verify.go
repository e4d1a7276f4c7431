package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/shifted/plan"
	"github.com/privamp/privamp/verify"
	"github.com/spf13/cobra"
)

func init() { register("verify", func(a *app) *cobra.Command { return newVerifyCmd(a, nil) }) }

// verifyResult is verify's --json object for a claim.
type verifyResult struct {
	Command    string `json:"command"`
	File       string `json:"file"`
	Trajectory string `json:"trajectory,omitempty"`
	verify.Verification
}

// planVerifyResult is verify's --json object for a plan.
type planVerifyResult struct {
	Command string `json:"command"`
	File    string `json:"file"`
	*verify.PlanVerification
}

// verifyOptions is what `privamp verify` was asked: every flag parsed and
// its combinations checked; nothing computed.
type verifyOptions struct {
	IO         *app
	Path       string // the claim or plan file
	Plan       bool   // Path is a privamp plan (plan.IsFile)
	Trajectory string // --trajectory: overrides the claim's "trajectory"
}

func newVerifyCmd(a *app, runF func(*verifyOptions) error) *cobra.Command {
	opts := &verifyOptions{IO: a}
	cmd := &cobra.Command{
		Use:   "verify (CLAIM.json | PLAN.json)",
		Short: "Check a training run's claimed (ε, δ), or a per-person privacy plan, against the bound privamp can prove",
		Long: `Reads a claim (a run's algorithm, counts, η, σ, declared L, β, m, R, its claimed ε, and optionally its
trajectory CSV from privamp run --trace), recomputes the per-person bound (FMTT18 Thm 22, package
shifted) and cross-checks every declared value against the trajectory and the other constants; the
checks table gives each value's basis (checked against the trajectory or by arithmetic, or trusted).
  FAIL   a declared value is contradicted by the claim's own inputs (or the trajectory cannot be
         evidence): UNSUPPORTED, never VALID; no argument, composition included, is applied.
  UNMET  an assumption of amplification by iteration does not hold (no β, η > 2/β, a reshuffle):
         plain composition, which needs only gradients bounded by L, decides instead.
A plan from 'privamp plan --out' ("format": "privamp-plan") is verified person by person.
Claim format (exact, unique keys; whole numbers as 1e12 or 500.0; at most 8 MiB):
'go doc github.com/privamp/privamp/verify'; examples/claim.json, examples/dpsgd-claim.json.

Exit status: 0 VALID, 1 INVALID (a claimed ε below the certified one; a plan's person above their
target), 2 bad input (the message names the field or line), 3 UNSUPPORTED.` + "\n\n" + verify.InputLimits() + "\n" + plan.InputLimits(),
		Args:    cobra.ExactArgs(1),
		Example: "  privamp verify examples/claim.json\n  privamp verify examples/plan/plan.json --json",
	}
	cmd.Flags().StringVar(&opts.Trajectory, "trajectory", "", "trajectory CSV (overrides the claim's \"trajectory\")")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.Path, opts.Plan = args[0], plan.IsFile(args[0])
		if opts.Plan && opts.Trajectory != "" {
			return badInput("--trajectory applies to claims; %s is a privamp plan", opts.Path)
		}
		if runF != nil {
			return runF(opts)
		}
		return verifyRun(opts)
	}
	return cmd
}

// verifyRun verifies the claim or plan of opts and renders the verdict to
// opts.IO; the exit status is the verdict's (dp.Verdict.ExitStatus).
func verifyRun(opts *verifyOptions) error {
	if opts.Plan {
		return verifyPlan(opts.IO, opts.Path)
	}
	c, trace, tpath, err := verify.Load(opts.Path, opts.Trajectory)
	if err != nil {
		return badInput("%v", err)
	}
	v, err := verify.Verify(c, trace)
	if err != nil {
		return err
	}
	return reportVerdict(opts.IO, claimReport(verifyResult{"verify", opts.Path, tpath, v}), v.Verdict)
}

func verifyReport(res verifyResult) *report {
	v, tr := res.Verification, res.Training
	r := &report{Title: fmt.Sprintf("privamp verify %s: %s", res.File, v.Verdict), Result: res, CSVAll: true, Assumptions: v.Assumptions, Notes: v.Notes}
	add := func(when bool, q string, val any, u, s string) {
		if when {
			r.Rows = append(r.Rows, row{q, val, u, s})
		}
	}
	delta := fmt.Sprintf("δ = %g", tr.Delta)
	add(true, "verdict", v.Verdict.String(), "", "via "+v.Via)
	add(true, "run", fmt.Sprintf("%s; n = %d private + %d public, %s; η, σ, L, β, m = %g, %g, %g, %g, %g", tr.Name(), tr.N, tr.Public, quantity.Count(tr.Steps(), "step", "steps"),
		tr.Loss.Eta, tr.Sigma, tr.Loss.Lipschitz, tr.Loss.Smoothness, tr.Loss.StrongConvexity), "", "claim")
	add(v.ClaimedEpsilon != nil, "claimed ε (worst case)", v.ClaimedEpsilon, delta, "claim")
	add(v.Via == verify.ViaAmplification && v.WorstIndex > 0, fmt.Sprintf("certified ε (worst case, index %d)", v.WorstIndex), v.WorstEpsilon, delta, v.Source)
	// a contradicted claim gets no argument, composition included
	add(v.Via != verify.ViaNone && v.Via != verify.ViaDelta, "plain composition ε", v.CompositionEpsilon, delta, "every iterate released; needs only ‖∇f‖ ≤ L")
	add(v.Verdict == dp.Invalid, "σ that makes the claim true", v.SigmaNeeded, "", "shifted.Training.CalibrateSigma (bisection over the sound bound)")
	for _, iv := range v.PerIndex {
		add(true, fmt.Sprintf("index %d: claimed / certified ε", iv.Index), fmt.Sprintf("%s / %s", iv.Claimed, iv.Certified), delta, map[bool]string{true: "ok", false: "below the bound"}[iv.OK])
	}
	add(true, "cross-checked", strings.Join(v.CrossChecked, "; "), "", "against the trajectory or the other constants")
	add(true, "taken on trust", nonEmpty(strings.Join(v.Trusted, "; "), "nothing"), "", "nothing the claim brings can contradict them")
	r.Table = &table{Header: []string{"check", "status", "basis", "value", "bound", "detail"}}
	for _, ch := range v.Checks {
		r.Table.Rows = append(r.Table.Rows, []string{ch.Name, string(ch.Status), ch.Basis, checkNum(ch.Value), checkNum(ch.Bound), ch.Detail})
	}
	return r
}

// verifyPlan recomputes every person's ε of a plan and checks it as a
// claim is checked (verify.VerifyPlan).
func verifyPlan(a *app, path string) error {
	fh, err := os.Open(path)
	if err != nil {
		return badInput("cannot open %s: %v", path, errors.Unwrap(err))
	}
	defer fh.Close()
	bar := newBar(a)
	p, err := plan.Load(bar.reader("reading "+path, fh))
	if bar.finish(); err != nil {
		return badInput("%s: %v", path, err)
	}
	vb := newBar(a)
	pv, err := verify.VerifyPlan(p, func(done, n int64) { vb.set("recomputing every position's ε", done, n) })
	vb.finish()
	if err != nil {
		return badInput("%s: %v", path, err)
	}
	v := pv.Verification
	res := &planVerifyResult{"verify", path, pv}
	s, _ := p.Options()
	r := &report{Title: fmt.Sprintf("privamp verify %s: %s (a per-person privacy plan)", path, pv.Verdict), Result: res, CSVAll: true, Assumptions: v.Assumptions, Notes: pv.Notes}
	add := func(q string, val any, src string) { r.Rows = append(r.Rows, row{q, val, "", src}) }
	add("verdict", pv.Verdict.String(), "via "+pv.Via+"; every position's ε checked with package shifted (recomputed, or for a huge tier plan bounded by monotonicity: see the count's source) and compared with its target")
	add("plan", fmt.Sprintf("%s, %s, order %s; σ, η, L, β, m = %g, %g, %g, %g, %g", quantity.Count(p.N, "person", "people"), s.Name(), p.Order, p.Sigma, p.Eta, p.Lipschitz, p.Smoothness, p.StrongConvexity), "plan file")
	if e, d, err := p.Target(v.WorstPosition); err == nil {
		add("largest achieved/target", dp.Loss(v.WorstRatio), fmt.Sprintf("index %d (%sε = %s, δ = %s)", v.WorstPosition, planWhoAt(p, v.WorstPosition), quantity.Nearest(e), quantity.Nearest(d)))
	}
	add("people above their target", fmt.Sprintf("%s of %s", quantity.Int(float64(v.ViolationCount)), quantity.Int(float64(v.Checked))), "recomputed ε > target ε; "+v.Source)
	for _, ch := range pv.Checks {
		add("check: "+ch.Name, string(ch.Status), ch.Detail)
	}
	if pv.Via == verify.ViaComposition {
		add("plain composition ε", pv.CompositionEpsilon, fmt.Sprintf("δ = %g; every iterate released; needs only ‖∇f‖ ≤ L; above the target of %s", p.Delta, quantity.Count(pv.CompositionShort, "person", "people")))
	}
	if len(v.Groups) > 0 && len(v.Groups) <= planMaxTable && v.ViolationCount == 0 {
		r.Table = planGroupTable(p, v.Groups)
	} else if v.ViolationCount > 0 {
		r.Table = &table{Header: []string{"index", "who", "target ε", "δ", "achieved ε"}}
		for _, vi := range v.Violations[:min(len(v.Violations), planMaxTable)] {
			r.Table.Rows = append(r.Table.Rows, []string{quantity.Int(float64(vi.Position)), nonEmpty(vi.ID, vi.Tier), quantity.Nearest(vi.Epsilon), quantity.Nearest(vi.Delta), dp.Loss(vi.Achieved).String()})
		}
	}
	if pv.SigmaNeeded != nil {
		add("σ that meets every target", *pv.SigmaNeeded, fmt.Sprintf("privamp plan on the same budgets and setting (η = %s fixed)", quantity.Nearest(p.Eta)))
	}
	return reportVerdict(a, r, pv.Verdict)
}
