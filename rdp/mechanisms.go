package rdp

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// Gaussian returns the RDP curve of the Gaussian mechanism with ℓ2-sensitivity
// Δ and noise standard deviation σ: ε(α) = αΔ²/(2σ²) (Mironov 2017, Prop. 7),
// with ρ = Δ²/(2σ²) rounded up. It is exact: D_α(N(0, σ²I) ‖ N(Δu, σ²I))
// equals it for a unit vector u.
func Gaussian(sensitivity, sigma float64) Linear {
	s2 := mulDown(sigma, sigma)
	if !(s2 > 0) && sensitivity != 0 {
		// σ² underflows (σ below 1.5e-154): its lower bound is 0 or even
		// negative, and ρ = Δ²/(2σ²) is +∞ (issue 23: the zCDP row printed −∞).
		return Linear(math.Inf(1))
	}
	return Linear(numeric.DivUp(numeric.MulUp(sensitivity, sensitivity), 2*s2))
}

// Laplace is the RDP curve of the Laplace mechanism with scale b and
// sensitivity 1 (Mironov 2017, Prop. 6, Table II):
//
//	ε(α) = 1/(α−1) · ln( α/(2α−1)·e^{(α−1)/b} + (α−1)/(2α−1)·e^{−α/b} ),
//
// and ε(∞) = 1/b. For sensitivity Δ use scale b/Δ.
type Laplace struct{ Scale float64 }

// Epsilon evaluates the curve in log space, rounded up (every step's
// rounding error bounded and added).
func (l Laplace) Epsilon(alpha float64) float64 {
	b := numeric.Exact(l.Scale)
	inv := numeric.DivUp(1, l.Scale)
	if math.IsInf(alpha, 1) {
		return inv
	}
	one := numeric.Exact(1)
	if alpha == 1 { // the limit: KL divergence, 1/b + e^{−1/b} − 1
		r := one.Div(b)
		return r.Add(r.Neg().Expm1()).Up()
	}
	a := numeric.Exact(alpha)
	am1 := minusOne(alpha)
	den := a.Scale(2).Sub(one)
	t1 := a.Div(den).Log().Add(am1.Div(b))
	t2 := am1.Div(den).Log().Sub(a.Div(b))
	return math.Min(logAdd(t1, t2).Div(am1).Up(), inv)
}

// logAdd returns ln(e^a + e^b) with its error.
func logAdd(a, b numeric.Approx) numeric.Approx {
	if a.V < b.V {
		a, b = b, a
	}
	if math.IsInf(b.V, -1) {
		return a
	}
	return a.Add(b.Sub(a).Exp().Log1p())
}

// softplus returns ln(1 + e^x) with its error.
func softplus(x numeric.Approx) numeric.Approx {
	if x.V > 0 {
		return x.Add(x.Neg().Exp().Log1p())
	}
	return x.Exp().Log1p()
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

// Epsilon evaluates the curve in log space, rounded up (every step's
// rounding error bounded and added).
func (p PureDP) Epsilon(alpha float64) float64 {
	e := p.Eps
	if e == 0 {
		return 0
	}
	if math.IsInf(alpha, 1) || math.IsInf(e, 1) {
		return e
	}
	E := numeric.Exact(e)
	if alpha == 1 {
		// KL(RR_p ‖ RR_{1−p}) = (2p−1)ε = tanh(ε/2)·ε, with
		// tanh(ε/2) = −expm1(−ε)/(1 + e^{−ε})
		th := E.Neg().Expm1().Neg().Div(numeric.Exact(1).Add(E.Neg().Exp()))
		return math.Min(th.Mul(E).Up(), e)
	}
	am1 := minusOne(alpha)
	y := am1.Mul(E) // ε(α−1)
	if y.V < 700 {
		// p^α(1−p)^{1−α} + (1−p)^α p^{1−α} = p e^y + (1−p) e^{−y}
		// = 1 + 2sinh²(y/2) + tanh(ε/2)·sinh(y): positive terms only, so
		// no cancellation at small ε(α−1).
		s2 := sinh(y.Scale(0.5))
		th := E.Expm1().Div(E.Exp().Add(numeric.Exact(1)))
		x := s2.Mul(s2).Scale(2).Add(th.Mul(sinh(y)))
		return math.Min(x.Log1p().Div(am1).Up(), e)
	}
	logP := softplus(E.Neg()).Neg() // ln(e^ε/(1+e^ε))
	log1mP := softplus(E).Neg()     // ln(1/(1+e^ε))
	ae := numeric.Exact(alpha).Mul(E)
	v := logAdd(ae.Add(log1mP), logP.Sub(ae)).Div(am1)
	return math.Min(v.Up(), e)
}

// sinh returns sinh(y) = (expm1(y) − expm1(−y))/2 for y ≥ 0, a sum of two
// non-negative terms.
func sinh(y numeric.Approx) numeric.Approx {
	return y.Expm1().Sub(y.Neg().Expm1()).Scale(0.5)
}

// RandomizedResponse returns the RDP curve of binary randomized response that
// reports the true bit with probability p ∈ [1/2, 1): an ε-DP mechanism with
// ε = ln(p/(1−p)), whose curve PureDP gives exactly.
func RandomizedResponse(p float64) PureDP {
	return PureDP{Eps: math.Log(p) - math.Log1p(-p)}
}
