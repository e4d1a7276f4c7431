package rdp

import (
	"errors"
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// Conversion names a theorem that turns an RDP point (α, ε(α)) into (ε, δ)-DP.
type Conversion int

const (
	// Improved is the conversion of Canonne, Kamath, Steinke 2020, Prop. 12
	// (equivalently Asoodeh et al. 2020): ε = ε(α) + ln(1 − 1/α) − (ln δ + ln α)/(α − 1).
	// It is never worse than Classic and is privamp's default.
	Improved Conversion = iota
	// Classic is Mironov 2017, Prop. 3: ε = ε(α) + ln(1/δ)/(α − 1).
	Classic
)

// String returns a short name.
func (c Conversion) String() string {
	if c == Classic {
		return "classic"
	}
	return "improved"
}

// Source returns the citation for the conversion.
func (c Conversion) Source() string {
	if c == Classic {
		return "Mironov 2017, Prop. 3"
	}
	return "Canonne–Kamath–Steinke 2020, Prop. 12"
}

// ParseConversion accepts "improved" or "classic".
func ParseConversion(s string) (Conversion, error) {
	switch s {
	case "improved", "":
		return Improved, nil
	case "classic":
		return Classic, nil
	}
	return 0, fmt.Errorf("unknown conversion %q (allowed: improved, classic)", s)
}

// PointEpsilon returns the ε of the (ε, δ)-DP guarantee implied by
// (α, rdpEps)-RDP, clamped at 0. At α = +Inf it returns rdpEps (pure DP,
// any δ ≥ 0). It returns +Inf when rdpEps is +Inf.
//
// The result is an upper bound on the exact real value of the conversion at
// this α, δ and rdpEps: every term carries a bound on its rounding error
// (numeric.Approx), which is added before rounding up. Each term is
// written so that it has no cancellation of its own: ln(1 − 1/α) as
// ln((α−1)/α) for α ≤ 2 (α − 1 is exact there) and log1p(−1/α) above,
// ln(1/δ) by numeric.Log, which is right for subnormal δ.
func PointEpsilon(alpha, rdpEps, delta float64, conv Conversion) float64 {
	if math.IsInf(alpha, 1) || math.IsInf(rdpEps, 1) {
		return rdpEps
	}
	if !(alpha > 1) { // no conversion at α ≤ 1 (and 1 + tiny may round to 1)
		return math.Inf(1)
	}
	e := numeric.Exact(rdpEps).Add(conversionTerms(alpha, logInv(delta), conv))
	if math.IsNaN(e.V) {
		return math.Inf(1)
	}
	return math.Max(e.Up(), 0)
}

// logInv returns ln(1/δ) with its error, right for subnormal δ.
func logInv(delta float64) numeric.Approx {
	l := -numeric.Log(delta)
	return numeric.Approx{V: l, E: numeric.ErrLog * math.Abs(l)}
}

// minusOne returns α − 1 with its error: exact for α < 2^53 (Sterbenz below
// α = 2, integers-plus-fraction above), one ulp of α beyond.
func minusOne(alpha float64) numeric.Approx {
	v := alpha - 1
	if alpha < 0x1p53 {
		return numeric.Exact(v)
	}
	return numeric.Approx{V: v, E: 2 * numeric.U * alpha}
}

// conversionTerms returns what a conversion adds to ε(α), with its error:
// ln(1/δ)/(α−1) (Classic) or ln(1 − 1/α) + (ln(1/δ) − ln α)/(α−1) (Improved).
func conversionTerms(alpha float64, L numeric.Approx, conv Conversion) numeric.Approx {
	am1 := minusOne(alpha)
	if conv == Classic {
		return L.Div(am1)
	}
	a := numeric.Exact(alpha)
	var t2 numeric.Approx
	if alpha <= 2 {
		t2 = am1.Div(a).Log() // ln((α−1)/α)
	} else {
		t2 = numeric.Exact(1).Div(a).Neg().Log1p() // log1p(−1/α), 1/α ≤ 1/2
	}
	return t2.Add(L.Sub(a.Log()).Div(am1))
}

// PointLogDelta returns ln δ of the (eps, δ)-DP guarantee implied by
// (α, rdpEps)-RDP, capped at 0 (δ ≤ 1 always holds). For the improved
// conversion it also uses δ ≤ √(1 − e^{−ε(α)}), from total variation ≤
// √(1 − e^{−KL}) (Bretagnolle–Huber) and KL ≤ D_α, which helps at small α.
func PointLogDelta(alpha, rdpEps, eps float64, conv Conversion) float64 {
	if math.IsInf(rdpEps, 1) {
		return 0
	}
	if math.IsInf(alpha, 1) {
		if rdpEps <= eps {
			return math.Inf(-1)
		}
		return 0
	}
	ld := pointLogDeltaRaw(alpha, rdpEps, eps, conv)
	if conv == Improved {
		ld = math.Min(ld, logDeltaKL(rdpEps))
	}
	return math.Min(ld, 0)
}

// logDeltaKL is ln √(1 − e^{−ε(α)}): total variation is at most
// √(1 − e^{−KL}) (Bretagnolle–Huber) and KL ≤ D_α, so every (ε ≥ 0, δ)
// guarantee holds with this δ. It is smallest at the smallest order. The
// value is rounded up (its evaluation error added).
func logDeltaKL(rdpEps float64) float64 {
	if rdpEps <= 0 {
		return math.Inf(-1)
	}
	x := numeric.Exact(-rdpEps)
	var l numeric.Approx
	if rdpEps < math.Ln2 {
		l = x.Expm1().Neg().Log() // ln(−expm1(−ε))
	} else {
		l = x.Exp().Neg().Log1p() // log1p(−e^{−ε})
	}
	return l.Scale(0.5).Up()
}

// pointLogDeltaRaw is the conversion alone, without the cap at δ = 1 and the
// KL bound, both of which are flat in α and would hide the optimum from a
// search over α. It is rounded up: an upper bound on the exact ln δ.
func pointLogDeltaRaw(alpha, rdpEps, eps float64, conv Conversion) float64 {
	if math.IsInf(rdpEps, 1) || !(alpha > 1) {
		return math.Inf(1)
	}
	if math.IsInf(alpha, 1) {
		if rdpEps <= eps {
			return math.Inf(-1)
		}
		return 0
	}
	am1 := minusOne(alpha)
	d := numeric.Exact(rdpEps).Sub(numeric.Exact(eps))
	if conv == Classic {
		return am1.Mul(d).Up()
	}
	a := numeric.Exact(alpha)
	var t2 numeric.Approx
	if alpha <= 2 {
		t2 = am1.Div(a).Log()
	} else {
		t2 = numeric.Exact(1).Div(a).Neg().Log1p()
	}
	ld := am1.Mul(d.Add(t2)).Sub(a.Log())
	if math.IsNaN(ld.V) {
		return math.Inf(1)
	}
	return ld.Up()
}

// DP is an (ε, δ)-DP guarantee derived from an RDP curve at one order.
type DP struct {
	Epsilon    float64 // +Inf: no finite guarantee
	Delta      float64
	Order      float64 // the order α at which the bound was attained; +Inf for pure DP
	Conversion Conversion
	// TotalVariation is set when ε = 0 was certified by the KL bound on
	// total variation (KLZero) rather than by the conversion.
	TotalVariation bool
}

// ErrDelta is returned for δ outside (0, 1).
var ErrDelta = errors.New("delta must be in (0, 1)")

// EpsilonFor returns the smallest ε such that c implies (ε, δ)-DP under conv,
// optimised over α. For analytic curves it scans DefaultOrders (and α = ∞),
// then refines by golden-section search on ln α between the neighbours of the
// best grid order, so the optimum is over continuous α. Gridded curves are
// optimised over their own orders. Every candidate is a valid bound.
//
// Under Improved it first tries ε = 0 by total variation, as DeltaFor does:
// δ(0) is the total variation distance, at most √(1 − e^{−KL})
// (Bretagnolle–Huber), and KL ≤ D_α for every α > 1 (van Erven–Harremoës
// 2014, Thm 3), so c implies (0, δ)-DP when √(1 − e^{−ε(α)}) ≤ δ at the
// smallest order available (see KLZero). dp_accounting's RDP accountant
// does the same (rdp_privacy_accountant.py, compute_epsilon: ε = 0 when
// δ² + expm1(−ε(α)) > 0); without it tiny ε stays positive where the truth
// and the PLD are 0.
func EpsilonFor(c Curve, delta float64, conv Conversion) (DP, error) {
	if !(delta > 0 && delta < 1) {
		return DP{}, ErrDelta
	}
	if conv == Improved {
		if a, ok := KLZero(c, delta); ok {
			return DP{Epsilon: 0, Delta: delta, Order: a, Conversion: conv, TotalVariation: true}, nil
		}
	}
	if l, ok := c.(Linear); ok {
		e, a := LinearEpsilon(float64(l), delta, conv)
		return DP{Epsilon: e, Delta: delta, Order: a, Conversion: conv}, nil
	}
	f := func(a float64) float64 { return PointEpsilon(a, c.Epsilon(a), delta, conv) }
	a, e := optimizeOrder(c, f)
	return DP{Epsilon: e, Delta: delta, Order: a, Conversion: conv}, nil
}

// DeltaFor returns the smallest δ such that c implies (eps, δ)-DP under conv,
// optimised over α as in EpsilonFor. eps must be ≥ 0.
func DeltaFor(c Curve, eps float64, conv Conversion) (DP, error) {
	if !(eps >= 0) || math.IsInf(eps, 1) {
		return DP{}, errors.New("epsilon must be finite and ≥ 0")
	}
	f := func(a float64) float64 { return pointLogDeltaRaw(a, c.Epsilon(a), eps, conv) }
	a, ld := optimizeOrder(c, f)
	if conv == Improved {
		// The KL bound is best at the smallest order available.
		low := klOrder(c)
		if kl := logDeltaKL(c.Epsilon(low)); kl < ld {
			a, ld = low, kl
		}
	}
	return DP{Epsilon: eps, Delta: math.Min(numeric.ExpUp(math.Min(ld, 0)), 1), Order: a, Conversion: conv}, nil
}

// klOrder is the order at which the KL bound of DeltaFor and EpsilonFor is
// evaluated: the smallest of a gridded curve, 1.0001 for analytic ones
// (D_α is non-decreasing in α, so the smallest order gives the best bound
// on KL = lim_{α→1} D_α).
func klOrder(c Curve) float64 {
	if g, ok := c.(Gridded); ok {
		return g.Orders()[0]
	}
	return 1.0001
}

// KLZero reports whether c implies (0, δ)-DP by total variation: the total
// variation distance, which is δ(0), is at most √(1 − e^{−KL})
// (Bretagnolle–Huber 1979; Canonne 2022, "A short note on an inequality
// between KL and TV"), and KL ≤ D_α for α > 1 (van Erven–Harremoës 2014,
// Thm 3). It returns the order used. The test is sound in floating point:
// logDeltaKL is an upper bound on ln √(1 − e^{−ε(α)}) and it is compared with
// a lower bound on ln δ.
func KLZero(c Curve, delta float64) (order float64, ok bool) {
	if !(delta > 0 && delta < 1) {
		return 0, false
	}
	a := klOrder(c)
	kl := logDeltaKL(c.Epsilon(a))
	return a, kl <= -numeric.NegLogUp(delta)
}

// optimizeOrder minimises f over the curve's orders (and α = ∞), refining
// continuously for analytic curves. It returns (+Inf, +Inf) if f is +Inf
// everywhere.
func optimizeOrder(c Curve, f func(float64) float64) (bestA, bestF float64) {
	g, gridded := c.(Gridded)
	var orders []float64
	if gridded {
		orders = g.Orders()
	} else {
		orders = DefaultOrders()
	}
	bestA, bestF = math.Inf(1), f(math.Inf(1))
	bi := -1
	for i, a := range orders {
		v := f(a)
		if v < bestF || (math.IsNaN(bestF) && !math.IsNaN(v)) {
			bestA, bestF, bi = a, v, i
		}
	}
	if gridded || bi < 0 {
		return bestA, bestF
	}
	// Beyond the grid, orders are rounded up to integers: ε(α) ≤ ε(⌈α⌉), a
	// fraction of an order is worthless there, and integer orders of the
	// subsampled Gaussian are cheap even when huge.
	top := orders[len(orders)-1]
	if _, cheap := c.(Linear); cheap {
		top = math.Inf(1) // closed form: keep continuous orders everywhere
	}
	f0 := f
	f = func(a float64) float64 {
		if a > top {
			a = math.Ceil(a)
		}
		return f0(a)
	}
	// Refine on x = ln(α − 1), which resolves orders near 1 as well as large
	// ones, between the neighbours of the best grid order.
	lo := orders[max(bi-1, 0)] - 1
	if bi == 0 {
		lo = 1e-9
	}
	var hi float64
	if bi+1 < len(orders) {
		hi = orders[bi+1] - 1
	} else {
		// The optimum lies beyond the grid (tiny ε(α), as for a single
		// weak Gaussian): double the order while the bound improves.
		a := orders[bi]
		for k := 0; k < 80; k++ {
			v := f(2 * a)
			if !(v < bestF) {
				break
			}
			lo, bestA, bestF = a-1, 2*a, v
			a *= 2
		}
		hi = 2*a - 1
	}
	x, v := numeric.MinimizeUnimodal(func(x float64) float64 { return f(1 + math.Exp(x)) }, math.Log(lo), math.Log(hi), 60)
	if v < bestF {
		bestA, bestF = 1+math.Exp(x), v
		if bestA > top {
			bestA = math.Ceil(bestA)
		}
	}
	return bestA, bestF
}

// LinearEpsilon returns the ε of (ε, δ)-DP implied by ρ-zCDP (the curve ρα),
// optimised over continuous α, and the optimal α. For Classic the optimum is
// α = 1 + √(ln(1/δ)/ρ), where the bound is ρ + 2√(ρ ln(1/δ)) (Bun–Steinke
// 2016, Prop. 1.3). For Improved the optimal α solves ρ(α−1)² = ln(1/(δα)),
// found by safeguarded Newton iteration: the derivative of the bound in α is
// ρ + (ln δ + ln α)/(α−1)², negative below the root and positive above it.
// The cost depends on ρ and δ alone, so per-person curves convert in O(1).
//
// The ε returned is at least the exact real value of the conversion at the
// α returned (see LinearEpsilonWarm), for every ρ ≥ 0 and every δ in
// (0, 1), subnormal δ included.
func LinearEpsilon(rho, delta float64, conv Conversion) (eps, order float64) {
	e, x := LinearEpsilonWarm(rho, numeric.NegLogUp(delta), conv, 0)
	return e, 1 + x
}

// LinearEpsilonWarm is LinearEpsilon for callers that convert many ρ at one
// δ: it takes L = ln(1/δ), returns x = α − 1, and starts Newton's iteration
// at x0 when x0 lies in the bracket (the previous index's root, say), which
// saves iterations when consecutive ρ are close. Every x gives a valid bound;
// the iteration only makes it the best one.
//
// L is taken as exact. The bound grows with L, so callers should pass an
// upper bound on ln(1/δ): numeric.NegLogUp(δ), not −math.Log(δ), which is
// short by an ulp or two, and on amd64 by far more for subnormal δ.
//
// The bound is evaluated at the returned x with a rigorous bound on its
// rounding error added and rounded up, so ε is never below the exact
// conversion at α = 1 + x. For x ≥ 2^−26 the root is first moved to the
// nearest x for which 1 + x is a float64 (x = fl(1+x) − 1, exact below
// 2^53), so the order LinearEpsilon reports is the order the bound holds
// at; below 2^−26 (δ within about 10^−7 of 1) x is kept, and the reported
// order 1 + x is rounded. The move costs nothing measurable: the bound is
// flat at its minimum.
func LinearEpsilonWarm(rho, L float64, conv Conversion, x0 float64) (eps, x float64) {
	switch {
	case rho == 0:
		return 0, math.Inf(1)
	case math.IsInf(rho, 1) || math.IsNaN(rho):
		return math.Inf(1), math.NaN()
	}
	if conv == Classic {
		x = math.Sqrt(L / rho)
	} else {
		x = linearRoot(rho, L, x0)
	}
	xa := snapOrder(x)
	x = xa.V
	e := linearBound(rho, L, xa, conv)
	if math.IsNaN(e.V) {
		return math.Inf(1), x
	}
	return math.Max(e.Up(), 0), x
}

// linearRoot solves ρx² + ln(1+x) = L for x = α − 1 > 0, the optimal order
// of the improved conversion of ρα.
func linearRoot(rho, L, x0 float64) float64 {
	// h(x) = ρx² + ln(1+x) − L increases on (0, ∞) from −L; at the root
	// both ρx² ≤ L and ln(1+x) ≤ L: bracket [lo, hi] on x = α − 1.
	lo, hi := 0.0, math.Min(math.Sqrt(L/rho), math.Expm1(L))
	x := hi
	if x0 > lo && x0 < hi {
		x = x0
	}
	for i := 0; i < 100; i++ {
		h := rho*x*x + math.Log1p(x) - L
		if h > 0 {
			hi = x
		} else {
			lo = x
		}
		nx := x - h/(2*rho*x+1/(1+x))
		if !(nx > lo && nx < hi) {
			nx = 0.5 * (lo + hi)
			if lo > 0 && hi > 4*lo {
				nx = math.Sqrt(lo) * math.Sqrt(hi) // brackets spanning decades
			}
		}
		if math.Abs(nx-x) <= 1e-13*x {
			return nx
		}
		x = nx
	}
	return x
}

// snapOrder returns x moved to fl(1+x) − 1 (see LinearEpsilonWarm), with
// its error: 0 below 2^53, one ulp of 1 + x beyond, where fl(1+x) − 1 rounds.
func snapOrder(x float64) numeric.Approx {
	if !(x >= 0x1p-26) || math.IsInf(x, 1) {
		return numeric.Exact(x)
	}
	a := 1 + x
	if a < 0x1p53 {
		return numeric.Exact(a - 1)
	}
	return numeric.Approx{V: a - 1, E: 2 * numeric.U * a}
}

// linearBound is the conversion of the curve ρα at α = 1 + x, written in x
// so that it stays exact when 1 + x rounds to 1 and has no cancellation for
// tiny ρ (where x is huge):
//
//	Classic:  ρ(1+x) + L/x
//	Improved: ρ(1+x) − log1p(1/x) + (L − log1p(x))/x,
//
// using ln(1 − 1/α) = −ln(1 + 1/x) and ln α = log1p(x). (The previous form
// ln x − ln(1+x) lost all but a few digits of the −1/x it stands for when
// x ≈ 10^7, so ε fell below its own bound for ρ below about 10^−13.)
func linearBound(rho, L float64, xa numeric.Approx, conv Conversion) numeric.Approx {
	one := numeric.Exact(1)
	t1 := numeric.Exact(rho).Mul(one.Add(xa))
	if conv == Classic {
		return t1.Add(numeric.Exact(L).Div(xa))
	}
	t2 := one.Div(xa).Log1p().Neg()
	t3 := numeric.Exact(L).Sub(xa.Log1p()).Div(xa)
	return t1.Add(t2).Add(t3)
}
