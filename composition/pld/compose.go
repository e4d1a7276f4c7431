package pld

import (
	"math"
	"sync"

	"github.com/privamp/privamp/internal/fft"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
)

// windowTail is the bound on the composed mass above the FFT window (added
// to δ in a sound PLD) and below it (wrapped into the window).
const windowTail = 1e-18

// fftEta is the relative ℓ2 error of one FFT of length n, forward or
// inverse, and 2η·‖x‖₁ bounds the error of every single forward output:
// fft.Bound, which argues it for internal/fft's structure (Higham 2002,
// Theorem 24.2, radix-2: log₂n · (μ + γ₄(√2 + μ)), the radix-4 stages and
// the real post-processing included).
func fftEta(n int) float64 { return fft.Bound(n) }

func norms(p []float64) (l1, l2 float64) {
	for _, v := range p {
		l1 += math.Abs(v)
		l2 += v * v
	}
	return l1, math.Sqrt(l2)
}

// logMGF returns ln Σ p_j e^{t l_j}, summed relative to the end where
// the exponent is largest (so nothing overflows), by Horner's rule in four
// independent chains.
//
// Zero end masses are skipped: summed relative to a zero top (or bottom)
// mass, every term can underflow at a large |t| and the sum be 0, ln 0 =
// −∞ where the MGF is positive; tiltFor then picked t = 10⁴ with centre
// −∞, and the composition tilted by it was all NaN, whose ε came out 0
// (replace-one DP-SGD on a coarse grid at δ = 3.4e-287).
func (f *pmf) logMGF(t float64) float64 {
	p := f.p
	lo := f.lo
	for len(p) > 1 && p[len(p)-1] == 0 {
		p = p[:len(p)-1]
	}
	for len(p) > 1 && p[0] == 0 {
		p, lo = p[1:], lo+1
	}
	n := len(p)
	r := math.Exp(-math.Abs(t) * f.h)
	r4 := r * r * r * r
	var s0, s1, s2, s3 float64
	i := 0
	if t >= 0 {
		// S = Σ_j p_j r^{n−1−j}: Horner from j = 0 up, four at a time.
		for ; i+4 <= n; i += 4 {
			s0 = s0*r4 + p[i]
			s1 = s1*r4 + p[i+1]
			s2 = s2*r4 + p[i+2]
			s3 = s3*r4 + p[i+3]
		}
		sum := ((s0*r+s1)*r+s2)*r + s3
		for ; i < n; i++ {
			sum = sum*r + p[i]
		}
		return math.Log(sum) + t*float64(lo+n-1)*f.h
	}
	// S = Σ_j p_j r^j: Horner from j = n−1 down.
	j := n - 1
	for ; j-3 >= 0; j -= 4 {
		s0 = s0*r4 + p[j]
		s1 = s1*r4 + p[j-1]
		s2 = s2*r4 + p[j-2]
		s3 = s3*r4 + p[j-3]
	}
	sum := ((s0*r+s1)*r+s2)*r + s3
	for ; j >= 0; j-- {
		sum = sum*r + p[j]
	}
	return math.Log(sum) + t*float64(lo)*f.h
}

// chernoff returns the smallest grid index a (in [min, max]) whose k-fold
// tail bound beyond a (upper if up, else lower) is at most tau, and the
// bound at a, for the distribution tilted by t0 ≥ 0 (p_j e^{t0 l_j}/M(t0);
// t0 = 0: p itself): Σ_{s>a} p̂^{*k}(s) ≤ e^{−ta}(M(t0+t)/M(t0))^k.
func (f *pmf) chernoff(k int, tau float64, up bool) (int, float64) {
	return f.chernoffAt(k, tau, up, 0)
}

func (f *pmf) chernoffAt(k int, tau float64, up bool, t0 float64) (int, float64) {
	kk := float64(k)
	sign := 1.0
	if !up {
		sign = -1
	}
	lm0 := 0.0
	if t0 != 0 {
		lm0 = f.logMGF(t0)
	}
	// a(t) = (k ln M(±t) − ln τ)/t is quasi-convex in t > 0: golden section
	// on ln t.
	at := func(lt float64) float64 {
		t := math.Exp(lt)
		return (kk*(f.logMGF(t0+sign*t)-lm0) - math.Log(tau)) / t
	}
	// Any t gives a valid bound, so the best point the search saw will do.
	lt, a := numeric.MinimizeUnimodal(at, math.Log(1e-4), math.Log(1e4), 20) // a: a loss (for a lower tail: −loss)
	t := math.Exp(lt)
	minI, maxI := kk*float64(f.lo), kk*float64(f.lo+len(f.p)-1)
	var idx float64
	if up {
		idx = math.Ceil(a / f.h)
		if idx >= maxI || math.IsNaN(idx) {
			return int(maxI), 0
		}
		idx = math.Max(idx, minI)
		// The bound at the grid index actually used (≥ a, so ≤ τ).
		return int(idx), math.Min(1, math.Exp(kk*(f.logMGF(t0+t)-lm0)-t*idx*f.h))
	}
	idx = math.Floor(-a / f.h)
	if idx <= minI || math.IsNaN(idx) {
		return int(minI), 0
	}
	return int(math.Min(idx, maxI)), 0
}

