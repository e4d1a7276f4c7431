package main

import (
	"fmt"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

func init() { register("pnsgd", func(a *app) *cobra.Command { return newPNSGDCmd(a, nil) }) }

// ampExit is the exit-status line of pnsgd, curve and compare.
const ampExit = "\n\nExit status: 0 success, 1 failure (e.g. a file fails while written), 2 bad input (a flag out of range, an\noutput that cannot be created, or a step that does not contract without --composition-fallback)."

// ampFlags are the flags that describe one shifted.Training (pnsgd, curve, compare).
type ampFlags struct {
	r                                    shifted.Training // the flags without a count
	o                                    shifted.Options  // --index, --target-epsilon, --nonsmooth, --composition-fallback
	n, epochs, batch, public, tasks, dim float64          // counts: whole numbers, written 1e9 or 500.0 as well
	z                                    float64          // --noise-multiplier, DP-SGD's z = bσ/L
	conv                                 func() (rdp.Conversion, error)
}

func (f *ampFlags) register(cmd *cobra.Command) {
	f.conv = conversionFlag(cmd)
	fs := cmd.Flags()
	fs.Float64Var(&f.n, "n", 0, "number of private records n (whole number in [1, 1e12]; required)")
	fs.Float64Var(&f.z, "noise-multiplier", 0, "DP-SGD's noise multiplier z > 0 (TF-Privacy, Opacus): N(0, (zL)²I) on the summed batch gradient, σ = zL/b (this or --sigma is required)")
	fs.Float64Var(&f.r.Sigma, "sigma", 0, "or: standard deviation σ > 0 of the Gaussian noise on the batch's average gradient (sum / nominal --batch); z = bσ/L")
	fs.Float64Var(&f.r.Loss.Lipschitz, "lipschitz", 1, "Lipschitz constant L > 0 of the loss (gradient norms ≤ L), declared: DP-SGD's clip norm")
	fs.Float64Var(&f.r.Delta, "delta", 1e-5, "δ in (0, 1)")
	fs.Float64Var(&f.epochs, "epochs", 1, "passes over the data in the same order (pnsgd; whole number ≥ 1)")
	fs.Float64Var(&f.batch, "batch", 1, "records per step; each step divides the sum of their gradients by this nominal batch (pnsgd)")
	fs.Float64Var(&f.public, "public", 0, "public records processed after the private ones in every pass (Cor 31; whole number ≥ 0)")
	fs.Float64Var(&f.tasks, "tasks", 1, "number k of Stop-PNSGD tasks on the same data (stop, Thm 32)")
	fs.Float64Var(&f.r.Loss.StrongConvexity, "strong-convexity", 0, "strong convexity m ≥ 0 of the loss (needs --smoothness and --eta)")
	fs.Float64Var(&f.r.Loss.Smoothness, "smoothness", 0, "smoothness β of the loss; with --eta, η ≤ 2/β is checked (0: not given, assumed)")
	fs.Float64Var(&f.r.Loss.Eta, "eta", 0, "step size η > 0 (0: not given)")
	fs.Float64Var(&f.r.Radius, "radius", 0, "radius R > 0 of a ball that every step projects onto: the bounded-domain bound (privacy stops growing with passes; needs --eta)")
	fs.BoolVar(&f.o.Nonsmooth, "nonsmooth", false, "the loss is convex and Lipschitz but not smooth: Gaussian smoothing (Thm 33) with the least λ for which η ≤ 2/β holds (needs --eta)")
	fs.Float64Var(&f.dim, "dimension", 1, "dimension d of the model, for the smoothing error Lλ√d")
	fs.BoolVar(&f.o.CompositionFallback, "composition-fallback", false, "if the step does not contract (η > 2/β), answer with the composition bound (every iterate released, Lemma 27) instead of refusing")
}

// training returns the run and the analysis options the flags describe.
// The variant is parsed first, so that a removed variant name gives its hint.
func (f *ampFlags) training(cmd *cobra.Command, variant string) (r shifted.Training, o shifted.Options, err error) {
	v, err := parseVariant("variant", variant)
	if err != nil {
		return r, o, err
	}
	conv, err := f.conv()
	switch {
	case err != nil:
		return r, o, err
	case changed(cmd, "sigma") && changed(cmd, "noise-multiplier"):
		return r, o, badInput("give --noise-multiplier (DP-SGD's z = bσ/L) or --sigma (σ on the averaged gradient), not both")
	case !changed(cmd, "n") || !changed(cmd, "sigma") && !changed(cmd, "noise-multiplier"):
		return r, o, badInput("--n and --noise-multiplier (or --sigma) are required (the number of private records, and the noise: DP-SGD's noise multiplier z > 0, or σ > 0 on the averaged gradient)")
	case f.public != float64(int64(f.public)):
		return r, o, badInput("--public must be a whole number in [0, 1e12], got %v", f.public)
	}
	if err := firstErr(positiveInt("n", f.n, 1e12), positiveInt("epochs", f.epochs, 1e12), positiveInt("batch", f.batch, 1e12),
		positiveInt("tasks", f.tasks, 1e12), positiveInt("dimension", f.dim, 1e12)); err != nil {
		return r, o, err
	}
	if r, o = f.r, f.o; !r.Loss.Contracts() && !o.CompositionFallback && r.Loss.Eta > 0 && r.Loss.Smoothness > 0 {
		return r, o, badInput("--eta %v > 2/--smoothness = %v: the step does not contract (FMTT18 Prop. 18), so amplification by iteration does not apply; 'privamp pnsgd --composition-fallback' gives the composition bound (every iterate released)", r.Loss.Eta, 2/r.Loss.Smoothness)
	}
	r.Variant, r.N, r.Public, r.Batch, r.Epochs, r.Tasks = v, int64(f.n), int64(f.public), int64(f.batch), int64(f.epochs), int64(f.tasks)
	o.Conversion, o.Dimension = conv, int64(f.dim)
	if changed(cmd, "noise-multiplier") {
		err = r.SetNoiseMultiplier(f.z)
	}
	return r, o, flagError(err, nil)
}

// warn prints the run's noise warning, once the run was accepted.
func (r ampRun) warn(a *app) {
	fmt.Fprint(a.errw, r.Training.NoiseWarning("--sigma", "--noise-multiplier"))
}

// removedVariants are the feature-named variants privamp had before the
// features became flags of the one Training; the hint says what replaces them.
var removedVariants = map[string]string{
	"minibatch": "pnsgd --batch B", "epochs": "pnsgd --epochs E", "public": "pnsgd --public P", "tasks": "stop --tasks K",
	"strongly-convex": "pnsgd --strong-convexity M --smoothness B --eta H",
	"local":           "pnsgd: every output shows the every-iterate-released bound, and --composition-fallback answers with it when the step does not contract",
}

func parseVariant(flag, s string) (shifted.Variant, error) {
	if hint, ok := removedVariants[s]; ok {
		return "", badInput("--%s %s was removed: use --%s %s", flag, s, flag, hint)
	}
	v, err := shifted.ParseVariant(s)
	return v, flagError(err, map[string]string{"variant": flag})
}

// ampRun is the run that pnsgd, curve, compare and epochs describe by
// their flags (ampFlags), and the analysis asked of it.
type ampRun struct {
	Training shifted.Training
	Options  shifted.Options
}

// pnsgdOptions is what `privamp pnsgd` was asked: every flag parsed and its
// combinations checked; nothing computed.
type pnsgdOptions struct {
	IO *app
	ampRun
}

func newPNSGDCmd(a *app, runF func(*pnsgdOptions) error) *cobra.Command {
	var f ampFlags
	var variant string
	cmd := &cobra.Command{
		Use:   "pnsgd",
		Short: "Per-person (ε, δ) of noisy SGD by amplification by iteration (FMTT18)",
		Long: `Per-person (ε, δ) of projected noisy SGD that releases only its final iterate (FMTT18), at --index
values or over all n records, and the ε if every iterate were released (Lemma 27).
--variant pnsgd: the fixed-order run, Alg. 1 (Thm 23), with --batch, --epochs (Thm 35), --public
(Cor 31), --strong-convexity (docs/amplification.md §Contraction factor below one) derived from Thm 22.
skip: Skip-PNSGD (Thm 24, exact mixture).
stop: Stop-PNSGD (Thm 26 repaired: the paper's bound is not sound; --tasks k: Thm 32). skip and stop
take one pass with one record per step. η ≤ 2/β is checked when --eta and --smoothness are given; a
step that does not contract is refused unless --composition-fallback asks for the composition bound.` + ampExit,
		Args: cobra.NoArgs,
		Example: `  privamp pnsgd --n 100000 --sigma 4 --target-epsilon 0.01
  privamp pnsgd --n 100000 --sigma 4 --index 1,50000,100000
  privamp pnsgd --n 60000 --sigma 0.02 --batch 100 --epochs 10 --target-epsilon 1
  privamp pnsgd --n 1e9 --sigma 2 --variant stop --json`,
	}
	f.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&variant, "variant", "pnsgd", "algorithm: pnsgd, skip or stop")
	fs.Int64SliceVar(&f.o.Indices, "index", nil, "record positions t in [1, n] to report (repeatable or comma list); default: a summary over all records")
	fs.Float64Var(&f.o.Target, "target-epsilon", 0, "report the share of records whose ε ≤ this target (> 0)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		r, o, err := f.training(cmd, variant)
		if err != nil {
			return err
		}
		return runWith(runF, pnsgdRun, &pnsgdOptions{a, ampRun{r, o}})
	}
	return cmd
}

// pnsgdRun analyses the run and renders it to opts.IO.
func pnsgdRun(opts *pnsgdOptions) error {
	an, err := shifted.Analyze(opts.Training, opts.Options)
	if err != nil {
		return err
	}
	opts.warn(opts.IO)
	return render(opts.IO.out, opts.IO.mode, an.Report())
}
