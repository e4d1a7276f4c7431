package composition

import (
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/numeric"

	"fmt"
	"math"
)

// Filter is the fully adaptive privacy filter of Whitehouse, Ramdas, Rogers
// and Wu 2023 (as stated in seed 003, Thm 3.5). Mechanisms A_1, A_2, … run one
// after another; A_m is (ε_m, δ_m)-DP conditionally on the outputs before it,
// and ε_m, δ_m may themselves be chosen from those outputs. With target ε and
// δ = δ' + δ” (δ', δ” > 0), the filter halts at
//
//	N = inf{ n : ε < √(2 ln(1/δ') Σ_{m≤n+1} ε_m²) + ½ Σ_{m≤n+1} ε_m²
//	             or δ'' < Σ_{m≤n+1} δ_m },
//
// that is, mechanism n+1 may run only if, counting it, both budgets still
// hold; then A_{1:N} is (ε, δ)-DP. The ½Σε_m² term is what the dump of seed
// 003 garbles; it matches the zCDP route (ε_m-DP ⇒ ε_m²/2-zCDP).
//
// Rounding is resolved on the safe side: the computed sums are nudged up by
// a few ulps before the comparison, so the filter can only stop early.
//
// Once a mechanism is refused the filter stays halted, as the stopping time
// does in the theorem. Allows asks without committing, which is sound: the
// rule depends only on the (predictable) parameters, so an analyst who asks
// first is an analyst who chose its next parameters adaptively.
type Filter struct {
	eps, deltaPrime, deltaDoublePrime float64
	logInv                            float64 // ln(1/δ')
	sumSq, sumDelta                   numeric.Kahan
	n                                 int
	halted                            bool
}

// NewFilter returns a filter for target ε > 0 (finite) and δ = δ' + δ” with
// δ', δ” > 0 and δ' + δ” < 1.
func NewFilter(eps, deltaPrime, deltaDoublePrime float64) (*Filter, error) {
	if !(eps > 0) || math.IsInf(eps, 1) {
		return nil, fmt.Errorf("filter target epsilon must be finite and > 0, got %v", eps)
	}
	if err := firstErr(checkOpenDelta("delta'", deltaPrime), checkOpenDelta("delta''", deltaDoublePrime)); err != nil {
		return nil, err
	}
	if !(deltaPrime+deltaDoublePrime < 1) {
		return nil, fmt.Errorf("delta' + delta'' must be < 1, got %v", deltaPrime+deltaDoublePrime)
	}
	return &Filter{eps: eps, deltaPrime: deltaPrime, deltaDoublePrime: deltaDoublePrime,
		logInv: numeric.NegLogUp(deltaPrime)}, nil
}

// filterValue is √(2 ln(1/δ') S) + S/2 for S = Σε_m².
func filterValue(sumSq, logInv float64) float64 {
	return math.Sqrt(2*logInv*sumSq) + sumSq/2
}

func checkStep(eps, delta float64) error {
	if math.IsNaN(eps) || eps < 0 || math.IsInf(eps, 1) {
		return fmt.Errorf("mechanism epsilon must be finite and ≥ 0, got %v", eps)
	}
	return checkMechDelta("mechanism delta", delta)
}

// Allows reports whether a next mechanism with (ε_m, δ_m) may run, without
// recording it. It is false once the filter has halted and for invalid
// parameters.
func (f *Filter) Allows(eps, delta float64) bool {
	if f.halted || checkStep(eps, delta) != nil {
		return false
	}
	s, d := f.sumSq, f.sumDelta
	s.Add(eps * eps)
	d.Add(delta)
	// The theorem's rule, with the computed sums nudged up by a few ulps so
	// that rounding can only stop the filter early, never late.
	return !(f.eps < filterValue(s.Sum(), f.logInv)*(1+8*unit) || f.deltaDoublePrime < d.Sum()*(1+4*unit))
}

// Add asks to run a mechanism with (ε_m, δ_m). If the filter allows it, the
// mechanism is recorded and Add returns true: the caller may run it. If not,
// the filter halts for good and Add returns false: the caller must stop, and
// the mechanisms run so far are (ε, δ' + δ”)-DP together. Invalid parameters
// return an error and change nothing.
func (f *Filter) Add(eps, delta float64) (bool, error) {
	if err := checkStep(eps, delta); err != nil {
		return false, err
	}
	if !f.Allows(eps, delta) {
		f.halted = true
		return false, nil
	}
	f.sumSq.Add(eps * eps)
	f.sumDelta.Add(delta)
	f.n++
	return true, nil
}

// Halted reports whether the filter has refused a mechanism.
func (f *Filter) Halted() bool { return f.halted }

