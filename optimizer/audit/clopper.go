package audit

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// epsLowerBound turns counts (tp of n positives above τ, fp of n negatives
// above τ) into the ε lower bound at δ with one-sided Clopper–Pearson bounds
// at level alpha each.
func epsLowerBound(tp, fp, n int, delta, alpha float64) (eps, tprLo, fprHi float64) {
	tprLo = ClopperPearsonLower(tp, n, alpha)
	fprHi = ClopperPearsonUpper(fp, n, alpha)
	eps = 0
	if tprLo-delta > 0 && fprHi > 0 {
		eps = math.Max(eps, math.Log((tprLo-delta)/fprHi))
	}
	// swapped roles: TNR = 1 − FPR ≥ 1 − fprHi, FNR = 1 − TPR ≤ 1 − tprLo
	if tnr, fnr := 1-fprHi, 1-tprLo; tnr-delta > 0 && fnr > 0 {
		eps = math.Max(eps, math.Log((tnr-delta)/fnr))
	}
	return eps, tprLo, fprHi
}

// ClopperPearsonLower is the one-sided lower confidence bound at level
// 1 − alpha for a binomial proportion with k successes in n trials: the
// alpha-quantile of Beta(k, n − k + 1) (0 when k = 0).
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
