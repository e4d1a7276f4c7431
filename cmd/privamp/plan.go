package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/plots"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
	"github.com/spf13/cobra"
)

func init() { register("plan", func(a *app) *cobra.Command { return newPlanCmd(a, nil) }) }

// planOptions is what `privamp plan` was asked: every flag parsed and its
// combinations checked; nothing read or computed.
type planOptions struct {
	IO      *app
	Options plan.Options // the run, the domain, the caps, the conversion
	People  string       // --people FILE.csv ('-': standard input), or
	Tiers   []string     // --tier [NAME=]SIZE:EPS[:DELTA], with
	N       int64        // --n (0: not given; the sizes are counts)
	Out     string       // the plan file to write
	Plot    string
}

// planFlags are the flags of privamp plan; the real-valued flags are read
// straight into opt.
type planFlags struct {
	people, variant, out, plotPath    string
	tiers                             []string
	n, batch, epochs, tasks, pub, dim float64
	opt                               plan.Options
}

func newPlanCmd(a *app, runF func(*planOptions) error) *cobra.Command {
	f := &planFlags{}
	cmd := &cobra.Command{
		Use:   "plan (--people FILE.csv | --tier SIZE:EPS ... ) --radius R --dimension d",
		Short: "Schedule one run so that every person gets their own privacy budget",
		Long: `Under amplification by iteration (FMTT18) a person's privacy depends on when their record is used:
in single-pass PNSGD position t of n is 2L²/(σ²(n − t + 1))-zCDP (Thm 23). privamp plan orders the people
(strictest first; last for stop), finds the smallest σ that meets every budget, η, each person's achieved
ε (recomputed with package shifted), the utility bound (FMTT18 Thm 29–32, Cor 31) and the uniform plan
that gives everyone the strictest budget (method and proofs: package shifted/plan).

Budgets: --people FILE.csv (columns id, epsilon[, delta]; every invalid row reported by line) or tiers
--tier [NAME=]SHARE:EPS[:DELTA] with --n, or --tier [NAME=]COUNT:EPS[:DELTA]. --max-sigma caps σ and
--target-excess-risk the utility bound; under a cap privamp names the people it cannot serve and how many
public records (Cor 31) or extra people would help. σ is printed rounded up, ε up, the cap down.
--out writes the plan (JSON) for 'privamp run --plan' and 'privamp verify'; --plot draws ε per position;
--csv prints one row per person. No output may name an input.

Exit status: 0 a plan meets every budget, 1 infeasible under the cap (or a failure), 2 bad input.` + "\n\n" + plan.InputLimits(),
		Args: cobra.NoArgs,
		Example: `  privamp plan --tier 0.01:0.1 --tier 0.09:1 --tier 0.9:4 --n 100000 --radius 1 --dimension 10 --delta 1e-6
  privamp plan --people examples/plan/people.csv --radius 1 --dimension 10 --delta 1e-6 --out plan.json
  privamp plan --tier strict=100:0.1 --tier rest=9900:2 --radius 1 --dimension 10 --max-sigma 1`,
	}
	fs := cmd.Flags()
	fs.StringVar(&f.people, "people", "", "CSV of people: header with id, epsilon and optionally delta")
	fs.StringArrayVar(&f.tiers, "tier", nil, "a tier [NAME=]SIZE:EPSILON[:DELTA]; SIZE is a share with --n, a count without (repeatable)")
	fs.Float64Var(&f.n, "n", 0, "number of people the --tier shares divide (whole number ≥ 1)")
	fs.StringVar(&f.variant, "variant", "pnsgd", "pnsgd (fixed-order passes, final iterate; --batch, --epochs), skip or stop")
	fs.Float64Var(&f.batch, "batch", 1, "records per step (pnsgd; whole number ≥ 1)")
	fs.Float64Var(&f.epochs, "epochs", 1, "fixed-order passes (pnsgd; whole number ≥ 1)")
	fs.Float64Var(&f.tasks, "tasks", 1, "Stop-PNSGD tasks on the same data (stop; Thm 32)")
	fs.Float64Var(&f.pub, "public", 0, "public records after the private ones (Cor 31; whole number ≥ 0)")
	fs.Float64Var(&f.opt.Training.Loss.Lipschitz, "lipschitz", 1, "Lipschitz constant L > 0 of the loss (every gradient norm ≤ L)")
	fs.Float64Var(&f.opt.Training.Loss.Smoothness, "smoothness", 0, "smoothness β ≥ 0 (0: not given; η ≤ 2/β is then assumed, else enforced)")
	fs.Float64Var(&f.opt.Training.Loss.StrongConvexity, "strong-convexity", 0, "strong convexity m ≥ 0 (needs --smoothness and --eta)")
	fs.Float64Var(&f.opt.Training.Loss.Eta, "eta", 0, "fixed step size η > 0 (0: the theorem's η for the planned σ)")
	fs.Float64Var(&f.opt.Radius, "radius", 0, "radius R > 0 of the domain (required)")
	fs.Float64Var(&f.dim, "dimension", 0, "dimension d of the model (whole number ≥ 1; required)")
	fs.Float64Var(&f.opt.Training.Delta, "delta", 1e-5, "δ in (0, 1) for people without their own")
	fs.Float64Var(&f.opt.MaxSigma, "max-sigma", 0, "cap on the noise σ (> 0; 0: none)")
	fs.Float64Var(&f.opt.TargetExcessRisk, "target-excess-risk", 0, "cap on the utility bound E[F(W)] − F* (> 0; 0: none)")
	fs.StringVar(&f.out, "out", "", "write the plan as JSON to this file (atomically; '-' for standard output)")
	fs.StringVar(&f.plotPath, "plot", "", "draw target and achieved ε per position to this .png or .svg file")
	conv := conversionFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		c, err := conv()
		if err != nil {
			return err
		}
		f.opt.Conversion = c
		if err := f.options(cmd); err != nil {
			return err
		}
		opts := &planOptions{IO: a, Options: f.opt, People: f.people, Tiers: f.tiers, Out: f.out, Plot: f.plotPath}
		switch {
		case (f.people == "") == (len(f.tiers) == 0):
			return badInput("give the budgets: --people FILE.csv (columns id, epsilon[, delta]) or --tier SIZE:EPSILON[:DELTA] (repeatable), not both")
		case f.people != "" && changed(cmd, "n"):
			return badInput("--n divides --tier shares; with --people the file gives the people")
		case changed(cmd, "n"):
			if err := positiveInt("n", f.n, float64(plan.MaxPeople)); err != nil {
				return err
			}
			opts.N = int64(f.n)
		}
		return runWith(runF, planRun, opts)
	}
	return cmd
}

