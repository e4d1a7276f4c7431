package numeric

import "math"

// LogAdd returns ln(e^a + e^b) without overflow. LogAdd(-Inf, x) = x.
func LogAdd(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, 1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// LogSub returns ln(e^a − e^b) for a ≥ b. It returns -Inf when a == b and NaN
// when a < b (the difference is negative and has no logarithm).
func LogSub(a, b float64) float64 {
	switch {
	case math.IsInf(b, -1):
		return a
	case a == b:
		return math.Inf(-1)
	case a < b:
		return math.NaN()
	}
	return a + Log1mExp(b-a)
}

// Log1mExp returns ln(1 − e^x) for x ≤ 0, accurately for x near 0 and for
// very negative x (Mächler 2012). It returns -Inf at x = 0 and NaN for x > 0.
func Log1mExp(x float64) float64 {
	switch {
	case x > 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	case x > -math.Ln2:
		return math.Log(-math.Expm1(x))
	}
	return math.Log1p(-math.Exp(x))
}

// LogSumExp returns ln Σ e^{x_i}; -Inf for an empty slice.
func LogSumExp(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	if math.IsInf(m, 0) {
		return m
	}
	var s float64
	for _, x := range xs {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}

// LogBinom returns ln |C(n, k)| for real n ≥ 0 and integer k ≥ 0, and the
// sign of C(n, k). For integer n and k > n the coefficient is 0: the result
// is (-Inf, 0). Fractional n gives alternating signs once k > n.
func LogBinom(n float64, k int) (logAbs float64, sign int) {
	if k < 0 {
		return math.Inf(-1), 0
	}
	kf := float64(k)
	if n == math.Trunc(n) && kf > n {
		return math.Inf(-1), 0
	}
	// C(n,k) = Γ(n+1) / (Γ(k+1) Γ(n−k+1)); Lgamma returns the sign of Γ.
	a, _ := math.Lgamma(n + 1)
	b, _ := math.Lgamma(kf + 1)
	c, sc := math.Lgamma(n - kf + 1)
	return a - b - c, sc
}
