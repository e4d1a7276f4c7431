package main

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/privamp/privamp/optimizer"
	"github.com/spf13/cobra"
)

func init() { register(newAuditCmd) }

type auditFlags struct {
	problemFlags
	trials     int
	index      int
	workers    int
	confidence float64
}

func newAuditCmd(a *app) *cobra.Command {
	af := &auditFlags{}
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Empirical lower bound on ε: run the algorithm many times on neighbouring data sets",
		Long: `Runs the algorithm --trials times on the data set S and as often on its neighbour S', which differ
at one index (a worst-case canary: an example of norm X along the feature axis the data use least, with
opposite labels, or x' = −x for the linear loss), with independent seeds. The statistic ⟨w, e⟩ of every
output is thresholded: the threshold is chosen on the first half of the runs, and the true- and
false-positive counts of the second half give, through Clopper–Pearson intervals, a lower bound on ε
that holds with the stated confidence: an (ε, δ)-DP algorithm has TPR ≤ e^ε·FPR + δ.

The lower bound is printed beside the proven upper bound (package shifted) at the same index and δ; it
must never exceed it. With N runs a test cannot see an ε much above ln N, nor one whose true-positive
rate at the optimal threshold is below δ: audit at a larger --delta to see more.
Runs on all cores (--workers); run i uses its own seed, so the result does not depend on scheduling.`,
		Args: cobra.NoArgs,
		Example: `  privamp audit --data testdata/breast_cancer.csv --label malignant --standardize --normalize \
      --variant pnsgd --sigma 1 --trials 5000 --delta 1e-3
  privamp audit --synthetic quadratic --loss linear --no-projection --variant pnsgd --eta 0.1 --sigma 0.3 --index 1`,
	}
	f := cmd.Flags()
	af.register(f)
	f.IntVar(&af.trials, "trials", 2000, "runs on each of the two neighbouring data sets")
	f.IntVar(&af.index, "index", 0, "index (1-based) of the canary (default: the worst-case index)")
	f.IntVar(&af.workers, "workers", 0, "parallel workers (default: all cores)")
	f.Float64Var(&af.confidence, "confidence", 0.95, "confidence of the lower bound")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return runAudit(a, cmd, af) }
	return cmd
}

