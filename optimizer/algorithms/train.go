package algorithms

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/optimizer"
)

// TrainReport is the report of a projected noisy SGD run (optimizer.Train:
// PNSGD, Skip, Stop, multi-epoch, minibatch, public records, tasks).
func TrainReport(res *optimizer.TrainResult) *Report {
	d, de, c, m := res.Declared, res.Derived, res.Privacy, res.Measured
	r := &Report{Title: fmt.Sprintf("privamp run: %s on %s, %s loss", res.Name, res.Description, d.Loss),
		Result: res, Assumptions: res.Assumptions, Notes: res.Notes, Checks: res.Checks, OK: res.OK}
	add := r.Add
	if res.Plan != nil {
		r.Title += ", following plan " + res.Plan.Path
	}
	add("verdict", res.Verdict, Measured, "checks of the run against the derived constants")
	add("records n (private), dimension d", fmt.Sprintf("%d, %d", res.Training.N, d.Dimension), Given, res.Description)
	add("feature bound X", dp.Num(d.FeatureBound), Declared, d.FeatureBoundSource)
	add("label bound Y", dp.Num(d.LabelBound), Declared, "1 for classification; declared for regression")
	add("domain radius R", dp.Num(d.Radius), Declared, "declared (∞: no projection)")
	add("Lipschitz constant L", de.Lipschitz, Derived, "sup ‖∇f‖ on K from X, Y, R")
	add("smoothness β", dp.Num(de.Smoothness), Derived, "X²·sup φ'' (+ m)")
	add("strong convexity m", dp.Num(de.StrongConvexity), Declared, "ℓ2 weight")
	add("sensitivity L'", dp.Num(de.Sensitivity), Derived, "X·sup|φ'|: half a record's largest gradient change (the ℓ2 term cancels; Thm 22)")
	add("steps", de.Steps, Derived, "epochs × ⌈records/batch⌉")
	add("step size η", de.Eta, Derived, de.EtaSource)
	add("noise σ", de.Sigma, Derived, de.SigmaSource)
	if !math.IsNaN(float64(de.Contraction)) {
		add("contraction c", de.Contraction, Derived, "max(|1 − ηm|, |1 − ηβ|) (Prop. 18)")
	}
	dl := fmt.Sprintf("δ = %g", c.Delta)
	if c.Applicable {
		r.AddUnit(fmt.Sprintf("ε worst case (index %d)", c.WorstIndex), c.WorstEpsilon, Certified, dl, c.Source)
		r.AddUnit("ε of index 1", c.FirstEpsilon, Certified, dl, "per-person guarantee (Def. 12)")
		r.AddUnit(fmt.Sprintf("ε of index %d (median)", c.MedianIndex), c.MedianEpsilon, Certified, dl, "per-person guarantee")
		for _, ie := range c.PerIndex {
			r.AddUnit(fmt.Sprintf("ε of index %d", ie.Index), ie.Epsilon, Certified, dl, "requested index")
		}
		if c.ShareWithinTarget != nil {
			r.AddUnit("people with ε ≤ target", fmt.Sprintf("%.1f%%", 100**c.ShareWithinTarget), Derived, fmt.Sprintf("target %g", c.Target), "of the private indices")
		}
	} else {
		add("ε (amplification by iteration)", dp.NoFinite, Certified, "not applicable: "+c.Reason)
	}
	r.AddUnit("ε by plain composition", c.Composition, Certified, dl, "every iterate released: Gaussian steps composed (Lemma 27)")
	for _, e := range c.Exact {
		r.AddUnit(fmt.Sprintf("exact ε of index %d", e.Index), e.ExactEpsilon, Certified, dl, fmt.Sprintf("the final iterate is Gaussian: exact ρ = %s, the bound's ρ = %s, ε = %s", e.ExactRho, e.BoundRho, e.BoundEpsilon))
	}
	if p := res.Plan; p != nil {
		add("plan followed", fmt.Sprintf("yes: %s; σ, η and the run as planned", p.Match), Given, "privamp plan file "+p.Path)
		add("every person within budget", fmt.Sprintf("yes: largest achieved/target = %s (position %d)", p.WorstRatio, p.WorstIndex), Certified, "every position recomputed with package shifted")
		for i, g := range p.Groups {
			if i == 20 {
				r.Notes = append(r.Notes, fmt.Sprintf("the table shows 20 of %d budget groups; the JSON result lists them all", len(p.Groups)))
				break
			}
			r.AddUnit(fmt.Sprintf("ε of positions %d–%d", g.First, g.Last), dp.Loss(g.AchievedMax), Certified, fmt.Sprintf("target %g, δ = %g", g.Epsilon, g.Delta), "largest ε in the group")
		}
	}
	add("empirical risk at the start w0", dp.Num(m.StartRisk), Measured, "")
	add("empirical risk of the output", dp.Num(m.FinalRisk), Measured, fmt.Sprintf("seed %d; steps %d..%d ran", res.Seed, m.StartStep+1, m.EndStep))
	add("empirical risk of w* (non-private)", dp.Num(m.OptimumRisk), Measured, fmt.Sprintf("Newton–CG on K (stationarity %.1e)", m.Stationarity))
	add("‖w − w*‖", dp.Num(m.Distance), Measured, "")
	if m.Accuracy != nil {
		add("training accuracy", fmt.Sprintf("%.1f%% (w* %.1f%%, majority class %.1f%%)", 100**m.Accuracy, 100**m.OptimumAccuracy, 100**m.MajorityShare), Measured, "sign(⟨w, x⟩) vs label")
	}
	if m.TaskRisk != nil {
		add("mean empirical risk of tasks 2..k", dp.Num(*m.TaskRisk), Measured, "independent Stop-PNSGD runs")
	}
	if m.Utility != nil {
		r.Notes = append(r.Notes, "utility: F and F* on "+m.Utility.Population)
	}
	return r
}
