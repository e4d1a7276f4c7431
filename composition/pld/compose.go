package pld

import (
	"math"
	"math/bits"
	"math/cmplx"
	"sync"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"gonum.org/v1/gonum/dsp/fourier"
)

// windowTail is the bound on the composed mass above the FFT window (added
// to δ in a sound PLD) and below it (wrapped into the window).
const windowTail = 1e-18

// fftEta is the relative ℓ2 error of one FFT of length n (Higham 2002,
// ch. 24, the error of a radix-2 FFT, log₂n · (μ + γ₄(√2 + μ)), with a
// safety factor for FFTPACK's radix-3 and -5 passes).
func fftEta(n int) float64 { return 8 * unit * float64(bits.Len(uint(n))) }

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
func (f *pmf) logMGF(t float64) float64 {
	n := len(f.p)
	r := math.Exp(-math.Abs(t) * f.h)
	r4 := r * r * r * r
	p := f.p
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
		return math.Log(sum) + t*float64(f.lo+n-1)*f.h
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
	return math.Log(sum) + t*float64(f.lo)*f.h
}

// chernoff returns the smallest grid index a (in [min, max]) whose k-fold
// tail bound beyond a (upper if up, else lower) is at most tau, and the
// bound at a.
func (f *pmf) chernoff(k int, tau float64, up bool) (int, float64) {
	kk := float64(k)
	sign := 1.0
	if !up {
		sign = -1
	}
	// a(t) = (k ln M(±t) − ln τ)/t is quasi-convex in t > 0: golden section
	// on ln t.
	at := func(lt float64) float64 {
		t := math.Exp(lt)
		return (kk*f.logMGF(sign*t) - math.Log(tau)) / t
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
		return int(idx), math.Min(1, math.Exp(kk*f.logMGF(t)-t*idx*f.h))
	}
	idx = math.Floor(-a / f.h)
	if idx <= minI || math.IsNaN(idx) {
		return int(minI), 0
	}
	return int(math.Min(idx, maxI)), 0
}

// fftSize returns the smallest 2^a·3^b·5^c ≥ n (the lengths gonum's
// FFTPACK transforms fastest).
// ffts keeps FFT objects by length (their twiddle tables cost as much as a
// transform); an FFT is not safe for concurrent use, so each is taken out
// of its pool while in use.
var ffts sync.Map // int → *sync.Pool

// fftWork is an FFT of one length with a real and a complex buffer.
type fftWork struct {
	ft *fourier.FFT
	x  []float64
	c  []complex128
}

func getFFT(n int) *fftWork {
	p, _ := ffts.LoadOrStore(n, &sync.Pool{New: func() any {
		return &fftWork{fourier.NewFFT(n), make([]float64, n), make([]complex128, n/2+1)}
	}})
	w := p.(*sync.Pool).Get().(*fftWork)
	clear(w.x)
	return w
}

func putFFT(n int, w *fftWork) {
	if p, ok := ffts.Load(n); ok {
		p.(*sync.Pool).Put(w)
	}
}

func fftSize(n, max int) (int, error) {
	m := 1
	for m < n {
		m <<= 1
	}
	for p5 := 1; p5 < m; p5 *= 5 {
		for p3 := p5; p3 < m; p3 *= 3 {
			v := p3
			for v < n {
				v <<= 1
			}
			if v < m {
				m = v
			}
		}
	}
	if m > max {
		return 0, field.New("discretization", n, "needs an FFT of %d points, more than the cap of %d; use a coarser interval", m, max)
	}
	return m, nil
}