func runAudit(a *app, cmd *cobra.Command, af *auditFlags) error {
	if af.trials < 20 || af.trials > 10_000_000 {
		return badInput("--trials must be a whole number in [20, 10^7], got %d", af.trials)
	}
	if af.workers < 0 || af.workers > 1024 {
		return badInput("--workers must be in [0, 1024] (0: all cores), got %d", af.workers)
	}
	if err := inRange("confidence", af.confidence, 0.5, 0.9999); err != nil {
		return err
	}
	pr, err := af.build(cmd)
	if err != nil {
		return err
	}
	if float64(af.trials)*2*float64(pr.cfg.Steps(pr.data.N()))*float64(pr.data.D) > 5e11 {
		return badInput("--trials %d × %d steps × d = %d is too much work (limit 5·10^11)", af.trials, pr.cfg.Steps(pr.data.N()), pr.data.D)
	}
	ps := summarizePrivacy(pr, af.delta, -1, nil)
	t := af.index
	if t == 0 {
		t = ps.worstIndex
		if !ps.ok {
			t = pr.setting.Private()
		}
	}
	if t < 1 || t > pr.setting.Private() {
		return badInput("--index must be in [1, %d] (the private indices), got %d", pr.setting.Private(), t)
	}
	upper := math.Inf(1)
	upperSrc := "no amplification-by-iteration bound: " + ps.reason
	if ps.ok {
		p, _ := optimizer.PrivacyOf(pr.setting)
		upper, _ = p.Epsilon(t, af.delta)
		upperSrc = ps.source
	}
	canary := optimizer.MakeCanary(pr.obj, pr.data, pr.cons.X, pr.cons.Y)
	S, Sp := canary.Neighbours(pr.data, t)
	workers := af.workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	bar := newBar(a, int64(2*af.trials), "audit")
	var mu sync.Mutex
	ac := optimizer.AuditConfig{Trials: af.trials, Delta: af.delta, Confidence: af.confidence, Workers: workers, Seed: af.seed}
	if bar != nil {
		ac.Progress = func(done int) {
			mu.Lock()
			_ = bar.Set64(int64(done))
			mu.Unlock()
		}
	}
	res, err := optimizer.Audit(pr.cfg, pr.obj, S, Sp, canary.Dir, ac)
	finishBar(bar)
	if err != nil {
		return err
	}
	// exact value where the output is Gaussian
	exact := math.NaN()
	if _, ok := pr.obj.Loss.(optimizer.LinearLoss); ok && math.IsInf(pr.cfg.R, 1) && pr.cfg.Variant == optimizer.Final {
		if rho, err := optimizer.ExactRho(pr.cfg, pr.data.N(), pr.obj.L2, 2*pr.cons.X, t); err == nil {
			exact = optimizer.GaussianShiftEpsilon(math.Sqrt(2*rho), af.delta)
		}
	}

	r := &report{Title: fmt.Sprintf("privamp audit: %s on %s, %s loss, canary at index %d", pr.cfg.Variant, pr.dataDesc, pr.obj.Name(), t)}
	add := func(q, v, u, s string) { r.Rows = append(r.Rows, row{q, v, u, s}) }
	dl := fmt.Sprintf("δ = %g", af.delta)
	add("runs", fmt.Sprintf("%d + %d", af.trials, af.trials), "", fmt.Sprintf("S and S' (index %d replaced), %d workers, seed %d", t, workers, af.seed))
	add("η, σ", fmt.Sprintf("%s, %s", fmtNum(pr.cfg.Eta), fmtNum(pr.cfg.Sigma)), "", joinNonEmpty("; ", pr.etaSrc, pr.sigmaSrc))
	add("ε lower bound (audit)", fmtDown(res.Epsilon), dl, fmt.Sprintf("Clopper–Pearson, %g%% confidence", 100*af.confidence))
	add("ε upper bound (proven)", fmtEps(upper), dl, upperSrc)
	if !math.IsNaN(exact) {
		add("ε exact", fmtEps(exact), dl, "final iterate Gaussian (notes §5): exact privacy profile")
	}
	add("ε by plain composition", fmtEps(ps.composition), dl, "every iterate released")
	add("statistic means S / S'", fmt.Sprintf("%s / %s (sd %s)", fmtNum(res.MeanIn), fmtNum(res.MeanOut), fmtNum(res.SD)), "", "⟨w, e⟩, e the canary's direction")
	op := ">"
	if !res.Greater {
		op = "<"
	}
	add("test", fmt.Sprintf("say S when ⟨w, e⟩ %s %s", op, fmtNum(res.Threshold)), "", "threshold chosen on the first half of the runs")
	add("true / false positives", fmt.Sprintf("%d / %d of %d", res.TP, res.FP, res.EvalTrials), "", "second half")
	add("TPR lower, FPR upper", fmt.Sprintf("%s, %s", fmtNum(res.TPRLow), fmtNum(res.FPRHigh)), "", "one-sided Clopper–Pearson bounds (Beta quantiles)")
	status := optimizer.Pass
	if res.Epsilon > upper {
		status = optimizer.Fail
	}
	r.Table = &table{Header: []string{"check", "status", "value", "bound", "detail"},
		Rows: [][]string{{"audit lower bound ≤ proven upper bound", status, fmtDown(res.Epsilon), fmtEps(upper), "a FAIL means the bound or its assumptions are wrong"}}}
	r.Notes = append(r.Notes, pr.notes...)
	r.Notes = append(r.Notes, fmt.Sprintf("with %d evaluation runs the audit cannot certify much above ln(%d) ≈ %.1f", res.EvalTrials, res.EvalTrials, math.Log(float64(res.EvalTrials))))
	obj := map[string]any{"index": t, "trials": af.trials, "workers": workers, "delta": af.delta, "confidence": af.confidence,
		"epsilon_lower": res.Epsilon, "threshold": res.Threshold, "greater": res.Greater, "tp": res.TP, "fp": res.FP,
		"eval_trials": res.EvalTrials, "tpr_low": res.TPRLow, "fpr_high": res.FPRHigh, "mean_in": res.MeanIn, "mean_out": res.MeanOut,
		"variant": pr.cfg.Variant.String(), "eta": pr.cfg.Eta, "sigma": pr.cfg.Sigma, "check": status}
	epsJSON(obj, "epsilon_upper", upper)
	epsJSON(obj, "composition_epsilon", ps.composition)
	if !math.IsNaN(exact) {
		obj["epsilon_exact"] = num(exact)
	}
	r.JSON = obj
	if err := render(a.out, a.mode, r); err != nil {
		return err
	}
	if status == optimizer.Fail {
		return &exitError{code: exitFailure}
	}
	return nil
}