// options checks what only the command line knows (required flags, whole
// numbers, file paths) and fills f.opt; plan.Make checks the rest.
func (f *planFlags) options(cmd *cobra.Command) error {
	for _, name := range []string{"radius", "dimension"} {
		if !changed(cmd, name) {
			return badInput("--%s is required (it sets η and the utility bound)", name)
		}
	}
	if err := firstErr(positiveInt("batch", f.batch, 1e12), positiveInt("epochs", f.epochs, 1e12), positiveInt("tasks", f.tasks, 1e12),
		positiveInt("dimension", f.dim, 1e12)); err != nil {
		return err
	} else if !(f.pub >= 0 && f.pub <= 1e12 && f.pub == math.Trunc(f.pub)) {
		return badInput("--public must be a whole number in [0, 1e12], got %v", f.pub)
	}
	t := &f.opt.Training
	var err error
	if t.Variant, err = shifted.ParseVariant(f.variant); err != nil {
		return err
	}
	if ext := strings.ToLower(filepath.Ext(f.plotPath)); f.plotPath != "" && ext != ".png" && ext != ".svg" {
		return badInput("--plot must name a .png or .svg file, got %q", f.plotPath)
	}
	if err := checkOutputs([][2]string{{"out", f.out}, {"plot", f.plotPath}}, [][2]string{{"people", f.people}}); err != nil {
		return err
	}
	t.Public, t.Batch, t.Epochs, t.Tasks, f.opt.Dimension = int64(f.pub), int64(f.batch), int64(f.epochs), int64(f.tasks), int64(f.dim)
	return nil
}

// budgets reads --people or parses the --tier flags; it returns the tiers'
// notes and a description.
func (o *planOptions) budgets(bar *progress) (b plan.Budgets, notes []string, what string, err error) {
	if o.People != "" {
		if b.People, err = readPeople(bar, o.People); err != nil {
			return b, nil, "", err
		}
		return b, nil, fmt.Sprintf("%s from %s", quantity.Count(b.People.Len(), "person", "people"), o.People), nil
	}
	if b.Tiers, notes, err = plan.ParseTiers(o.Tiers, o.N); err != nil {
		if _, ok := field.As(err); ok {
			return b, nil, "", flagError(err, nil)
		}
		return b, nil, "", badInput("--tier: %v", err)
	}
	return b, notes, fmt.Sprintf("%s in %s", quantity.Count(b.Len(), "person", "people"), quantity.Count(len(b.Tiers), "tier", "tiers")), nil
}

// readPeople reads the --people file ("-": standard input), with the bytes
// read shown on the bar; any error is bad input naming the flag.
func readPeople(bar *progress, path string) (*plan.People, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		fh, err := os.Open(path)
		if err != nil {
			return nil, badInput("--people: cannot open %s: %v", path, errors.Unwrap(err))
		}
		defer fh.Close()
		defer bar.finish()
		r = bar.reader("reading "+path, fh)
	}
	pp, err := plan.ReadCSV(r)
	if err != nil {
		return nil, badInput("--people %s: %v", path, err)
	}
	return pp, nil
}

// planRun reads the budgets, makes the plan, writes its files and renders
// it (or why it is infeasible) to opts.IO.
func planRun(opts *planOptions) error {
	a := opts.IO
	b, notes, what, err := opts.budgets(newBar(a))
	if err != nil {
		return err
	}
	cb := newBar(a)
	po := opts.Options
	po.Progress = func(done, n int64) { cb.set("computing every position's ε", done, n) }
	res, err := plan.Make(po, b)
	cb.finish()
	if _, ok := field.As(err); !ok && err != nil {
		err = badInput("%v", err) // budgets
	}
	if err != nil {
		return flagError(err, nil) // a field of plan.Options is the flag of the same name
	}
	res.Notes = append(notes, res.Notes...)
	shown := plan.Shown{What: what, PlanFile: opts.Out, PlotFile: opts.Plot, Flag: flagSpelling}
	if inf := res.Infeasible; inf != nil {
		r, msg := res.InfeasibleReport(opts.Options, shown)
		write := func() error { return render(a.out, a.mode, r) }
		if a.mode.csv {
			write = func() error { return inf.WriteCSV(a.out) }
		}
		if err := write(); err != nil {
			return err
		}
		return &exitError{code: exitFailure, msg: msg}
	}
	if opts.Out != "" {
		if err := streamFileAtomic(opts.Out, res.Plan.WriteTo); err != nil {
			return flagged("out", err)
		}
	}
	if opts.Plot != "" {
		if err := plotTo(opts.Plot)(plots.Plan(res)); err != nil {
			return err
		}
	}
	if a.mode.csv {
		return res.WriteCSV(a.out)
	}
	return render(a.out, a.mode, res.Report(opts.Options, shown))
}
