package optimizer

import (
	"fmt"
	"math"
	"strings"
)

// Loss is the scalar part of a generalised linear model: the per-example
// objective is φ(⟨w, x⟩, y) (+ an optional ℓ2 term, see Objective). Every loss
// here is convex in its first argument.
type Loss interface {
	// Name is the command-line name of the loss.
	Name() string
	// Phi is φ(u, y).
	Phi(u, y float64) float64
	// Deriv is ∂φ/∂u at (u, y).
	Deriv(u, y float64) float64
	// Deriv2 is ∂²φ/∂u² at (u, y) (one-sided where φ' has a kink).
	Deriv2(u, y float64) float64
	// Bounds returns sup |∂φ/∂u| and sup ∂²φ/∂u² over |u| ≤ U and |y| ≤ Y, the
	// two numbers the Lipschitz constant and the smoothness on the domain
	// follow from. d2 may be +Inf (no smoothness).
	Bounds(U, Y float64) (d1, d2 float64)
	// Classification reports whether labels must be ±1 (a CSV label in {0, 1}
	// is mapped to {−1, +1}).
	Classification() bool
}

// Logistic is the logistic loss ln(1 + e^{−yu}) for labels y ∈ {−1, +1}.
// |φ'| = 1/(1 + e^{yu}) ≤ 1/(1 + e^{−U}) and ∂²φ ≤ 1/4.
type Logistic struct{}

// Name implements Loss.
func (Logistic) Name() string { return "logistic" }

// Phi implements Loss.
func (Logistic) Phi(u, y float64) float64 { return softplus(-y * u) }

// Deriv implements Loss.
func (Logistic) Deriv(u, y float64) float64 { return -y * sigmoid(-y*u) }

// Deriv2 implements Loss.
func (Logistic) Deriv2(u, y float64) float64 { s := sigmoid(y * u); return s * (1 - s) }

// Bounds implements Loss.
func (Logistic) Bounds(U, Y float64) (float64, float64) {
	d2 := 0.25
	if U < 1e-8 {
		return 0.5, d2
	}
	// ∂²φ = s(1−s) with s = sigmoid(yu) is ≤ 1/4 everywhere.
	return sigmoid(U), d2
}

// Classification implements Loss.
func (Logistic) Classification() bool { return true }

// LeastSquares is ½(u − y)² with labels bounded by |y| ≤ Y: |φ'| ≤ U + Y, ∂²φ = 1.
type LeastSquares struct{}

// Name implements Loss.
func (LeastSquares) Name() string { return "squared" }

// Phi implements Loss.
func (LeastSquares) Phi(u, y float64) float64 { r := u - y; return 0.5 * r * r }

// Deriv implements Loss.
func (LeastSquares) Deriv(u, y float64) float64 { return u - y }

// Deriv2 implements Loss.
func (LeastSquares) Deriv2(u, y float64) float64 { return 1 }

// Bounds implements Loss.
func (LeastSquares) Bounds(U, Y float64) (float64, float64) { return U + Y, 1 }

// Classification implements Loss.
func (LeastSquares) Classification() bool { return false }

// Huber is the Huber loss of the residual r = u − y with threshold Delta:
// r²/2 for |r| ≤ Δ, Δ(|r| − Δ/2) beyond. |φ'| ≤ min(Δ, U + Y), ∂²φ ≤ 1.
type Huber struct{ Delta float64 }

// Name implements Loss.
func (Huber) Name() string { return "huber" }

// Phi implements Loss.
func (h Huber) Phi(u, y float64) float64 {
	r := math.Abs(u - y)
	if r <= h.Delta {
		return 0.5 * r * r
	}
	return h.Delta * (r - 0.5*h.Delta)
}

// Deriv implements Loss.
func (h Huber) Deriv(u, y float64) float64 {
	r := u - y
	switch {
	case r > h.Delta:
		return h.Delta
	case r < -h.Delta:
		return -h.Delta
	}
	return r
}

// Deriv2 implements Loss.
func (h Huber) Deriv2(u, y float64) float64 {
	if math.Abs(u-y) <= h.Delta {
		return 1
	}
	return 0
}

// Bounds implements Loss.
func (h Huber) Bounds(U, Y float64) (float64, float64) {
	d2 := 1.0
	if U+Y <= 0 {
		d2 = 0
	}
	return math.Min(h.Delta, U+Y), d2
}

// Classification implements Loss.
func (Huber) Classification() bool { return false }

