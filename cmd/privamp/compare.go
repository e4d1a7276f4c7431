package main

import (
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

func init() { register("compare", func(a *app) *cobra.Command { return newCompareCmd(a, nil) }) }

// compareOptions is what `privamp compare` (and the main job) was asked:
// every flag parsed and its combinations checked; nothing computed.
type compareOptions struct {
	IO *app
	ampRun
}

func newCompareCmd(a *app, runF func(*compareOptions) error) *cobra.Command {
	var f ampFlags
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Amplification by iteration versus amplification by sampling and plain composition (FMTT18 Table 1)",
		Long: `For one run (batches of --batch, each step divided by this nominal batch as DP-SGD does), compares
iteration (the fixed-order run releasing its final iterate, FMTT18 Thm 22/23/35: an ε per position t),
sampling (DP-SGD's accounting: Poisson rate b/n, E·⌈n/b⌉ steps, noise multiplier bσ/L, one ε for
everyone; add/remove-one, and replace-one as remove then add, Mironov 2017 Prop. 11, which is loose:
the output says how loose) and composition (every iterate released, Lemma 27), and says for which
records iteration wins.` + ampExit,
		Args: cobra.NoArgs,
		Example: `  privamp compare --n 100000 --sigma 4
  privamp compare --n 60000 --batch 256 --epochs 10 --sigma 0.005 --index 1,30000,60000 --json`,
	}
	f.register(cmd)
	cmd.Flags().Int64SliceVar(&f.o.Indices, "index", nil, "record positions t in [1, n] to report as well (repeatable or comma list)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		r, o, err := f.training(cmd, "pnsgd")
		if err != nil {
			return err
		}
		return runWith(runF, compareRun, &compareOptions{a, ampRun{r, o}})
	}
	return cmd
}

// compareRun compares the three analyses of the run and renders to opts.IO.
func compareRun(opts *compareOptions) error {
	c, err := shifted.CompareTraining(opts.Training, opts.Options) // it ignores the composition fallback
	if err != nil {
		return err
	}
	opts.warn(opts.IO)
	return render(opts.IO.out, opts.IO.mode, c.Answer())
}
