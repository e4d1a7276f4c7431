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

// Epsilon returns ε(α), rounded up: an upper bound on the exact real
// ln(A_α)/(α−1), including the rounding error of its evaluation and the
// truncation of the fractional series. For α = ∞ it is +Inf (no pure-DP
// guarantee), and for α ≤ 1 too (no finite order there).
//
// ln A_α is computed as log1p(A_α − 1) with A_α − 1 summed directly, never
// as a difference of quantities near 1: for small q, A_α − 1 ≈ C(α,2)q²
// (e^{1/z²} − 1) is 10^−12…10^−18, and the old ln(Σ terms) lost up to all of
// its digits (at q = 10^−9, z = 1, α = 40.87, ε(α) was 8·10^−6 short).
func (s SampledGaussian) Epsilon(alpha float64) float64 {
	q, z := s.Q, s.Z
	switch {
	case q == 0:
		return 0
	case math.IsInf(alpha, 1) || z == 0 || !(alpha > 1):
		return math.Inf(1)
	case math.IsInf(1/(2*z*z), 1):
		// z² underflows: essentially no noise, and the series' exponents
		// (k² − k)/(2z²) are infinite. +Inf is the only sound answer.
		return math.Inf(1)
	case q == 1:
		return numeric.DivUp(alpha, 2*mulDown(z, z))
	}
	var logA float64 // an upper bound on ln A_α
	if alpha == math.Trunc(alpha) && alpha < 1e9 {
		logA = logAInt(q, z, int(alpha))
	} else if alpha > float64(maxIntTerms) {
		logA = logAFallback(q, z, alpha) // the fractional series would run α terms
	} else {
		var ok bool
		logA, ok = logAFrac(q, z, alpha)
		if !ok {
			logA = logAFallback(q, z, alpha)
		}
	}
	switch {
	case math.IsNaN(logA):
		return math.Inf(1) // NaN never escapes
	case logA <= 0:
		return 0
	}
	return numeric.DivUp(logA, minusOne(alpha).Down())
}

// mulDown returns a float64 ≤ a·b (exact product).
func mulDown(a, b float64) float64 { return -numeric.MulUp(-a, b) }

// logAInt returns an upper bound on ln A_α for integer α ≥ 2, where
//
//	A_α − 1 = Σ_{k=2}^{α} C(α,k) (1−q)^{α−k} q^k (e^{(k²−k)/(2z²)} − 1)
//
// because the binomial weights sum to 1 and the k = 0, 1 terms have
// e^0 = 1 (MTZ19, §3.3): every term is positive, so the sum has no
// cancellation, and ln A_α = log1p(A_α − 1) keeps full relative precision
// however small A_α − 1 is.
//
// On k ≤ z² − 1 the log of C(α,k)(1−q)^{α−k}q^k e^{(k²−k)/(2z²)} is concave
// in k (the binomial's second difference is below −1/(k+1), the Gaussian
// factor adds 1/z²). Where the whole range is concave (α ≤ z² − 1) the sum
// stops past its peak once such a term is below 2^−60 of the sum, and adds
// the rest of those (larger) terms as a geometric tail with the last ratio
// (successive ratios of a log-concave sequence do not increase): an upper
// bound, in O(peak) terms instead of O(α) for huge orders.
func logAInt(q, z float64, alpha int) float64 {
	lnB, errB := logAm1Int(q, z, alpha)
	return log1pExpUp(lnB, errB)
}

