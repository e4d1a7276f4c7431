package pld

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"

	"github.com/privamp/privamp/internal/field"
)

// phi is Φ(x) and phic is 1 − Φ(x), each accurate in its small tail.
func phi(x float64) float64  { return 0.5 * math.Erfc(-x/math.Sqrt2) }
func phic(x float64) float64 { return 0.5 * math.Erfc(x/math.Sqrt2) }

// normalQuantile returns z ∈ [0, 40] with 1 − Φ(z) ≤ tau, the smallest
// float64 to bisection's precision (numeric.Bisect down to adjacent
// floats; 40 where even 40 is not enough, which no tau ≥ 1e-300 needs).
func normalQuantile(tau float64) float64 {
	z, err := numeric.Bisect(func(z float64) bool { return phic(z) <= tau }, 0, 40, 0, true)
	if err != nil {
		return 40
	}
	return z
}

// gaussianLoss: P = N(0, 1), Q = N(μ, 1), L(x) = μ²/2 − μx (decreasing).
type gaussianLoss struct{ mu float64 }

func (g gaussianLoss) bounds(tau float64) (float64, float64) {
	z := normalQuantile(tau)
	return g.mu*g.mu/2 - g.mu*z, g.mu*g.mu/2 + g.mu*z
}

func (g gaussianLoss) tails(l float64) (pa, pb, qa, qb, r float64) {
	x := (g.mu*g.mu/2 - l) / g.mu                        // L > l ⟺ X < x
	ex := 3*(g.mu*g.mu/2+math.Abs(l))/g.mu + math.Abs(x) // |error of x| / u
	r = math.Max(phiErr(x, ex), phiErr(x-g.mu, ex+math.Abs(x-g.mu)))
	return phi(x), phic(x), phi(x - g.mu), phic(x - g.mu), r
}

// phiErr bounds the relative error (in units of u = 2⁻⁵³) of phi(x) or
// phic(x) when x carries an absolute error ex·u: erfc's own (< 1 ulp) and
// the scalings, plus ex times the tail's log-derivative, the inverse Mills
// ratio φ(x)/Φ̄(|x|) ≤ |x| + 1.
func phiErr(x, ex float64) float64 { return 3 + (math.Abs(x)+1)*ex }

