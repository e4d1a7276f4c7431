package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/plots"
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

func init() { register("curve", func(a *app) *cobra.Command { return newCurveCmd(a, nil) }) }

// curveOptions is what `privamp curve` was asked: every flag parsed and its
// combinations checked; nothing computed.
type curveOptions struct {
	IO *app
	ampRun
	Variants   []shifted.Variant // one column each
	Points     int               // about how many indices; 0: every index (--all)
	Plot       string
	NoSampling bool // no column of sampling's ε
}

// curveResult is curve's --json object: one column per variant.
type curveResult struct {
	Command string `json:"command"`
	shifted.Curves
}

func newCurveCmd(a *app, runF func(*curveOptions) error) *cobra.Command {
	var f ampFlags
	var variants string
	var all bool
	opts := &curveOptions{IO: a}
	cmd := &cobra.Command{
		Use:   "curve",
		Short: "Per-person privacy curve ε_t(δ) over the record positions t, as CSV or a plot",
		Long: `The per-person privacy curve ε_t(δ) of noisy SGD under amplification by iteration (FMTT18), one column
epsilon_<variant> per --variants entry: the run the flags describe (as for 'privamp pnsgd') with that
variant, whatever else is listed (skip and stop with --batch or --epochs are refused). Unless
--no-sampling, a column gives sampling's ε for the same run (replace-one through remove-then-add: loose).

CSV (index, steps_to_end = n − t + 1, the columns; every ε with all its digits) at about --points
indices spaced geometrically in t and n − t + 1, or every index with --all (streamed); sources and
assumptions go to stderr as '#' lines (not with --quiet). --json: one object (at most 1e6 indices).
--plot FILE.png|svg draws ε against n − t + 1 on log axes.` + ampExit,
		Args: cobra.NoArgs,
		Example: `  privamp curve --n 100000 --sigma 4 --variants pnsgd,skip,stop --plot curve.png
  privamp curve --n 1e7 --sigma 4 --all > curve.csv
  privamp curve --n 60000 --sigma 0.05 --batch 100 --epochs 10 --plot curve.png`,
	}
	f.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&variants, "variants", "pnsgd", "comma list of variants: pnsgd, skip, stop")
	fs.IntVar(&opts.Points, "points", 60, "about how many indices to show (2 to 100000)")
	fs.BoolVar(&all, "all", false, "every index t = 1..n (n ≤ 2e8; streamed CSV)")
	fs.StringVar(&opts.Plot, "plot", "", "also draw the curve to this .png or .svg file")
	fs.BoolVar(&opts.NoSampling, "no-sampling", false, "leave out amplification by sampling")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var vs []shifted.Variant
		for _, s := range strings.Split(variants, ",") {
			v, err := parseVariant("variants", strings.TrimSpace(s))
			if err != nil {
				return err
			}
			vs = append(vs, v)
		}
		r, o, err := f.training(cmd, "pnsgd")
		switch ext := strings.ToLower(filepath.Ext(opts.Plot)); {
		case err != nil:
			return err
		case all && changed(cmd, "points"):
			return badInput("give only one of --all and --points")
		case opts.Plot != "" && ext != ".png" && ext != ".svg":
			return badInput("--plot must name a .png or .svg file, got %q", opts.Plot)
		case all && a.mode.json && r.N > 1_000_000: // the CSV streams any n
			return badInput("--json prints at most 1000000 indices; use the CSV output for --all with --n %d", r.N)
		}
		opts.ampRun, opts.Variants = ampRun{r, o}, vs
		if all {
			opts.Points = 0
		}
		return runWith(runF, curveRun, opts)
	}
	return cmd
}

// curveRun computes the curves, draws them if asked, and writes them to
// opts.IO as CSV (comments on its error stream) or JSON.
func curveRun(opts *curveOptions) error {
	a, bar := opts.IO, newBar(opts.IO)
	defer bar.finish()
	opts.Options.Progress = func(done, total int64) { bar.set("ε at every index", done, total) }
	c, err := shifted.PersonCurves(opts.Training, opts.Variants, opts.Options, opts.Points, !opts.NoSampling)
	if err != nil {
		return err
	}
	opts.warn(opts.IO)
	if opts.Plot != "" {
		if err := plotTo(opts.Plot)(plots.Curve(c)); err != nil {
			return err
		}
	}
	if a.mode.json {
		c.ExpandIndex()
		return render(a.out, a.mode, &report{Result: curveResult{"curve", c}})
	}
	bar.finish() // its line, before the comments on the same stream
	if !a.quiet {
		fmt.Fprintf(a.errw, "# %s\n# noise: %s\n", strings.Join(c.Describe(), "\n# "), opts.Training.NoiseForms())
	}
	return c.WriteCSVProgress(a.out, func(done, total int64) { bar.set("writing rows", done, total) })
}
