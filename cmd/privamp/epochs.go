package main

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/plots"
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

func init() { register("epochs", func(a *app) *cobra.Command { return newEpochsCmd(a, nil) }) }

// epochsOptions is what `privamp epochs` was asked: every flag parsed and
// its combinations checked; nothing computed.
type epochsOptions struct {
	IO *app
	ampRun
	MaxEpochs  int64 // 1 to 1e6 passes
	Points     int   // about how many pass counts, log-spaced
	Plot       string
	NoSampling bool // leave out DP-SGD's accounting
}

func newEpochsCmd(a *app, runF func(*epochsOptions) error) *cobra.Command {
	var f ampFlags
	var maxEpochs, points int
	opts := &epochsOptions{IO: a}
	cmd := &cobra.Command{
		Use:   "epochs",
		Short: "ε of the worst record against the number of passes: FMTT18, the bounded domain, DP-SGD",
		Long: `ε of the worst private record of fixed-order PNSGD (the run the flags describe, as for 'privamp
pnsgd') after 1 to --max-epochs passes, by FMTT18's Theorem 22 (which grows without limit), by the
bounded-domain bound (with --radius R and --eta: every step projects onto a ball of radius R, so the two
runs' iterates are never more than 2R apart and Theorem 22 restarted from that distance caps the growth;
Altschuler–Talwar 2022's argument, derived in docs/amplification.md) and, unless --no-sampling, by
DP-SGD's accounting of the same run with Poisson sampling (replace-one, the per-person curves' relation; the tighter of the PLD and RDP).
The burn-in is the number of passes after which the bounded-domain ε changes by less than 1%.
--plot FILE.png|svg draws the three curves.` + ampExit,
		Args:    cobra.NoArgs,
		Example: `  privamp epochs --n 1000 --sigma 1 --eta 0.05 --radius 1 --max-epochs 1000 --plot epochs.png`,
	}
	f.register(cmd)
	fs := cmd.Flags()
	fs.IntVar(&maxEpochs, "max-epochs", 1000, "the largest number of passes (1 to 1e6)")
	fs.IntVar(&points, "points", 25, "about how many pass counts, log-spaced (2 to 1000)")
	fs.StringVar(&opts.Plot, "plot", "", "also draw the curves to this .png or .svg file")
	fs.BoolVar(&opts.NoSampling, "no-sampling", false, "leave out DP-SGD's accounting")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if n := firstChanged(cmd, "epochs", "tasks"); n != "" {
			return badInput("--%s does not apply to epochs (it varies the passes itself, for one fixed-order run)", n)
		}
		if ext := strings.ToLower(filepath.Ext(opts.Plot)); opts.Plot != "" && ext != ".png" && ext != ".svg" {
			return badInput("--plot must name a .png or .svg file, got %q", opts.Plot)
		}
		if maxEpochs < 1 || maxEpochs > 1e6 || points < 2 || points > 1000 {
			return badInput("--max-epochs must be in [1, 1e6] and --points in [2, 1000], got %d and %d", maxEpochs, points)
		}
		r, o, err := f.training(cmd, "pnsgd")
		if err != nil {
			return err
		}
		opts.ampRun, opts.MaxEpochs, opts.Points = ampRun{r, o}, int64(maxEpochs), points
		return runWith(runF, epochsRun, opts)
	}
	return cmd
}

// epochsRun computes the curves over the passes, draws them if asked, and
// renders them to opts.IO.
func epochsRun(opts *epochsOptions) error {
	c, err := shifted.EpsilonByEpochs(opts.Training, shifted.LogSpacedEpochs(opts.MaxEpochs, opts.Points), opts.Options.Conversion, !opts.NoSampling)
	if err != nil {
		return err
	}
	opts.warn(opts.IO)
	if opts.Plot != "" {
		if err := plotTo(opts.Plot)(plots.Epochs(c)); err != nil {
			return err
		}
	}
	return render(opts.IO.out, opts.IO.mode, epochsReport(c, opts.Training))
}

func epochsReport(c shifted.EpochCurve, run shifted.Training) *report {
	r := &report{Title: fmt.Sprintf("ε of the worst record (index %d) against the number of passes: n = %d, %s, δ = %s", c.WorstIndex, c.N, run.NoiseForms(), quantity.Nearest(c.Delta)),
		Result: c, Command: "epochs", CSVAll: true, Notes: slices.DeleteFunc([]string{c.DomainNote}, func(s string) bool { return s == "" }),
		Table: &table{Header: []string{"epochs", "fmtt18_epsilon", "domain_epsilon", "domain_window_start", "sampling_epsilon"}}}
	cell := func(e *dp.Loss) string {
		if e == nil {
			return "—"
		}
		return e.String()
	}
	if c.Radius == 0 {
		r.Notes = append(r.Notes, "no bounded domain declared: give --radius R (every step projects onto a ball of radius R) and --eta for the bound that stops growing")
	}
	for _, p := range c.Points {
		d, s := p.Domain, p.Sampling
		r.Table.Rows = append(r.Table.Rows, []string{strconv.FormatInt(p.Epochs, 10), p.FMTT18.String(), cell(d), strconv.FormatInt(p.DomainStart, 10), cell(s)})
	}
	if c.LimitEpsilon != nil {
		r.Rows = append(r.Rows, row{"burn-in (passes)", strconv.FormatInt(c.BurnIn, 10), map[bool]string{true: "exact", false: "over the listed passes"}[c.BurnInExact], c.DomainSource},
			row{"ε after the burn-in (limit)", *c.LimitEpsilon, "worst record", c.DomainSource},
			row{"burn-in and limit, first record", fmt.Sprintf("%s, ε = %s", quantity.Count(c.BurnInFirst, "pass", "passes"), c.LimitEpsilonFirst), "", c.DomainSource})
	}
	last := c.Points[len(c.Points)-1]
	r.Rows = append(r.Rows, row{fmt.Sprintf("ε after %s (FMTT18)", quantity.Count(last.Epochs, "pass", "passes")), last.FMTT18, "worst record", c.FMTT18Source})
	if last.Sampling != nil {
		r.Rows = append(r.Rows, row{fmt.Sprintf("ε after %s (DP-SGD, replace-one)", quantity.Count(last.Epochs, "pass", "passes")), *last.Sampling, "everyone", c.SamplingSource})
	}
	return r
}