// Count returns the number of mechanisms allowed so far.
func (f *Filter) Count() int { return f.n }

// SumSquares returns Σε_m² over the allowed mechanisms.
func (f *Filter) SumSquares() float64 { return f.sumSq.Sum() }

// SumDelta returns Σδ_m over the allowed mechanisms.
func (f *Filter) SumDelta() float64 { return f.sumDelta.Sum() }

// Spent returns the filter's bound √(2 ln(1/δ') Σε_m²) + ½Σε_m² for the
// mechanisms allowed so far; it is ≤ the target ε.
func (f *Filter) Spent() float64 { return filterValue(f.sumSq.Sum(), f.logInv) }

// Target returns the filter's (ε, δ' + δ”) guarantee.
func (f *Filter) Target() dp.Guarantee {
	return dp.Guarantee{Epsilon: dp.Loss(f.eps), Delta: dp.Loss(f.deltaPrime + f.deltaDoublePrime), Source: SourceFilterApprox}
}

// filterClosed is ε0√(2k ln(1/δ)) + kε0²/2.
func filterClosed(eps0, k, delta float64) float64 {
	return eps0*math.Sqrt(2*k*numeric.NegLogUp(delta)) + k*eps0*eps0/2
}

// FilterEpsilon returns the ε of k adaptively composed ε0-DP (pure)
// mechanisms at total δ:
//
//	ε = ε0 √(2k ln(1/δ)) + k ε0²/2
//
// (seed 003, Thm 3.5 with all ε_m = ε0, derived in
// docs/accounting.md#fully-adaptive-filter). Through the
// filter this holds at δ + η for any η > 0; the same value is exactly the
// zCDP route at δ (ε0-DP ⇒ ε0²/2-zCDP, Bun–Steinke 2016, Prop. 1.4; k-fold
// composition gives kε0²/2-zCDP, and Prop. 1.3 converts ρ-zCDP to
// (ρ + 2√(ρ ln(1/δ)), δ)-DP), so no η is needed. δ must be in (0, 1).
func FilterEpsilon(eps0 float64, k int, delta float64) (float64, error) {
	if err := firstErr(checkEps("epsilon", eps0, false), checkK(k), checkOpenDelta("delta", delta)); err != nil {
		return 0, err
	}
	return filterClosed(eps0, float64(k), delta), nil
}

// FilterMaxStep returns the largest ε0 such that k ε0-DP mechanisms compose to
// (ε, δ)-DP by FilterEpsilon, the exact inverse (docs/accounting.md#fully-adaptive-filter):
//
//	ε0_max = √2 (√(ln(1/δ) + ε) − √(ln(1/δ))) / √k,
//
// computed as √2·ε / ((√(L+ε) + √L)√k) to avoid cancellation. It is rounded
// down by a few ulps, so FilterEpsilon(ε0_max, k, δ) ≤ ε. ε must be finite
// and ≥ 0, δ in (0, 1).
func FilterMaxStep(eps float64, k int, delta float64) (float64, error) {
	if err := firstErr(checkEps("target epsilon", eps, false), checkK(k), checkOpenDelta("delta", delta)); err != nil {
		return 0, err
	}
	L := numeric.NegLogUp(delta) // ε0_max falls with L: an upper bound errs low
	e0 := math.Sqrt2 * eps / ((math.Sqrt(L+eps) + math.Sqrt(L)) * math.Sqrt(float64(k)))
	e0 *= 1 - 8*unit
	for e0 > 0 && filterClosed(e0, float64(k), delta) > eps {
		e0 = math.Nextafter(e0, 0)
	}
	return e0, nil
}

// Cor36Step returns the per-step ε' of seed 003, Cor. 3.6: T ε'-DP mechanisms
// compose adaptively to (ε, δ)-DP if ε' ≤ ε/(2√(2T ln(1/δ))) and
// 0 ≤ ε ≤ 8 ln(1/δ). Outside that range of ε the corollary says nothing and
// an error is returned. Each term of FilterEpsilon is then ≤ ε/2, so the
// corollary is about 2× conservative next to FilterMaxStep.
func Cor36Step(eps float64, k int, delta float64) (float64, error) {
	if err := firstErr(checkEps("target epsilon", eps, false), checkK(k), checkOpenDelta("delta", delta)); err != nil {
		return 0, err
	}
	L := -numeric.Log(delta)
	if eps > 8*L {
		return 0, fmt.Errorf("seed 003 Cor. 3.6 needs epsilon ≤ 8 ln(1/delta) = %.6g, got %v", 8*L, eps)
	}
	return eps / (2 * math.Sqrt(2*float64(k)*numeric.NegLogUp(delta))), nil
}
