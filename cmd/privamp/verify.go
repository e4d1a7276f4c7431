package main

import (
	"errors"
	"os"

	"github.com/privamp/privamp/shifted/plan"
	"github.com/privamp/privamp/verify"
	"github.com/spf13/cobra"
)

func init() { register("verify", func(a *app) *cobra.Command { return newVerifyCmd(a, nil) }) }

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
	return reportVerdict(opts.IO, v.Report(opts.Path, tpath), v.Verdict)
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
	return reportVerdict(a, pv.Report(path, p), pv.Verdict)
}
