package plan

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/shifted"
)

// Utility is a bound on the expected excess population risk
// E[F(W)] − F* of the planned run for i.i.d. data, with its source.
type Utility struct {
	// Bound is NaN (null in JSON) when seed 002 gives no bound for the
	// variant; an upper bound, printed rounded up.
	Bound  dp.Loss `json:"bound"`
	Eta    dp.Num  `json:"eta"` // the step size it holds at
	Source string  `json:"source"`
	// Trivial is the bound every output meets, 2LR: any two points of the
	// domain are at most 2R apart and the loss is L-Lipschitz. Vacuous
	// reports Bound ≥ Trivial: the bound says nothing (as run's VACUOUS
	// checks, dp.CheckUpperBound).
	Trivial dp.Num `json:"trivial"`
	Vacuous bool   `json:"vacuous"`
}

// Label is "" for an informative bound, and for a vacuous one says so
// with the trivial bound, for the bound's line in a report.
func (u Utility) Label() string {
	if !u.Vacuous {
		return ""
	}
	return "VACUOUS: not below the trivial bound 2LR = " + u.Trivial.String()
}

// theorem returns the utility theorem behind the setting's step-size rule
// and bound (package shifted): Thm 32 for several Stop tasks, Thm 29 for
// Stop, Cor 31 with public records and Thm 30 otherwise (PNSGD is reported
// as Skip-PNSGD; see Utility).
func (o Options) theorem() shifted.UtilityTheorem {
	t := o.Training
	switch {
	case t.Variant == shifted.VariantStop && t.TaskCount() > 1:
		return shifted.Thm32
	case t.Variant == shifted.VariantStop:
		return shifted.Thm29
	case t.Public > 0:
		return shifted.Cor31
	}
	return shifted.Thm30
}

// utilityParams are the quantities of FMTT18 §5 for n private people at σ.
func (o Options) utilityParams(n int64, sigma float64) shifted.UtilityParams {
	return shifted.UtilityParams{Lipschitz: o.Training.Loss.Lipschitz, Radius: o.Radius, Dimension: o.Dimension,
		Steps: o.Steps(n), Sigma: sigma}
}

// Utility returns the excess-risk bound of the run with n private people at
// noise σ (FMTT18 §5 through package shifted, with L_G² = L² + dσ² the
// second moment of a noisy gradient and S = Steps(n)):
//
//	Skip (Thm 30; Cor 31 with public records): 4√2·R·L_G/√S at η = √8·R/(L_G√S)
//	Stop (Thm 29):                             4·R·L_G/√S  at η = 2R/(L_G√S)
//	k Stop tasks (Thm 32, per task):           4·R·L_G/√S  at η = 4R/(L_G√S)
//
// Thm 29, 30 and Cor 31 state these for σ = 2L√(2 ln(1.25/δ))/ε (and its
// public-data version); their proofs (Thm 28 applied to the noisy gradient
// oracle) hold for every σ, which is how they are used here. Seed 002 has no
// bound for the last iterate of PNSGD: for that variant the bound is Thm
// 30's, i.e. for running the same plan as Skip-PNSGD, whose per-person
// guarantee is never weaker (Thm 24; the exact mixture of
// docs/amplification.md#skip-and-stop-mixtures is at most αρ_t). When η is fixed or lowered to 2/β, the bound is Thm 28's
// regret argument at that η (shifted.UtilityParams.Thm28 with D = 2R and T
// the iterates the output is drawn from: S for Stop, ⌊S/2⌋ + 1 for Skip).
// Several passes (Epochs > 1) reuse the data, so no population bound
// applies: Bound is NaN.
func (o Options) Utility(n int64, sigma float64) (u Utility) {
	eta, _, paper := o.EtaRule(n, sigma)
	u = Utility{Bound: dp.Loss(math.NaN()), Eta: dp.Num(eta), Trivial: dp.Num(2 * o.Training.Loss.Lipschitz * o.Radius)}
	defer func() { u.Vacuous = float64(u.Bound) >= float64(u.Trivial) }()
	if o.Training.EpochCount() > 1 {
		u.Source = "none: seed 002 bounds the excess population risk of a single pass over i.i.d. data (Thm 28); later passes reuse the data"
		return u
	}
	up := o.utilityParams(n, sigma)
	if paper {
		th := o.theorem()
		u.Bound, u.Source = dp.Loss(th.Bound(up)), th.String()+": "+th.BoundFormula()
	} else {
		u.Bound = dp.Loss(up.Thm28(eta, 2*o.Radius, o.Training.Variant != shifted.VariantStop))
		u.Source = "FMTT18 Thm 28's regret argument at this η: D²/(2ηT) + η(L² + dσ²)/2 + DL/T, D = 2R"
	}
	if o.Training.Variant == shifted.VariantPNSGD {
		u.Source += "; for the plan run as Skip-PNSGD (same order and σ; never less private, Thm 24): seed 002 has no bound for the last iterate"
	}
	return u
}

// SigmaForUtility returns the largest σ whose utility bound (Utility) is at
// most target, and false when even σ → 0 misses it (more records are
// needed) or the variant has no bound. The bound is non-decreasing in σ.
func (o Options) SigmaForUtility(n int64, target float64) (float64, bool) {
	if math.IsNaN(float64(o.Utility(n, 0).Bound)) {
		return 0, false
	}
	ok := func(sig float64) bool { return float64(o.Utility(n, sig).Bound) <= target }
	scale := o.Training.Loss.Lipschitz / math.Sqrt(float64(o.Dimension))
	lo := scale * 1e-12
	if !ok(lo) {
		return 0, false
	}
	hi := scale
	for ok(hi) {
		lo = hi
		hi *= 4
		if hi > 1e300 {
			return lo, true
		}
	}
	sig, err := numeric.Bisect(ok, lo, hi, 1e-13, false)
	if err != nil {
		return lo, true
	}
	return sig, true
}