// logAm1Int returns ln(A_α − 1) for integer α and a bound on its absolute
// error (rounding of every step, see termErr; the geometric tail is added
// to the sum as a value).
func logAm1Int(q, z float64, alpha int) (lnB, errB float64) {
	lq, l1q := numeric.Log(q), math.Log1p(-q)
	elq, el1q := numeric.ErrLog*math.Abs(lq), numeric.ErrLog1p*math.Abs(l1q)
	a := float64(alpha)
	inv2z2 := 1 / (2 * z * z)
	kc := z*z - 1 // the terms with k ≤ kc are log-concave in k
	concave := a <= kc
	// Past kc log-concavity ends; those terms are bounded as in the
	// budget's cut, e^{g_α}·P(Bin(α, q) ≥ ⌊kc⌋ + 1), and the early stop
	// is taken only where that bound is negligible (else the sum goes on).
	pastKc := math.Inf(-1)
	if !concave && kc >= 2 {
		pastKc = intTailLog(q, a, math.Floor(kc)+1, (a*a-a)*inv2z2)
	}
	const stop = -60 * math.Ln2
	acc := sumAcc{boundTiny: true}
	lb, elb := math.Log(a), numeric.ErrLog*math.Log(a) // ln C(α, k), from k = 1
	prev := math.Inf(-1)
	for k := 2; k <= alpha; k++ {
		if k > maxIntTerms {
			// Budget spent: the terms from k on, each at most
			// C(α,j)(1−q)^{α−j}q^j e^{g_α} (g_j = (j²−j)/(2z²) grows with j),
			// sum to at most e^{g_α}·P(Bin(α, q) ≥ k) ≤ e^{g_α − α·KL(k/α ‖ q)}
			// (Chernoff; the probability bound is 1 for k/α ≤ q). Sound,
			// looser than the series; the order search weighs it like any
			// other bound.
			acc.add(intTailLog(q, a, float64(k), (a*a-a)*inv2z2), 1e-9, 1, 0)
			break
		}
		kf := float64(k)
		lr := math.Log((a - kf + 1) / kf)
		lb += lr
		elb += 2*numeric.U + numeric.ErrLog*math.Abs(lr) + numeric.U*math.Abs(lb)
		tk, tak := kf*lq, (a-kf)*l1q
		base := lb + tk + tak
		eBase := elb + kf*elq + (a-kf)*el1q + 4*numeric.U*(math.Abs(lb)+math.Abs(tk)+math.Abs(tak))
		g := (kf*kf - kf) * inv2z2 // relative error ≤ 4U
		full := base + g           // ln of the term with e^g in place of e^g − 1
		if full-acc.m < -740 && acc.started {
			// below 2^−1067 of the sum: its exponential would underflow
			acc.err += 0x1p-1000
		} else {
			h, eh := logExpm1(g)
			acc.add(base+h, eBase+eh+2*numeric.U*math.Abs(base+h), 1, 0)
		}
		if (concave || kf+1 < kc && pastKc < acc.logSum()+stop) && full < prev && acc.started && full < acc.logSum()+stop {
			// Geometric tail of the terms with e^g (≥ e^g − 1) from k + 1 on:
			// all of them when α ≤ kc, else those up to kc.
			lr := full - prev // ln r < 0
			tail := full + lr - numeric.Log1mExp(lr)
			acc.add(tail, eBase+16*numeric.U*math.Abs(tail)+1e-12, 1, 0)
			if !concave {
				acc.add(pastKc, 1e-9, 1, 0)
			}
			break
		}
		prev = full
	}
	return acc.log()
}

// maxIntTerms bounds the terms of the integer-order series (logAm1Int) and
// the orders at which the fractional series is tried (Epsilon): past it
// the rest of the sum is bounded in one step (intTailLog). A sum of 2¹⁵
// terms takes about 3 ms (a calibration evaluates a thousand orders); orders beyond it arise only at very large noise
// and tiny δ (z = 10⁴, δ = 10⁻³⁰⁰ used to sum 5·10⁸ terms per order).
var maxIntTerms = 1 << 15 // a variable only so that a test can lower it