// Gaussian returns the PLD of the Gaussian mechanism with ℓ2-sensitivity
// Δ and noise N(0, σ²): the pair N(0, σ²), N(Δ, σ²), whose privacy loss is
// N(μ²/2, μ²) with μ = Δ/σ (Balle–Wang 2018, Thm 8). It is symmetric.
func Gaussian(sensitivity, sigma float64, opt Options) (*PLD, error) {
	if err := field.First(field.Positive("sensitivity", sensitivity), field.Positive("sigma", sigma)); err != nil {
		return nil, err
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	mu := sensitivity / sigma
	if !(mu > 0) || math.IsInf(mu, 1) {
		return nil, field.New("sigma", sigma, "gives μ = Δ/σ = %g, outside (0, ∞)", mu)
	}
	f, err := discretize(gaussianLoss{mu}, o, nil)
	if err != nil {
		return nil, err
	}
	return &PLD{opt: o, remove: f}, nil
}

// laplaceLoss: P = Lap(0, b), Q = Lap(Δ, b), ε₀ = Δ/b; L(x) = (|x−Δ| − |x|)/b
// is ε₀ for x ≤ 0, (Δ − 2x)/b on (0, Δ) and −ε₀ for x ≥ Δ.
type laplaceLoss struct{ eps0 float64 }

func (g laplaceLoss) bounds(float64) (float64, float64) { return -g.eps0, g.eps0 }

func (g laplaceLoss) tails(l float64) (pa, pb, qa, qb, r float64) {
	switch {
	case l >= g.eps0:
		return 0, 1, 0, 1, 0
	case l < -g.eps0:
		return 1, 0, 1, 0, 0
	}
	// In units of b, with Δ/b = ε₀: L > l ⟺ x < t, t = (ε₀ − l)/2 ∈ (0, ε₀].
	t := (g.eps0 - l) / 2
	pb = 0.5 * math.Exp(-t)       // P(X ≥ t)
	qa = 0.5 * math.Exp(t-g.eps0) // Q(X < t)
	// exp's error (< 1 ulp) and the argument's (2 roundings, times
	// |t| ≤ ε₀ + |l|), and 1 − x.
	return 1 - pb, pb, qa, 1 - qa, 4 + 3*(g.eps0+math.Abs(l))
}

// Laplace returns the PLD of the Laplace mechanism with ℓ1-sensitivity Δ and
// noise Lap(0, b): ε₀ = Δ/b-DP, with the exact profile
// δ(ε) = 1 − e^{(ε−ε₀)/2} for 0 ≤ ε < ε₀ (Balle–Barthe–Gaboardi 2018,
// "Privacy Amplification by Subsampling"; dp_accounting's
// LaplacePrivacyLoss). Its losses lie in [−ε₀, ε₀] with atoms at both
// ends, so no tail is truncated. It is symmetric.
func Laplace(sensitivity, scale float64, opt Options) (*PLD, error) {
	if err := field.First(field.Positive("sensitivity", sensitivity), field.Positive("scale", scale)); err != nil {
		return nil, err
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	eps0 := sensitivity / scale
	if !(eps0 > 0) || math.IsInf(eps0, 1) {
		return nil, field.New("scale", scale, "gives ε₀ = Δ/b = %g, outside (0, ∞)", eps0)
	}
	f, err := discretize(laplaceLoss{eps0}, o, nil)
	if err != nil {
		return nil, err
	}
	return &PLD{opt: o, remove: f}, nil
}

// sampledLoss is one direction of the Poisson-subsampled Gaussian with
// sensitivity 1 and noise multiplier z: with g(x) = 1 − q + q e^{(2x−1)/(2z²)},
// remove is P = (1−q)N(0, z²) + qN(1, z²), Q = N(0, z²), L = ln g(X);
// add is P = N(0, z²), Q = the mixture, L = −ln g(X).
type sampledLoss struct {
	q, z float64
	add  bool
}

// lnG is ln g(x), increasing.
func (s sampledLoss) lnG(x float64) float64 {
	return math.Log1p(s.q * math.Expm1((2*x-1)/(2*s.z*s.z)))
}

func (s sampledLoss) bounds(tau float64) (float64, float64) {
	c := normalQuantile(tau / 2)
	xlo, xhi := -s.z*c, 1+s.z*c
	if s.add {
		return -s.lnG(xhi), -s.lnG(xlo)
	}
	return s.lnG(xlo), s.lnG(xhi)
}

func (s sampledLoss) tails(l float64) (pa, pb, qa, qb, r float64) {
	v := l
	if s.add {
		v = -l // L > l ⟺ g(X) < e^{−l} ⟺ X < x
	}
	// x = inv(v) = z² ln w + 1/2, w = (e^v − (1 − q))/q, the difference
	// taken in whichever form cancels less: (e^v − 1) + q for q small,
	// e^v − (1 − q) for q near 1 (where e^v can be far below 1).
	em := math.Expm1(v)
	d, bd := em+s.q, math.Abs(em)+s.q
	if ev := math.Exp(v); ev+(1-s.q) < bd {
		d, bd = ev-(1-s.q), ev+(1-s.q)
	}
	if !(d > 0) {
		// e^v ≤ 1 − q: x = −∞.
		if s.add {
			return 0, 1, 0, 1, 3
		}
		return 1, 0, 1, 0, 3
	}
	lw := math.Log(d / s.q)
	x := s.z*s.z*lw + 0.5
	// |error of x|/u: the difference's (4·bd/d relative), then z² ln w + 1/2.
	cw := 4 * bd / d
	ex := s.z*s.z*(cw+2*math.Abs(lw)) + 1 + math.Abs(x)
	u, w := x/s.z, (x-1)/s.z
	ex /= s.z
	r = 2 + math.Max(phiErr(u, ex+math.Abs(u)), phiErr(w, ex+2*math.Abs(w)))
	// Each Φ on its small side by erfc, the other side as 1 − it (an
	// absolute error of u on a value ≥ 1/2, within r).
	cu, ccu := phiPair(u)
	cv, ccv := phiPair(w)
	ma, mb := (1-s.q)*ccu+s.q*ccv, (1-s.q)*cu+s.q*cv
	if !s.add {
		return ma, mb, ccu, cu, r
	}
	return cu, ccu, mb, ma, r
}

// phiPair returns Φ(x) and 1 − Φ(x), the smaller one by erfc.
func phiPair(x float64) (float64, float64) {
	if x < 0 {
		c := phi(x)
		return c, 1 - c
	}
	c := phic(x)
	return 1 - c, c
}

// SubsampledGaussian returns the PLD of one step of DP-SGD: the Gaussian
// mechanism with sensitivity 1 and noise multiplier z on a Poisson sample
// with rate q, under add/remove-one neighbours. Both directions are kept
// (remove: P = (1−q)N(0, z²) + qN(1, z²) vs Q = N(0, z²); add: the reverse),
// the tightly dominating pairs of Zhu–Dong–Wang 2022 and
// Koskela–Jälkö–Honkela 2020. q = 1 is the Gaussian mechanism.
func SubsampledGaussian(q, z float64, opt Options) (*PLD, error) {
	if !(q > 0 && q <= 1) {
		return nil, field.New("sampling_rate", q, "must be in (0, 1]")
	}
	if err := field.Positive("noise", z); err != nil {
		return nil, err
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	return subsampledGaussian(q, z, o, nil)
}

// subsampledGaussian builds the PLD with tails cached in cache[0..1].
//
// The add direction's tails are the remove direction's read backwards:
// tails(l) of add computes everything from v = −l, as remove does at −l,
// and returns the same four numbers in another order (mirrorTails). Its
// grid is remove's mirrored (its bounds are remove's negated), so its
// table is remove's, reversed and permuted, bit for bit: the tails (exp,
// log and two erfc at each grid loss, most of a discretization's time)
// are computed once, their two halves in parallel.
func subsampledGaussian(q, z float64, o Options, cache *[2][]tl) (*PLD, error) {
	if cache == nil {
		cache = new([2][]tl)
	}
	rl, al := sampledLoss{q: q, z: z}, sampledLoss{q: q, z: z, add: true}
	if lo, n := gridOf(rl, o); n > 0 {
		if len(cache[0]) != n {
			cache[0] = tailsTable(rl, o.Interval, lo, n)
		}
		mirrorTails(cache, lo, al, o)
	}
	var add *pmf
	var errAdd error
	done := make(chan struct{})
	go func() { // the two directions' grids in parallel
		defer close(done)
		add, errAdd = discretize(al, o, &cache[1])
	}()
	rem, err := discretize(rl, o, &cache[0])
	<-done
	if err != nil {
		return nil, err
	}
	if errAdd != nil {
		return nil, errAdd
	}
	return &PLD{opt: o, remove: rem, add: add}, nil
}

// mirrorTails fills cache[1], the add direction's tails table, from
// cache[0], remove's table for the grid starting at index lo, when add's
// grid (gridOf) is exactly remove's mirrored: add's entry at index i is
// remove's at −i with (pa, pb, qa, qb) → (qb, qa, pb, pa) (see
// sampledLoss.tails). Otherwise it leaves cache[1] for discretize to fill.
func mirrorTails(cache *[2][]tl, lo int, add sampledLoss, o Options) {
	r := cache[0]
	n := len(r)
	if n == 0 || len(cache[1]) == n {
		return
	}
	alo, an := gridOf(add, o)
	if an != n || alo != -(lo+n-1) {
		cache[1] = nil
		return
	}
	a := make([]tl, n)
	for j := range a { // add's index alo + j = −(lo + n−1−j)
		t := r[n-1-j]
		a[j] = tl{pa: t.qb, pb: t.qa, qa: t.pb, qb: t.pa, r: t.r}
	}
	cache[1] = a
}

// rrLoss is randomized response with ε₀: P = (p, 1−p), Q = (1−p, p),
// p = e^{ε₀}/(1 + e^{ε₀}); L = ε₀ with probability p, −ε₀ otherwise.
type rrLoss struct{ eps0 float64 }

func (g rrLoss) bounds(float64) (float64, float64) { return -g.eps0, g.eps0 }

func (g rrLoss) tails(l float64) (pa, pb, qa, qb, r float64) {
	switch {
	case l >= g.eps0:
		return 0, 1, 0, 1, 0
	case l < -g.eps0:
		return 1, 0, 1, 0, 0
	}
	p := 1 / (1 + math.Exp(-g.eps0))
	pc := 1 / (1 + math.Exp(g.eps0))
	return p, pc, pc, p, 6
}

// RandomizedResponse returns the PLD of binary randomized response that
// reports the true bit with probability e^{ε₀}/(1 + e^{ε₀}) (Warner 1965;
// Dwork–Roth 2014, §3.2): ε₀-DP, with the exact profile
// δ(ε) = (e^{ε₀} − e^ε)/(1 + e^{ε₀}) for 0 ≤ ε < ε₀. It is symmetric.
func RandomizedResponse(eps0 float64, opt Options) (*PLD, error) {
	if err := field.Positive("epsilon", eps0); err != nil {
		return nil, err
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	f, err := discretize(rrLoss{eps0}, o, nil)
	if err != nil {
		return nil, err
	}
	return &PLD{opt: o, remove: f}, nil
}
