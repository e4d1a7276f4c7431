package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/flagconfig"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/algorithms"
	"github.com/privamp/privamp/plots"
	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"
)

func init() { register("run", func(a *app) *cobra.Command { return newRunCmd(a, nil) }) }

type runFlags struct {
	problemFlags
	config    string
	algorithm string
	plan      optimizer.PlanSpec
}

// runOptions is what `privamp run` was asked: every flag parsed and its
// combinations checked; nothing computed.
type runOptions struct {
	IO          *app
	Spec        optimizer.Spec // the PNSGD run (optimizer.Train), when Algorithm is nil
	Trace, Plot string         // --trace, --plot
	// Algorithm, if set, is the catalogued algorithm run instead, with its
	// parameters (Params) and its data, loss and domain (Input).
	Algorithm *algorithms.Algorithm
	Params    any
	Input     algorithms.Input
}

func newRunCmd(a *app, runF func(*runOptions) error) *cobra.Command {
	rf, opts := &runFlags{}, &runOptions{IO: a}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Train with projected noisy SGD (PNSGD, Skip, Stop, multi-epoch, minibatch) and check it against the bounds",
		Long: `Runs projected noisy SGD (FMTT18: Alg. 1 PNSGD, Skip-PNSGD, Stop-PNSGD, fixed-order multi-epoch Alg. 2,
minibatches, public records at the end (Cor 31), k tasks (Thm 32)) on a CSV file or seeded synthetic data
(optimizer.Train), and prints the declared bounds, the constants derived from them, the parameters, the
per-person privacy certified by package shifted, what was measured, and checks (PASS, FAIL, VACUOUS, WORSE, N/A).

The constants L, β, m come only from declared bounds: --normalize (‖x‖ ≤ 1) or --feature-bound X, the
label bound (1 for classification, --label-bound for regression) and --radius. Records are clipped to the
bounds one at a time, so neighbouring data sets get the same certificate.

σ is given (--sigma) or derived from --target-epsilon (--rule). --config FILE.json sets flags from a JSON
object whose keys are the flag names with "_" for "-" (exact and unique, as in every privamp input);
flags on the command line win. --plan FILE.json follows a plan written
by 'privamp plan --out': rows are matched by --id COLUMN, --row-ids or --tier COLUMN, put in the plan's
order, and σ, η, the variant, batch, epochs, tasks and δ come from the plan; public records come from
--public-data FILE. The declared constants must stay within the plan's.` + checkExitStatuses,
		Args: cobra.NoArgs,
		Example: `  privamp run --data testdata/breast_cancer.csv --label malignant --scaling testdata/breast_cancer.scale.csv --normalize \
      --variant skip --target-epsilon 1 --delta 1e-5 --repeats 20
  privamp run --synthetic logistic --n 5000 --dimension 20 --variant stop --target-epsilon 0.5 --trace t.csv --plot t.png
  privamp run --synthetic quadratic --no-projection --variant pnsgd --eta 0.05 --sigma 2
  privamp run --plan examples/plan/breast-cancer-plan.json --data testdata/breast_cancer.csv --label malignant \
      --scaling testdata/breast_cancer.scale.csv --normalize --row-ids`,
	}
	f := cmd.Flags()
	rf.register(f)
	s := &rf.spec
	f.IntVar(&s.Repeats, "repeats", 0, "repeat the run on fresh training sets (synthetic: the generator; CSV: bootstrap samples) and compare the mean excess risk with the utility bound")
	f.Float64Var(&s.Confidence, "confidence", 0.95, "confidence level of the utility interval")
	f.StringVar(&opts.Trace, "trace", "", "write the trajectory (decimated) as CSV ('-': standard output): step, loss, grad_norm, step_size, contraction, dist_to_opt, noise_sq, noise_dof (Σ‖Z‖² of the noise drawn since the previous row and its coordinates: verify tests σ with them)")
	f.StringVar(&opts.Plot, "plot", "", "draw loss and distance-to-optimum curves to FILE.png or FILE.svg")
	f.StringVar(&rf.config, "config", "", "read flags from a JSON object (keys: flag names with _ for -)")
	f.Int64SliceVar(&s.Indices, "index", nil, "also show the guarantee of these indices (1-based positions)")
	f.IntVar(&s.MaxPoints, "max-points", 2000, "most trajectory points recorded")
	f.StringVar(&rf.plan.Path, "plan", "", "follow a per-person privacy plan written by privamp plan (JSON)")
	f.StringVar(&rf.plan.ID, "id", "", "with --plan: the column of --data holding each person's id (not a feature)")
	f.BoolVar(&rf.plan.RowIDs, "row-ids", false, "with --plan: each row's id is its 1-based row number in --data")
	f.StringVar(&rf.plan.Tier, "tier", "", "with a tier --plan: the column of --data holding each row's tier name")
	f.StringVar(&rf.plan.PublicData, "public-data", "", "with --plan: CSV of the plan's public records (Cor 31)")
	f.StringVar(&rf.algorithm, "algorithm", "", "the algorithm: pnsgd, skip, stop (as --variant) or one listed below")
	cmd.Long += registerAlgorithmFlags(f)
	flagconfig.Alias(f, "noise", "noise-distribution", a.errw, "privamp: warning: --noise is deprecated: use --noise-distribution (output perturbation's gamma or gaussian; DP-SGD's noise multiplier is dpsgd's --noise-multiplier)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if rf.config != "" {
			if err := applyConfig(cmd, rf.config); err != nil {
				return err
			}
		}
		if err := checkOutputs([][2]string{{"trace", opts.Trace}, {"plot", opts.Plot}}, [][2]string{{"data", rf.spec.Data.Path},
			{"public-data", rf.plan.PublicData}, {"plan", rf.plan.Path}, {"config", rf.config}, {"scaling", rf.spec.Data.Scaling}}); err != nil {
			return err
		}
		if ext := strings.ToLower(filepath.Ext(opts.Plot)); opts.Plot != "" && ext != ".png" && ext != ".svg" {
			return badInput("--plot must name a .png or .svg file, got %q", opts.Plot)
		}
		switch rf.algorithm {
		case "pnsgd", "skip", "stop":
			if changed(cmd, "variant") && rf.variant != rf.algorithm {
				return badInput("--algorithm %s and --variant %s disagree: give one of them", rf.algorithm, rf.variant)
			}
			rf.variant = rf.algorithm
		case "":
		default:
			if err := algorithmOptions(cmd, rf, opts); err != nil {
				return err
			}
		}
		if opts.Algorithm == nil {
			if err := checkProblemFlags(cmd, &rf.problemFlags); err != nil {
				return err
			}
			follow := rf.plan.Path != ""
			if fl := firstChanged(cmd, "id", "row-ids", "tier", "public-data"); !follow && fl != "" {
				return badInput("--%s goes with --plan (it matches the rows of --data to a privamp plan)", fl)
			}
			if opts.Spec = rf.build(cmd, follow); follow {
				opts.Spec.Plan = &rf.plan
			}
		}
		if runF != nil {
			return runF(opts)
		}
		return runRun(opts)
	}
	return cmd
}