// intTailLog bounds ln Σ_{j≥k} C(α,j)(1−q)^{α−j}q^j (e^{g_j} − 1) by
// g + ln P(Bin(α, q) ≥ k), g ≥ every g_j, with the Chernoff bound
// ln P ≤ −α·KL(k/α ‖ q) where k/α > q (0 otherwise), rounded up generously
// (the KL is lowered by 10⁻⁹ relative and 10⁻¹² absolute, g raised by 10⁻⁹).
func intTailLog(q, a, k, g float64) float64 {
	lp := 0.0
	if r := k / a; r > q && r < 1 {
		kl := r*math.Log(r/q) + (1-r)*(math.Log1p(-r)-math.Log1p(-q))
		lp = -math.Max(0, a*kl*(1-1e-9)-1e-12)
	} else if r >= 1 {
		lp = -math.Max(0, a*math.Log(1/q)*(1-1e-9)-1e-12) // only j = α: q^α
	}
	return g*(1+1e-9) + 1e-12 + lp
}

// logExpm1 returns ln(e^g − 1) for g > 0 with a bound on its error, g itself
// carrying a relative error up to 4U.
func logExpm1(g float64) (h, e float64) {
	switch {
	case g < 0.5:
		// ln expm1(g): expm1's slope relative to its value is
		// g·e^g/expm1(g) < 1.3 here.
		h = math.Log(math.Expm1(g))
		return h, numeric.ErrExpm1 + 1.3*4*numeric.U + numeric.ErrLog*math.Abs(h)
	case g < 40:
		// g + log1p(−e^{−g}); the slope of ln expm1 is 1/(1 − e^{−g}) < 2.6.
		t := math.Log1p(-math.Exp(-g))
		h = g + t
		return h, 2.6*4*numeric.U*g + 4*numeric.U + numeric.ErrLog1p*math.Abs(t) + numeric.U*math.Abs(h)
	}
	// ln(e^g − 1) = g + ln(1 − e^{−g}) ∈ (g − 2e^{−g}, g).
	return g, 4*numeric.U*g*(1+1e-16) + 2*math.Exp(-g)
}

// log1pExpUp returns an upper bound on ln(1 + e^x) for every x within e of
// lnB (a monotone function, so evaluated at the top of the range).
func log1pExpUp(lnB, e float64) float64 {
	if math.IsInf(lnB, -1) {
		return 0
	}
	x := numeric.Up(lnB, e)
	if x > 0 {
		// x + log1p(e^{−x})
		return numeric.Exact(-x).Exp().Log1p().Add(numeric.Exact(x)).Up()
	}
	return numeric.Exact(x).Exp().Log1p().Up()
}

// sumAcc sums signed terms c·e^t, held as e^m·(pos − neg) with one scale m
// (moved up when a term exceeds it by e^600, so nothing overflows), and
// keeps a bound err (at scale m) on the absolute error of pos − neg: the
// error of each term from its inputs (t's and c's), of exp, and of every
// rescaling. pos and neg are compensated sums (Kahan–Babuška–Neumaier) of
// non-negative terms, whose own rounding error is at most
// (2U + O(nU²))·sum (Higham 2002, §4.3): a fixed relative error instead of
// n·U, which matters where pos and neg nearly cancel (α near 1).
type sumAcc struct {
	m, pos, posC, neg, negC, err float64
	n                            int
	started                      bool
	// boundTiny lets add replace terms below e^−80 of the scale (and
	// 10^−25 of the sum) by their bound in err, skipping the exp; add then
	// returns 0 for them, so callers that need the magnitudes leave it off.
	boundTiny bool
}

// neumaier adds x to the compensated sum (s, c).
func neumaier(s, c, x float64) (float64, float64) {
	t := s + x
	if math.Abs(s) >= math.Abs(x) {
		c += (s - t) + x
	} else {
		c += (x - t) + s
	}
	return t, c
}

// add adds c·e^t, where t has absolute error et and c (|c| ≤ 2) has
// absolute error ec, and returns e^t at the scale m (e^{t−m}, 0 if
// negligible).
func (a *sumAcc) add(t, et, c, ec float64) float64 { return a.addV(t, et, c, ec, -1, 0) }

