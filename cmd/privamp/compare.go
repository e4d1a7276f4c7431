package main

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

func init() { register(newCompareCmd) }

func newCompareCmd(a *app) *cobra.Command {
	var f ampFlags
	var indices []int64
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Amplification by iteration versus amplification by sampling and plain composition (FMTT18 Table 1)",
		Long: `For one run — n records, batches of --batch, --epochs passes, noise σ on the average gradient, Lipschitz
constant L, the same δ — privamp compares:
  iteration    fixed-order noisy SGD releasing only its final iterate (FMTT18 Thm 22/23/35):
               a different ε for every record position t (best, median, worst, chosen --index)
  sampling     DP-SGD's accounting with Poisson sampling at rate b/n over E·⌈n/b⌉ steps, noise
               multiplier bσ/L (Mironov–Talwar–Zhang 2019): one ε for everyone, every iterate may be
               released, the sampling must stay secret. Its usual neighbours are add/remove-one;
               the replace-one row is the like-for-like comparison with iteration.
  composition  the fixed-order run releasing every iterate: the E Gaussian steps that use a record
               compose (Lemma 27)
and says for which records iteration wins.`,
		Args: cobra.NoArgs,
		Example: `  privamp compare --n 100000 --sigma 4
  privamp compare --n 60000 --batch 256 --epochs 10 --sigma 0.005 --index 1,30000,60000 --json`,
	}
	f.register(cmd)
	cmd.Flags().Int64SliceVar(&indices, "index", nil, "record positions t in [1, n] to report as well (repeatable or comma list)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		conv, err := f.check(cmd)
		if err != nil {
			return err
		}
		if f.public != 0 {
			return badInput("--public does not apply to compare: sampling has no public records")
		}
		m, err := f.build(cmd, "pnsgd", []string{"pnsgd"})
		if err != nil {
			return err
		}
		if m.fallback {
			return badInput("the step does not contract (η > 2/β): there is no amplification by iteration to compare; see 'privamp pnsgd --composition-fallback'")
		}
		if err := ampIndices(indices, m.g.Len()); err != nil {
			return err
		}
		c, err := shifted.Compare(m.run, f.delta, conv)
		if err != nil {
			return badInput("%v", err)
		}
		at := "at δ = " + fmtNum(f.delta)
		itSrc := m.source() + "; " + conv.Source()
		sampAR := "Mironov–Talwar–Zhang 2019 (Poisson-subsampled Gaussian, add/remove); " + conv.Source()
		sampRO := "Mironov–Talwar–Zhang 2019 + Mironov 2017 Prop. 11 (replace = remove then add); " + conv.Source()
		compSrc := shifted.Local{SGD: m.run}.Source() + "; " + conv.Source()
		n := m.run.N
		it := c.Iteration
		r := &report{
			Title: fmt.Sprintf("Amplification by iteration vs sampling: n = %d, batch %d, %d epoch(s), %d steps, σ = %s", n, max(m.run.Batch, 1), max(m.run.Epochs, 1), c.Steps(), fmtNum(f.sigma)),
			Rows: []row{
				{fmt.Sprintf("iteration, best record (index %d)", it.Best.Index), fmtEps(it.Best.Epsilon), at + ", replace-one", itSrc},
				{fmt.Sprintf("iteration, median record (index %d)", it.Median().Index), fmtEps(it.Median().Epsilon), at + ", replace-one", itSrc},
				{fmt.Sprintf("iteration, worst record (index %d)", it.Worst.Index), fmtEps(it.Worst.Epsilon), at + ", replace-one", itSrc},
			},
		}
		var pts []any
		for _, t := range indices {
			p, err := ampAt(m, t, f.delta, conv)
			if err != nil {
				return err
			}
			r.Rows = append(r.Rows, row{fmt.Sprintf("iteration, index %d", t), fmtEps(p.dp.Epsilon), at + ", replace-one", itSrc})
			pts = append(pts, p.json())
		}
		share := func(k int64) string {
			return fmt.Sprintf("%s of %s records (%.4g%%)", fmtInt(float64(k)), fmtInt(float64(n)), 100*float64(k)/float64(n))
		}
		r.Rows = append(r.Rows,
			row{"sampling, replace-one (like for like)", fmtEps(c.SamplingReplaceOne.Epsilon), at + ", everyone", sampRO},
			row{"sampling, add/remove (DP-SGD's usual)", fmtEps(c.SamplingAddRemove.Epsilon), at + ", everyone", sampAR},
			row{"composition, every iterate released (worst record)", fmtEps(c.Composition.Epsilon), at + ", replace-one", compSrc},
			row{"iteration ≤ sampling (replace-one) for", share(c.IterationWins), indexRange(c.IterationWins), "ε_t is non-decreasing in t"},
			row{"iteration ≤ sampling (add/remove) for", share(c.IterationWinsAddRemove), indexRange(c.IterationWinsAddRemove), "ε_t is non-decreasing in t"},
		)
		r.Notes = []string{compareVerdict(c), "the neighbour relations differ: amplification by iteration is proved for replace-one neighbours; DP-SGD's sampling analysis for add/remove-one. The replace-one sampling row (bounded through remove-then-add, Mironov 2017 Prop. 11) is the like-for-like comparison; the two relations' ε are not interchangeable",
			"sampling needs secret Poisson sampling (every record joins each batch independently) but covers every released iterate; iteration needs a fixed order, a contractive step (η ≤ 2/β) and hidden intermediate iterates, and protects early records most",
		}
		r.Assumptions = append(m.assumptions, "sampling: Poisson sampling at rate q = b/n, the summed batch gradient (clipped to norm L) gets N(0, (bσ)²I) noise: noise multiplier z = bσ/L; the same number of steps")
		js := map[string]any{
			"command": "compare", "n": n, "batch": max(m.run.Batch, 1), "epochs": max(m.run.Epochs, 1), "steps": c.Steps(),
			"sigma": f.sigma, "lipschitz": f.lipschitz, "delta": f.delta, "conversion": conv.String(),
			"iteration_source": itSrc, "sampling_source_add_remove": sampAR, "sampling_source_replace_one": sampRO, "composition_source": compSrc,
			"iteration_wins": c.IterationWins, "iteration_wins_add_remove": c.IterationWinsAddRemove, "verdict": compareVerdict(c),
		}
		iter := map[string]any{"best_index": it.Best.Index, "median_index": it.Median().Index, "worst_index": it.Worst.Index}
		epsJSON(iter, "best_epsilon", it.Best.Epsilon)
		epsJSON(iter, "median_epsilon", it.Median().Epsilon)
		epsJSON(iter, "worst_epsilon", it.Worst.Epsilon)
		if len(pts) > 0 {
			iter["indices"] = pts
		}
		js["iteration"] = iter
		epsJSON(js, "sampling_replace_one_epsilon", c.SamplingReplaceOne.Epsilon)
		epsJSON(js, "sampling_add_remove_epsilon", c.SamplingAddRemove.Epsilon)
		epsJSON(js, "composition_epsilon", c.Composition.Epsilon)
		r.JSON = js
		return render(a.out, a.mode, r)
	}
	return cmd
}

