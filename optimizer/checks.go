package optimizer

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/quantity"
)

// The rule every algorithm's checks follow (one for all of them):
//
//   - a printed check must be able to fail: a comparison that holds by
//     construction (a clipped record's gradient against L, a σ calibrated
//     by the accountant it is then checked with, a sample drawn from C)
//     is not a check but an assumption line of the result;
//   - a bound on a measured utility is VACUOUS when it is at least the
//     trivial bound, the largest value the measured quantity can take
//     given the declared bounds (dp.UtilityCheck);
//   - an output whose measured risk is above the data-free output's (w = 0
//     or the domain centre, the uniform point of a game) is WORSE
//     (dp.BaselineCheck).
//
// VACUOUS and WORSE report without failing: a run exits 1 only when a
// check FAILED (dp.AllPass), exactly as PNSGD's run does.

// GradientByConstruction is the assumption line that replaces a "max
// gradient norm ≤ L" check: every record is clipped to the declared bounds
// and L is the supremum of ‖∇f‖ over them, so the comparison cannot fail.
const GradientByConstruction = "‖∇f(w; x)‖ ≤ L for every w in the domain and every record: each record is clipped to the declared bounds and L is the supremum over them (by construction, so not a check; the largest measured norm is reported as measured)"

// check runs the checks of a trained run. Every check compares a measured
// value with one derived from the declared bounds and the parameters, so
// each can fail; a failure makes Result.OK false.
func (res *TrainResult) check(spec Spec, follow *planFollow) {
	pr := res.Problem
	c, tr, m := pr.Constants, pr.Config.Training, res.Measured
	eta := tr.Loss.Eta
	add := func(name string, ok bool, value, bound float64, detail string) {
		res.Checks = append(res.Checks, dp.NewCheck(name, ok, value, bound, detail))
	}
	res.Assumptions = append(res.Assumptions, GradientByConstruction)
	if c.Beta > 0 {
		add("η ≤ 2/β", eta*c.Beta <= 2, eta, 2/c.Beta, "the gradient step contracts (FMTT18 Prop. 18); β from the declared bounds")
		cc := c.Contraction(eta)
		add("measured contraction ≤ c", m.MaxContraction <= cc*(1+1e-6), m.MaxContraction, cc,
			fmt.Sprintf("max ‖ψ(u) − ψ(v)‖/‖u − v‖ over %d recorded steps × random pairs in K, against c = max(|1 − ηm|, |1 − ηβ|) from the declared β, m", len(res.Trace)))
	}
	if d := res.Derived.Rule; d != "" && d != string(Calibrate) && res.Privacy.Applicable {
		add("sound ε ≤ target", float64(res.Privacy.WorstEpsilon) <= spec.Target, float64(res.Privacy.WorstEpsilon), spec.Target,
			"worst-case ε certified by package shifted for the σ the theorem's formula gives")
	}
	res.Checks = append(res.Checks, dp.BaselineCheck("final risk ≤ risk at the start w0", m.FinalRisk, m.StartRisk,
		"empirical risk of the output against the data-free starting point's"))
	if follow != nil {
		res.Assumptions = append(res.Assumptions, follow.assumptions...)
	}
	nan := dp.Num(math.NaN())
	u, bound, trivial := m.Utility, float64(m.UtilityBound), float64(res.Derived.TrivialRisk)
	switch {
	case u == nil:
		res.Checks = append(res.Checks, dp.Check{Name: "utility", Status: dp.NA, Value: nan, Bound: nan, Detail: "give repeats (≥ 2) to measure the excess population risk"})
	case math.IsInf(bound, 1) || math.IsNaN(bound):
		res.Checks = append(res.Checks, dp.Check{Name: "utility", Status: dp.NA, Value: dp.Num(u.Mean), Bound: nan, Detail: fmt.Sprintf("mean excess risk %.6g over %s; FMTT18 has no utility theorem for the final iterate", u.Mean, quantity.Count(u.Repeats, "run", "runs"))})
	default:
		res.Checks = append(res.Checks, dp.UtilityCheck("mean excess population risk ≤ utility bound", u.Lower, bound, trivial,
			fmt.Sprintf("lower %g%% confidence limit of the mean over %s (mean %.6g, CI [%.6g, %.6g]); bound: Thm 28 at this η (D²/(2ηT) + η(L² + dσ²)/2 + DL/T); trivial bound: the loss range on the domain", 100*u.Confidence, quantity.Count(u.Repeats, "run", "runs"), u.Mean, u.Lower, u.Upper)))
	}
	res.OK = dp.AllPass(res.Checks)
	res.Verdict = dp.VerdictLine(res.Checks)
	if spec.Data.Standardize {
		res.Verdict += "; the certificate covers the standardized records only (the data's own means and spreads are not privatised)"
	}
}