// addV is add with v = e^{t−vm} already computed (by scaled, at the scale
// vm; v < 0: not computed).
func (a *sumAcc) addV(t, et, c, ec, v, vm float64) float64 {
	if !a.started {
		a.m, a.started = t, true
		v = -1
	}
	if vm != a.m {
		v = -1
	}
	d := t - a.m
	if d > 600 {
		if tot := a.pos + a.neg + a.err; tot == 0 || -d+(math.Logb(tot)+1)*math.Ln2 < -745 {
			// Everything so far is below 2^−1074 of this term (a fast
			// growing sequence): restart at its scale, no exponential.
			a.pos, a.posC, a.neg, a.negC, a.err = 0, 0, 0, 0, 0x1p-1074
			a.m, d, v = t, 0, 1
		} else {
			// Move the scale past t, so that a growing sequence of terms
			// rescales every few hundred units of ln rather than every term.
			a.rescale(t + 300)
			d, v = t-a.m, -1
		}
	}
	if d < -740 {
		a.err += 0x1p-1000 // |c·e^d| < 2^−1067
		return 0
	}
	if a.boundTiny && d < -80 && a.pos > 1e-10 {
		// Below e^−80 of the scale and 10^−25 of the sum: add its bound
		// 2^⌈d/ln 2⌉ ≥ e^d to the error instead of the term (no exp).
		a.err += math.Ldexp(math.Abs(c)+ec, int(d/math.Ln2)+1) * 2
		return 0
	}
	if v < 0 {
		v = math.Exp(d)
	}
	r := numeric.ErrExp + et + numeric.U*math.Abs(d) // relative error of v
	r *= 1 + r
	x := v * c
	a.err += v*(ec+math.Abs(c)*r) + numeric.U*math.Abs(x)
	a.addScaled(x, 0)
	return v
}

// addScaled adds x, already at scale m, with absolute error ex.
func (a *sumAcc) addScaled(x, ex float64) {
	a.err += ex
	a.n++
	if x >= 0 {
		a.pos, a.posC = neumaier(a.pos, a.posC, x)
	} else {
		a.neg, a.negC = neumaier(a.neg, a.negC, -x)
	}
}

// scaled returns e^{t−m} (0 below e^{−740}); for stopping rules and tail
// magnitudes, whose errors the caller bounds.
func (a *sumAcc) scaled(t float64) float64 {
	if !a.started {
		return math.Inf(1)
	}
	d := t - a.m
	if d < -740 {
		return 0
	}
	return math.Exp(d)
}

// rescale moves the scale to t > m. Sums that fall below e^−745 of the new
// scale become 0, their size kept in err.
func (a *sumAcc) rescale(t float64) {
	if math.IsInf(t, 1) || math.IsNaN(t) {
		a.pos, a.err, a.m = math.Inf(1), math.Inf(1), 0 // an infinite term: the sum is +Inf
		return
	}
	d := a.m - t
	if tot := a.pos + a.neg + a.err; d+(math.Logb(tot)+1)*math.Ln2 < -745 || tot == 0 {
		// Everything so far is below 2^−1074 at the new scale (a fast
		// growing sequence): no exponential needed.
		a.pos, a.posC, a.neg, a.negC, a.err = 0, 0, 0, 0, 0x1p-1074
		a.m = t
		return
	}
	// Scale by e^d in steps of at most e^−600, so that the factor itself
	// never underflows while the scaled sums are representable; what does
	// underflow is below 2^−1074 ≪ err.
	for d < 0 {
		st := math.Max(d, -600)
		f := math.Exp(st)
		rf := numeric.ErrExp + numeric.U*math.Abs(st)
		a.pos, a.posC, a.neg, a.negC = a.pos*f, a.posC*f, a.neg*f, a.negC*f
		a.err = a.err*f*(1+rf) + (a.pos+a.neg)*(rf+2*numeric.U) + 0x1p-1074
		d -= st
	}
	a.m = t
}

// value returns pos − neg (at scale m) and its error bound.
func (a *sumAcc) value() (s, e float64) {
	p, n := a.pos+a.posC, a.neg+a.negC
	s = p - n
	nf := float64(a.n)
	return s, a.err + (3*numeric.U+8*nf*numeric.U*numeric.U)*(p+n) + numeric.U*math.Abs(s)
}