// compareVerdict says who wins for whom.
func compareVerdict(c shifted.Comparison) string {
	n := c.Run.N
	k := c.IterationWins
	samp := fmtEps(c.SamplingReplaceOne.Epsilon)
	switch {
	case c.SamplingReplaceOne.Epsilon == 0 && c.Iteration.Worst.Epsilon == 0:
		return "both analyses give ε = 0 for every record (the noise swamps the signal)"
	case k >= n:
		return fmt.Sprintf("iteration wins for every record: even the last one (ε = %s) is below sampling's %s (replace-one)", fmtEps(c.Iteration.Worst.Epsilon), samp)
	case k == 0:
		return fmt.Sprintf("sampling wins for every record: its ε = %s (replace-one) is below iteration's best, %s", samp, fmtEps(c.Iteration.Best.Epsilon))
	}
	pct := 100 * float64(k) / float64(n)
	return fmt.Sprintf("iteration is at least as good as sampling for the records at positions 1..%d (%.4g%% of them, processed earliest); sampling (replace-one, ε = %s) is better for the last %d, whose ε by iteration rises to %s at the end; releasing every iterate (composition) gives the worst-placed record %s",
		k, pct, samp, n-k, fmtEps(c.Iteration.Worst.Epsilon), fmtEps(math.Max(c.Composition.Epsilon, 0)))
}

// indexRange names the indices 1..k, or none.
func indexRange(k int64) string {
	if k <= 0 {
		return "none"
	}
	return "indices 1.." + fmtInt(float64(k))
}