// runRun trains (optimizer.Train) or runs the catalogued algorithm, writes
// the trace and plot, and renders to opts.IO; a FAILED check exits 1.
func runRun(opts *runOptions) error {
	if opts.Algorithm != nil {
		return runAlgorithm(opts)
	}
	spec := opts.Spec
	bar := newBar(opts.IO)
	spec.Progress = func(done, total int64) { bar.set("training", done, total) }
	res, err := optimizer.Train(spec)
	bar.finish()
	if err != nil {
		return err
	}
	if opts.Trace != "" {
		var buf bytes.Buffer
		if err := optimizer.WriteTrace(&buf, res.Trace); err != nil {
			return err
		}
		if err := writeFileAtomic(opts.Trace, buf.Bytes()); err != nil {
			return flagged("trace", err)
		}
	}
	if opts.Plot != "" {
		ps, err := plots.Trace(res.Trace, res.Name)
		if err == nil {
			err = savePlots(opts.Plot, 3.5*vg.Inch, ps...)
		}
		if err != nil {
			return flagged("plot", err)
		}
	}
	return reportVerdict(opts.IO, algorithms.TrainReport(res).Answer(), dp.VerdictOf(res.Checks))
}

// applyConfig sets the flags the command line did not set from a JSON
// object (package internal/flagconfig).
func applyConfig(cmd *cobra.Command, path string) error {
	file, err := os.Open(path)
	if err != nil {
		return badInput("--config: cannot read %s", path)
	}
	defer file.Close()
	if err := flagconfig.Apply(cmd.Flags(), file, "config", "help"); err != nil {
		return badInput("--config %s: %v", path, err)
	}
	return nil
}
