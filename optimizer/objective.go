package optimizer

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// Objective is the per-example objective of a generalised linear model with
// an optional ℓ2 term,
//
//	f(w; x, y) = φ(⟨w, x⟩, y) + (L2/2)·‖w‖²,
//
// convex in w, and L2-strongly convex when L2 > 0.
type Objective struct {
	Loss Loss
	L2   float64 // weight m of the ℓ2 term (strong convexity), ≥ 0
}

// Value returns f(w; x, y).
func (o Objective) Value(w, x []float64, y float64) float64 {
	v := o.Loss.Phi(dot(w, x), y)
	if o.L2 != 0 {
		v += 0.5 * o.L2 * dot(w, w)
	}
	return v
}

// Grad writes ∇_w f(w; x, y) into dst.
func (o Objective) Grad(dst, w, x []float64, y float64) {
	a := o.Loss.Deriv(dot(w, x), y)
	for i := range dst {
		dst[i] = a*x[i] + o.L2*w[i]
	}
}

// Name is the loss name, with the ℓ2 term when there is one.
func (o Objective) Name() string {
	if _, ok := o.Loss.(LinearLoss); ok && o.L2 == 1 {
		return "quadratic"
	}
	if o.L2 > 0 {
		return o.Loss.Name() + "+l2"
	}
	return o.Loss.Name()
}

// Constants are the constants the theorems of seed 002 assume, computed on
// the domain K = {‖w‖ ≤ R} for data with ‖x‖ ≤ X and |y| ≤ Y.
type Constants struct {
	// L bounds ‖∇f(w; x, y)‖ over K and the data (Lipschitz constant).
	L float64
	// Beta bounds the smoothness: ∇f is Beta-Lipschitz on K.
	Beta float64
	// M is the strong convexity (the ℓ2 weight; 0 if none).
	M float64
	// Sens is half the largest change of the gradient at a fixed w when one
	// example is replaced: sup ‖∇f(w; x, y) − ∇f(w; x', y')‖/2 ≤ L. The ℓ2
	// term is the same for both neighbours and cancels, so Sens = X·sup|φ'|.
	// The privacy analysis (Thm 22: s_t = sup‖ψ_t − ψ'_t‖ = 2η·Sens/b) only
	// needs Sens; Thm 23 states it with L ≥ Sens.
	Sens float64
	// X, Y, R are the data and domain bounds the constants were computed for.
	X, Y, R float64
}

// Constants returns L, β, m and the sensitivity on the ball of radius R
// (R = +Inf: no projection) for features with ‖x‖ ≤ X and labels |y| ≤ Y.
func (o Objective) Constants(X, Y, R float64) Constants {
	U := X * R
	if X == 0 {
		U = 0
	}
	d1, d2 := o.Loss.Bounds(U, Y)
	c := Constants{M: o.L2, X: X, Y: Y, R: R}
	c.Sens = X * d1
	c.L = c.Sens
	if o.L2 > 0 {
		c.L += o.L2 * R
	}
	c.Beta = X*X*d2 + o.L2
	if math.IsNaN(c.L) {
		c.L = math.Inf(1)
	}
	if math.IsNaN(c.Beta) {
		c.Beta = math.Inf(1)
	}
	return c
}

// Contraction is the Lipschitz constant of the gradient step
// w ↦ w − η∇f(w) for an m-strongly convex β-smooth f:
// max(|1 − ηm|, |1 − ηβ|) (seed 002 Prop. 18 for m = 0; docs/amplification.md#contraction-factor-below-one).
// It is ≤ 1 exactly when η ≤ 2/β.
func (c Constants) Contraction(eta float64) float64 {
	return math.Max(math.Abs(1-eta*c.M), math.Abs(1-eta*c.Beta))
}

// dot and norm are numeric.Dot and numeric.Norm: one summation order for
// every package.
func dot(a, b []float64) float64 { return numeric.Dot(a, b) }
func norm(a []float64) float64   { return numeric.Norm(a) }

// projectBall projects w onto {‖w‖ ≤ R} in place (Π_K, 1-Lipschitz: seed 002
// Prop. 17) given ss = ‖w‖², and returns the new ‖w‖².
func projectBall(w []float64, ss, R float64) float64 {
	if math.IsInf(R, 1) || ss <= R*R {
		return ss
	}
	s := R / math.Sqrt(ss)
	for i := range w {
		w[i] *= s
	}
	return R * R
}
