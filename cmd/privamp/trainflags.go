package main

import (
	"io"
	"math"
	"os"

	"github.com/privamp/privamp/internal/flagconfig"
	"github.com/privamp/privamp/internal/meter"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// problemFlags are the flags run and audit share; they fill an optimizer.Spec.
type problemFlags struct {
	spec                 optimizer.Spec
	variant, rule, loss  string
	noProjection         bool
	batch, epochs, tasks int
	public               int
}

const checkExitStatuses = "\n\nExit status: 0 every check passes, 1 a check failed, 2 bad input."

func (p *problemFlags) register(f *pflag.FlagSet) {
	d, s := &p.spec.Data, &p.spec
	f.StringVar(&d.Path, "data", "", "training data: a CSV file with a header line (numeric columns; the label column named by --label)")
	f.StringVar(&d.Label, "label", "", "name of the label column of --data (classification labels 0/1 or ±1)")
	f.BoolVar(&d.Normalize, "normalize", false, "declare ‖x‖ ≤ 1 and scale longer rows down to norm 1 (after --scaling or --standardize)")
	f.Float64Var(&d.FeatureBound, "feature-bound", 0, "declared bound X on ‖x‖ (rows longer than X are scaled to X); required for --data without --normalize")
	f.Float64Var(&d.LabelBound, "label-bound", 0, "declared bound on |y| for regression losses (labels are clipped to it)")
	f.BoolVar(&d.Standardize, "standardize", false, "centre and scale each column with the data's own statistics (not privatised: the certificate covers the standardized records only, not the raw records; prefer --scaling)")
	f.StringVar(&d.Scaling, "scaling", "", optimizer.ScalingDoc)
	f.StringVar(&d.Synthetic, "synthetic", "", "seeded synthetic data instead of --data: logistic, linear or quadratic (‖x‖ ≤ 1)")
	f.IntVar(&d.N, "n", 1000, "number of synthetic records (2 to 1e7)")
	f.IntVar(&d.Dimension, "dimension", 10, "dimension of synthetic data (1 to 1e5, n·d ≤ 5e7)")
	f.Uint64Var(&d.Seed, "data-seed", 1, "seed of the synthetic data")
	f.StringVar(&p.loss, "loss", "", "loss: logistic, squared, huber, smooth-hinge, quadratic (½‖w − x‖²), linear (−⟨w, x⟩) (default: logistic, or the synthetic kind's)")
	f.Float64Var(&s.Loss.HuberDelta, "huber-delta", 1, "threshold Δ of the Huber loss")
	f.Float64Var(&s.Loss.Smoothing, "smoothing", 0.1, "λ of the smoothed hinge (1-D Gaussian convolution, FMTT18 §5.5)")
	f.Float64Var(&s.Loss.L2, "l2", 0, "weight m ≥ 0 of an ℓ2 term (m/2)‖w‖²: m-strong convexity")
	f.Float64Var(&s.Radius, "radius", 1, "radius R of the domain K = {‖w‖ ≤ R} (projection after every step)")
	f.BoolVar(&p.noProjection, "no-projection", false, "no projection (K = ℝ^d); for the exactly solvable quadratic and linear losses")
	f.StringVar(&p.variant, "variant", "skip", "algorithm: skip (the default: one pass, one record per step), pnsgd (Alg. 1; Alg. 2 with --epochs > 1; --batch, --public) or stop (--tasks)")
	f.IntVar(&p.epochs, "epochs", 1, "passes over the data in a fixed order (pnsgd)")
	f.IntVar(&p.batch, "batch", 1, "records per step (pnsgd)")
	f.IntVar(&p.public, "public", 0, "the last m records are public (Cor 31)")
	f.IntVar(&p.tasks, "tasks", 1, "k independent Stop-PNSGD runs on the same data (Thm 32)")
	f.Float64Var(&s.Training.Loss.Eta, "eta", 0, "step size η (default: the rule's, else min(1/β, 2R/√(S(L² + dσ²))))")
	f.Float64Var(&s.Training.Sigma, "sigma", 0, "gradient noise σ (instead of deriving it from --target-epsilon)")
	f.Float64Var(&s.Target, "target-epsilon", 1, "target ε that σ is derived for when --sigma is not given")
	f.Float64Var(&s.Training.Delta, "delta", 1e-5, "δ in (0, 1)")
	f.StringVar(&p.rule, "rule", "", "how σ is derived from the target: thm29, thm30, cor31, thm32 (the paper's formulas) or calibrate (default: the variant's theorem; calibrate for pnsgd)")
	f.Uint64Var(&s.Seed, "seed", 1, "seed of the algorithm's randomness (same seed, same output)")
}

// build fills the spec from the flags (only those set by the user when a
// plan sets the rest).
func (p *problemFlags) build(cmd *cobra.Command, follow bool) optimizer.Spec {
	s := p.spec
	s.Loss.Name, s.Rule = p.loss, optimizer.Rule(p.rule)
	if p.noProjection {
		s.Radius = math.Inf(1)
	}
	t := &s.Training
	t.Variant = shifted.Variant(p.variant)
	t.Batch, t.Epochs, t.Tasks, t.Public = int64(p.batch), int64(p.epochs), int64(p.tasks), int64(p.public)
	if follow {
		for name, clear := range map[string]func(){"variant": func() { t.Variant = "" }, "delta": func() { t.Delta = 0 }} {
			if !changed(cmd, name) {
				clear()
			}
		}
	}
	return s
}

// checkProblemFlags refuses flag combinations before the library sees them.
func checkProblemFlags(cmd *cobra.Command, p *problemFlags) error {
	if p.noProjection && changed(cmd, "radius") {
		return badInput("give only one of --radius and --no-projection")
	}
	if changed(cmd, "sigma") && (changed(cmd, "target-epsilon") || changed(cmd, "rule")) {
		return badInput("give --sigma or --target-epsilon (with --rule), not both")
	}
	if err := flagconfig.Positive(cmd.Flags(), "epochs", "batch", "tasks"); err != nil { // 0 would be read as 1
		return badInput("%v", err)
	}
	if p.variant == "skip" && !changed(cmd, "variant") && !changed(cmd, "plan") && (p.epochs > 1 || p.batch > 1 || p.public > 0 || p.tasks > 1) {
		return badInput("--epochs, --batch and --public need --variant pnsgd, --tasks --variant stop: run's default variant is skip (one pass, one record per step)")
	}
	return nil
}

// progress is the bar that run, audit, plan, cni and verify draw on a
// terminal's standard error (none with --quiet): package internal/meter.
type progress struct{ *meter.Bar }

func newBar(a *app) *progress                                 { return &progress{meter.New(a.errw, a.quiet)} }
func (p *progress) set(stage string, done, total int64)       { p.Set(stage, done, total) }
func (p *progress) finish()                                   { p.Finish() }
func (p *progress) reader(stage string, f *os.File) io.Reader { return p.Reader(stage, f) }
