package shifted

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// Stop is Stop-PNSGD (FMTT18 §4): draw T uniformly from {1, …, n}, run T
// steps of PNSGD and release w_T. For index t the runs with T < t never see
// the record and those with T ≥ t are PNSGD with T − t + 1 steps to go
// (Thm 23), so with ρ = 2L²/σ² and m = n − t + 1 the exact mixture bound
// (derived in docs/amplification.md#skip-and-stop-mixtures, from the proof of
// Lemma 25) is
//
//	ε_t(α) = (1/(α − 1))·ln((t − 1)/n + (1/n)·Σ_{j=1}^{m} e^{(α−1)·αρ/j}),
//
// valid for every α > 1 and σ, and not linear in α.
//
// FMTT18 Thm 26 claims (α, 4αL² ln n/(nσ²)) under σ ≥ L√(2α(α−1)). That is
// NOT sound: its last step bounds H_{n−t+1} = Σ_{j ≤ n−t+1} 1/j by
// ln(n − t + 1), but H_m > ln m. HarmonicCurve is the repaired statement of
// the same argument; privamp never uses the paper's value as a guarantee.
//
// With a strongly convex loss each step contracts by c < 1, and the run
// stopped at T is single-pass strongly convex PNSGD, in which the record has
// j − 1 = T − t contracting noisy steps after its use: its term is
// e^{(α−1)·αρ₁·F_j} with F_j = c^{2(j−1)}(1 − c²)/(1 − c^{2j}) ≤ 1/j (the
// engine's c < 1 value; docs/amplification.md#skip-and-stop-mixtures).
// Curve takes, at each order, the smaller of that mixture and the c = 1 one
// (both sound).
type Stop struct {
	N     int64
	Sigma float64
	Loss  Loss
}

// Len returns N.
func (s Stop) Len() int64 { return s.N }

// Monotone returns −1: early records are seen by more of the runs.
func (s Stop) Monotone() int { return -1 }

// Check validates the parameters and the contraction assumption.
func (s Stop) Check() error { return SGD{N: s.N, Sigma: s.Sigma, Loss: s.Loss}.Check() }

func (s Stop) rho1() float64 {
	return 2 * s.Loss.Lipschitz * s.Loss.Lipschitz / (s.Sigma * s.Sigma)
}

// Curve returns the exact mixture curve of index t.
func (s Stop) Curve(t int64) rdp.Curve {
	return stopCurve{n: float64(s.N), m: float64(s.N - t + 1), rho1: s.rho1(), k: 1, lq: 2 * s.Loss.LogContraction()}
}

// Contracted reports whether Curve uses the c < 1 mixture (a strongly
// convex loss whose step contracts by c < 1).
func (s Stop) Contracted() bool { return s.Loss.LogContraction() < 0 }

// HarmonicCurve returns the sound version of Thm 26's argument for index t:
// Lemma 25 with c = (α − 1)·2αL²/σ² ≤ 1 (which is Thm 26's condition
// σ ≥ L√(2α(α−1)) when c = 1) gives
//
//	ε_t(α) = (1 + c)·2αL²·H_{n−t+1}/(nσ²) ≤ 4αL²(1 + ln n)/(nσ²),
//
// and +Inf at orders where c > 1 (Lemma 25 does not apply there). It is never
// below Curve.
func (s Stop) HarmonicCurve(t int64) rdp.Curve {
	return stopHarmonic{n: float64(s.N), h: harmonic(float64(s.N - t + 1)), rho1: s.rho1()}
}

// PaperCondition returns nil if σ ≥ L√(2α(α − 1)), the condition under
// which Thm 26 (through Lemma 25 with c = 1) is stated, and an error naming
// the largest order it allows otherwise. Curve needs no such condition.
func (s Stop) PaperCondition(alpha float64) error {
	need := s.Loss.Lipschitz * math.Sqrt(2*alpha*(alpha-1))
	if s.Sigma >= need {
		return nil
	}
	// largest α with 2α(α−1) ≤ (σ/L)²
	r := s.Sigma / s.Loss.Lipschitz
	amax := (1 + math.Sqrt(1+2*r*r)) / 2
	return fmt.Errorf("the condition of FMTT18 Thm 26 needs σ ≥ L√(2α(α−1)) = %.6g at α = %g, but σ = %g (it allows α ≤ %.6g)", need, alpha, s.Sigma, amax)
}

