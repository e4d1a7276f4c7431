package optimizer

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/quantity"
)

// Statuses of a check (TrainCheck; package optimizer/claim uses the same
// words and adds UNMET).
const (
	// Pass: the check holds.
	Pass = "PASS"
	// Fail: the check does not hold; a failed check makes the run's OK false.
	Fail = "FAIL"
	// NA: the check does not apply.
	NA = "N/A"
	// Assumed: a declared value the result relies on that nothing the
	// inputs bring can check; it is taken as declared, never shown as PASS,
	// and does not fail a run.
	Assumed = "ASSUMED"
)

// NewCheck is a check comparing a measured value with a bound: PASS when ok
// holds, FAIL otherwise. Every algorithm's checks are made with it.
func NewCheck(name string, ok bool, value, bound float64, detail string) TrainCheck {
	st := Pass
	if !ok {
		st = Fail
	}
	return TrainCheck{name, st, quantity.Num(value), quantity.Num(bound), detail}
}

// AllPass reports whether no check FAILED (N/A, VACUOUS and WORSE do not
// fail a run): the OK of every run's result.
func AllPass(checks []TrainCheck) bool {
	for _, ch := range checks {
		if ch.Status == Fail {
			return false
		}
	}
	return true
}

// check runs the checks of a trained run. Every check compares a measured
// value with one derived from the declared bounds and the parameters, so
// each can fail; a failure makes Result.OK false.
func (res *TrainResult) check(spec Spec, follow *planFollow) {
	pr := res.Problem
	c, tr, m := pr.Constants, pr.Config.Training, res.Measured
	eta := tr.Loss.Eta
	add := func(name string, ok bool, value, bound float64, detail string) {
		res.Checks = append(res.Checks, NewCheck(name, ok, value, bound, detail))
	}
	add("max gradient norm ≤ L", m.MaxGradNorm <= c.L*(1+1e-9), m.MaxGradNorm, c.L,
		"largest per-record ‖∇f(w_t)‖ over every step, against L derived from the declared bounds (fails only if clipping or the constants are wrong)")
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
	risk := TrainCheck{"final risk ≤ risk at the start w0", Pass, quantity.Num(m.FinalRisk), quantity.Num(m.StartRisk),
		"empirical risk of the output against the starting point's"}
	if !(m.FinalRisk <= m.StartRisk) {
		risk.Status = Worse
		risk.Detail = "training made the model WORSE than its starting point: more noise than signal at these parameters (more data, a larger ε, or more passes help)"
	}
	res.Checks = append(res.Checks, risk)
	if follow != nil {
		res.Checks = append(res.Checks, follow.checks...)
	}
	nan := quantity.Num(math.NaN())
	u, bound, trivial := m.Utility, float64(m.UtilityBound), float64(res.Derived.TrivialRisk)
	switch {
	case u == nil:
		res.Checks = append(res.Checks, TrainCheck{"utility", NA, nan, nan, "give repeats (≥ 2) to measure the excess population risk"})
	case math.IsInf(bound, 1) || math.IsNaN(bound):
		res.Checks = append(res.Checks, TrainCheck{"utility", NA, quantity.Num(u.Mean), nan,
			fmt.Sprintf("mean excess risk %.6g over %s; FMTT18 has no utility theorem for the final iterate", u.Mean, quantity.Count(u.Repeats, "run", "runs"))})
	case bound >= trivial:
		res.Checks = append(res.Checks, TrainCheck{"mean excess population risk ≤ utility bound", Vacuous, quantity.Num(u.Mean), quantity.Num(bound),
			fmt.Sprintf("the bound (Thm 28 at this η) is above the trivial bound %.6g, the loss range on the domain: it says nothing", trivial)})
	default:
		add("mean excess population risk ≤ utility bound", u.Lower <= bound, u.Mean, bound,
			fmt.Sprintf("%s, %g%% CI [%.6g, %.6g]; bound: Thm 28 at this η (D²/(2ηT) + η(L² + dσ²)/2 + DL/T)", quantity.Count(u.Repeats, "run", "runs"), 100*u.Confidence, u.Lower, u.Upper))
	}
	res.OK = AllPass(res.Checks)
	res.Verdict = "every check passes"
	worse := false
	for _, ch := range res.Checks {
		worse = worse || ch.Status == Worse
	}
	if !res.OK {
		res.Verdict = "a check FAILED (see the checks)"
	}
	if worse {
		res.Verdict += "; the output's risk is WORSE than the starting point's"
	}
	if spec.Data.Standardize {
		res.Verdict += "; the certificate covers the standardized records only (the data's own means and spreads are not privatised)"
	}
}
