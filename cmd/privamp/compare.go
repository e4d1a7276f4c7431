package main

import (
	"fmt"

	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

func init() { register(newCompareCmd) }

// compareResult is compare's (and the main job's) --json object.
type compareResult struct {
	Command string `json:"command"`
	shifted.ComparisonReport
}

func newCompareCmd(a *app) *cobra.Command {
	var f ampFlags
	var indices []int64
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Amplification by iteration versus amplification by sampling and plain composition (FMTT18 Table 1)",
		Long: `For one run — n records, batches of --batch (each step divides by this nominal batch, as DP-SGD does),
--epochs passes, noise σ on the average gradient, Lipschitz constant L, the same δ — privamp compares:
  iteration    fixed-order noisy SGD releasing only its final iterate (FMTT18 Thm 22/23/35):
               a different ε for every record position t (best, median, worst, chosen --index)
  sampling     DP-SGD's accounting with Poisson sampling at rate b/n over E·⌈n/b⌉ steps, noise
               multiplier bσ/L (Mironov–Talwar–Zhang 2019): one ε for everyone, every iterate may be
               released, the sampling must stay secret. Its usual neighbours are add/remove-one; the
               replace-one row (remove then add, Mironov 2017 Prop. 11) is the like-for-like comparison
               with iteration, and it is loose: the output says by how much it may be
  composition  the fixed-order run releasing every iterate: the E Gaussian steps that use a record
               compose (Lemma 27)
and says for which records iteration wins.` + ampExit,
		Args: cobra.NoArgs,
		Example: `  privamp compare --n 100000 --sigma 4
  privamp compare --n 60000 --batch 256 --epochs 10 --sigma 0.005 --index 1,30000,60000 --json`,
	}
	f.register(cmd)
	cmd.Flags().Int64SliceVar(&indices, "index", nil, "record positions t in [1, n] to report as well (repeatable or comma list)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		r, o, err := f.training(cmd, shifted.VariantPNSGD)
		if err != nil {
			return err
		}
		if f.fallback {
			return badInput("--composition-fallback does not apply to compare: without a contracting step there is no amplification by iteration to compare")
		}
		o.Indices = indices
		c, err := shifted.CompareTraining(r, o)
		if err != nil {
			return err
		}
		return render(a.out, a.mode, compareReport(c))
	}
	return cmd
}

func compareReport(c shifted.ComparisonReport) *report {
	at := "at δ = " + fmtNum(c.Delta)
	it := c.Iteration
	iter := func(label string, t int64, eps float64) row {
		return row{fmt.Sprintf("iteration, %s (index %d)", label, t), fmtEps(eps), at + ", replace-one", c.IterationSource}
	}
	r := &report{
		Title: fmt.Sprintf("Amplification by iteration vs sampling: n = %d, batch %d, %d epoch(s), %d steps, σ = %s", c.N, c.Batch, c.Epochs, c.Steps, fmtUp(c.Sigma)),
		Rows: []row{iter("best record", it.Best.Index, it.Best.Epsilon), iter("median record", it.Median().Index, it.Median().Epsilon),
			iter("worst record", it.Worst.Index, it.Worst.Epsilon)},
		Result: compareResult{"compare", c}, Assumptions: c.Assumptions, Notes: c.Notes,
	}
	for _, p := range c.Indices {
		r.Rows = append(r.Rows, row{fmt.Sprintf("iteration, index %d", p.Index), p.Epsilon, at + ", replace-one", c.IterationSource})
	}
	share := func(k int64) string {
		return fmt.Sprintf("%s of %s records (%.4g%%)", fmtInt(float64(k)), fmtInt(float64(c.N)), 100*float64(k)/float64(c.N))
	}
	upTo := func(k int64) string {
		if k <= 0 {
			return "none"
		}
		return "indices 1.." + fmtInt(float64(k))
	}
	r.Rows = append(r.Rows,
		row{"sampling, replace-one (like for like, loose)", c.SamplingReplaceOneEpsilon, fmt.Sprintf("%s, everyone; may be up to %s× too high (remove then add)", at, c.SamplingLooseness), c.SamplingReplaceOneSource},
		row{"sampling, add/remove (DP-SGD's usual)", c.SamplingAddRemoveEpsilon, at + ", everyone", c.SamplingAddRemoveSource},
		row{"composition, every iterate released (worst record)", c.CompositionEpsilon, at + ", replace-one", c.CompositionSource},
		row{"iteration ≤ sampling (replace-one) for", share(c.IterationWins), upTo(c.IterationWins), "ε_t is non-decreasing in t"},
		row{"iteration ≤ sampling (add/remove) for", share(c.IterationWinsAddRemove), upTo(c.IterationWinsAddRemove), "ε_t is non-decreasing in t"},
	)
	return r
}
