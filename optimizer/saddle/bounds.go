package saddle

import "math"

// ell returns ℓ = ln dx + ln dy (natural logs: the entropy bound
// D(w, uniform) ≤ ln d).
func ell(dx, dy int) float64 { return math.Log(float64(dx)) + math.Log(float64(dy)) }

// SMDBound is the explicit bound on E Gap(x̃, ỹ) of Algorithm 1 on a
// bilinear game with payoff bound a (L0 = L1 = a, L2 = 0), T steps, step τ:
// the pre-optimisation bound of the proof of Thm 3.1 (proof 3.13 with
// Lemma 3.11),
//
//	E Gap(x̃, ỹ) ≤ 8L1√(ℓ/T) + 4L1/T + 2ℓ/(τT) + 5τL0²,
//
// whose bias term vanishes for a bilinear game (vertex sampling is unbiased
// for any K). Derived returns the tighter bound proved for the bilinear case
// in docs/saddle.md,
//
//	E Gap(x̃, ỹ) ≤ 2ℓ/(τT) + 5τa² + a(√(2 ln dx/T) + √(2 ln dy/T)),
//
// which is below the paper's (√(2 ln dx) + √(2 ln dy) ≤ 2√ℓ), so the
// paper's constants hold here.
func SMDBound(dx, dy, T int, a, tau float64) (paper, derived float64) {
	l, t := ell(dx, dy), float64(T)
	opt := 2*l/(tau*t) + 5*tau*a*a
	paper = 8*a*math.Sqrt(l/t) + 4*a/t + opt
	derived = opt + a*(math.Sqrt(2*math.Log(float64(dx))/t)+math.Sqrt(2*math.Log(float64(dy))/t))
	return paper, derived
}

// BRBound is the explicit bound, conditional on the rounds' N_1..N_T′ (which
// are independent of everything else), on E Gap(x̃, ỹ) of Algorithm 3 on a
// bilinear game (docs/saddle.md):
//
//	E[Gap | N] ≤ (1/T′)[2ℓ/τ + (τ/2)Σ_t (3G_x(N_t) + 3G_y(N_t) + 4a²)] + a(√(2 ln dx/T′) + √(2 ln dy/T′)),
//
// with G_x(N) = 2Z²a²2^N(1 + ln 2dx) + 2a² ≥ E‖g_x‖∞² (Maurey-type
// sub-Gaussian maximum; the ∞-norm form of Cor. 2.12 for L2 = 0) and
// likewise G_y with dy. It follows the proof of Thm 3.14 (Lemma 3.8 with the
// second moment of Algorithm 2's estimator) with every constant explicit.
func BRBound(dx, dy int, Ns []int, M int, a, tau float64) float64 {
	T := len(Ns)
	if T == 0 {
		return math.Inf(1)
	}
	z := tgNorm(M)
	lx, ly := 1+math.Log(2*float64(dx)), 1+math.Log(2*float64(dy))
	var s float64
	for _, N := range Ns {
		p := math.Ldexp(1, N)
		gx := 2*z*z*a*a*p*lx + 2*a*a
		gy := 2*z*z*a*a*p*ly + 2*a*a
		s += 3*gx + 3*gy + 4*a*a
	}
	t := float64(T)
	return (2*ell(dx, dy)/tau+tau/2*s)/t + a*(math.Sqrt(2*math.Log(float64(dx))/t)+math.Sqrt(2*math.Log(float64(dy))/t))
}

// Rate7 is Thm 3.1 (7)'s rate (L0 + L1)[√(ℓ/n) + (ℓ^{3/2}√ln(1/δ)/(nε))^{1/2}]
// with its hidden constant set to 1: for reference, not a bound.
func Rate7(dx, dy, n int, a, eps, delta float64) float64 {
	l := ell(dx, dy)
	return 2 * a * (math.Sqrt(l/float64(n)) + math.Sqrt(math.Pow(l, 1.5)*math.Sqrt(math.Log(1/delta))/(float64(n)*eps)))
}