// PaperClaimRho returns the ρ of FMTT18 Thm 26's claimed (α, 4αL² ln n/(nσ²))
// bound. It is NOT SOUND (see the type's doc comment) and is provided only
// to show the difference.
func (s Stop) PaperClaimRho() float64 {
	return 2 * s.rho1() * math.Log(float64(s.N)) / float64(s.N)
}

// Source cites the derivation.
func (s Stop) Source() string {
	src := "FMTT18 Thm 26, repaired: exact mixture over the stopping time (the paper's bound is not sound; derivation: docs/amplification.md §Skip and Stop mixtures)"
	if s.Contracted() {
		src += fmt.Sprintf("; strongly convex: each stopping time's term is Thm 22 with the contraction c = %.6g < 1 (never above the c = 1 term); the c = 1 mixture is used only at orders where its value is smaller", s.Loss.Contraction())
	}
	return src
}

// Assumptions lists the assumptions.
func (s Stop) Assumptions() []string {
	out := SGD{N: s.N, Sigma: s.Sigma, Loss: s.Loss}.Assumptions()
	out = append(out, "T uniform on {1, …, n} and kept secret; only w_T is released; no condition on σ")
	if s.Loss.StrongConvexity > 0 && !s.Contracted() {
		out = append(out, "strong convexity is not exploited (the step does not contract below 1; the c = 1 analysis is used)")
	}
	return out
}

// Tasks is k independent Stop-PNSGD runs on the same data, one per task
// (FMTT18 Thm 32). Their outputs compose (Mironov 2017 Prop. 1): index t has
// the curve k·ε_t(α) of Stop. Thm 32's proof uses Thm 26, whose bound is not
// sound; this is the sound replacement.
type Tasks struct {
	Stop
	K int64 // number of tasks, ≥ 1
}

// Check validates the parameters.
func (k Tasks) Check() error {
	if k.K < 1 || k.K > MaxN {
		return fmt.Errorf("number of tasks k must be in [1, %d], got %d", MaxN, k.K)
	}
	return k.Stop.Check()
}

// Curve returns k times the Stop curve.
func (k Tasks) Curve(t int64) rdp.Curve {
	c := k.Stop.Curve(t).(stopCurve)
	c.k = float64(k.K)
	return c
}

// PaperClaimRho returns the ρ of Thm 32's (α, 4kαL² ln n/(nσ²)), NOT SOUND.
func (k Tasks) PaperClaimRho() float64 { return float64(k.K) * k.Stop.PaperClaimRho() }

// Source cites the theorem and the repair.
func (k Tasks) Source() string {
	src := fmt.Sprintf("FMTT18 Thm 32, repaired: the Stop-PNSGD mixture (docs/amplification.md §Skip and Stop mixtures) composed over k = %d tasks (Mironov 2017 Prop. 1)", k.K)
	if k.Contracted() {
		src += fmt.Sprintf("; strongly convex: each stopping time's term is Thm 22 with the contraction c = %.6g < 1 (the c = 1 mixture is used only at orders where its value is smaller)", k.Loss.Contraction())
	}
	return src
}

// Assumptions lists the assumptions.
func (k Tasks) Assumptions() []string {
	return append(k.Stop.Assumptions(), fmt.Sprintf("k = %d tasks, each with its own convex L-Lipschitz β-smooth loss family and independent randomness", k.K))
}

// stopCurve is k·(1/(α−1))·ln(1 + (1/n)·Σ_{j=1}^{m} expm1((α−1)αρ₁/j)),
// and with lq = 2 ln c < 0 the smaller of that and the same with F_j in
// place of 1/j (lnSumExpm1C).
type stopCurve struct{ n, m, rho1, k, lq float64 }

func (c stopCurve) Epsilon(a float64) float64 {
	if math.IsInf(a, 1) {
		return math.Inf(1)
	}
	x := (a - 1) * a * c.rho1
	ln := lnSumExpm1(x, c.m)
	if c.lq < 0 {
		if v := lnSumExpm1C(x, c.m, c.lq); v < ln { // a NaN keeps the c = 1 value
			ln = v
		}
	}
	return c.k * softplus(ln-math.Log(c.n)) / (a - 1)
}

// stopF returns an upper bound on F_j = q^{j−1}(1 − q)/(1 − q^j), q = e^{lq}
// ≤ 1: the strongly convex single-pass factor of a record with j − 1 steps
// after its use (docs/amplification.md#fixed-order-noisy-sgd); F_j ≤ 1/j,
// with equality at q = 1.
func stopF(j, lq float64) float64 {
	if j <= 1 {
		return 1
	}
	if lq == 0 {
		return numeric.Up(1/j, numeric.U/j)
	}
	f := math.Exp((j-1)*lq) * -math.Expm1(lq) / -math.Expm1(j*lq)
	return numeric.Up(f, 16*numeric.U*f)
}

