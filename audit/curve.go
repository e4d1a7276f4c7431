package audit

import (
	"math"
)

// MaxCurvePoints is the most points a trade-off curve has.
const MaxCurvePoints = 1000

// TradeoffPoint is one (FPR, FNR) pair of a test.
type TradeoffPoint struct {
	FPR float64 `json:"fpr"`
	FNR float64 `json:"fnr"`
}

// EmpiricalCurve is the empirical trade-off curve of the threshold test
// "member when score ≥ τ" (greater) or "≤ τ" on sorted members (in) and
// non-members (out): one point at every distinct threshold, by increasing
// FPR, downsampled to at most MaxCurvePoints (kept: evenly spaced points
// and geometrically spaced ones near both ends, where log axes look).
func EmpiricalCurve(in, out []float64, greater bool) []TradeoffPoint {
	if len(in) == 0 || len(out) == 0 {
		return nil
	}
	n := 0
	sweep(in, out, greater, func(float64, int, int) { n++ })
	keep := keepIndices(n, MaxCurvePoints)
	pts := make([]TradeoffPoint, 0, min(n, MaxCurvePoints))
	ni, no := float64(len(in)), float64(len(out))
	i := 0
	sweep(in, out, greater, func(_ float64, tp, fp int) {
		if keep == nil || keep[i] {
			pts = append(pts, TradeoffPoint{FPR: float64(fp) / no, FNR: 1 - float64(tp)/ni})
		}
		i++
	})
	return pts
}

// keepIndices chooses at most max of n indices (nil: all): evenly spaced
// ones and geometrically spaced ones from both ends.
func keepIndices(n, max int) map[int]bool {
	if n <= max {
		return nil
	}
	keep := make(map[int]bool, max)
	even := max / 2
	for i := 0; i < even; i++ {
		keep[i*(n-1)/(even-1)] = true
	}
	for g := 1.0; len(keep) < max-1 && g < float64(n); g *= 1.02 {
		k := int(g)
		keep[k-1] = true
		keep[n-k] = true
	}
	return keep
}

// ClaimedCurve is the trade-off curve of (ε, δ)-DP (Kairouz, Oh, Viswanath
// 2015, Thm 2.1): the smallest FNR any test can have at each FPR,
// FNR = max(0, 1 − δ − e^ε·FPR, e^−ε·(1 − δ − FPR)), at n FPR values
// spaced evenly in log from minFPR to 1 (n ≥ 2, 0 < minFPR < 1).
func ClaimedCurve(eps, delta, minFPR float64, n int) []TradeoffPoint {
	if n < 2 || !(minFPR > 0 && minFPR < 1) || math.IsNaN(eps) || eps < 0 {
		return nil
	}
	pts := make([]TradeoffPoint, n)
	l0 := math.Log(minFPR)
	for i := range pts {
		f := math.Exp(l0 * (1 - float64(i)/float64(n-1)))
		switch i {
		case 0:
			f = minFPR
		case n - 1:
			f = 1
		}
		fnr := math.Max(0, math.Max(1-delta-math.Exp(eps)*f, math.Exp(-eps)*(1-delta-f)))
		pts[i] = TradeoffPoint{FPR: f, FNR: fnr}
	}
	return pts
}
