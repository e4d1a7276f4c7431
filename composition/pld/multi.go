package pld

import (
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
)

// Part is one mechanism of a composition and how many times it runs.
type Part struct {
	PLD   *PLD
	Count int
}

// ComposeFor returns the PLD of running every part's mechanism Count times
// (adaptively, in any order: the PLD of a composition is the convolution of
// its mechanisms' PLDs, whatever the order), tuned for queries at delta.
// Every part must be fresh from a discretization (not composed) and all
// must share one interval and discretization.
//
// One part is PLD.SelfComposeFor (PLD.SelfCompose if delta is 0). More
// than pairwiseParts, all fresh, are composed on one common window
// (composeMany). Other sets of several are first self-composed apart and
// composed pairwise (untilted FFTs, the
// rounding error of each bounded relative to mass 1). For a sound PLD at a
// delta > 0 where that rounding bound still weighs at the ε found (more
// than 10⁻³δ: small δ, long runs), the whole composition is redone in one
// FFT on masses tilted by a common t (multiComposeAt, the several-mechanism
// form of the tilted self-composition): its rounding error reaches the
// loss near ε(δ) multiplied by about δ instead of 1. Each result is a valid
// bound at every ε; the one with the smaller ε at delta is returned.
func ComposeFor(parts []Part, delta float64) (*PLD, error) {
	if len(parts) == 0 {
		return nil, field.New("parts", 0, "must list at least one mechanism")
	}
	if delta != 0 {
		if err := field.OpenUnit("delta", delta); err != nil {
			return nil, err
		}
	}
	for _, p := range parts {
		if p.Count < 1 {
			return nil, field.New("count", p.Count, "must be a whole number ≥ 1")
		}
		if p.PLD.opt.Interval != parts[0].PLD.opt.Interval {
			return nil, field.New("discretization", p.PLD.opt.Interval, "must equal the other PLD's interval %g", parts[0].PLD.opt.Interval)
		}
		if p.PLD.opt.Discretization.Sound() != parts[0].PLD.opt.Discretization.Sound() {
			return nil, field.New("discretization_method", p.PLD.opt.Discretization.String(), "cannot be composed with a %s PLD", parts[0].PLD.opt.Discretization)
		}
	}
	return composeParts(parts, delta, nil)
}

// composeParts is ComposeFor on checked parts: one part self-composed,
// more than pairwiseParts fresh ones on one window (composeMany, which
// calls tick per transform), the others pairwise.
func composeParts(parts []Part, delta float64, tick func()) (*PLD, error) {
	switch {
	case len(parts) == 1:
		return parts[0].PLD.selfComposeAt(parts[0].Count, delta)
	case len(parts) > pairwiseParts && fresh(parts):
		return composeMany(parts, delta, tick)
	}
	return composePairwise(parts, delta)
}

// composePairwise is ComposeFor for a few mechanisms (or parts that are not
// fresh): self-composed apart, composed pairwise, then redone tilted in one
// FFT where the rounding bound weighs (multiComposeAt).
func composePairwise(parts []Part, delta float64) (*PLD, error) {
	var acc *PLD
	for _, p := range parts {
		c, err := p.PLD.SelfCompose(p.Count)
		if err != nil {
			return nil, err
		}
		if acc == nil {
			acc = c
		} else if acc, err = acc.Compose(c); err != nil {
			return nil, err
		}
	}
	opt := parts[0].PLD.opt
	if delta == 0 || !opt.Discretization.Sound() {
		return acc, nil
	}
	out := &PLD{opt: opt}
	symmetric := true
	for _, p := range parts {
		symmetric = symmetric && p.PLD.add == nil
	}
	for i, dir := range []func(*PLD) *pmf{
		func(d *PLD) *pmf { return d.remove },
		func(d *PLD) *pmf {
			if d.add == nil {
				return d.remove
			}
			return d.add
		},
	} {
		if i == 1 && symmetric {
			break
		}
		fs, ks := make([]*pmf, len(parts)), make([]int, len(parts))
		for j, p := range parts {
			fs[j], ks[j] = dir(p.PLD), p.Count
		}
		pair := dir(acc)
		f := multiComposeAt(fs, ks, opt.MaxPoints, delta, pair)
		if i == 0 {
			out.remove = f
		} else {
			out.add = f
		}
	}
	return out, nil
}