// lnSumExpm1C returns an upper bound on ln Σ_{j=1}^{m} expm1(x·F_j) for
// x > 0 and q = e^{lq} < 1 (F_j of stopF). The terms are summed directly
// until a bound on the rest falls below 10⁻¹⁷ of the sum, or up to
// j = max(512, 32x). The rest is bounded term by term with
// expm1(y) ≤ y + y²/2 + y³·ρ(y_{J+1}), where ρ(y) = (e^y − 1 − y − y²/2)/y³
// increases and y_j = xF_j ≤ y_{J+1} (F_j decreases), and the power sums
// Σ_{j>J} F_j^k (k = 1, 2, 3) by integrals of g(y) = q^y/(1 − q^y) =
// 1/(q^{−y} − 1), F_j = ((1 − q)/q)·g(j). g is completely monotone, so
// g^k(j) ≤ ∫_{j−½}^{j+½} g^k (midpoint, convexity), and for k = 1 also
// g(j) ≤ ∫_{j−½}^{j+½} g − g”(j)/24 with Σ g”(j) ≥ ∫_{J+1}^{m+1} g”. With
// J' = J + ½, m' = m + ½: Σ F_j ≤ ((1 − q)/q)·[ln((1 − q^{m'})/(1 − q^{J'}))
// − (−lq)²(s(J+1) − s(m+1))/24]/(−lq), s(k) = q^k/(1 − q^k)²; Σ F_j² ≤
// ((1 − q)/q)²·(φ(q^{J'}) − φ(q^{m'}))/(−lq); Σ F_j³ ≤ ((1 − q)/q)³·(φ₃(q^{J'})
// − φ₃(q^{m'}))/(−lq) (docs/amplification.md#skip-and-stop-mixtures). The
// bound on the rest is raised by 10⁻¹² of itself for rounding. For x > 600
// the terms are scaled by e^{−x}.
func lnSumExpm1C(x, m, lq float64) float64 {
	if !(x > 0) || m < 1 {
		return math.Inf(-1)
	}
	if math.IsInf(lq, -1) { // c = 0: only T = t sees the record
		return x + math.Log(-math.Expm1(-x))
	}
	sc := 0.0
	if x > 600 {
		sc = x
	}
	term := func(y float64) float64 { // expm1(y)·e^{−sc}
		if sc == 0 {
			return math.Expm1(y)
		}
		return math.Exp(y-sc) * -math.Expm1(-y)
	}
	A := -math.Expm1(lq) // 1 − q
	q := math.Exp(lq)
	w := A / q
	lnOneMinusQm := math.Log(-math.Expm1((m + 0.5) * lq))
	phiM := phiOfExp((m + 0.5) * lq)
	// sq(k) = q^k/(1 − q^k)² = −g'(k)/(−lq)
	sq := func(k float64) float64 {
		om := -math.Expm1(k * lq)
		return math.Exp(k*lq) / (om * om)
	}
	sqM := sq(m + 1)
	phi3M := phi3OfExp((m + 0.5) * lq)
	// tail bounds Σ_{j=J+1}^{m} expm1(x F_j)·e^{−sc}
	tail := func(J float64) float64 {
		if J >= m {
			return 0
		}
		s1 := w * ((lnOneMinusQm-math.Log(-math.Expm1((J+0.5)*lq)))/-lq - -lq/24*(sq(J+1)-sqM))
		s2 := w * w * (phiOfExp((J+0.5)*lq) - phiM) / -lq
		s3 := w * w * w * (phi3OfExp((J+0.5)*lq) - phi3M) / -lq
		f := stopF(J+1, lq)
		y := x * f
		// expm1(y) − y − y²/2 ≤ y³·(that at y_{J+1})/y_{J+1}³ for y ≤ y_{J+1}
		r3 := x * x * x / 6 * math.Exp(y)
		if y < 0.5 {
			r3 = x * x * x * expm1Rest3(y) / (y * y * y)
		}
		b := x*math.Max(s1, 0) + x*x/2*math.Max(s2, 0) + r3*math.Max(s3, 0)
		if sc != 0 {
			b *= math.Exp(-sc)
		}
		return b * (1 + 1e-12)
	}
	Jmax := math.Min(m, math.Max(512, math.Ceil(32*x)))
	// G = 1/F_j by G_{j+1} = 1 + G_j/q, recomputed from the closed form
	// every 256 terms; the ≤ 3u relative error per step is covered by the
	// margin 2048u on F_j.
	qi := math.Exp(-lq)
	var s, G float64
	J := 0.0 // terms summed
	for j := 1.0; j <= Jmax; j++ {
		switch {
		case j == 1:
			G = 1
		case int64(j)%256 == 0:
			G = -math.Expm1(j*lq) / (A * math.Exp((j-1)*lq))
		default:
			G = 1 + G*qi
		}
		if G > 1e250 {
			break
		}
		f := numeric.Up(1/G, 2048*numeric.U/G)
		s += term(x * f)
		J = j
		if j >= 64 && int64(j)%16 == 0 && j < Jmax {
			if r := tail(j); r < 1e-17*s {
				break
			}
		}
	}
	s += tail(J)
	return sc + math.Log(numeric.Up(s, 4*(J+8)*numeric.U*s))
}

