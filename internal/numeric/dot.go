package numeric

import "math"

// Dot returns ⟨a, b⟩ (len(b) ≥ len(a)) with four running sums, the order
// every package uses, so that a value such as ⟨w*, x⟩ is bit for bit the
// same whichever package computes it (synthetic data and training agree).
func Dot(a, b []float64) float64 {
	var s0, s1, s2, s3 float64
	n := len(a)
	b = b[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Norm returns ‖a‖ = √⟨a, a⟩.
func Norm(a []float64) float64 { return math.Sqrt(Dot(a, a)) }