// sumDist is the distribution of a sum of independent losses, ks[i] of
// them drawn from fs[i]: its log-MGF is Σ k_i ln M_i(t).
type sumDist struct {
	fs []*pmf
	ks []float64
	h  float64
	// tick, if not nil, is called after each mechanism's transform.
	tick func()
}

func (s sumDist) logMGF(t float64) float64 {
	v := 0.0
	for i, f := range s.fs {
		v += s.ks[i] * f.logMGF(t)
	}
	return v
}

// extent returns the lowest and highest grid index the sum can reach.
func (s sumDist) extent() (float64, float64) {
	lo, hi := 0.0, 0.0
	for i, f := range s.fs {
		lo += s.ks[i] * float64(f.lo)
		hi += s.ks[i] * float64(f.lo+len(f.p)-1)
	}
	return lo, hi
}

// chernoffAt is pmf.chernoffAt for the sum: the smallest grid index whose
// tail beyond it (upper if up) of the sum tilted by t0 is at most tau, and
// the bound there (upper tails only).
func (s sumDist) chernoffAt(tau float64, up bool, t0 float64) (int, float64) {
	sign := 1.0
	if !up {
		sign = -1
	}
	lm0 := s.logMGF(t0)
	at := func(lt float64) float64 {
		t := math.Exp(lt)
		return (s.logMGF(t0+sign*t) - lm0 - math.Log(tau)) / t
	}
	lt, a := numeric.MinimizeUnimodal(at, math.Log(1e-4), math.Log(1e4), 20)
	t := math.Exp(lt)
	minI, maxI := s.extent()
	if up {
		idx := math.Ceil(a / s.h)
		if idx >= maxI || math.IsNaN(idx) {
			return int(maxI), 0
		}
		idx = math.Max(idx, minI)
		return int(idx), math.Min(1, math.Exp(s.logMGF(t0+t)-lm0-t*idx*s.h))
	}
	idx := math.Floor(-a / s.h)
	if idx <= minI || math.IsNaN(idx) {
		return int(minI), 0
	}
	return int(math.Min(idx, maxI)), 0
}

// massBelow bounds the sum's (untilted) mass below grid index i:
// min_t e^{t l_i} Π M_i(−t)^{k_i}.
func (s sumDist) massBelow(i int) float64 {
	l := float64(i) * s.h
	_, b := numeric.MinimizeUnimodal(func(lt float64) float64 {
		t := math.Exp(lt)
		return s.logMGF(-t) + t*l
	}, math.Log(1e-4), math.Log(1e4), 30)
	return math.Min(1, math.Exp(b)*(1+1e-9))
}

// tiltFor returns the t minimizing the Chernoff bound (ln M(t) − ln δ)/t
// on the loss above which the sum's mass is at most δ, and that loss.
func (s sumDist) tiltFor(delta float64) (float64, float64) {
	lt, c := numeric.MinimizeUnimodal(func(lt float64) float64 {
		t := math.Exp(lt)
		return (s.logMGF(t) - math.Log(delta)) / t
	}, math.Log(1e-4), math.Log(1e4), 30)
	return math.Exp(lt), c
}

// tiltAt returns the t that centres the sum tilted by t at the loss c.
func (s sumDist) tiltAt(c float64) float64 {
	lt, _ := numeric.MinimizeUnimodal(func(lt float64) float64 {
		t := math.Exp(lt)
		return s.logMGF(t) - t*c
	}, math.Log(1e-4), math.Log(1e4), 30)
	return math.Exp(lt)
}

