package main

import (
	"sync"

	"github.com/privamp/privamp/audit"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer"
	"github.com/spf13/cobra"
)

func init() { register("audit", func(a *app) *cobra.Command { return newAuditCmd(a, nil) }) }

// auditOptions is what `privamp audit` was asked: every flag parsed and its
// combinations checked; nothing computed.
type auditOptions struct {
	IO *app
	// Training and Audit are the neighbouring-runs audit (when Scores is nil).
	Training optimizer.Spec
	Audit    audit.Spec
	// Scores, if set, audits the canary scores of a run privamp did not execute.
	Scores *scoresOptions
}

func newAuditCmd(a *app, runF func(*auditOptions) error) *cobra.Command {
	pf, sf, opts := &problemFlags{}, &scoresOptions{}, &auditOptions{IO: a}
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Empirical lower bound on ε: run the algorithm many times on neighbouring data sets",
		Long: `Runs the algorithm --trials times on the data set S and as often on its neighbour S', which differ
at one index (a worst-case canary of the declared feature norm along the feature axis the data use least,
with opposite labels, or x' = −x for the linear loss), with independent seeds. The statistic ⟨w, e⟩ of
every output is thresholded (threshold chosen on the first half of the runs) and the true- and
false-positive counts of the second half give, through Clopper–Pearson intervals, a lower bound on ε
that holds with the stated confidence: an (ε, δ)-DP algorithm has TPR ≤ e^ε·FPR + δ.

The lower bound is printed beside the proven upper bound (package shifted) at the same index and δ; it
must never exceed it. With N runs a test cannot see an ε much above ln N. Runs on all cores (--workers);
run i uses its own seed, so the result does not depend on scheduling.

--scores FILE audits any training pipeline (PyTorch, JAX, TensorFlow) from its canary scores: a CSV
with header member,score (1 = the canary was trained on; higher score = more likely a member) or
member,guess (1, 0 or abstain: one-run auditing, Steinke–Nasr–Jagielski 2023). Reported: the threshold
attack's lower bound (threshold chosen on one half of the canaries, exact Clopper–Pearson bounds on the
other), the Gaussian-DP estimate μ (Nasr et al. 2023; an ε only if the run is μ-GDP, --assume-gdp) and
the one-run bound; with --epsilon (at --delta) or --claim, the upper bound beside them and the verdict
VIOLATED (the lower bound exceeds it: the claim is false, exit 1) or CONSISTENT. docs/audit.md.` + checkExitStatuses,
		Args: cobra.NoArgs,
		Example: `  privamp audit --data testdata/breast_cancer.csv --label malignant --scaling testdata/breast_cancer.scale.csv --normalize \
      --variant pnsgd --sigma 1 --trials 5000 --delta 1e-3
  privamp audit --synthetic quadratic --loss linear --no-projection --variant pnsgd --eta 0.1 --sigma 0.3 --index 1
  privamp audit --scores examples/canary-scores.csv --epsilon 0.5 --plot tradeoff.png`,
	}
	f := cmd.Flags()
	pf.register(f)
	f.IntVar(&opts.Audit.Trials, "trials", 2000, "runs on each of the two neighbouring data sets (20 to 1e7)")
	f.Int64Var(&opts.Audit.Index, "index", 0, "index (1-based) of the canary (default: the worst-case index)")
	f.IntVar(&opts.Audit.Workers, "workers", 0, "parallel workers (0 to 1024); 0: all cores")
	f.Float64Var(&opts.Audit.Confidence, "confidence", 0.95, "confidence of the lower bound")
	sf.register(f)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if changed(cmd, "scores") {
			sf.Confidence, sf.Delta, sf.In = opts.Audit.Confidence, pf.spec.Training.Delta, cmd.InOrStdin()
			if err := checkScoresFlags(cmd, sf); err != nil {
				return err
			}
			opts.Scores = sf
		} else if n := firstChanged(cmd, "claim", "epsilon", "plot", "assume-gdp", "thresholds"); n != "" {
			return badInput("--%s goes with --scores", n)
		} else if err := checkProblemFlags(cmd, pf); err != nil {
			return err
		}
		opts.Training = pf.build(cmd, false)
		if runF != nil {
			return runF(opts)
		}
		return auditRun(opts)
	}
	return cmd
}

// auditRun audits (audit.Training, or audit.Evaluate of the scores) and
// renders to opts.IO; VIOLATED, or a lower bound above the proven one, exits 1.
func auditRun(opts *auditOptions) error {
	if opts.Scores != nil {
		return auditScores(opts.IO, opts.Scores)
	}
	a := opts.IO
	bar := newBar(a)
	var mu sync.Mutex
	rep, err := audit.Training(opts.Training, opts.Audit, func(done, total int64) {
		mu.Lock()
		bar.set("audit", done, total)
		mu.Unlock()
	})
	bar.finish()
	if err != nil {
		return err
	}
	return reportVerdict(a, rep.Answer(), dp.VerdictOf([]dp.Check{rep.Check}))
}