// massBelow bounds the k-fold mass below grid index i (untilted):
// min_t e^{t l_i} M(−t)^k.
func (f *pmf) massBelow(k, i int) float64 {
	kk, l := float64(k), float64(i)*f.h
	_, b := numeric.MinimizeUnimodal(func(lt float64) float64 {
		t := math.Exp(lt)
		return kk*f.logMGF(-t) + t*l
	}, math.Log(1e-4), math.Log(1e4), 30)
	return math.Min(1, math.Exp(b)*(1+1e-9))
}

// tiltFor returns the t > 0 that minimizes the Chernoff bound
// (k ln M(t) − ln δ)/t on the loss above which the k-fold mass is at most
// δ: the k-fold distribution tilted by t is centred there, above the
// ε(δ) that a query at δ will look for.
// It also returns that loss.
func (f *pmf) tiltFor(k int, delta float64) (float64, float64) {
	kk := float64(k)
	lt, c := numeric.MinimizeUnimodal(func(lt float64) float64 {
		t := math.Exp(lt)
		return (kk*f.logMGF(t) - math.Log(delta)) / t
	}, math.Log(1e-4), math.Log(1e4), 30)
	return math.Exp(lt), c
}

// tiltAt returns the t that centres the k-fold distribution tilted by t at
// the loss c: the minimizer of k ln M(t) − t·c.
func (f *pmf) tiltAt(k int, c float64) float64 {
	kk := float64(k)
	lt, _ := numeric.MinimizeUnimodal(func(lt float64) float64 {
		t := math.Exp(lt)
		return kk*f.logMGF(t) - t*c
	}, math.Log(1e-4), math.Log(1e4), 30)
	return math.Exp(lt)
}

// Memory is reused across calls: a fresh page costs more here than the
// arithmetic done on it. FFT objects (their twiddle tables cost as much as
// a transform) are kept by length, float buffers by size class, each in
// a cache of at most cacheBytes that is emptied when a new entry would
// exceed it (sync.Pool would drop them at every garbage collection). An
// FFT object is not safe for concurrent use: it is taken out while used.
const cacheBytes = 256 << 20

type memCache struct {
	mu    sync.Mutex
	bytes int
	ffts  map[int][]*fftWork
	bufs  map[int][][]float64
}

var cache = memCache{ffts: map[int][]*fftWork{}, bufs: map[int][][]float64{}}

// fftWork is an FFT of one length with a real and a complex buffer.
type fftWork struct {
	ft *fft.FFT
	x  []float64
	c  []complex128
}

func (w *fftWork) size() int { return 8*len(w.x)*4 + 16*len(w.c) }

func getFFT(n int) *fftWork {
	w := getFFTDirty(n)
	clear(w.x)
	return w
}

// getFFTDirty is getFFT with arbitrary contents in x.
func getFFTDirty(n int) *fftWork {
	cache.mu.Lock()
	if l := cache.ffts[n]; len(l) > 0 {
		w := l[len(l)-1]
		cache.ffts[n] = l[:len(l)-1]
		cache.bytes -= w.size()
		cache.mu.Unlock()
		return w
	}
	cache.mu.Unlock()
	return &fftWork{fft.New(n), make([]float64, n), make([]complex128, n/2+1)}
}

func putFFT(_ int, w *fftWork) {
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if cache.make(w.size()) {
		cache.ffts[len(w.x)] = append(cache.ffts[len(w.x)], w)
	}
}

// make reserves b bytes, emptying the cache if needed; false if b alone
// exceeds the cap. The caller holds mu.
func (m *memCache) make(b int) bool {
	if b > cacheBytes/2 {
		return false
	}
	if m.bytes+b > cacheBytes {
		clear(m.ffts)
		clear(m.bufs)
		m.bytes = 0
	}
	m.bytes += b
	return true
}

// sizeClass rounds n up to 2^(i/8), so a buffer serves lengths within 9%.
func sizeClass(n int) int {
	c := 64
	for c < n {
		c += c/8 + 1
	}
	return c
}