// Rate314 is Thm 3.14's rate log(n)(√C√(ℓ/n) + √L0 C^{1/4}(ℓ^{3/2}√ln(1/δ)/(nε))^{1/2})
// with C = L0² + L2² + ℓML1² and the hidden constant set to 1 (the theorem
// holds with probability 0.99 up to that constant): for reference only.
func Rate314(dx, dy, n, M int, a, eps, delta float64) float64 {
	l := ell(dx, dy)
	c := a*a + l*float64(M)*a*a
	return math.Log(float64(n)) * (math.Sqrt(c)*math.Sqrt(l/float64(n)) +
		math.Sqrt(a)*math.Pow(c, 0.25)*math.Sqrt(math.Pow(l, 1.5)*math.Sqrt(math.Log(1/delta))/(float64(n)*eps)))
}

// SMDPlan is Thm 3.1 (7)'s setting for a bilinear game: K = 1, T =
// min{n, nε/√(ℓ ln(1/δ))} (seed 003 notes §3.3, derived from the proof).
func SMDPlan(n, dx, dy int, eps, delta float64) int {
	l := ell(dx, dy)
	T := math.Min(float64(n), float64(n)*eps/math.Sqrt(l*math.Log(1/delta)))
	return max(1, int(T))
}

// BRPlan solves Thm 3.14's circular settings by fixed-point iteration
// (seed 003 notes §2.3): C = L0² + L2² + ℓML1² (here L0 = L1 = a, L2 = 0),
// U = min{nε√C/(√(15552 ℓ ln(1/δ)) L0), n/2}, τ = √(ℓ/(CU)),
// α = (2ε²/(48·81 ln(1/δ)(τL0)²n))^{1/3}, M = max(1, ⌊log2 √U⌋).
func BRPlan(n, dx, dy int, a, eps, delta float64) (U float64, M int, tau, alpha float64) {
	return brPlan(n, dx, dy, a, 0, eps, delta)
}

// brPlan is BRPlan with L2 (the notes' test vectors use L0 = L1 = L2).
func brPlan(n, dx, dy int, a, l2, eps, delta float64) (U float64, M int, tau, alpha float64) {
	l, L := ell(dx, dy), math.Log(1/delta)
	M = 1
	for it := 0; it < 50; it++ {
		c := a*a + l2*l2 + l*float64(M)*a*a
		U = math.Min(float64(n)*eps*math.Sqrt(c)/(math.Sqrt(15552*l*L)*a), float64(n)/2)
		U = math.Max(U, 4)
		m := max(1, int(math.Floor(math.Log2(math.Sqrt(U)))))
		tau = math.Sqrt(l / (c * U))
		alpha = math.Cbrt(2 * eps * eps / (48 * 81 * L * tau * tau * a * a * float64(n)))
		if m == M {
			break
		}
		M = m
	}
	return U, M, tau, alpha
}

// SCOPlan is Thm 4.2's second-order-smooth setting (proof 4.5): T =
// min{n, nε/(ℓx√ln(1/δ))}, q = √(T/ℓx), K = √(Tℓx), rounded to integers ≥ 1.
func SCOPlan(n, d int, eps, delta float64) (T, q, K int) {
	lx := math.Log(float64(d))
	t := math.Min(float64(n), float64(n)*eps/(lx*math.Sqrt(math.Log(1/delta))))
	T = max(1, int(t))
	q = max(1, int(math.Round(math.Sqrt(float64(T)/lx))))
	K = max(1, int(math.Round(math.Sqrt(float64(T)*lx))))
	return T, q, K
}

// SCOConstants are the declared smoothness constants of a DP-SCO loss on
// Δd w.r.t. ‖·‖1: ‖∇f‖∞ ≤ L0, ‖∇f(a) − ∇f(b)‖∞ ≤ L1‖a − b‖1, each partial
// derivative L2-smooth (seed 003 §1.4).
type SCOConstants struct {
	L0 float64 `json:"l0"`
	L1 float64 `json:"l1"`
	L2 float64 `json:"l2"`
}

// scoSums returns Σ_t H_t with H_t = Σ_{k=t0(t)+1}^{t} 1/k and Σ_t (t −
// t0(t)), t0(t) the last sampling step ≤ t (t0 = t for t ≤ q, else q⌊t/q⌋).
// It sums by blocks b = 1, 2, ...: t = bq + j, j = 0..J, contributes
// Σ_j j = J(J+1)/2 to the lag and Σ_{k=a+1}^{a+J} (a+J+1−k)/k =
// (a+J+1)(H_{a+J} − H_a) − J (a = bq) to Σ H_t, so it takes O(T/q) steps
// (the bound is evaluated at n up to 10^8 by the break-even search).
func scoSums(T, q int) (h, lag float64) {
	for a := q; a < T; a += q {
		J := min(q-1, T-a)
		lag += float64(J) * float64(J+1) / 2
		h += float64(a+J+1)*harmonicDiff(a, a+J) - float64(J)
	}
	return h, lag
}

