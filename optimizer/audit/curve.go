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
	var pts []TradeoffPoint
	ni, no := float64(len(in)), float64(len(out))
	sweep(in, out, greater, func(_ float64, tp, fp int) {
		pts = append(pts, TradeoffPoint{FPR: float64(fp) / no, FNR: 1 - float64(tp)/ni})
	})
	return downsample(pts, MaxCurvePoints)
}

func downsample(pts []TradeoffPoint, max int) []TradeoffPoint {
	n := len(pts)
	if n <= max {
		return pts
	}
	keep := make(map[int]bool, max)
	even := max / 2
	for i := 0; i < even; i++ {
		keep[i*(n-1)/(even-1)] = true
	}
	// geometric ranks from each end, until the budget is used
	for g := 1.0; len(keep) < max-1 && g < float64(n); g *= 1.02 {
		k := int(g)
		keep[k-1] = true
		if len(keep) < max {
			keep[n-k] = true
		}
	}
	out := make([]TradeoffPoint, 0, len(keep))
	for i := 0; i < n; i++ {
		if keep[i] {
			out = append(out, pts[i])
		}
	}
	return out
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
		if i == n-1 {
			f = 1
		}
		fnr := math.Max(0, math.Max(1-delta-math.Exp(eps)*f, math.Exp(-eps)*(1-delta-f)))
		pts[i] = TradeoffPoint{FPR: f, FNR: fnr}
	}
	return pts
}