// multiComposeAt returns the composition of ks[i] copies of each fs[i],
// the better (smaller ε at delta) of pair, the pairwise composition already
// made, and of tilted one-FFT compositions (composeTiltedMulti), tried as
// selfComposeAt tries tilts: first the tilt that centres the tilted sum
// where its Chernoff tail bound is delta, then, while the rounding term
// still weighs at the ε found, at most twice more centred at 0.9 times the
// best ε found. A tilted attempt that fails (a window over the point cap)
// is skipped: pair stands.
func multiComposeAt(fs []*pmf, ks []int, maxPoints int, delta float64, pair *pmf) *pmf {
	best, bestE := pair, math.Inf(1)
	if pair != nil {
		var w bool
		if bestE, w = weighsAt(pair, delta); !w {
			return best
		}
	}
	for _, f := range fs {
		if f.errL2 != 0 || f.errL2u != 0 || f.tiltT != 0 {
			return best // not fresh: the tilted bound below assumes exact inputs up to lnR, err1
		}
	}
	s := newSumDist(fs, ks, nil)
	return multiTilted(s, ks, maxPoints, delta, best, bestE)
}

// weighsAt returns out's sound ε at delta and whether its FFT rounding
// term still weighs there (more than 10⁻³δ; true where ε is +∞).
func weighsAt(out *pmf, delta float64) (float64, bool) {
	e, term := roundingAt(out, delta)
	return e, term > 1e-3*delta
}

// roundingAt returns out's sound ε at delta and its FFT rounding term
// there (+∞ where ε is +∞, 0 off the grid).
func roundingAt(out *pmf, delta float64) (float64, float64) {
	pr := out.profile(true)
	e := pr.epsilon(delta)
	if math.IsInf(e, 1) {
		return e, e
	}
	j := int(math.Floor(e/out.h)) - out.lo
	if j < 0 || j >= len(out.p) {
		return e, 0
	}
	return e, pr.fftTerm(j)
}

// newSumDist is the sum of ks[i] draws from each fs[i].
func newSumDist(fs []*pmf, ks []int, tick func()) sumDist {
	s := sumDist{fs: fs, ks: make([]float64, len(ks)), h: fs[0].h, tick: tick}
	for i, k := range ks {
		s.ks[i] = float64(k)
	}
	return s
}

// multiTilted is multiComposeAt's search over tilts, starting from best
// (nil: none yet) whose ε at delta is bestE: the best of best and the
// tilted attempts, or nil if there is none.
func multiTilted(s sumDist, ks []int, maxPoints int, delta float64, best *pmf, bestE float64) *pmf {
	t, centre := s.tiltFor(delta)
	for pass := 0; pass < 3; pass++ {
		out, err := composeTiltedMulti(s, ks, maxPoints, t)
		if err != nil {
			return best
		}
		e, w := weighsAt(out, delta)
		if best == nil || e < bestE {
			best, bestE = out, e
		}
		if !w {
			break
		}
		if math.IsInf(bestE, 1) {
			centre /= 2
		} else {
			centre = 0.9 * bestE
		}
		if t = s.tiltAt(centre); t <= 1e-4 {
			break
		}
	}
	return best
}

