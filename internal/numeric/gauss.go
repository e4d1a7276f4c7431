package numeric

import "math"

// LogErfc returns ln erfc(x), accurate for all finite x, including x > 26
// where erfc itself underflows (asymptotic series, Abramowitz–Stegun 7.1.23).
func LogErfc(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	if x < 20 {
		return math.Log(math.Erfc(x))
	}
	// erfc(x) = e^{−x²}/(x√π) · (1 − 1/(2x²) + 3/(4x⁴) − 15/(8x⁶) + 105/(16x⁸) …)
	x2 := x * x
	inv := 1 / (2 * x2)
	series := 1 - inv + 3*inv*inv - 15*inv*inv*inv + 105*inv*inv*inv*inv
	return -x2 - math.Log(x) - 0.5*math.Log(math.Pi) + math.Log(series)
}

// LogPhi returns ln Φ(x), the log of the standard normal CDF, for all x.
func LogPhi(x float64) float64 {
	return math.Log(0.5) + LogErfc(-x/math.Sqrt2)
}

// Phi is the standard normal CDF.
func Phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