// expm1Rest3 returns e^y − 1 − y − y²/2 for 0 < y < 1/2 (series, rounded up).
func expm1Rest3(y float64) float64 {
	var s float64
	p := y * y / 2
	for k := 3; k < 40; k++ {
		p *= y / float64(k)
		s += p
		if p < 1e-18*s {
			break
		}
	}
	return s * (1 + 1e-14)
}

// phi3OfExp returns φ₃(u) = ∫_0^u v²/(1 − v)³ dv = 1/(2(1 − u)²) − 2/(1 − u) −
// ln(1 − u) + 3/2 for u = e^{l}, l < 0 (summed as Σ_{n≥2} C(n,2)u^{n+1}/(n + 1)
// for u < 1/2): Σ_{j>J} g(j)³ ≤ (φ₃(q^{J+½}) − φ₃(q^{m+½}))/(−ln q).
func phi3OfExp(l float64) float64 {
	u := math.Exp(l)
	if u >= 0.5 {
		om := -math.Expm1(l)
		return 1/(2*om*om) - 2/om - math.Log(om) + 1.5
	}
	var s float64
	p := u * u
	for n := 2; n < 300; n++ {
		p *= u
		add := p * float64(n*(n-1)/2) / float64(n+1)
		s += add
		if add < 1e-18*s {
			break
		}
	}
	return s
}

// phiOfExp returns φ(u) = u/(1 − u) + ln(1 − u) for u = e^{l}, l < 0
// (φ(u) = Σ_{k≥2}(1 − 1/k)u^k, summed as a series for u < 1/2).
func phiOfExp(l float64) float64 {
	u := math.Exp(l)
	if u >= 0.5 {
		om := -math.Expm1(l)
		return u/om + math.Log(om)
	}
	var s float64
	p := u
	for k := 2; k < 200; k++ {
		p *= u
		add := p * (1 - 1/float64(k))
		s += add
		if add < 1e-18*s {
			break
		}
	}
	return s
}

func softplus(y float64) float64 {
	if y > 0 {
		return y + math.Log1p(math.Exp(-y))
	}
	return math.Log1p(math.Exp(y))
}

// lnSumExpm1 returns ln Σ_{j=1}^{m} (e^{x/j} − 1) for x > 0, m ≥ 1 (−Inf for
// x = 0), as an upper bound up to rounding. For x ≤ 64 the first J ≥ 4x
// terms are summed and the rest by the series Σ_k x^k/k!·Σ_j j^{−k}
// (expm1Tail). For x > 64 the terms fall fast: they are summed until the
// rest, bounded above by (m − j)·(e^{x/(j+1)} − 1), is below 10⁻¹⁷ of the sum
// (or after 256 terms, when the bound is below 10⁻¹⁵ of it) and the bound is
// added.
func lnSumExpm1(x, m float64) float64 {
	if !(x > 0) || m < 1 {
		return math.Inf(-1)
	}
	if x <= 64 {
		J := math.Max(24, math.Ceil(4*x))
		if m <= J+32 {
			J = m
		}
		var s float64
		for j := 1.0; j <= J; j++ {
			s += math.Expm1(x / j)
		}
		if J == m {
			return math.Log(s)
		}
		return math.Log(s + expm1Tail(x, J+1, m, s))
	}
	if x <= 600 {
		var s float64
		for j := 1.0; j <= m; j++ {
			s += math.Expm1(x / j)
			if j == m {
				break
			}
			if int(j)%4 == 0 || j >= 256 {
				r := (m - j) * math.Expm1(x/(j+1))
				if r < 1e-17*s || j >= 256 {
					return math.Log(s + r)
				}
			}
		}
		return math.Log(s)
	}
	lnExpm1 := func(y float64) float64 { return y + numeric.Log1mExp(-y) }
	ln := math.Inf(-1)
	for j := 1.0; j <= m; j++ {
		ln = numeric.LogAdd(ln, lnExpm1(x/j))
		if j == m {
			break
		}
		r := math.Log(m-j) + lnExpm1(x/(j+1))
		if r < ln-40 || j >= 256 {
			return numeric.LogAdd(ln, r)
		}
	}
	return ln
}