// selfCompose returns f^{*k}.
func (f *pmf) selfCompose(k, maxPoints int) (*pmf, error) {
	if k == 1 {
		c := *f
		c.p = append([]float64(nil), f.p...)
		return &c, nil
	}
	lo, _ := f.chernoff(k, windowTail, false)
	hi, upTail := f.chernoff(k, windowTail, true)
	if hi < lo {
		hi = lo
	}
	if float64(hi)-float64(lo)+1 > float64(maxPoints) {
		return nil, field.New("discretization", f.h, "needs %d grid points for %d compositions, more than the cap of %d; use a coarser interval", hi-lo+1, k, maxPoints)
	}
	n, err := fftSize(hi-lo+1, maxPoints)
	if err != nil {
		return nil, err
	}
	// Index i sits at position i mod n; the k-fold sum s at s mod n, and
	// every s in [lo, hi] has its own residue.
	w := getFFT(n)
	defer putFFT(n, w)
	x := w.x
	for j, v := range f.p {
		x[mod(f.lo+j, n)] += v
	}
	_, l2 := norms(f.p)
	ft := w.ft
	c := ft.Coefficients(w.c, x)
	kk := float64(k)
	grow := 1.0
	for i, v := range c {
		a := cmplx.Abs(v)
		if a > 1 {
			grow = math.Max(grow, math.Pow(a, kk-1))
		}
		if kk*math.Log(a) < -745 {
			c[i] = 0 // |v|^k underflows: below every bound kept here
			continue
		}
		c[i] = cpow(v, k)
	}
	y := ft.Sequence(x, c)
	out := &pmf{h: f.h, lo: lo, p: make([]float64, hi-lo+1)}
	inv := 1 / float64(n)
	dropped := 0.0
	for s := lo; s <= hi; s++ {
		out.p[s-lo] = flush(math.Max(0, y[mod(s, n)]*inv), &dropped)
	}
	// +∞: 1 − (1 − p∞)^k, rounded up.
	if f.inf > 0 {
		out.inf = math.Min(1, -math.Expm1(kk*math.Log1p(-f.inf))*(1+4*unit)+4*unit)
	}
	// A k-fold sum's tail is at most k times the one-step truncation.
	out.tail = math.Min(1, kk*f.tail+upTail+dropped)
	// ℓ1 error of the input's masses: ‖(p+e)^{*k} − p^{*k}‖₁ ≤
	// k‖e‖₁(1+‖e‖₁)^{k−1}. ℓ2 error: the input's (Young: k‖e‖₂), the
	// forward FFT's through the power (k·η‖p‖₂·max|X|^{k−1}), cpow's
	// (≤ 6ku), the inverse's.
	eta := fftEta(n)
	out.err1 = kk * f.err1 * math.Exp((kk-1)*f.err1)
	out.errL2 = kk*f.errL2*grow + kk*eta*l2*grow*(1+eta) + (6*kk+5*math.Log2(kk)+5)*unit + 2*eta
	return out, nil
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
	out.err1 = a1*g.err1 + b1*f.err1 + f.err1*g.err1
	out.errL2 = a1*g.errL2 + b1*f.errL2 + f.errL2*g.errL2*math.Sqrt(float64(n)) + 3*eta*(a2*b1+a1*b2) + f.errL2*g.err1 + g.errL2*f.err1
	// P(∞ in either) ≤ p∞ + q∞ (union bound, rounded up).
	out.inf = math.Min(1, (f.inf+g.inf)*(1+2*unit))
	out.tail = math.Min(1, f.tail+g.tail+dropped)
	out.trimTiny(windowTail)
	return out, nil
}

// SelfCompose returns the PLD of k adaptive runs of the mechanism, by one
// FFT raised to the k-th power on a window chosen with Chernoff bounds
// (see the package documentation for what is added to δ). k must be ≥ 1.
func (d *PLD) SelfCompose(k int) (*PLD, error) {
	if k < 1 {
		return nil, field.New("count", k, "must be a whole number ≥ 1")
	}
	out := &PLD{opt: d.opt}
	var errAdd error
	done := make(chan struct{})
	go func() { // the two directions in parallel
		defer close(done)
		if d.add != nil {
			out.add, errAdd = d.add.selfCompose(k, d.opt.MaxPoints)
		}
	}()
	var err error
	out.remove, err = d.remove.selfCompose(k, d.opt.MaxPoints)
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