// composeTiltedMulti is composeTilted for several mechanisms: every fs[i]
// is tilted by t0 > 0 (p̂_j = p_j e^{t0 l_j − ln M_i(t0)}), transformed
// once, raised to ks[i], the spectra multiplied, transformed back once and
// untilted (y_s = ŷ_s e^{S − t0 l_s}, S = Σ k_i ln M_i(t0)). The window
// and what is added to δ are as in composeTilted; the rounding bounds
// generalize its coarser ones (Higham's ℓ2 bound, no spectral refinement):
// with B_i ≥ ‖x̂_i‖₁ bounding every |X_i| and |X̃_i| and G = Π max(1,B_i)^{k_i},
//
//	|Π X̃_i^{k_i} − Π X_i^{k_i}| ≤ Σ_i k_i |X̃_i − X_i| · G
//
// (telescoping), so the forward FFTs add G·Σ k_i η‖x̂_i‖₂ in ℓ2 after the
// inverse (Parseval), the inputs' tilting errors G·Σ k_i ‖e_i‖₂ (Young),
// the powers, the products and the inverse a relative error on ‖y‖₂ ≤ G.
func composeTiltedMulti(s sumDist, ks []int, maxPoints int, t0 float64) (*pmf, error) {
	fs := s.fs
	h := s.h
	// Untilted (t0 = 0), what wraps from below lands at full weight: both
	// ends are cut at windowTail, as composeTilted cuts them.
	tailLo, tailHi := tiltTail, tiltTailHi
	if t0 == 0 {
		tailLo, tailHi = windowTail, windowTail
	}
	lo, _ := s.chernoffAt(tailLo, false, t0)
	hi, upTail := s.chernoffAt(tailHi, true, t0)
	if hi < lo {
		hi = lo
	}
	if float64(hi)-float64(lo)+1 > float64(maxPoints) {
		return nil, field.New("discretization", h, "needs %d grid points for the composition, more than the cap of %d; use a coarser interval", hi-lo+1, maxPoints)
	}
	n, err := fftSize(hi-lo+1, maxPoints)
	if err != nil {
		return nil, err
	}
	nn := float64(n)
	eta := fftEta(n)
	w := getFFT(n)
	defer putFFT(n, w)
	x := w.x
	prod := make([]complex128, n/2+1)
	for i := range prod {
		prod[i] = 1
	}
	zeroed := false       // some component of prod set to 0
	const tiny = 9.8e-305 // < e^{−700} ≈ 9.86e−305
	var (
		S, K, sumLM, relc float64
		G, mass, massU    = 1.0, 1.0, 1.0
		fwd, inErr        float64
		lnR, inf1m        float64 // Σ k lnR; ln Π(1 − p∞)^k
		tail              float64
		err1Terms         []float64
		qs                []float64
	)
	for i, f := range fs {
		k := ks[i]
		kk := float64(k)
		K += kk
		// x is all zeros here (getFFT clears it; the positions written
		// are cleared after each transform).
		lm := f.logMGF(t0)
		S += kk * lm
		sumLM += kk * math.Abs(lm)
		theta, under, thmax := 0.0, 0.0, 0.0
		// Untilted, the factor e^{arg} = e^{−lm} is the same at every point
		// (0·l − lm = −lm exactly), and so is its error bound.
		ex0, rel0 := math.Exp(-lm), unit*(6*math.Abs(lm)+4)
		pos0 := mod(f.lo, n)
		pos := pos0
		for j, v := range f.p {
			if v > 0 {
				rel := rel0
				if t0 == 0 {
					v *= ex0
				} else {
					arg := t0*float64(f.lo+j)*h - lm
					v *= math.Exp(arg)
					rel = unit * (3*math.Abs(arg) + 3*math.Abs(lm) + 4)
				}
				thmax = math.Max(thmax, rel)
				theta += (rel * v) * (rel * v)
				if v < 0x1p-1022 {
					under += 0x1p-1022
					v = 0
				}
			}
			x[pos] += v
			if pos++; pos == n {
				pos = 0
			}
		}
		var l1, l2 float64
		if len(f.p) <= n { // no two masses share a position: the norms of f's masses as placed
			l1, l2 = norms(x[pos0:min(n, pos0+len(f.p))])
			if r := pos0 + len(f.p) - n; r > 0 {
				a1, a2 := norms(x[:r])
				l1, l2 = l1+a1, math.Hypot(l2, a2)
			}
		} else {
			l1, l2 = norms(x)
		}
		// B_i: |X_i| ≤ ‖x_i‖₁ (exact tilted masses, at most l1(1 + 2θmax + 2nu))
		// and |X̃_i| ≤ that + 2η‖x̃_i‖₁.
		b := l1 * (1 + 2*thmax + 2*float64(len(f.p))*unit + 2*eta) * (1 + 1e-12)
		G *= math.Pow(math.Max(1, b), kk)
		mass *= math.Pow(math.Max(1, b), kk)
		massU *= math.Pow(math.Max(1, sum(f.p)), kk)
		fwd += kk * eta * l2 * (1 + eta)
		inErr += kk * (math.Sqrt(theta)*(1+1e-9) + under)
		relc += 6*kk + 5*math.Log2(math.Max(kk, 1)) + 5 + 3
		// The masses sit at [pos0, pos0 + len) mod n: transformed as the
		// sequence nonzero on [0, a) ∪ [n − b, n) only (the same output,
		// bit for bit, fft.CoefficientsOf), which skips the butterflies
		// of the zeros around them.
		a, bb := n, 0
		switch end := pos0 + len(f.p); {
		case len(f.p) > n:
		case end > n:
			a, bb = end-n, n-pos0
		case end == n:
			a, bb = 0, n-pos0
		default:
			a = end
		}
		c := w.ft.CoefficientsOf(w.c, x, a, bb)
		if len(f.p) <= n {
			clear(x[pos0:min(n, pos0+len(f.p))])
			clear(x[:max(0, pos0+len(f.p)-n)])
		} else {
			clear(x)
		}
		// |v|^k < e^{−700} where |v|² < lim (0 for k = 1: the product's
		// own test below then decides).
		lim := math.Exp(-1400 / kk)
		for m, v := range c {
			pm := prod[m]
			if pm == 0 {
				continue
			}
			if real(v)*real(v)+imag(v)*imag(v) < lim {
				prod[m], zeroed = 0, true
				continue
			}
			if pm *= cpow(v, k); math.Abs(real(pm))+math.Abs(imag(pm)) < tiny {
				pm, zeroed = 0, true
			}
			prod[m] = pm
		}
		lnR += kk * f.lnR
		if f.inf > 0 {
			inf1m += kk * math.Log1p(-f.inf)
		}
		tail += kk * f.tail
		qs = append(qs, math.Exp(f.lnR)*math.Max(1, sum(f.p)))
		err1Terms = append(err1Terms, f.err1)
		if s.tick != nil {
			s.tick()
		}
	}
	// A component is zeroed when its computed running product, or the
	// factor about to multiply it, has modulus below e^{−700} (no
	// subnormal arithmetic): the computed product would have had modulus
	// at most e^{−699}·G (every other factor is at most B_i^{k_i}, whose
	// product is G; an underflow's error is far below e^{−700}): that much
	// in ℓ2 after the inverse (n components, ÷√n twice, Parseval).
	zeroedL2 := 0.0
	if zeroed {
		zeroedL2 = math.Exp(-699) * G
	}
	copy(w.c, prod)
	y := w.ft.Sequence(x, w.c)
	out := &pmf{h: h, lo: lo, p: getBuf(hi - lo + 1)}
	inv := 1 / nn
	dropped := 0.0
	mass *= 1 + 1e-12
	massU *= 1 + 1e-12
	untilt(out.p, y, mod(lo, n), n, lo, inv, mass, massU, S, t0, h, 4*sumLM, &dropped)
	out.tiltT, out.tiltS = t0, S
	upTail = math.Min(1, upTail*math.Exp(S-t0*float64(hi)*h)*(1+1e-9))
	if t0 == 0 {
		// The Chernoff bound that set lo bounds the mass below it (of
		// the sum normalized by its total mass e^{ln M(0)}).
		out.below = windowTail * math.Max(1, math.Exp(s.logMGF(0))) * (1 + 1e-9)
	} else {
		out.below = s.massBelow(lo)
	}
	if inf1m < 0 {
		out.inf = math.Min(1, -math.Expm1(inf1m)*(1+4*unit)+4*unit)
	}
	out.tail = math.Min(1, tail+upTail+dropped)
	out.lnR = lnR * (1 + 4*unit)
	// Absolute ℓ1 error: Π(q_i + Z_i)^{k_i} − Π q_i^{k_i} ≤
	// Σ_i k_i Z_i Π_j (q_j + Z_j)^{k_j} / (q_i + Z_i) (telescoping).
	lp := 0.0
	for i := range qs {
		lp += float64(ks[i]) * math.Log(qs[i]+err1Terms[i])
	}
	for i := range qs {
		if err1Terms[i] > 0 {
			out.err1 += float64(ks[i]) * err1Terms[i] * math.Exp(lp-math.Log(qs[i]+err1Terms[i]))
		}
	}
	out.err1 *= 1 + 1e-12
	out.errL2 = G*(inErr+fwd) + (relc*unit+2*eta)*G*(1+1e-9) + zeroedL2 + 1e-300
	return out, nil
}
