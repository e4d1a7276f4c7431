package pld

import (
	"math"
)

// splitBudget is the share of δ that each of the two approximations of
// splitCompose (the binomial terms left out, and the bound on the rounding
// of the terms kept) is planned to take.
const splitBudget = 1e-4

// splitMaxJ is the largest number of tail factors kept by splitCompose.
const splitMaxJ = 4

// splitCompose returns f^{*k} computed with a body/tail split, for a PLD
// whose heavy upper tail defeats the tilted FFT (see selfComposeAt). With
// B the masses of f below a split index and T those at or above it
// (f = B + T, all non-negative),
//
//	f^{*k} = B^{*k} + Σ_{j=1}^{J} C(k,j) B^{*(k−j)} * T^{*j} + R,
//
// R the terms with more than J tail factors, a non-negative measure of
// total mass at most C(k,J+1)‖T‖₁^{J+1}(‖B‖₁+‖T‖₁)^{k−J−1} (union bound
// over the sets of J+1 steps that fall in T), which is dropped and added
// to δ. B has no heavy tail, so B^{*k} is composed by the tilted FFT
// (composeTilted) with the tilt centred at eps0 (the ε found so far): its
// rounding error reaches l_s weighted by the Chernoff factor of B alone.
// The middle sum is computed by one untilted FFT,
// Ẑ = Σ_j C(k,j) B̂^{k−j} T̂^j, whose rounding error is proportional to
// ‖T‖₁ (see tailTerms), not to the total mass 1: the split index is the
// smallest one at which that bound and ‖R‖₁ stay below splitBudget·δ.
// It returns nil (and no error) when no split helps.
func (f *pmf) splitCompose(k, maxPoints int, delta, eps0 float64) (*pmf, error) {
	n1 := len(f.p)
	if k < 2 || n1 < 2 || !(eps0 > 0) || math.IsInf(eps0, 1) {
		return nil, nil
	}
	kk := float64(k)
	// The window of the whole k-fold composition (untilted); every term
	// is below it pointwise, so its Chernoff bounds hold for each.
	lo, _ := f.chernoff(k, windowTail, false)
	hi, upTail := f.chernoff(k, windowTail, true)
	if hi < lo {
		hi = lo
	}
	if float64(hi)-float64(lo)+1 > float64(maxPoints) {
		return nil, nil
	}
	n, err := fftSize(hi-lo+1, maxPoints)
	if err != nil {
		return nil, nil
	}
	// Plan J and the tail mass mT: the rounding bound of the middle sum
	// is about 2η·k(k+1)·mT per frequency, and the profile multiplies its
	// ℓ2 norm by at most √n; R is at most C(k,J+1)·mT^{J+1}.
	budget := splitBudget * delta
	eta := fftEta(n)
	mErr := budget / (2 * eta * kk * (kk + 1) * math.Sqrt(float64(n)) * math.E)
	mT, J := 0.0, 0
	for j := 1; j <= splitMaxJ; j++ {
		mR := math.Exp((math.Log(budget/math.E) - math.Log(binom(kk, j+1))) / float64(j+1))
		mT, J = math.Min(mErr, mR), j
		if mR >= mErr {
			break
		}
	}
	// The split: the smallest index whose suffix mass is at most mT.
	split, s := n1, 0.0
	for i := n1 - 1; i >= 1; i-- {
		if s+f.p[i] > mT {
			break
		}
		s += f.p[i]
		split = i
	}
	if split >= n1 || split < 1 {
		return nil, nil
	}
	body := &pmf{h: f.h, lo: f.lo, p: f.p[:split]}
	tailP := &pmf{h: f.h, lo: f.lo + split, p: f.p[split:]}
	tB := body.tiltAt(k, eps0)
	bk, err := body.composeTilted(k, maxPoints, tB)
	if err != nil {
		return nil, nil
	}
	z, zErr, zDropped := tailTerms(body, tailP, k, J, lo, n)
	top := max(bk.lo+len(bk.p)-1, lo+n-1)
	if !(zErr < math.Inf(1)) || top-bk.lo+1 > maxPoints {
		putBuf(bk.p)
		putBuf(z)
		return nil, nil
	}
	// R: mass bound with the computed sums rounded up.
	mB, mTT := sum(body.p), sum(tailP.p)
	rem := binom(kk, J+1) * math.Exp(float64(J+1)*math.Log(mTT)+(kk-float64(J+1))*math.Log(math.Max(1, mB+mTT))) * (1 + 1e-9)
	// Combine on [bk.lo, max(bk's top, lo+n−1)]; the middle sum's values
	// below bk.lo are moved up to it (only raises δ). All n values of z
	// are kept: what wrapped from below lo sits above hi.
	out := &pmf{h: f.h, lo: bk.lo, p: getBuf(top - bk.lo + 1)}
	clear(out.p)
	copy(out.p, bk.p)
	putBuf(bk.p)
	folded := 0
	for i, v := range z {
		s := lo + i - out.lo
		if s < 0 {
			s = 0
			folded++
		}
		out.p[s] += v
	}
	putBuf(z)
	dropped := 0.0
	for i, v := range out.p {
		out.p[i] = flush(v, &dropped)
	}
	if f.inf > 0 {
		out.inf = math.Min(1, -math.Expm1(kk*math.Log1p(-f.inf))*(1+4*unit)+4*unit)
	}
	out.tail = math.Min(1, (kk*f.tail+bk.tail+upTail+rem+zDropped+dropped)*(1+4*unit))
	out.below = bk.below
	// Each value is a sum of non-negative computed terms (one from B^{*k},
	// the rest from the middle sum; at the bottom, folded values): with m
	// terms the exact sum is at most fl(sum)/(1 − (m−1)u), a relative
	// factor taken into lnR.
	out.lnR = kk*f.lnR*(1+4*unit) + float64(folded+2)*unit*(1+1e-9)
	q1 := math.Exp(f.lnR) * math.Max(1, sum(f.p))
	out.err1 = kk * f.err1 * math.Exp((kk-1)*math.Log(q1+f.err1)) * (1 + 1e-12)
	out.errL2, out.tiltT, out.tiltS = bk.errL2, bk.tiltT, bk.tiltS
	out.errL2u = zErr
	return out, nil
}