// getBuf returns a float slice of length n with arbitrary contents.
func getBuf(n int) []float64 {
	c := sizeClass(n)
	cache.mu.Lock()
	if l := cache.bufs[c]; len(l) > 0 {
		b := l[len(l)-1]
		cache.bufs[c] = l[:len(l)-1]
		cache.bytes -= 8 * cap(b)
		cache.mu.Unlock()
		return b[:n]
	}
	cache.mu.Unlock()
	return make([]float64, n, c)
}

// putBuf returns a slice from getBuf for reuse.
func putBuf(b []float64) {
	if cap(b) != sizeClass(cap(b)) {
		return
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if cache.make(8 * cap(b)) {
		cache.bufs[cap(b)] = append(cache.bufs[cap(b)], b[:0])
	}
}

// release returns the masses of a PLD that is no longer used to the cache.
func (d *PLD) release() {
	for _, f := range d.dirs() {
		putBuf(f.p)
		f.p = nil
	}
}

// fftSize returns the smallest power of two ≥ n (and ≥ 2), the lengths
// internal/fft transforms: at the next power of two it is 2.3–6 times
// faster than gonum's FFTPACK at the smallest 2^a·3^b·5^c ≥ n, the length
// used before (BenchmarkWorkload in internal/fft, BENCHMARKS.md). A
// power of two over max is refused even where a 2^a·3^b·5^c length would
// have fitted (the default caps are powers of two).
func fftSize(n, max int) (int, error) {
	m := 2
	for m < n {
		m <<= 1
	}
	if m > max {
		return 0, field.New("discretization", n, "needs an FFT of %d points, more than the cap of %d; use a coarser interval", m, max)
	}
	return m, nil
}

// selfCompose returns f^{*k}.
func (f *pmf) selfCompose(k, maxPoints int) (*pmf, error) { return f.composeTilted(k, maxPoints, 0) }

// tiltTail and tiltTailHi are the tilted masses allowed below and above a
// tilted window. What lies above is added to δ (its untilted mass is at
// most tiltTailHi·e^{tiltS − t·l_hi}, far below δ), and it also wraps
// around to the bottom of the window, where its untilted weight
// e^{tiltS − t·l} is large: with a heavy upper tail it can reach losses near
// ε, so it is kept small. What lies below wraps to the top, where its
// untilted weight is tiny, and is added to δ(ε) for ε under the window.
// Wrapped mass only adds mass, so both are sound; the values only set the
// tightness (and the window's length: 1e-4 below trims it by a quarter
// against 1e-10, with no change on the grid of TestDPAccountingGrid).
const (
	tiltTail   = 1e-4
	tiltTailHi = 1e-10
)

// tiltTailFit is the largest tilted mass below a tilted window that
// fitWindow accepts to halve the FFT.
const tiltTailFit = 1e-3

// fitWindow returns the bottom of a tilted window [lo, hi] raised, if that
// halves its FFT: when the window is just over a power of two 2m (the
// window of 10⁶ DP-SGD steps at q = 256/60000, z = 1.1 is 543,075 points,
// 3.6% over 2¹⁹), and the tilted k-fold mass below hi − m + 1 is at most
// tiltTailFit by the Chernoff bound, the window becomes [hi − m + 1, hi]
// and the FFT has m points instead of 2m.
//
// Soundness does not depend on the raise: the untilted mass below the
// window is bounded at the bottom actually used (massBelow, pmf.below,
// added to δ(ε) for ε under the window), and every sum below the window
// that the cyclic FFT wraps into it lands at the top, where it only adds
// mass (tilted mass ≤ tiltTailFit times untilted weights e^{S − t·l} that
// are smallest there), as a sum that wraps with padding lands unread. The
// argument for the mass above the window (tiltTailHi) is unchanged: hi is
// not moved.
func (f *pmf) fitWindow(k, lo, hi int, t0 float64) int {
	w := hi - lo + 1
	m := 2
	for m < w {
		m <<= 1
	}
	m /= 2
	// The looser tail raises the bottom by a few % of a Gaussian-like
	// window (4.3σ → 3.7σ of 11σ): over 25% is not tried (a speed
	// heuristic only).
	if w <= m || m < 2 || w > m+m/4 {
		return lo
	}
	if lo2, _ := f.chernoffAt(k, tiltTailFit, false, t0); hi-lo2+1 <= m {
		return hi - m + 1
	}
	return lo
}

// selfComposeAt returns f^{*k}. If delta > 0 (and f is fresh from a
// discretization), the FFT runs on f tilted by the t of tiltFor(k, delta),
// p̂_j = p_j e^{t l_j − ln M(t)}, and the result is untilted,
// y_s = ŷ_s e^{k ln M(t) − t l_s}: the composition is the same, but the
// FFT's rounding error ê (bounded in ℓ2 on the tilted sequence, as
// untilted) reaches y_s multiplied by W_s = e^{k ln M(t) − t l_s}, which
// near the loss where the k-fold tail is δ is about δ, instead of 1. The
// profile adds errL2·W_j·√min(n−j, 1/(1−e^{−2th})) (Cauchy–Schwarz) for
// ε ≥ l_{j−1}. Queries far below that loss get looser bounds, never wrong
// ones.
//
// The first tilt centres the tilted k-fold distribution where its Chernoff
// tail bound is δ, above ε(δ). Where the hockey-stick divergence is much
// smaller than the tail (a heavy upper tail, small ε) the FFT term can still
// weigh (more than 10⁻³δ) at the ε found; then the composition is redone,
// at most twice, with the tilt centred at 0.9 times the ε found (half the
// previous centre if none was found), and if it still weighs, once
// untilted, and then once with the body/tail split of splitCompose (a
// heavy upper tail: the FFT's error then carries the tail's small mass).
// An answer at or under the window's bottom (tiny ε, where the tilted
// window starts above it and the bound on the mass below the window
// weighs) is recentred the same way.
// Each pass is a valid bound; the one with the smallest ε at δ is kept.
func (f *pmf) selfComposeAt(k, maxPoints int, delta float64) (*pmf, error) {
	if k == 1 || delta <= 0 || f.errL2 != 0 || f.errL2u != 0 || f.tiltT != 0 {
		return f.selfCompose(k, maxPoints)
	}
	t, centre := f.tiltFor(k, delta)
	var best *pmf
	bestE := math.Inf(1)
	// keep keeps the candidate with the smaller ε at delta (each is a valid
	// bound) and reports whether its FFT term still weighs there.
	keep := func(out *pmf) bool {
		pr := out.profile(true)
		e := pr.epsilon(delta)
		weighs := true
		if !math.IsInf(e, 1) {
			j := int(math.Floor(e/f.h)) - out.lo
			weighs = j >= 0 && j < len(out.p) && pr.fftTerm(j) > 1e-3*delta
			// An answer under the window's bottom carries the bound on
			// the mass below it (tiny ε: the tilted window starts above
			// the answer): recentre, or compose untilted.
			if e > 0 && e < pr.loss(0)+f.h && out.below > 1e-3*delta {
				weighs = true
			}
		}
		if best == nil || e < bestE {
			if best != nil {
				putBuf(best.p)
			}
			best, bestE = out, e
		} else {
			putBuf(out.p)
		}
		if !math.IsInf(e, 1) {
			centre = 0.9 * e
		} else {
			centre /= 2
		}
		return weighs
	}
	for pass := 0; pass < 3; pass++ {
		if f.stopped() {
			return nil, errStopped
		}
		out, err := f.composeTilted(k, maxPoints, t)
		if err != nil {
			return nil, err
		}
		if !keep(out) {
			return best, nil
		}
		if t = f.tiltAt(k, centre); t <= 1e-4 {
			break
		}
	}
	// Still weighing: the untilted composition may do better (few steps,
	// heavy tails).
	if f.stopped() {
		return nil, errStopped
	}
	out, err := f.composeTilted(k, maxPoints, 0)
	if err != nil {
		return best, nil
	}
	if !keep(out) || math.IsInf(bestE, 1) {
		return best, nil
	}
	// Still weighing: a heavy upper tail. Compose the body and the tail
	// apart (splitCompose), so that the rounding error carries the tail's
	// small mass instead of 1.
	if f.stopped() {
		return nil, errStopped
	}
	if out, _ := f.splitCompose(k, maxPoints, delta, bestE); out != nil {
		keep(out)
	}
	return best, nil
}

// composeTilted returns f^{*k} by one FFT of f tilted by t0 ≥ 0 (see
// selfComposeAt).
func (f *pmf) composeTilted(k, maxPoints int, t0 float64) (*pmf, error) {
	if k == 1 {
		c := *f
		c.p = append([]float64(nil), f.p...)
		return &c, nil
	}
	kk := float64(k)
	var lo, hi int
	var upTail float64
	if t0 > 0 {
		lo, _ = f.chernoffAt(k, tiltTail, false, t0)
		hi, upTail = f.chernoffAt(k, tiltTailHi, true, t0)
		lo = f.fitWindow(k, lo, hi, t0)
	} else {
		lo, _ = f.chernoff(k, windowTail, false)
		hi, upTail = f.chernoff(k, windowTail, true)
	}
	if hi < lo {
		hi = lo
	}
	if f.stopped() {
		return nil, errStopped
	}
	if float64(hi)-float64(lo)+1 > float64(maxPoints) {
		return nil, &overCap{field.New("discretization", f.h, "needs %d grid points for %d compositions, more than the cap of %d; use a coarser interval", hi-lo+1, k, maxPoints), float64(hi) - float64(lo) + 1, maxPoints}
	}
	n, err := fftSize(hi-lo+1, maxPoints)
	if err != nil {
		return nil, err
	}
	// Index i sits at position i mod n; the k-fold sum s at s mod n, and
	// every s in [lo, hi] has its own residue.
	w := getFFTDirty(n)
	defer putFFT(n, w)
	x := w.x
	// The masses fill [pos0, pos0 + len) mod n; the FFT reads x on
	// [0, a) ∪ [n − b, n) only (fft.CoefficientsOf), which holds them, and
	// what else it reads is cleared: nothing else of x is written or read.
	pos0, end := mod(f.lo, n), mod(f.lo, n)+len(f.p)
	dense := len(f.p) >= n
	var a, b int
	switch {
	case dense: // masses may share a position: summed there
		a, b = n, 0
		clear(x)
	case end > n: // wraps around: [pos0, n) ∪ [0, end − n)
		a, b = end-n, n-pos0
	case end <= n-pos0: // [0, end), cleared below pos0
		a, b = end, 0
		clear(x[:pos0])
	default: // [pos0, n), cleared from end
		a, b = 0, n-pos0
		clear(x[end:])
	}
	lm := 0.0                            // ln M(t0)
	theta, under, thmax := 0.0, 0.0, 0.0 // see inErr
	if t0 > 0 {
		lm = f.logMGF(t0)
		if math.IsInf(lm, 0) || math.IsNaN(lm) {
			return nil, field.New("discretization", f.h, "gives a composition tilted by %g whose log-MGF is %g; refused", t0, lm)
		}
	}
	pos := pos0
	for j, v := range f.p {
		if t0 > 0 && v > 0 {
			arg := t0*float64(f.lo+j)*f.h - lm
			// Relative error of e^{arg}·v: the argument's (three
			// roundings, times |arg| ≤ |t0 l| + |lm|), exp's and the
			// product's.
			v *= math.Exp(arg)
			rel := unit * (3*math.Abs(arg) + 3*math.Abs(lm) + 4)
			thmax = fmax(thmax, rel)
			theta += (rel * v) * (rel * v)
			if v < 0x1p-1022 { // flushed (subnormals are slow), counted
				under += 0x1p-1022
				v = 0
			}
		}
		if dense {
			x[pos] += v
		} else {
			x[pos] = v // 0 + v: one mass per position
		}
		if pos++; pos == n {
			pos = 0
		}
	}
	// ‖x‖₁, ‖x‖₂ in position order over what the FFT reads (the rest is
	// zero, which adds nothing): the same sums as over all of x.
	var l1, l2 float64
	for _, part := range [][]float64{x[:a], x[n-b:]} {
		for _, v := range part {
			l1 += math.Abs(v)
			l2 += v * v
		}
	}
	l2 = math.Sqrt(l2)
	ft := w.ft
	c := ft.CoefficientsOf(w.c, x, a, b)
	grow := 1.0
	maxA2 := 0.0
	// |v|^k underflows (below every bound kept here) where |v|² < lim.
	lim := math.Exp(-1490 / kk)
	// The forward FFT's error, componentwise: |X̂_i − X_i| ≤ D = 2η‖x‖₁
	// (see fftEta). With m_i = |X̂_i| + D ≥ max(|X̂_i|, |X_i|), sK and sK1
	// bound Σ m_i^{2k} and Σ m_i^{2(k−1)} over the full spectrum (the
	// half spectrum counts twice, but for 0 and n/2): where 2kD/|X̂_i| ≤
	// 0.1, m^{2k} ≤ |X̂^k|²e^{2kD/|X̂|} ≤ |cpow|²(1 + 13ku)(1 + 2.2kD/|X̂|);
	// elsewhere |X̂_i| < 20kD and m^{2(k−1)}, m^{2k} ≤ (21kD)² (< 1).
	eta := fftEta(n)
	dinf := 2 * eta * l1
	bigK := (21 * kk * dinf) * (21 * kk * dinf)
	var sK, sK1 float64
	band := 0 // 1 + the last index of a nonzero power
	for i, v := range c {
		wt := 2.0
		if i == 0 || (n%2 == 0 && i == len(c)-1) {
			wt = 1
		}
		a2 := real(v)*real(v) + imag(v)*imag(v)
		if a2 > maxA2 {
			maxA2 = a2
		}
		if a2 < lim {
			c[i] = 0
			sK += wt * (bigK + 1e-300)
			sK1 += wt * (bigK + 1e-300)
			continue
		}
		cv := cpow(v, k)
		c[i] = cv
		if cv != 0 {
			band = i + 1
		}
		if a := math.Sqrt(a2); 20*kk*dinf <= a {
			g := (real(cv)*real(cv) + imag(cv)*imag(cv)) * (1 + 13*kk*unit) * (1 + 2.2*kk*dinf/a)
			sK += wt * g
			sK1 += wt * g / a2
		} else {
			sK += wt * bigK
			sK1 += wt * bigK
		}
	}
	if maxA2 > 1 {
		grow = math.Pow(maxA2, (kk-1)/2)
	}
	// Many steps leave few powers above underflow (70 of 2¹⁸ at 10⁶ DP-SGD
	// steps): the inverse skips the butterflies of zeros (the same
	// output; see fft.SequenceBand).
	y := ft.SequenceBandInPlace(x, c, band)             // c is not read again
	out := &pmf{h: f.h, lo: lo, p: getBuf(hi - lo + 1)} // every mass is set below
	inv := 1 / float64(n)
	dropped := 0.0
	// The exact composition's total mass (≥ every exact y_s): ‖p‖₁^k,
	// of the tilted sequence (mass) and of p (massU).
	// ‖x‖₁ is computed (relative error ≤ n·u) from tilted masses with
	// relative errors ≤ thmax: the exact sum is at most l1·(1 + 2thmax + 2nu).
	mass := math.Pow(math.Max(1, l1*(1+2*thmax+2*float64(len(f.p))*unit)), kk) * (1 + 1e-12)
	massU := mass
	if t0 > 0 {
		massU = math.Pow(math.Max(1, sum(f.p)), kk) * (1 + 1e-12)
	}
	pos = mod(lo, n)
	if t0 == 0 {
		// Sums below lo (mass ≤ windowTail, the Chernoff bound that set
		// lo) may wrap into residues no window point reads: counted for
		// queries under the window.
		out.below = windowTail
		for s := range out.p {
			out.p[s] = flush(math.Max(0, y[pos]*inv), &dropped)
			if pos++; pos == n {
				pos = 0
			}
		}
	} else {
		// y_s = ŷ_s e^{k lm − t0 l_s}: exp at every 256th point, the ratio
		// e^{−t0 h} in between; rounded up by a bound on the relative
		// error of the factor (so an exact ŷ_s maps to at least the exact
		// y_s), and ŷ_s clamped to [0, mass] and y_s to at most mass
		// (the exact values lie there).
		untilt(out.p, y, pos, n, lo, inv, mass, massU, kk*lm, t0, f.h, 4*kk*math.Abs(lm), &dropped)
		out.tiltT, out.tiltS = t0, kk*lm
		// Untilted mass above the window: at most the tilted bound times
		// e^{k lm − t0 l_hi}; below it, for queries under the window.
		upTail = math.Min(1, upTail*math.Exp(kk*lm-t0*float64(hi)*f.h)*(1+1e-9))
		out.below = f.massBelow(k, lo)
	}
	// +∞: 1 − (1 − p∞)^k, rounded up.
	if f.inf > 0 {
		out.inf = math.Min(1, -math.Expm1(kk*math.Log1p(-f.inf))*(1+4*unit)+4*unit)
	}
	// A k-fold sum's tail is at most k times the one-step truncation.
	out.tail = math.Min(1, kk*f.tail+upTail+dropped)
	// Relative error: (e^{lnR})^k. Absolute: with q = e^{lnR}‖p‖₁,
	// (q + Z)^k − q^k ≤ kZ(q + Z)^{k−1}.
	out.lnR = kk * f.lnR * (1 + 4*unit)
	q1 := math.Exp(f.lnR) * math.Max(1, l1)
	if t0 > 0 {
		q1 = math.Exp(f.lnR) * math.Max(1, sum(f.p))
	}
	out.err1 = kk * f.err1 * math.Exp((kk-1)*math.Log(q1+f.err1)) * (1 + 1e-12)
	// ℓ2 error (of the tilted sequence when tilted): the input's (Young:
	// k‖e‖₂·max|X|^{k−1}, e the tilting's rounding θ‖p̂‖₂ and underflow),
	// the forward FFT's through the power (k·η‖p‖₂·max|X|^{k−1}),
	// cpow's (≤ 6ku), the inverse's; the last two relative to
	// ‖y‖₂ ≤ ‖y‖₁ ≤ mass.
	// theta: Σ (θ_j p̂_j)², θ_j the relative error of the tilted mass j.
	inErr := f.errL2 + math.Sqrt(theta)*(1+1e-9) + under
	// The forward FFT's error through the power, in ℓ2 after the inverse
	// (Parseval: ÷√n): at most k·D·√(sK1/n) (componentwise D), or
	// k·η‖x‖₂·max|X|^{k−1} (Higham's ℓ2 bound); the smaller. cpow's and
	// the inverse's are relative to ‖X̂^k‖₂/√n ≤ √(sK/n) (or ≤ mass).
	nn := float64(n)
	fwd := kk * eta * l2 * grow * (1 + eta)
	yl2 := mass
	if bigK < 1 {
		fwd = math.Min(fwd, kk*dinf*math.Sqrt(sK1/nn)*(1+1e-9))
		yl2 = math.Min(yl2, math.Sqrt(sK/nn)*(1+1e-9))
	}
	out.errL2 = kk*inErr*grow + fwd + ((6*kk+5*math.Log2(kk)+5)*unit+2*eta)*yl2 + 1e-300
	return out, nil
}

func sum(p []float64) float64 {
	s := 0.0
	for _, v := range p {
		s += v
	}
	return s * (1 + float64(len(p))*unit)
}

// cpow returns v^k by repeated squaring; its relative error is at most
// about 2k·(√5 u) (each multiplication's, doubled by every later squaring),
// within the 6ku charged for it.
func cpow(v complex128, k int) complex128 {
	r := complex(1, 0)
	for k > 0 {
		if k&1 == 1 {
			r *= v
		}
		k >>= 1
		if k > 0 {
			v *= v
		}
	}
	return r
}

// flush returns 0 for a mass below 1e-250 (and adds it to *dropped, which
// is counted in δ): subnormal arithmetic is a hundred times slower.
// untilt writes p[s] = ŷ_s e^{S − t0 l_s} for the window's points lo, lo+1,
// … read from the cyclic FFT output y from index pos (of n), with inv the
// inverse FFT's scale: exp at every 256th point, the ratio e^{−t0 h} in
// between, rounded up by a bound on the factor's relative error (errS
// bounds the rounding of S, e.g. 4·Σk|ln m|), ŷ_s clamped to [0, mass]
// and y_s to at most massU. Masses that would fall below 1e-250 are
// dropped and counted in *dropped (no subnormal arithmetic).
func untilt(p, y []float64, pos, n, lo int, inv, mass, massU, S, t0, h, errS float64, dropped *float64) {
	r := math.Exp(-t0 * h)
	d := *dropped // kept in a register; the same sums in the same order
	for b := 0; b < len(p); b += 256 {
		arg := S - t0*float64(lo+b)*h
		fac := math.Exp(arg)
		up := 1 + unit*(2*256+4*math.Abs(arg)+errS+8)
		// fac only falls within the block: below thr, v·fac·up <
		// 1e-250.
		thr := 1e-300
		if g := fac * up; g < 1e50 {
			thr = 1e-250 / g
		}
		q := p[b:min(b+256, len(p))]
		for s := range q {
			// Plain comparisons (math.Min and Max order ±0 and are
			// slower here); a NaN passes through them to p and valid
			// rejects it.
			v := y[pos] * inv
			if v < 0 {
				v = 0
			} else if v > mass {
				v = mass
			}
			if v < thr {
				q[s] = 0
				if v > 0 {
					d += 1e-250
				}
			} else {
				if v = v * fac * up; v > massU {
					v = massU
				}
				if v < 1e-250 { // flush
					d += v
					v = 0
				}
				q[s] = v
			}
			fac *= r
			if pos++; pos == n {
				pos = 0
			}
		}
	}
	*dropped = d
}

func flush(v float64, dropped *float64) float64 {
	if v < 1e-250 {
		*dropped += v
		return 0
	}
	return v
}

func mod(i, n int) int {
	r := i % n
	if r < 0 {
		r += n
	}
	return r
}

// trimTiny moves negligible end masses: the top ones to the tail bound,
// the bottom ones up to the first kept point.
func (f *pmf) trimTiny(limit float64) {
	s, top := 0.0, len(f.p)
	for top > 1 && s+f.p[top-1] <= limit {
		s += f.p[top-1]
		top--
	}
	f.tail += s
	s, bot := 0.0, 0
	for bot < top-1 && s+f.p[bot] <= limit {
		s += f.p[bot]
		bot++
	}
	f.p[bot] += s
	f.p = f.p[bot:top]
	f.lo += bot
}

// compose returns f * g (full linear convolution, no wrap-around).
func (f *pmf) compose(g *pmf, maxPoints int) (*pmf, error) {
	f, g = f.untilted(), g.untilted()
	m := len(f.p) + len(g.p) - 1
	n, err := fftSize(m, maxPoints)
	if err != nil {
		return nil, err
	}
	w := getFFT(n)
	defer putFFT(n, w)
	x, z := w.x, make([]float64, n)
	copy(x, f.p)
	copy(z, g.p)
	ft := w.ft
	cx, cz := ft.Coefficients(w.c, x), ft.Coefficients(nil, z)
	for i := range cx {
		cx[i] *= cz[i]
	}
	y := ft.Sequence(x, cx)
	out := &pmf{h: f.h, lo: f.lo + g.lo, p: make([]float64, m)}
	inv := 1 / float64(n)
	dropped := 0.0
	for i := range out.p {
		out.p[i] = flush(math.Max(0, y[i]*inv), &dropped)
	}
	a1, a2 := norms(f.p)
	b1, b2 := norms(g.p)
	eta := fftEta(n)
	rf, rg := math.Exp(f.lnR), math.Exp(g.lnR)
	out.lnR = (f.lnR + g.lnR) * (1 + 4*unit)
	out.err1 = (rf*a1*g.err1 + (rg*b1+g.err1)*f.err1) * (1 + 1e-12)
	out.errL2 = a1*g.errL2 + b1*f.errL2 + f.errL2*g.errL2*math.Sqrt(float64(n)) + 3*eta*(a2*b1+a1*b2) + f.errL2*g.err1 + g.errL2*f.err1
	// P(∞ in either) ≤ p∞ + q∞ (union bound, rounded up).
	out.inf = math.Min(1, (f.inf+g.inf)*(1+2*unit))
	// Mass an input keeps below its grid may land anywhere: counted for
	// every ε.
	out.tail = math.Min(1, f.tail+g.tail+f.below+g.below+dropped)
	out.trimTiny(windowTail)
	return out, nil
}

// SelfCompose returns the PLD of k adaptive runs of the mechanism, by one
// FFT raised to the k-th power on a window chosen with Chernoff bounds
// (see the package documentation for what is added to δ). k must be ≥ 1.
func (d *PLD) SelfCompose(k int) (*PLD, error) { return d.selfComposeAt(k, 0) }

// SelfComposeFor is SelfCompose tuned for queries at delta: the FFTs run on
// tilted masses so that their rounding error, added to δ, is small near the
// ε of delta (see selfComposeAt). The result is a bound at every ε, tightest
// near that one; use it when δ is known, above all for tiny δ.
func (d *PLD) SelfComposeFor(k int, delta float64) (*PLD, error) {
	if err := field.OpenUnit("delta", delta); err != nil {
		return nil, err
	}
	return d.selfComposeAt(k, delta)
}

// selfComposeAt is SelfCompose tuned for queries at delta (tilted FFTs, see
// pmf.selfComposeAt; 0: untilted).
func (d *PLD) selfComposeAt(k int, delta float64) (*PLD, error) {
	if k < 1 {
		return nil, field.New("count", k, "must be a whole number ≥ 1")
	}
	out := &PLD{opt: d.opt}
	var errAdd error
	done := make(chan struct{})
	go func() { // the two directions in parallel
		defer close(done)
		if d.add != nil {
			out.add, errAdd = d.add.selfComposeAt(k, d.opt.MaxPoints, delta)
		}
	}()
	var err error
	out.remove, err = d.remove.selfComposeAt(k, d.opt.MaxPoints, delta)
	<-done
	if err != nil {
		return nil, err
	}
	if errAdd != nil {
		return nil, errAdd
	}
	return out, nil
}

// Compose returns the PLD of running d then e (adaptively). Both must have
// the same interval and discretization; each direction is composed with the
// same direction of the other (a symmetric PLD serves as both).
func (d *PLD) Compose(e *PLD) (*PLD, error) {
	if d.opt.Interval != e.opt.Interval {
		return nil, field.New("discretization", e.opt.Interval, "must equal the other PLD's interval %g", d.opt.Interval)
	}
	if d.opt.Discretization.Sound() != e.opt.Discretization.Sound() {
		return nil, field.New("discretization_method", e.opt.Discretization.String(), "cannot be composed with a %s PLD", d.opt.Discretization)
	}
	out := &PLD{opt: d.opt}
	var err error
	if out.remove, err = d.remove.compose(e.remove, d.opt.MaxPoints); err != nil {
		return nil, err
	}
	if d.add != nil || e.add != nil {
		da, ea := d.add, e.add
		if da == nil {
			da = d.remove
		}
		if ea == nil {
			ea = e.remove
		}
		if out.add, err = da.compose(ea, d.opt.MaxPoints); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// untilted returns f with its FFT error bound as an unweighted ℓ2 bound
// (W_s ≤ W at the lowest loss of the grid, t > 0, plus the unweighted
// part errL2u), for composing with another PLD.
func (f *pmf) untilted() *pmf {
	if f.tiltT == 0 && f.errL2u == 0 {
		return f
	}
	c := *f
	c.errL2 = f.errL2*math.Exp(f.tiltS-f.tiltT*float64(f.lo)*f.h)*(1+1e-9) + f.errL2u
	c.tiltT, c.tiltS, c.errL2u = 0, 0, 0
	return &c
}
