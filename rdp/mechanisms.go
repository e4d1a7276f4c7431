package rdp

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// Gaussian returns the RDP curve of the Gaussian mechanism with ℓ2-sensitivity
// Δ and noise standard deviation σ: ε(α) = αΔ²/(2σ²) (Mironov 2017, Prop. 7).
// It is exact: D_α(N(0, σ²I) ‖ N(Δu, σ²I)) equals it for a unit vector u.
func Gaussian(sensitivity, sigma float64) Linear {
	return Linear(sensitivity * sensitivity / (2 * sigma * sigma))
}

// Laplace is the RDP curve of the Laplace mechanism with scale b and
// sensitivity 1 (Mironov 2017, Prop. 6, Table II):
//
//	ε(α) = 1/(α−1) · ln( α/(2α−1)·e^{(α−1)/b} + (α−1)/(2α−1)·e^{−α/b} ),
//
// and ε(∞) = 1/b. For sensitivity Δ use scale b/Δ.
type Laplace struct{ Scale float64 }

// Epsilon evaluates the curve in log space.
func (l Laplace) Epsilon(alpha float64) float64 {
	b := l.Scale
	if math.IsInf(alpha, 1) {
		return 1 / b
	}
	if alpha == 1 { // the limit: KL divergence, 1/b + e^{−1/b} − 1
		return 1/b + math.Expm1(-1/b)
	}
	a := alpha
	t1 := math.Log(a/(2*a-1)) + (a-1)/b
	t2 := math.Log((a-1)/(2*a-1)) - a/b
	return math.Min(numeric.LogAdd(t1, t2)/(a-1), 1/b)
}

// PureDP is the tight RDP curve of an ε-DP mechanism: that of binary
// randomized response with p = e^ε/(1+e^ε),
//
//	ε(α) = 1/(α−1) · ln( p^α(1−p)^{1−α} + (1−p)^α p^{1−α} ),
//
// which bounds D_α for every pair of distributions whose likelihood ratio lies
// in [e^{−ε}, e^ε] (the pair is a post-processing of randomized response by
// Kairouz–Oh–Viswanath 2015, Thm 2.3, and D_α satisfies the data-processing
// inequality). It is below both ε and αε²/2 (Bun–Steinke 2016, Prop. 3.3).
type PureDP struct{ Eps float64 }

// Epsilon evaluates the curve in log space.
func (p PureDP) Epsilon(alpha float64) float64 {
	e := p.Eps
	if e == 0 {
		return 0
	}
	if math.IsInf(alpha, 1) || math.IsInf(e, 1) {
		return e
	}
	logP := -softplus(-e)  // ln(e^ε/(1+e^ε))
	log1mP := -softplus(e) // ln(1/(1+e^ε))
	if alpha == 1 {
		// KL(RR_p ‖ RR_{1−p}) = (2p−1)ε
		return math.Tanh(e/2) * e
	}
	v := numeric.LogAdd(alpha*e+log1mP, logP-alpha*e) / (alpha - 1)
	return math.Min(v, e)
}

func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// RandomizedResponse returns the RDP curve of binary randomized response that
// reports the true bit with probability p ∈ [1/2, 1): an ε-DP mechanism with
// ε = ln(p/(1−p)), whose curve PureDP gives exactly.
func RandomizedResponse(p float64) PureDP {
	return PureDP{Eps: math.Log(p) - math.Log1p(-p)}
}