// logSum returns ln(pos − neg) + m, the log of the current sum (−Inf or NaN
// when it is not positive); used for stopping rules only.
func (a *sumAcc) logSum() float64 { return a.m + math.Log(a.pos-a.neg) }

// log returns ln of the sum and a bound on its error; (−Inf, 0) for an empty
// sum, and ln of the upper end when the sum's enclosure reaches 0 or below
// (error 0, +Inf if even the upper end is not positive).
func (a *sumAcc) log() (lnS, e float64) {
	if !a.started {
		return math.Inf(-1), 0
	}
	s, es := a.value()
	if !(s-es > 0) {
		up := numeric.AddUp(s, es*(1+0x1p-20))
		if !(up > 0) {
			return math.Inf(-1), 0
		}
		return numeric.Exact(up).Log().Up() + a.m, numeric.U * math.Abs(a.m)
	}
	l := numeric.Approx{V: s, E: es}.Log()
	v := l.V + a.m
	return v, l.E + numeric.U*math.Abs(v)
}

// logAFrac returns an upper bound on ln A_α for fractional α from the two
// series of MTZ19, §3.3, split near the point x* = z² ln(1/q − 1) + ½ where
// the two Gaussians' weighted densities cross:
//
//	A₀ = Σ_i C(α,i) q^i (1−q)^{α−i} e^{(i²−i)/(2z²)} · Φ((z_A − i)/z)
//	A₁ = Σ_i C(α,i) q^{α−i} (1−q)^i e^{((α−i)²−(α−i))/(2z²)} · Φ((α−i − z_B)/z)
//
// (the integrals of the binomial expansions of (1−q + qL)^α over x ≤ z_A
// and x ≥ z_B). z_A ≤ x* ≤ z_B are the computed split point moved down and
// up by a bound on its rounding error, so each expansion is of (1 + x)^ν
// with 0 ≤ x ≤ 1 pointwise; the integral over the sliver [z_A, z_B] is
// bounded by its width times the integrand's maximum and added.
//
// A_α − 1 is summed directly: 1 = Σ_i B_i with B_i = C(α,i) q^i (1−q)^{α−i}
// (the binomial series of (q + (1−q))^α, convergent for q ≤ 1/2), so for
// q ≤ 1/2
//
//	A_α − 1 = Σ_i B_i (e^{y_i} − 1) + A₁,  y_i = (i²−i)/(2z²) + ln Φ((z_A − i)/z),
//
// and e^{y_i} − 1 is taken by expm1 (ln Φ near 0 by log1p of the upper
// tail): no subtraction of nearly equal numbers, and at small q the sum is
// dominated by the i = 2 term B₂(e^{1/z²} − 1). For q > 1/2 the mirror image
// pairs 1 with A₁ (the series of (q + (1−q))^α in powers of 1 − q).
//
// Past i > α each of the three series (A₀, A₁, Σ B_i) is, pointwise, an
// alternating series whose magnitudes |C(α,i)| x^i are decreasing and
// log-convex in i (the ratio (i−α)x/(i+1) grows), hence convex, and so are
// their integrals. For such a series the tail R_N from term N lies between
// a_N/2 and a_N − a_{N+1}/2 in magnitude, with the sign of term N
// (R_N − R_{N+1} is an alternating sum of the decreasing differences). The
// loop stops at an index N > α + 1 where C(α,N) < 0, adds −a_N/2 for the
// tails of A₀ and A₁ and +B_N for that of −Σ B_i (upper bounds), once the
// resulting slack, at most (a_{N−1} − a_N)/2 per series plus B_N/2, is
// below fracTol of the sum. After maxFracTerms terms past α it gives up and
// reports ok = false.
func logAFrac(q, z, alpha float64) (logA float64, ok bool) {
	const U = numeric.U
	lq, l1q := numeric.Log(q), math.Log1p(-q)
	elq, el1q := numeric.ErrLog*math.Abs(lq), numeric.ErrLog1p*math.Abs(l1q)
	z2 := z * z
	dl := l1q - lq // ln(1/q − 1), without rounding 1/q − 1
	z0 := z2*dl + 0.5
	dz := 2 * (z2*(elq+el1q) + 4*U*math.Abs(z2*dl) + 2*U*math.Abs(z0) + 1e-300)
	zA, zB := z0-dz, z0+dz
	inv2z2 := 1 / (2 * z2) // relative error ≤ 2U
	pairFirst := q <= 0.5
	var acc sumAcc
	lb, elb, sign := 0.0, 0.0, 1.0 // ln |C(α, i)|, its error and its sign
	var prevA, prevM float64       // a_{i−1} of A₀ + A₁ at scale prevM
	limit := int(alpha) + maxFracTerms
	for i := 0; i <= limit; i++ {
		fi := float64(i)
		if i > 0 {
			r := (alpha - fi + 1) / fi
			if r < 0 {
				sign = -sign
			}
			lr := math.Log(math.Abs(r))
			lb += lr
			elb += 3*U + numeric.ErrLog*math.Abs(lr) + U*math.Abs(lb)
		}
		j := alpha - fi // rounding ≤ U|j|
		// Series 0 (A₀) and series 1 (A₁): log of the binomial part, the
		// Gaussian exponent and ln Φ.
		ti, tj := fi*lq, j*l1q
		b0 := lb + ti + tj
		eb0 := elb + fi*elq + math.Abs(j)*el1q + U*math.Abs(tj) + 4*U*(math.Abs(lb)+math.Abs(ti)+math.Abs(tj))
		si, sj := fi*l1q, j*lq
		b1 := lb + sj + si
		eb1 := elb + fi*el1q + math.Abs(j)*elq + U*math.Abs(sj) + 4*U*(math.Abs(lb)+math.Abs(sj)+math.Abs(si))
		g0 := (fi*fi - fi) * inv2z2
		eg0 := 4 * U * math.Abs(g0)
		g1 := (j*j - j) * inv2z2
		eg1 := 4*U*math.Abs(g1) + (2*math.Abs(j)+1)*U*math.Abs(j)*inv2z2*1.01
		w0 := (zA - fi) / z
		ew0 := U*math.Abs(zA-fi)/z + U*math.Abs(w0)
		w1 := (j - zB) / z
		ew1 := (U*math.Abs(j)+U*math.Abs(j-zB))/z + U*math.Abs(w1)
		p0 := numeric.LogPhiApprox(numeric.Approx{V: w0, E: ew0})
		p1 := numeric.LogPhiApprox(numeric.Approx{V: w1, E: ew1})
		y0 := numeric.Approx{V: g0, E: eg0}.Add(p0)
		y1 := numeric.Approx{V: g1, E: eg1}.Add(p1)
		// The paired series contributes B_i(e^y − 1), the other e^{b+y}.
		bp, ebp, yp, bu, ebu, yu := b0, eb0, y0, b1, eb1, y1
		if !pairFirst {
			bp, ebp, yp, bu, ebu, yu = b1, eb1, y1, b0, eb0, y0
		}
		// B_i(e^y − 1) as sign·e^t·c with |c| ≤ 1: t = b + y and
		// c = −expm1(−y) for y > 0, t = b and c = expm1(y) for y ≤ 0.
		var t, et float64
		var c numeric.Approx
		if yp.V > 0 {
			t, et = bp+yp.V, ebp+2*U*math.Abs(bp+yp.V)
			c = numeric.Approx{V: -yp.V, E: yp.E}.Expm1().Neg()
		} else {
			t, et = bp, ebp
			c = yp.Expm1()
		}
		tu := bu + yu.V
		etu := ebu + yu.E + 2*U*math.Abs(tu)
		vp, vu, vm := -1.0, -1.0, acc.m
		if fi > alpha+1 && sign < 0 && acc.started {
			// Candidate stop: the magnitudes of this index's terms, at
			// scale m, from the same exponentials the sums use.
			vp, vu = acc.scaled(t), acc.scaled(tu)
			var aP, aB float64 // |A₀ term|, B_i (paired series)
			if yp.V > 0 {
				aP, aB = vp, vp*(1-c.V)
			} else {
				aP, aB = vp*(1+c.V), vp
			}
			cur := aP + vu
			if s := acc.pos - acc.neg; s > 0 && prevM == acc.m && prevA >= cur &&
				(prevA-cur)/2+aB/2 < fracTol*s {
				// Tails: ≤ −a_N/2 for A₀ and A₁, ≤ B_N for −Σ B_i.
				x := aB - cur/2
				acc.addScaled(x, 2*(numeric.ErrExp+math.Max(et, etu)+1e-12)*(aB+cur))
				acc.add(sliverLog(q, z, alpha, z0, dz), 1e-3, 1, 0)
				lnB, eB := acc.log()
				return log1pExpUp(lnB, eB), true
			}
		}
		vp = acc.addV(t, et, sign*c.V, c.E, vp, vm)
		vu = acc.addV(tu, etu, sign, 0, vu, vm)
		if fi > alpha && sign > 0 {
			if yp.V <= 0 {
				vp *= 1 + c.V
			}
			prevA, prevM = vp+vu, acc.m
		}
	}
	return math.NaN(), false
}

