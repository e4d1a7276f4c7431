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
		var ok bool
		logA, ok = logAFrac(q, z, alpha)
		if !ok {
			logA = logAFallback(q, z, alpha)
		}
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
//
// On k ≤ z² − 1 the log-terms are concave in k (the binomial's second
// difference is below −1/(k+1), the Gaussian factor adds 1/z²). Where the
// whole range is concave (α ≤ z² − 1) the sum stops past its peak once a
// term is below 2^{−60} of the total, and adds the rest as a geometric tail
// with the last ratio (successive ratios of a log-concave sequence do not
// increase, so the tail is at most t_k·r/(1−r)): an upper bound, in O(peak)
// terms instead of O(α) for huge orders.
func logAInt(q, z float64, alpha int) float64 {
	la := math.Inf(-1)
	lq, l1q := math.Log(q), math.Log1p(-q)
	a := float64(alpha)
	inv2z2 := 1 / (2 * z * z)
	concave := a <= z*z-1
	const stop = -60 * math.Ln2
	lb := 0.0 // ln C(α, k), updated incrementally
	prev := math.Inf(-1)
	for k := 0; k <= alpha; k++ {
		kf := float64(k)
		if k > 0 {
			lb += math.Log((a - kf + 1) / kf)
		}
		t := lb + kf*lq + (a-kf)*l1q + (kf*kf-kf)*inv2z2
		la = numeric.LogAdd(la, t)
		if concave && t < prev && t < la+stop {
			lr := t - prev // ln r < 0
			return numeric.LogAdd(la, t+lr-numeric.Log1mExp(lr))
		}
		prev = t
	}
	return la
}

// logAFrac computes ln A_α for fractional α as ln(A₀ + A₁) with
//
//	A₀ = Σ_i C(α,i) q^i (1−q)^{α−i} e^{(i²−i)/(2z²)} · ½ erfc((i − z₀)/(√2 z))
//	A₁ = Σ_i C(α,i) q^{α−i} (1−q)^i e^{((α−i)²−(α−i))/(2z²)} · ½ erfc((z₀ − (α−i))/(√2 z))
//
// whose terms alternate in sign once i > α and then decay like i^{−(α+2)}
// for every z (the Gaussian factors cancel against erfc's tail), so low
// orders need thousands of terms. The loop stops, past i > α, at the first
// pair of terms below fracTol of the running sum; the omitted alternating
// tail is at most that pair, which is added to the positive sums so the
// result stays an upper bound. After maxFracTerms terms past α it gives up
// and reports ok = false.
func logAFrac(q, z, alpha float64) (logA float64, ok bool) {
	pos0, neg0 := math.Inf(-1), math.Inf(-1)
	pos1, neg1 := math.Inf(-1), math.Inf(-1)
	lq, l1q := math.Log(q), math.Log1p(-q)
	z0 := z*z*math.Log(1/q-1) + 0.5
	s2 := math.Sqrt2 * z
	inv2z2 := 1 / (2 * z * z)
	logTol := math.Log(fracTol)
	lb, sign := 0.0, 1 // ln |C(α, i)| and its sign, updated incrementally
	limit := int(alpha) + maxFracTerms
	for i := 0; i <= limit; i++ {
		fi := float64(i)
		if i > 0 {
			r := (alpha - fi + 1) / fi
			if r < 0 {
				sign = -sign
			}
			lb += math.Log(math.Abs(r))
		}
		j := alpha - fi
		t0 := lb + fi*lq + j*l1q + (fi*fi-fi)*inv2z2 - math.Ln2 + numeric.LogErfc((fi-z0)/s2)
		t1 := lb + j*lq + fi*l1q + (j*j-j)*inv2z2 - math.Ln2 + numeric.LogErfc((z0-j)/s2)
		if fi > alpha && math.Max(t0, t1) < numeric.LogAdd(pos0, pos1)+logTol {
			// Bound the omitted alternating tail by this term.
			pos0, pos1 = numeric.LogAdd(pos0, t0), numeric.LogAdd(pos1, t1)
			if neg0 > pos0 || neg1 > pos1 {
				return math.NaN(), false
			}
			return numeric.LogAdd(numeric.LogSub(pos0, neg0), numeric.LogSub(pos1, neg1)), true
		}
		if sign > 0 {
			pos0, pos1 = numeric.LogAdd(pos0, t0), numeric.LogAdd(pos1, t1)
		} else {
			neg0, neg1 = numeric.LogAdd(neg0, t0), numeric.LogAdd(neg1, t1)
		}
	}
	return math.NaN(), false
}

const (
	// fracTol is the relative size of the term at which the fractional
	// series stops (its omitted tail is added back as a bound).
	fracTol = 1e-11
	// maxFracTerms bounds the work of the fractional series past i = α.
	maxFracTerms = 8000
)

// logAFallback bounds ln A_α at a fractional order where the series did not
// converge within its budget, by the smallest of three sound bounds:
//   - the chord between the neighbouring integer orders: α ↦ ln A_α =
//     (α−1)·D_α is convex (a cumulant generating function of the privacy
//     loss), so the chord lies above it (below α = 2 the left end is ln A_1 = 0);
//   - (α−1)·ε(⌈α⌉), since D_α is non-decreasing in α;
//   - (α−1)·α/(2z²), the unsampled Gaussian, since subsampling never hurts
//     (joint convexity of e^{(α−1)D_α}).
func logAFallback(q, z, alpha float64) float64 {
	lo := math.Floor(alpha)
	hi := lo + 1
	la := 0.0
	if lo >= 2 {
		la = logAInt(q, z, int(lo))
	}
	lb := logAInt(q, z, int(hi))
	w := alpha - lo
	chord := (1-w)*la + w*lb
	mono := (alpha - 1) * lb / (hi - 1)
	gauss := (alpha - 1) * alpha / (2 * z * z)
	return math.Min(chord, math.Min(mono, gauss))
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