// harmonicDiff is H_m − H_a = Σ_{k=a+1}^{m} 1/k: summed for a < 64 or m −
// a < 64, else by the asymptotic series of H (error below 1/(252a⁶)).
func harmonicDiff(a, m int) float64 {
	if a < 64 || m-a < 64 {
		var s float64
		for k := m; k > a; k-- {
			s += 1 / float64(k)
		}
		return s
	}
	fa, fm := float64(a), float64(m)
	tail := func(x float64) float64 { x2 := x * x; return 1/(2*x) - 1/(12*x2) + 1/(120*x2*x2) }
	return math.Log1p((fm-fa)/fa) + tail(fm) - tail(fa)
}

// SCOReuseMoment is G ≥ E‖∇h(ŵ) − ∇h(w)‖∞² for ŵ the mean of K draws from
// P_w and h with constants c (docs/saddle.md §8, Lemma C):
// min{16L1²(1 + ln 2d)/K + 8L2²/K², 4L0², 4L1²}.
func SCOReuseMoment(d, K int, c SCOConstants) float64 {
	k := float64(K)
	g := 16*c.L1*c.L1*(1+math.Log(2*float64(d)))/k + 8*c.L2*c.L2/(k*k)
	return math.Min(g, 4*math.Min(c.L0*c.L0, c.L1*c.L1))
}

// SCOBound is the explicit bound on E[F(ŵ_T)] − min F of Algorithm 5 proved
// in docs/saddle.md §8 (following proof 4.5 of seed 003 with every constant
// explicit and the reused sparse point handled by a ghost iterate):
//
//	ln d/(τT) + τL0²/2 + 4L2/K + 2L1/K + (4L1/T)Σ_t H_t + (τG/T)Σ_t (t − t0(t)),
//
// G = SCOReuseMoment(d, K, c). It holds for every T, K, q, τ > 0.
func SCOBound(d, T, K, q int, c SCOConstants, tau float64) float64 {
	h, lag := scoSums(T, q)
	t, k := float64(T), float64(K)
	return math.Log(float64(d))/(tau*t) + tau*c.L0*c.L0/2 + 4*c.L2/k + 2*c.L1/k + 4*c.L1*h/t + tau*SCOReuseMoment(d, K, c)*lag/t
}

// scoBestStep minimises SCOBound over τ: √(ln d / (T(L0²/2 + G·lag/T))).
func scoBestStep(d, T, K, q int, c SCOConstants) float64 {
	_, lag := scoSums(T, q)
	t := float64(T)
	return math.Sqrt(math.Log(float64(d)) / (t * (c.L0*c.L0/2 + SCOReuseMoment(d, K, c)*lag/t)))
}

// Rate42 is Thm 4.2's second-order-smooth rate with its hidden constant set
// to 1, (L0+L1)[√(ℓx/n) + ℓx ln(1/δ)^{1/4}/√(nε)] + L2/(√n ℓx^{1/4}) +
// L2 ℓx^{1/4} ln(1/δ)^{1/4}/√(nε) + L1 ln(√(nℓx))[1/√n + ln(1/δ)^{1/4}/√(nε)]:
// for reference, not a bound.
func Rate42(d, n int, c SCOConstants, eps, delta float64) float64 {
	lx, nf := math.Log(float64(d)), float64(n)
	l4 := math.Pow(math.Log(1/delta), 0.25)
	se := math.Sqrt(nf * eps)
	return (c.L0+c.L1)*(math.Sqrt(lx/nf)+lx*l4/se) + c.L2/(math.Sqrt(nf)*math.Pow(lx, 0.25)) +
		c.L2*math.Pow(lx, 0.25)*l4/se + c.L1*math.Log(math.Sqrt(nf*lx))*(1/math.Sqrt(nf)+l4/se)
}
