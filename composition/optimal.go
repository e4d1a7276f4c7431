package composition

import (
	"errors"
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// unit is the unit roundoff of float64, 2^−53.
const unit = 1.0 / (1 << 53)

// ErrUnreachable is returned when no ε meets a target δ.
var ErrUnreachable = errors.New("no finite epsilon meets the target delta")

// OptimalDelta returns the smallest δ_total such that the k-fold adaptive
// composition of (ε, δ)-DP mechanisms is (epsTotal, δ_total)-DP, exactly
// (Kairouz–Oh–Viswanath 2015, Thm 3.3; the continuous-ε' form is
// Murtagh–Vadhan 2016, Thm 1.5):
//
//	δ_total = 1 − (1−δ)^k (1 − δ_pure),
//	δ_pure  = Σ_{l : (2l−k)ε > ε'} C(k,l) (e^{lε} − e^{ε' + (k−l)ε}) / (1+e^ε)^k.
//
// δ_pure is the hockey-stick divergence of k-fold randomized response, the
// worst pair for ε-DP (KOV15, Thm 2.3); at ε' = (k−2i)ε it equals KOV's δ_i.
// The sum is taken in log space (log-binomials, log1mexp, running LogAdd)
// over a window around the binomial mode; the terms left out are bounded by a
// geometric tail (the binomial likelihood ratio is monotone) and that bound is
// added, as is a bound on the rounding error, so the result is never below
// the exact value by more than it could be in exact arithmetic. One call costs
// O(√k) terms: about 0.1 ms at k = 10^5.
func OptimalDelta(eps, delta float64, k int, epsTotal float64) (float64, error) {
	if err := firstErr(checkEps("epsilon", eps, false), checkMechDelta("delta", delta),
		checkK(k), checkEps("epsilon'", epsTotal, true)); err != nil {
		return 0, err
	}
	if float64(k)*eps > maxKEps {
		return 0, fmt.Errorf("k·epsilon = %.6g is too large for the exact computation (at most %g)", float64(k)*eps, maxKEps)
	}
	return optimalDelta(eps, delta, k, epsTotal), nil
}

// OptimalEpsilon returns the smallest ε' ≥ 0 such that the k-fold adaptive
// composition of (ε, δ)-DP mechanisms is (ε', targetDelta)-DP, by bisection
// on the non-increasing OptimalDelta (Kairouz–Oh–Viswanath 2015, Thm 3.3;
// Murtagh–Vadhan 2016). The returned ε' is the end of the bracket at which
// OptimalDelta ≤ targetDelta was verified, within 10^−10 (relative) of the
// optimum. It returns ErrUnreachable when targetDelta < 1 − (1−δ)^k, the δ
// that no ε' removes.
func OptimalEpsilon(eps, delta float64, k int, targetDelta float64) (float64, error) {
	if err := firstErr(checkEps("epsilon", eps, false), checkMechDelta("delta", delta),
		checkK(k), checkOpenDelta("target delta", targetDelta)); err != nil {
		return 0, err
	}
	if float64(k)*eps > maxKEps {
		return math.Inf(1), fmt.Errorf("k·epsilon = %.6g is too large for the exact computation (at most %g)", float64(k)*eps, maxKEps)
	}
	floor := optimalDelta(eps, delta, k, math.Inf(1))
	if floor > targetDelta {
		return math.Inf(1), fmt.Errorf("%w: 1 − (1−δ)^k = %.6g exceeds the target %g", ErrUnreachable, floor, targetDelta)
	}
	ok := func(e1 float64) bool { return optimalDelta(eps, delta, k, e1) <= targetDelta }
	if ok(0) {
		return 0, nil
	}
	kf := float64(k)
	// The upper end: kε when it meets the target (δ_pure(kε) = 0 in exact
	// arithmetic, so optimal is never above basic), else just above kε; and
	// the filter/zCDP form with δ' = target − kδ when it applies and is
	// smaller (KOV is optimal, so it is below any valid bound).
	hi := kf * eps
	if !ok(hi) {
		hi = hi*(1+1e-12) + math.SmallestNonzeroFloat64
	}
	if dp := targetDelta - kf*delta; dp > 0 && dp < 1 {
		if h := filterClosed(eps, kf, dp) * (1 + 1e-9); h < hi && ok(h) {
			hi = h
		}
	}
	e1, err := numeric.Bisect(ok, 0, hi, 1e-12, true) // linear from 0
	if err != nil {
		return math.Inf(1), fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	return e1, nil
}

// maxKEps bounds kε so that every exponent in the sum stays finite.
const maxKEps = 1e300

// optimalDelta evaluates δ_total without validation.
func optimalDelta(eps, delta float64, k int, e1 float64) float64 {
	ld := logDeltaPure(eps, k, e1)
	// 1 − (1−δ)^k (1 − δ_pure), with the product in log space.
	lp := float64(k) * math.Log1p(-delta)
	if !math.IsInf(ld, -1) {
		lp += math.Log1p(-math.Exp(ld))
	}
	d := -math.Expm1(lp) * (1 + 16*unit)
	return math.Min(d, 1)
}

// logDeltaPure returns an upper bound on ln δ_pure(ε') of k-fold randomized
// response with parameter ε (see OptimalDelta); it exceeds the exact value by
// at most the rounding bound errLog below (relative ~10^−15·(ln k! + kε)).
func logDeltaPure(eps float64, k int, e1 float64) float64 {
	if eps == 0 || math.IsInf(e1, 1) {
		return math.Inf(-1)
	}
	kf := float64(k)
	// The smallest l with (2l−k)ε > ε'. ε' − (2l−k)ε is formed with the
	// exact product (FMA) and shifted down by a bound η on the remaining
	// rounding, which can only add mass; a term is kept iff the shifted
	// value is < 0, so at ε' ≥ kε nothing is left.
	t := (kf + e1/eps) / 2
	if t > kf+1 {
		return math.Inf(-1)
	}
	sp := softplus(eps) // ln(1 + e^ε)
	lgk, _ := math.Lgamma(kf + 1)
	logB := func(l int) float64 { // ln C(k,l) p^l (1−p)^{k−l}, p = e^ε/(1+e^ε)
		a, _ := math.Lgamma(float64(l) + 1)
		b, _ := math.Lgamma(float64(k-l) + 1)
		return lgk - a - b + float64(l)*eps - kf*sp
	}
	shifted := func(l int) float64 { // ε' − (2l−k)ε − η
		j := float64(2*l - k)
		m := j * eps
		r := math.FMA(j, eps, -m) // exact: (2l−k)ε = m + r
		x := (e1 - m) - r
		return x - (4*unit*math.Abs(x) + 2*unit*math.Abs(r))
	}
	lmin := max(int(math.Floor(t))-1, 0)
	for lmin <= k && shifted(lmin) >= 0 {
		lmin++
	}
	if lmin > k {
		return math.Inf(-1)
	}
	term := func(l int) float64 { return logB(l) + numeric.Log1mExp(shifted(l)) }
	mode := min(max(int(math.Floor((kf+1)/(1+math.Exp(-eps)))), 0), k)
	start := max(lmin, mode)
	const cut = 50.0 // stop when the tail bound is below e^−50 of the sum
	sum := math.Inf(-1)
	n := 0
	for l := start; l <= k; l++ {
		sum = numeric.LogAdd(sum, term(l))
		n++
		if l >= mode && l < k {
			r := math.Log((kf-float64(l))/float64(l+1)) + eps // ln b_{l+1}/b_l, decreasing in l
			if r < 0 {
				if tail := logB(l) + r - numeric.Log1mExp(r); tail < sum-cut {
					sum = numeric.LogAdd(sum, tail)
					break
				}
			}
		}
	}
	for l := start - 1; l >= lmin; l-- {
		sum = numeric.LogAdd(sum, term(l))
		n++
		if l > lmin {
			r := math.Log(float64(l)/(kf-float64(l)+1)) - eps // ln b_{l−1}/b_l, decreasing as l falls
			if r < 0 {
				if tail := logB(l) + r - numeric.Log1mExp(r); tail < sum-cut {
					sum = numeric.LogAdd(sum, tail)
					break
				}
			}
		}
	}
	// Rounding: each log term carries an absolute error of a few ulps of the
	// magnitudes involved, and the running sum adds about one ulp per term.
	errLog := 16 * unit * (3*math.Abs(lgk) + kf*eps + kf*sp + math.Abs(e1) + float64(n))
	return math.Min(sum+errLog, 0)
}

// softplus returns ln(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}