// SmoothHinge is the hinge loss max(0, 1 − yu) convolved with a
// one-dimensional Gaussian N(0, λ²) (seed 002 §5.5: for a GLM it suffices to
// smooth ℓ in one dimension). With r = 1 − yu:
//
//	φ(u, y) = r·Φ(r/λ) + λ·ϕ(r/λ),  ∂φ/∂u = −y·Φ(r/λ),  ∂²φ/∂u² = ϕ(r/λ)/λ,
//
// so |φ'| ≤ 1 and ∂²φ ≤ 1/(λ√(2π)) — a factor √(2π) better than the general
// L/λ of Theorem 33 (whose proof uses Pinsker's inequality), because the
// total-variation distance of two 1-D Gaussians is known exactly. The
// approximation error is 0 ≤ φ − hinge ≤ λ/√(2π) (at r = 0), versus Lλ√d in
// Theorem 33.
type SmoothHinge struct{ Lambda float64 }

// Name implements Loss.
func (SmoothHinge) Name() string { return "smooth-hinge" }

// Phi implements Loss.
func (s SmoothHinge) Phi(u, y float64) float64 {
	r := 1 - y*u
	z := r / s.Lambda
	return r*stdPhi(z) + s.Lambda*stdPdf(z)
}

// Deriv implements Loss.
func (s SmoothHinge) Deriv(u, y float64) float64 {
	return -y * stdPhi((1-y*u)/s.Lambda)
}

// Deriv2 implements Loss.
func (s SmoothHinge) Deriv2(u, y float64) float64 {
	return stdPdf((1-y*u)/s.Lambda) / s.Lambda
}

// Bounds implements Loss.
func (s SmoothHinge) Bounds(U, Y float64) (float64, float64) {
	return stdPhi((1 + U) / s.Lambda), 1 / (s.Lambda * math.Sqrt(2*math.Pi))
}

// Classification implements Loss.
func (SmoothHinge) Classification() bool { return true }

// ApproxError is sup |φ − hinge| = λ/√(2π).
func (s SmoothHinge) ApproxError() float64 { return s.Lambda / math.Sqrt(2*math.Pi) }

// LinearLoss is φ(u, y) = −u (y is ignored): with an ℓ2 term of weight 1 it
// is the quadratic ½‖w − x‖² up to a constant, the exactly solvable case of
// docs/amplification.md#exact-gaussian-cases. Its gradient −x does not depend on w.
type LinearLoss struct{}

// Name implements Loss.
func (LinearLoss) Name() string { return "linear" }

// Phi implements Loss.
func (LinearLoss) Phi(u, y float64) float64 { return -u }

// Deriv implements Loss.
func (LinearLoss) Deriv(u, y float64) float64 { return -1 }

// Deriv2 implements Loss.
func (LinearLoss) Deriv2(u, y float64) float64 { return 0 }

// Bounds implements Loss.
func (LinearLoss) Bounds(U, Y float64) (float64, float64) { return 1, 0 }

// Classification implements Loss.
func (LinearLoss) Classification() bool { return false }

// LossNames lists the names ParseLoss accepts.
var LossNames = []string{"logistic", "squared", "huber", "smooth-hinge", "quadratic", "linear"}

// ParseLoss returns the loss called name. param is Huber's Δ or the smoothing
// λ of smooth-hinge (ignored otherwise). "quadratic" returns the linear loss
// and l2 = 1, so that the objective is ½‖w − x‖² + const.
func ParseLoss(name string, param float64) (loss Loss, l2 float64, err error) {
	switch strings.ToLower(name) {
	case "logistic":
		return Logistic{}, 0, nil
	case "squared", "least-squares", "leastsquares":
		return LeastSquares{}, 0, nil
	case "huber":
		if !(param > 0) || math.IsInf(param, 0) {
			return nil, 0, fmt.Errorf("huber threshold must be finite and > 0, got %v", param)
		}
		return Huber{Delta: param}, 0, nil
	case "smooth-hinge", "hinge":
		if !(param > 0) || math.IsInf(param, 0) {
			return nil, 0, fmt.Errorf("smoothing λ must be finite and > 0, got %v", param)
		}
		return SmoothHinge{Lambda: param}, 0, nil
	case "quadratic":
		return LinearLoss{}, 1, nil
	case "linear":
		return LinearLoss{}, 0, nil
	}
	return nil, 0, fmt.Errorf("unknown loss %q (allowed: %s)", name, strings.Join(LossNames, ", "))
}

func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

func stdPhi(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

func stdPdf(z float64) float64 { return math.Exp(-0.5*z*z) / math.Sqrt(2*math.Pi) }

// isLinear reports whether l is the linear loss (whose labels are ignored).
func isLinear(l Loss) bool { _, ok := l.(LinearLoss); return ok }