// sliverLog bounds the log of the integral of μ₀(x)(1 − q + qL(x))^α over
// [x* − dz, x* + dz] ⊂ [z₀ − 2dz, z₀ + 2dz]: the width times the largest
// Gaussian density there times (2(1−q))^α e^{2α·dz/z²}, since
// 1 − q + qL ≤ (1−q)(1 + e^{(x−x*)/z²}) and L(x*) = (1−q)/q. Its error is
// irrelevant (it is a bound, added with a generous 10^−3).
func sliverLog(q, z, alpha, z0, dz float64) float64 {
	near := math.Max(math.Abs(z0)-2*dz, 0)
	lmu := -near*near/(2*z*z) - math.Log(z) - 0.5*math.Log(2*math.Pi)
	return math.Log(4*dz) + lmu + alpha*(math.Ln2+math.Log1p(-q)) + 2*alpha*dz/(z*z) + 1e-3
}

const (
	// fracTol bounds the slack, relative to A_α − 1, that the bound on
	// the fractional series' omitted tails adds (they are added back as a
	// bound, so it is a loss of tightness, never of soundness).
	fracTol = 1e-6
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
//
// Each is rounded up (the integer-order values already are upper bounds).
func logAFallback(q, z, alpha float64) float64 {
	lo := math.Floor(alpha)
	hi := lo + 1
	la := 0.0
	if lo >= 2 {
		la = logAInt(q, z, int(lo))
	}
	lb := logAInt(q, z, int(hi))
	w := alpha - lo // exact
	chord := numeric.Exact(1 - w).Mul(numeric.Exact(la)).Add(numeric.Exact(w).Mul(numeric.Exact(lb))).Up()
	am1 := minusOne(alpha)
	mono := am1.Mul(numeric.Exact(lb)).Div(numeric.Exact(hi - 1)).Up()
	gauss := am1.Mul(numeric.Exact(alpha)).Div(numeric.Exact(2 * z * z)).Up()
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

// Epsilon returns the bound at α, rounded up.
func (s SampledGaussianReplaceOne) Epsilon(alpha float64) float64 {
	if s.Q == 1 {
		return numeric.DivUp(2*alpha, mulDown(s.Z, s.Z))
	}
	ar := SampledGaussian(s)
	if math.IsInf(alpha, 1) || !(alpha > 1) {
		return ar.Epsilon(alpha)
	}
	w := numeric.Exact(alpha).Sub(numeric.Exact(0.5)).Div(minusOne(alpha))
	return w.Mul(numeric.Exact(ar.Epsilon(2 * alpha))).Add(numeric.Exact(ar.Epsilon(2*alpha - 1))).Up()
}
