package shifted

import (
	"fmt"
	"math"
)

// Loss records what is known about the loss family {f(·, x)} and the step
// size. Zero values of Smoothness and Eta mean "not given": the analysis then
// assumes η ≤ 2/β without checking it, and says so in Assumptions.
type Loss struct {
	// Lipschitz is L > 0: ‖∇f(w, x)‖ ≤ L for all w in the domain and all x.
	Lipschitz float64 `json:"lipschitz"`
	// Smoothness is β: ∇f(·, x) is β-Lipschitz. 0: not given.
	Smoothness float64 `json:"smoothness"`
	// StrongConvexity is m ≥ 0: f(·, x) is m-strongly convex (0: convex).
	StrongConvexity float64 `json:"strong_convexity"`
	// Eta is the step size η > 0. 0: not given.
	Eta float64 `json:"eta"`
}

func finitePositive(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || !(v > 0) {
		return fmt.Errorf("%s must be a finite number > 0, got %v", name, v)
	}
	return nil
}

func finiteNonNegative(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%s must be a finite number ≥ 0, got %v", name, v)
	}
	return nil
}

// Check returns a descriptive error when the loss parameters are invalid or
// the gradient step is not a contraction (η > 2/β, FMTT18 Prop. 18).
func (l Loss) Check() error {
	if err := finitePositive("Lipschitz constant L", l.Lipschitz); err != nil {
		return err
	}
	if err := finiteNonNegative("smoothness β", l.Smoothness); err != nil {
		return err
	}
	if err := finiteNonNegative("strong convexity m", l.StrongConvexity); err != nil {
		return err
	}
	if err := finiteNonNegative("step size η", l.Eta); err != nil {
		return err
	}
	if l.StrongConvexity > 0 && (l.Smoothness == 0 || l.Eta == 0) {
		return fmt.Errorf("strong convexity m = %v needs the smoothness β and the step size η to give the contraction max(|1 − ηm|, |1 − ηβ|)", l.StrongConvexity)
	}
	if l.Smoothness > 0 && l.StrongConvexity > l.Smoothness {
		return fmt.Errorf("strong convexity m = %v exceeds the smoothness β = %v; no function is both", l.StrongConvexity, l.Smoothness)
	}
	if l.Smoothness > 0 && l.Eta > 0 && l.Eta*l.Smoothness > 2 {
		return fmt.Errorf("step size η = %v > 2/β = %v: the gradient step is not a contraction (FMTT18 Prop. 18 needs η ≤ 2/β), so amplification by iteration does not apply", l.Eta, 2/l.Smoothness)
	}
	return nil
}

// LogContraction returns ln c for the gradient step's Lipschitz constant
// c = max(|1 − ηm|, |1 − ηβ|) (docs/amplification.md#contraction-factor-below-one), computed with log1p so that c
// near 1 keeps its precision; 0 (c = 1) when m = 0 or η, β are not given.
// It assumes Check passed. The result is −Inf when c = 0.
func (l Loss) LogContraction() float64 {
	if l.StrongConvexity == 0 || l.Eta == 0 || l.Smoothness == 0 {
		return 0
	}
	return math.Max(logAbs1m(l.Eta*l.StrongConvexity), logAbs1m(l.Eta*l.Smoothness))
}

// logAbs1m returns ln |1 − x| for x ∈ [0, 2].
func logAbs1m(x float64) float64 {
	if x <= 1 {
		return math.Log1p(-x)
	}
	return math.Log(x - 1)
}

// Contraction returns c = exp(LogContraction()).
func (l Loss) Contraction() float64 { return math.Exp(l.LogContraction()) }

// assumptions lists what the contraction analysis relies on.
func (l Loss) assumptions() []string {
	out := []string{
		fmt.Sprintf("f(·, x) convex and L-Lipschitz with L = %v for every record x (gradients bounded by L)", l.Lipschitz),
		"projection (if any) onto a convex set: 1-Lipschitz (FMTT18 Prop. 17)",
	}
	switch {
	case l.Smoothness > 0 && l.Eta > 0:
		out = append(out, fmt.Sprintf("f(·, x) β-smooth with β = %v and η = %v ≤ 2/β = %v (checked): the gradient step contracts (Prop. 18)", l.Smoothness, l.Eta, 2/l.Smoothness))
	case l.Smoothness > 0:
		out = append(out, fmt.Sprintf("f(·, x) β-smooth with β = %v and step size η ≤ 2/β = %v (assumed, not checked: give η)", l.Smoothness, 2/l.Smoothness))
	default:
		out = append(out, "f(·, x) β-smooth and step size η ≤ 2/β (assumed, not checked: give β and η)")
	}
	if l.StrongConvexity > 0 {
		out = append(out, fmt.Sprintf("f(·, x) m-strongly convex with m = %v: each step is c-Lipschitz with c = max(|1 − ηm|, |1 − ηβ|) = %.10g (derivation: docs/amplification.md §Contraction factor below one)", l.StrongConvexity, l.Contraction()))
	}
	return out
}