// expm1Tail returns Σ_{j=a}^{b} expm1(x/j) = Σ_k x^k/k!·Σ_j j^{−k} for
// integers 25 ≤ a ≤ b with x/a ≤ 1/4, summing k until the terms fall below
// 1e−18 of head + tail. The power sums use Euler–Maclaurin with four
// Bernoulli terms, with a^{−k}, b^{−k} updated from one k to the next.
func expm1Tail(x, a, b, head float64) float64 {
	ia, ib := 1/a, 1/b
	ia2, ib2 := ia*ia, ib*ib
	ak, bk := 1.0, 1.0 // a^{−k}, b^{−k}
	lnba := math.Log(b / a)
	tail, term := 0.0, 1.0
	for k := 1; k <= 80; k++ {
		kf := float64(k)
		term *= x / kf
		ak *= ia
		bk *= ib
		var ps float64
		if k == 1 {
			ps = lnba
		} else {
			ps = (ak*a - bk*b) / (kf - 1)
		}
		ps += (ak + bk) / 2
		pa, pb := ak*ia, bk*ib
		rising := kf
		for i := 0; i < 4; i++ {
			ps += emCoef[i] * rising * (pa - pb)
			r := float64(2*i + 1)
			rising *= (kf + r) * (kf + r + 1)
			pa *= ia2
			pb *= ib2
		}
		add := term * ps
		tail += add
		if k >= 2 && add <= 1e-18*(head+tail) {
			break
		}
	}
	return tail
}

// Euler–Maclaurin coefficients B_{2i}/(2i)!.
var emCoef = [4]float64{1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600}

// powerSum returns Σ_{j=a}^{b} j^{−k} for integers 1 ≤ a ≤ b (given as
// floats) and k ≥ 1: directly for short ranges, otherwise by Euler–Maclaurin
// with four Bernoulli terms, accurate to ~1e−16 relative for a ≥ 64.
func powerSum(k int, a, b float64) float64 {
	if b < a {
		return 0
	}
	kf := float64(k)
	if b-a < 64 || a < 64 {
		if a < 64 && b-a >= 64 {
			return powerSum(k, a, 63) + powerSum(k, 64, b)
		}
		var s float64
		for j := b; j >= a; j-- { // small terms first
			switch k {
			case 1:
				s += 1 / j
			case 2:
				s += 1 / (j * j)
			default:
				s += math.Pow(j, -kf)
			}
		}
		return s
	}
	ak, bk := math.Pow(a, -kf), math.Pow(b, -kf)
	var s float64
	if k == 1 {
		s = math.Log(b / a)
	} else {
		s = (ak*a - bk*b) / (kf - 1)
	}
	s += (ak + bk) / 2
	ia2, ib2 := 1/(a*a), 1/(b*b)
	pa, pb := ak/a, bk/b // a^{−k−1}, b^{−k−1}
	rising := kf         // (k)_1
	for i := 0; i < 4; i++ {
		s += emCoef[i] * rising * (pa - pb)
		r := float64(2*i + 1)
		rising *= (kf + r) * (kf + r + 1) // (k)_{2i+3}
		pa *= ia2
		pb *= ib2
	}
	return s
}

// harmonic returns H_m = Σ_{j=1}^{m} 1/j.
func harmonic(m float64) float64 {
	if m < 1 {
		return 0
	}
	return powerSum(1, 1, m)
}

// stopHarmonic is (1 + c)·αρ₁·H/n with c = (α−1)αρ₁, +Inf where c > 1.
type stopHarmonic struct{ n, h, rho1 float64 }

func (c stopHarmonic) Epsilon(a float64) float64 {
	cc := (a - 1) * a * c.rho1
	if math.IsInf(a, 1) || cc > 1 {
		return math.Inf(1)
	}
	return (1 + cc) * a * c.rho1 * c.h / c.n
}
