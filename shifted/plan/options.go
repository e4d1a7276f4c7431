package plan

import (
	"fmt"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// Options are the input of Make besides the budgets: the run to schedule
// (a shifted.Training), what the step-size rule and the utility bound need
// beyond it, and the caps on σ.
type Options struct {
	// Training is the run: Variant, Public, Batch, Epochs, Tasks, the loss
	// constants (Loss.Lipschitz L > 0; Loss.Smoothness β ≥ 0, 0: not given
	// and η ≤ 2/β assumed; Loss.StrongConvexity m, which needs β and a fixed
	// η) and Delta, the δ of people who do not give their own. Loss.Eta
	// fixes the step size; 0 derives it from σ by the theorem's rule
	// (EtaRule). The planner sets N (the number of people; 0 or that
	// number) and Sigma (what it computes; must be 0). Order must be fixed:
	// every per-person bound is for a fixed, public order.
	Training shifted.Training
	// Radius R > 0 of the domain K ⊂ {‖w‖ ≤ R} and the model's dimension
	// d ≥ 1 enter the step-size rule and the utility bound (FMTT18 §5).
	Radius    float64
	Dimension int64
	// Conversion from RDP to (ε, δ).
	Conversion rdp.Conversion
	// MaxSigma caps σ (0: no cap). TargetExcessRisk caps the utility
	// bound (Utility) at this value (0: none); it becomes a cap on σ
	// (SigmaForUtility).
	MaxSigma, TargetExcessRisk float64
	// Progress, if not nil, is told how many positions' ε are computed of
	// how many, as the planner computes them all (not part of the plan).
	Progress dp.Progress `json:"-"`
}

// run returns the Training with n private people at noise σ and step size η.
func (o Options) run(n int64, sigma, eta float64) shifted.Training {
	t := o.Training
	t.N, t.Sigma, t.Loss.Eta = n, sigma, eta
	// Every step projects onto K ⊂ {‖w‖ ≤ R}: the bounded-domain bound
	// applies where the variant and η allow it (shifted.Domain).
	t.Radius = o.Radius
	return t
}

// Steps returns the number of noisy steps of the run with n private people.
func (o Options) Steps(n int64) int64 { return o.run(n, 1, 0).Steps() }

// validate checks the options for n people: Training.Validate, then what
// only the planner needs. Errors are *field.Error values naming the field
// (Training's JSON keys; radius, dimension, conversion, max_sigma,
// target_excess_risk).
func (o Options) validate(n int64) error {
	t := o.Training
	switch {
	case t.N != 0 && t.N != n:
		return field.New("n", t.N, "must be 0 or the number of people, %d", n)
	case t.Sigma != 0:
		return field.New("sigma", t.Sigma, "is what the planner computes; leave it 0")
	case t.Order != "" && t.Order != shifted.Fixed:
		return field.New("order", string(t.Order), "must be fixed: a per-person schedule puts each person at a public position")
	}
	if err := o.run(n, 1, t.Loss.Eta).Validate(); err != nil {
		return err
	}
	if err := field.First(
		field.Positive("radius", o.Radius),
		field.Count("dimension", o.Dimension, 1, 1e12),
		field.NonNegative("max_sigma", o.MaxSigma),
		field.NonNegative("target_excess_risk", o.TargetExcessRisk),
	); err != nil {
		return err
	}
	if o.Conversion != rdp.Improved && o.Conversion != rdp.Classic {
		return field.New("conversion", o.Conversion.String(), "must be improved or classic")
	}
	if o.TargetExcessRisk > 0 && o.Training.EpochCount() > 1 {
		return field.New("target_excess_risk", o.TargetExcessRisk, "needs a utility bound, and there is none for several passes (seed 002 bounds a single pass over i.i.d. data, Thm 28)")
	}
	return nil
}

// EtaRule returns the step size for σ with n private people and how it was
// chosen: Training.Loss.Eta when fixed, else the theorem's
// η = c·R/√(S(L² + dσ²)) (package shifted: Thm 32 for several Stop tasks,
// Thm 29 for Stop, Cor 31 with public records, Thm 30 otherwise, and for
// several passes Thm 28 with T = S, whose η is Thm 29's), lowered to 2/β
// when β is given and the rule exceeds it (the step must contract, Prop. 18).
func (o Options) EtaRule(n int64, sigma float64) (eta float64, rule string, paper bool) {
	l := o.Training.Loss
	if l.Eta > 0 {
		return l.Eta, "fixed (given)", false
	}
	th := o.theorem()
	src := th.String() + ": " + th.EtaFormula()
	if o.Training.EpochCount() > 1 {
		th = shifted.Thm29
		src = "FMTT18 Thm 28 with T = S steps: " + th.EtaFormula()
	}
	eta = th.Eta(o.utilityParams(n, sigma))
	if l.Smoothness > 0 && eta > 2/l.Smoothness {
		return 2 / l.Smoothness, src + fmt.Sprintf(" = %.6g exceeds 2/β; lowered to 2/β so the step contracts (Prop. 18)", eta), false
	}
	return eta, src, true
}

// Guarantee returns the per-person guarantee of the run with n private
// people (positions 1..n) at noise σ (Training.Guarantee), and the step
// size it uses.
func (o Options) Guarantee(n int64, sigma float64) (shifted.PerPerson, float64, error) {
	eta, _, _ := o.EtaRule(n, sigma)
	g, err := o.run(n, sigma, eta).Guarantee()
	return g, eta, err
}

// Name describes the run in words (Training.Name).
func (o Options) Name() string { return o.Training.Name() }