// binom returns C(n, j) for small j as Π_{i=1}^{j} (n−j+i)/i, within a
// relative 2j·u (each factor is exact for n < 2⁵³, each step rounds twice).
func binom(n float64, j int) float64 {
	c := 1.0
	for i := 1; i <= j; i++ {
		c = c * (n - float64(j) + float64(i)) / float64(i)
	}
	return c
}

// tailTerms returns the masses on the window [lo, lo+n) of
// Z = Σ_{j=1}^{J} C(k,j) B^{*(k−j)} * T^{*j}, by one FFT of length n of B
// and of T (untilted), an ℓ2 bound on their error, and the mass flushed
// (below 1e-250, added to δ). The values are clamped to [0, zMass], zMass
// ≥ ‖Z‖₁ (the exact values lie there).
//
// Error. With D_B = 2η‖b‖₁ and D_T = 2η‖t‖₁ the componentwise errors of
// the forward transforms (see fftEta), β_i = |B̂_i| + D_B and
// τ_i = |T̂_i| + D_T bound the exact and computed coefficients, and
// g(a, b) = Σ_{j=1}^{J} C(k,j) a^{k−j} b^j has, on that polydisc,
// |∂_a g| ≤ k Σ_{j≥1} C(k−1,j) β^{k−1−j} τ^j ≤ k((β+τ)^{k−1} − β^{k−1})
// and |∂_b g| ≤ k Σ_{j≥1} C(k−1,j−1) β^{k−j} τ^{j−1} ≤ k(β+τ)^{k−1}
// (C(k,j)(k−j) = kC(k−1,j), C(k,j)j = kC(k−1,j−1)). So
// |g(B̂_i, T̂_i) − g(B_i, T_i)| ≤ E_i = k D_B((β+τ)^{k−1} − β^{k−1}) +
// k D_T(β+τ)^{k−1}, which carries the factor τ ≈ ‖t‖₁ (D_B ≈ 2η, D_T ≈
// 2η‖t‖₁). Evaluating g (cpow's 6ku, at most 2J + 2 complex products of
// relative error √5u per term, the coefficients' 2Ju, the sum's Ju) adds
// a relative (6k + 20J + 10)u of Σ_j C(k,j)|B̂|^{k−j}|T̂|^j (charged twice,
// for the rounding of that sum); where |B̂_i|^k would
// underflow the coefficient is set to 0 and its bound (β+τ)^k added. The
// inverse FFT adds 2η‖Ẑ‖₂/√n (Higham) and its scaling u. By Parseval the
// ℓ2 error of z is at most √(Σ_i E_i'²/n) for the total per-frequency
// bound E_i' (the half spectrum counts twice, but for 0 and n/2).
func tailTerms(b, t *pmf, k, J, lo, n int) ([]float64, float64, float64) {
	kk := float64(k)
	w := getFFT(n)
	defer putFFT(n, w)
	x := w.x
	place := func(f *pmf) {
		clear(x)
		pos := mod(f.lo, n)
		for _, v := range f.p {
			x[pos] += v
			if pos++; pos == n {
				pos = 0
			}
		}
	}
	place(b)
	lb1, _ := norms(x)
	cb := append([]complex128(nil), w.ft.Coefficients(w.c, x)...)
	place(t)
	lt1, _ := norms(x)
	ct := w.ft.Coefficients(w.c, x)
	eta := fftEta(n)
	dB, dT := 2*eta*lb1*(1+1e-9), 2*eta*lt1*(1+1e-9)
	coef := make([]complex128, J+1)
	for j := 1; j <= J; j++ {
		coef[j] = complex(binom(kk, j), 0)
	}
	lim := math.Exp(-1300 / kk) // |B̂|^{k−J}, |B̂|^k above e^{−650}: no underflow
	rel := (6*kk + 20*float64(J) + 10) * unit
	var eSum, zSum float64
	for i := range ct {
		wt := 2.0
		if i == 0 || (n%2 == 0 && i == len(ct)-1) {
			wt = 1
		}
		bv, tv := cb[i], ct[i]
		ab, at := math.Hypot(real(bv), imag(bv)), math.Hypot(real(tv), imag(tv))
		beta, tau := ab+dB, at+dT
		// (β+τ)^{k−1} and (β+τ)^{k−1} − β^{k−1}.
		lbt := (kk - 1) * math.Log(beta+tau)
		pw := math.Exp(lbt)
		diff := pw // ≥ the difference; used where β is 0 or far below τ
		if ex := (kk - 1) * math.Log1p(tau/beta); beta > 0 && ex < 50 {
			diff = math.Exp((kk-1)*math.Log(beta)) * math.Expm1(ex)
		}
		e := kk*(dB*diff+dT*pw)*(1+1e-9) + 1e-280 // + underflow of products
		var zv complex128
		if ab*ab < lim {
			e += math.Exp(kk*math.Log(beta+tau))*(1+1e-9) + 1e-300
		} else {
			// Σ_{j=1}^{J} C(k,j) B̂^{J−j} T̂^j, times B̂^{k−J}.
			var s complex128
			bp, tp := complex(1, 0), cpow(tv, J)
			for j := J; j >= 1; j-- {
				s += coef[j] * bp * tp
				bp *= bv
				if j > 1 {
					tp = cpow(tv, j-1)
				}
			}
			zv = s * cpow(bv, k-J)
			// Σ C(k,j)|B̂|^{k−j}|T̂|^j, its bound.
			g := 0.0
			for j := 1; j <= J; j++ {
				g += real(coef[j]) * math.Pow(ab, kk-float64(j)) * math.Pow(at, float64(j))
			}
			e += 2 * rel * g
		}
		ct[i] = zv
		a2 := real(zv)*real(zv) + imag(zv)*imag(zv)
		eSum += wt * e * e
		zSum += wt * a2
	}
	nn := float64(n)
	y := w.ft.Sequence(x, ct)
	inv := 1 / nn
	zMass := kk * lt1 * math.Exp((kk-1)*math.Log(math.Max(1, lb1+lt1))) * (1 + 1e-9)
	out := getBuf(n)
	dropped := 0.0
	for i := range out {
		out[i] = flush(math.Min(math.Max(0, y[i]*inv), zMass), &dropped)
	}
	// out[i] is the value at lo + i: rotate (position p holds index
	// ≡ p mod n; index lo+i sits at (lo+i) mod n).
	start := mod(lo, n)
	if start != 0 {
		tmp := getBuf(n)
		copy(tmp, out[start:])
		copy(tmp[n-start:], out[:start])
		putBuf(out)
		out = tmp
	}
	errL2 := (math.Sqrt(eSum/nn) + (2*eta+2*unit)*math.Sqrt(zSum/nn)) * (1 + 1e-6)
	return out, errL2, dropped
}
