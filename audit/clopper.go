package audit

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// epsFromRates is the (ε, δ)-DP lower bound implied by TPR ≥ tprLo and
// FPR ≤ fprHi: any (ε, δ)-DP algorithm has TPR ≤ e^ε·FPR + δ and
// TNR ≤ e^ε·FNR + δ (Kairouz, Oh, Viswanath 2015, Thm 2.1), so
// ε ≥ max(ln((TPR_lo − δ)/FPR_hi), ln((TNR_lo − δ)/FNR_hi)) with
// TNR_lo = 1 − FPR_hi and FNR_hi = 1 − TPR_lo (0 when neither is positive).
func epsFromRates(tprLo, fprHi, delta float64) float64 {
	eps := 0.0
	if tprLo-delta > 0 && fprHi > 0 {
		eps = math.Max(eps, math.Log((tprLo-delta)/fprHi))
	}
	if tnr, fnr := 1-fprHi, 1-tprLo; tnr-delta > 0 && fnr > 0 {
		eps = math.Max(eps, math.Log((tnr-delta)/fnr))
	}
	return eps
}

// epsMargin is subtracted from bounds computed from Clopper–Pearson
// bounds: gonum's Beta quantile inverts the binomial tail to ~10⁻⁸
// (relative, TestClopperPearsonAccuracy), which moves ln(TPR/FPR) by less.
const epsMargin = 1e-6

// epsLowerBound turns counts (tp of nIn members and fp of nOut non-members
// on the member side of a threshold) into the ε lower bound at δ with
// one-sided Clopper–Pearson bounds at level alpha each, less epsMargin.
func epsLowerBound(tp, nIn, fp, nOut int, delta, alpha float64) (eps, tprLo, fprHi float64) {
	tprLo = ClopperPearsonLower(tp, nIn, alpha)
	fprHi = ClopperPearsonUpper(fp, nOut, alpha)
	return math.Max(0, epsFromRates(tprLo, fprHi, delta)-epsMargin), tprLo, fprHi
}

// ClopperPearsonLower is the one-sided lower confidence bound at level
// 1 − alpha for a binomial proportion with k successes in n trials: the
// alpha-quantile of Beta(k, n − k + 1) (0 when k = 0) (Clopper, Pearson
// 1934).
func ClopperPearsonLower(k, n int, alpha float64) float64 {
	if k <= 0 {
		return 0
	}
	return distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(alpha)
}

// ClopperPearsonUpper is the one-sided upper confidence bound at level
// 1 − alpha: the (1 − alpha)-quantile of Beta(k + 1, n − k) (1 when k = n).
func ClopperPearsonUpper(k, n int, alpha float64) float64 {
	if k >= n {
		return 1
	}
	return distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - alpha)
}

// wilson returns one-sided Wilson score bounds (Wilson 1927) at normal
// quantile z: a fast stand-in for Clopper–Pearson used only to choose a
// threshold on the selection half, where any rule is allowed.
func wilson(k, n int, z float64) (lo, hi float64) {
	fk, fn := float64(k), float64(n)
	z2 := z * z
	c := fk + z2/2
	d := z * math.Sqrt(fk*(fn-fk)/fn+z2/4)
	return math.Max(0, (c-d)/(fn+z2)), math.Min(1, (c+d)/(fn+z2))
}

// probit is Φ⁻¹, the standard normal quantile (−Inf at 0, +Inf at 1).
func probit(p float64) float64 {
	return -math.Sqrt2 * math.Erfcinv(2*p)
}
