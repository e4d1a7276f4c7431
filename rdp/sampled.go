package rdp

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// SampledGaussian is the RDP curve of the Poisson-subsampled Gaussian
// mechanism, the step of DP-SGD: each record enters the batch independently
// with probability Q, the batch's sum of clipped gradients (ℓ2-sensitivity C)
// gets N(0, (Z·C)² I) noise. Neighbours are add/remove-one.
//
// The curve is computed exactly at every real order α > 1 as
// ε(α) = ln(A_α)/(α−1) (Mironov, Talwar, Zhang 2019, "Rényi Differential
// Privacy of the Sampled Gaussian Mechanism", §3): for integer α by the finite
// binomial sum, for fractional α by the two convergent series split at
// z₀ = Z² ln(1/Q − 1) + 1/2. All terms are summed in log space with signs, so
// orders up to 10⁴ and realistic Q, Z never overflow. A_α bounds the
// divergence in both directions (MTZ19, §3.1).
type SampledGaussian struct {
	Q float64 // sampling rate, in (0, 1]
	Z float64 // noise multiplier σ/C, > 0
}

// Epsilon returns ε(α). For α = ∞ it is +Inf (no pure-DP guarantee).
func (s SampledGaussian) Epsilon(alpha float64) float64 {
	q, z := s.Q, s.Z
	switch {
	case q == 0:
		return 0
	case math.IsInf(alpha, 1) || z == 0:
		return math.Inf(1)
	case q == 1:
		return alpha / (2 * z * z)
	}
	var logA float64
	if alpha == math.Trunc(alpha) && alpha < 1e9 {
		logA = logAInt(q, z, int(alpha))
	} else {
		logA = logAFrac(q, z, alpha)
	}
	e := logA / (alpha - 1)
	if e < 0 || math.IsNaN(e) { // rounding below 0 at tiny q; NaN never escapes
		if math.IsNaN(e) {
			return math.Inf(1)
		}
		return 0
	}
	return e
}

// logAInt computes ln A_α = ln Σ_{k=0}^{α} C(α,k) (1−q)^{α−k} q^k e^{(k²−k)/(2z²)}.
func logAInt(q, z float64, alpha int) float64 {
	la := math.Inf(-1)
	lq, l1q := math.Log(q), math.Log1p(-q)
	a := float64(alpha)
	for k := 0; k <= alpha; k++ {
		lb, _ := numeric.LogBinom(a, k)
		kf := float64(k)
		t := lb + kf*lq + (a-kf)*l1q + (kf*kf-kf)/(2*z*z)
		la = numeric.LogAdd(la, t)
	}
	return la
}

// logAFrac computes ln A_α for fractional α as ln(A₀ + A₁) with
//
//	A₀ = Σ_i C(α,i) q^i (1−q)^{α−i} e^{(i²−i)/(2z²)} · ½ erfc((i − z₀)/(√2 z))
//	A₁ = Σ_i C(α,i) q^{α−i} (1−q)^i e^{((α−i)²−(α−i))/(2z²)} · ½ erfc((z₀ − (α−i))/(√2 z))
//
// whose terms have alternating signs once i > α. The loop stops when both
// terms are below 2^{−60} of the running sums, past i > α.
func logAFrac(q, z, alpha float64) float64 {
	pos0, neg0 := math.Inf(-1), math.Inf(-1)
	pos1, neg1 := math.Inf(-1), math.Inf(-1)
	lq, l1q := math.Log(q), math.Log1p(-q)
	z0 := z*z*math.Log(1/q-1) + 0.5
	s2 := math.Sqrt2 * z
	const stop = -60 * math.Ln2
	for i := 0; i < 1<<20; i++ {
		lb, sign := numeric.LogBinom(alpha, i)
		fi := float64(i)
		j := alpha - fi
		t0 := lb + fi*lq + j*l1q + (fi*fi-fi)/(2*z*z) + math.Log(0.5) + numeric.LogErfc((fi-z0)/s2)
		t1 := lb + j*lq + fi*l1q + (j*j-j)/(2*z*z) + math.Log(0.5) + numeric.LogErfc((z0-j)/s2)
		if sign > 0 {
			pos0, pos1 = numeric.LogAdd(pos0, t0), numeric.LogAdd(pos1, t1)
		} else {
			neg0, neg1 = numeric.LogAdd(neg0, t0), numeric.LogAdd(neg1, t1)
		}
		if fi > alpha {
			total := numeric.LogAdd(pos0, pos1)
			if math.Max(t0, t1) < total+stop {
				break
			}
		}
	}
	a0 := numeric.LogSub(pos0, math.Min(neg0, pos0))
	a1 := numeric.LogSub(pos1, math.Min(neg1, pos1))
	return numeric.LogAdd(a0, a1)
}

// SampledGaussianReplaceOne bounds the Poisson-subsampled Gaussian under
// replace-one neighbours, where one record is swapped for another. A swap is a
// removal followed by an addition, so Mironov 2017, Prop. 11 (the weak
// triangle inequality, with exponent 2) gives the sound bound
//
//	ε_swap(α) ≤ (α − ½)/(α − 1) · ε(2α) + ε(2α − 1),
//
// with ε the add/remove curve. Without sampling (Q = 1) the mechanism is a
// Gaussian with sensitivity 2C and the exact curve 2α/Z² is used instead.
type SampledGaussianReplaceOne struct {
	Q, Z float64
}

// Epsilon returns the bound at α.
func (s SampledGaussianReplaceOne) Epsilon(alpha float64) float64 {
	if s.Q == 1 {
		return 4 * alpha / (2 * s.Z * s.Z)
	}
	ar := SampledGaussian(s)
	if math.IsInf(alpha, 1) {
		return ar.Epsilon(alpha)
	}
	return (alpha-0.5)/(alpha-1)*ar.Epsilon(2*alpha) + ar.Epsilon(2*alpha-1)
}
