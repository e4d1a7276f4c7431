package main

import (
	"path/filepath"
	"strings"

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
	return render(opts.IO.out, opts.IO.mode, c.Report(opts.Training, flagSpelling))
}
