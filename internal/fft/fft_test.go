package fft

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// dd is a double-double number hi + lo (about 106 bits): the reference
// arithmetic against which the float64 transform's error is measured.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func ddAdd(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = twoSum(s.hi, s.lo)
	s.lo += t.lo
	return twoSum(s.hi, s.lo)
}

func ddNeg(a dd) dd { return dd{-a.hi, -a.lo} }

func ddMul(a, b dd) dd {
	p := a.hi * b.hi
	e := math.FMA(a.hi, b.hi, -p)
	e += a.hi*b.lo + a.lo*b.hi
	return twoSum(p, e)
}

func ddF(x float64) dd { return dd{x, 0} }

// ddInv returns 1/d in double-double (d an integer below 2⁵³).
func ddInv(d float64) dd {
	q := 1 / d
	return twoSum(q, math.FMA(-q, d, 1)/d)
}

// cdd is a complex double-double.
type cdd struct{ re, im dd }

func cAdd(a, b cdd) cdd { return cdd{ddAdd(a.re, b.re), ddAdd(a.im, b.im)} }
func cSub(a, b cdd) cdd { return cdd{ddAdd(a.re, ddNeg(b.re)), ddAdd(a.im, ddNeg(b.im))} }
func cMul(a, b cdd) cdd {
	return cdd{ddAdd(ddMul(a.re, b.re), ddNeg(ddMul(a.im, b.im))), ddAdd(ddMul(a.re, b.im), ddMul(a.im, b.re))}
}

// 2π to about 160 bits, as three float64s.
var twoPiDD = [3]float64{6.283185307179586, 2.4492935982947064e-16, -5.989539619436679e-33}

// invS[j] = 1/((2j+2)(2j+3)) and invC[j] = 1/((2j+1)(2j+2)) in
// double-double.
var invS, invC = func() (s, c [15]dd) {
	for j := range s {
		s[j] = ddInv(float64((2*j + 2) * (2*j + 3)))
		c[j] = ddInv(float64((2*j + 1) * (2*j + 2)))
	}
	return s, c
}()

// refTwiddle returns e^{−2πik/N} in double-double: the angle reduced to
// [0, π/4] by octant symmetry, then Taylor series.
func refTwiddle(k, N int) cdd {
	if N < 8 {
		k, N = k*(8/N), 8
	}
	k &= N - 1
	q, r := k/(N/4), k%(N/4)
	swap := false
	if r > N/8 {
		r, swap = N/4-r, true
	}
	f := float64(r) / float64(N)
	th := ddAdd(ddAdd(ddMul(ddF(twoPiDD[0]), ddF(f)), ddMul(ddF(twoPiDD[1]), ddF(f))), ddF(twoPiDD[2]*f))
	th2 := ddMul(th, th)
	// sin θ = θ Σ (−θ²)^j/(2j+1)!, cos θ = Σ (−θ²)^j/(2j)!, θ ≤ π/4: the
	// terms fall below 10⁻³⁴ after 14.
	s, c := ddF(0), ddF(0)
	ts, tc := th, ddF(1)
	for j := 0; j < 15; j++ {
		s, c = ddAdd(s, ts), ddAdd(c, tc)
		ts = ddMul(ts, ddMul(ddNeg(th2), invS[j]))
		tc = ddMul(tc, ddMul(ddNeg(th2), invC[j]))
	}
	if swap {
		s, c = c, s
	}
	switch q {
	case 0:
		return cdd{c, ddNeg(s)}
	case 1:
		return cdd{ddNeg(s), ddNeg(c)}
	case 2:
		return cdd{ddNeg(c), s}
	default:
		return cdd{s, c}
	}
}

// refDFT returns the DFT of x (length N, a power of two) in double-double,
// by a recursive radix-2 FFT with double-double twiddles (sign −1:
// forward; +1: unnormalised inverse).
func refDFT(x []cdd, sign int) []cdd {
	N := len(x)
	tw := make([]cdd, N/2)
	for k := range tw {
		tw[k] = refTwiddle(k, N)
		if sign > 0 {
			tw[k].im = ddNeg(tw[k].im)
		}
	}
	var rec func(x []cdd, stride int) []cdd
	rec = func(x []cdd, stride int) []cdd {
		n := len(x)
		if n == 1 {
			return []cdd{x[0]}
		}
		ev, od := make([]cdd, n/2), make([]cdd, n/2)
		for j := 0; j < n/2; j++ {
			ev[j], od[j] = x[2*j], x[2*j+1]
		}
		E, O := rec(ev, 2*stride), rec(od, 2*stride)
		out := make([]cdd, n)
		for k := 0; k < n/2; k++ {
			t := cMul(tw[k*stride], O[k])
			out[k], out[k+n/2] = cAdd(E[k], t), cSub(E[k], t)
		}
		return out
	}
	return rec(x, 1)
}

func (a cdd) sub(b complex128) complex128 {
	r := ddAdd(a.re, ddF(-real(b)))
	i := ddAdd(a.im, ddF(-imag(b)))
	return complex(r.hi+r.lo, i.hi+i.lo)
}

func abs2(c complex128) float64 { return real(c)*real(c) + imag(c)*imag(c) }

// inputs returns the test sequences of length n: random uniform masses,
// signed normals, one-hot vectors at several positions, PLD-like masses
// decaying exponentially over 40 orders of magnitude (both directions,
// and a two-sided bump), and a tiny mass beside a large one.
func inputs(n int) map[string][]float64 {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	in := map[string][]float64{}
	mk := func(name string, f func(j int) float64) {
		x := make([]float64, n)
		for j := range x {
			x[j] = f(j)
		}
		in[name] = x
	}
	mk("uniform", func(int) float64 { return r.Float64() })
	mk("normal", func(int) float64 { return r.NormFloat64() })
	for _, p := range []int{0, 1, n / 2, n - 1, n / 3} {
		mk(fmt.Sprintf("onehot%d", p), func(j int) float64 {
			if j == p {
				return 1
			}
			return 0
		})
	}
	dec := 40 * math.Ln10 / float64(n)
	mk("decay", func(j int) float64 { return math.Exp(-dec * float64(j)) })
	mk("growth", func(j int) float64 { return math.Exp(-dec * float64(n-1-j)) })
	mk("bump", func(j int) float64 {
		d := float64(j-n/3) / float64(n)
		return math.Exp(-d * d * 92 * math.Ln10 * 4)
	})
	mk("spike", func(j int) float64 {
		switch j {
		case 5:
			return 1
		case n / 2:
			return 1e-30
		}
		return 0
	})
	return in
}

// TestErrorBound measures the forward and inverse transforms' error
// against a double-double reference: in ℓ2 over the full spectrum below
// Bound(n)·‖X‖₂, every output below 2·Bound(n)·‖x‖₁, the inverse below
// Bound(n)·‖y‖₂, and the round trip.
func TestErrorBound(t *testing.T) {
	lgs := []int{1, 2, 3, 4, 5, 6, 7, 9, 10, 11}
	if !testing.Short() {
		lgs = append(lgs, 13, 15)
	}
	worst := 0.0
	for _, lg := range lgs {
		n := 1 << lg
		f := New(n)
		eta := Bound(n)
		for name, x := range inputs(n) {
			xc := make([]cdd, n)
			l1, l2 := 0.0, 0.0
			for j, v := range x {
				xc[j] = cdd{ddF(v), ddF(0)}
				l1 += math.Abs(v)
				l2 += v * v
			}
			l2 = math.Sqrt(l2)
			ref := refDFT(xc, -1)
			got := f.Coefficients(nil, x)
			e2, emax := 0.0, 0.0
			for k, c := range got {
				d := ref[k].sub(c)
				w := 2.0
				if k == 0 || k == n/2 {
					w = 1
				}
				e2 += w * abs2(d)
				emax = math.Max(emax, math.Sqrt(abs2(d)))
			}
			rel := math.Sqrt(e2) / (math.Sqrt(float64(n)) * l2)
			worst = math.Max(worst, rel/eta)
			if rel > eta {
				t.Errorf("n=%d %s: forward ℓ2 error %.3g·‖X‖ > bound %.3g", n, name, rel, eta)
			}
			if emax > 2*eta*l1 {
				t.Errorf("n=%d %s: forward output error %.3g > 2η‖x‖₁ = %.3g", n, name, emax, 2*eta*l1)
			}
			// Inverse of the (rounded) coefficients, against the
			// double-double inverse of the same coefficients.
			full := make([]cdd, n)
			for k := 0; k <= n/2; k++ {
				c := got[k]
				if k == 0 || k == n/2 {
					c = complex(real(c), 0)
				}
				full[k] = cdd{ddF(real(c)), ddF(imag(c))}
				if k > 0 && k < n/2 {
					full[n-k] = cdd{ddF(real(c)), ddF(-imag(c))}
				}
			}
			yref := refDFT(full, +1)
			y := f.Sequence(nil, got)
			e2, y2 := 0.0, 0.0
			for j, v := range y {
				d := yref[j].sub(complex(v, 0))
				e2 += abs2(d)
				y2 += yref[j].re.hi * yref[j].re.hi
			}
			if y2 > 0 {
				rel := math.Sqrt(e2 / y2)
				worst = math.Max(worst, rel/eta)
				if rel > eta {
					t.Errorf("n=%d %s: inverse ℓ2 error %.3g·‖y‖ > bound %.3g", n, name, rel, eta)
				}
			}
			// Round trip: y/n is x to within (2η + η²)‖x‖₂ plus one
			// rounding of the division.
			rt := 0.0
			for j, v := range y {
				d := v/float64(n) - x[j]
				rt += d * d
			}
			if math.Sqrt(rt) > (2*eta+eta*eta+0x1p-52)*l2 {
				t.Errorf("n=%d %s: round trip error %.3g > %.3g", n, name, math.Sqrt(rt), (2*eta+eta*eta)*l2)
			}
		}
	}
	t.Logf("largest measured error / bound: %.3f", worst)
}

// TestTwiddleAccuracy checks μ ≤ 3u (Bound's argument needs μ ≤ 4u;
// measured: 1.98u up to N = 2²⁰) at every index of every table length up
// to 2¹⁸ (2¹² under -short), and at a sample of 2¹⁶ indices for N = 2²⁰
// and 2²⁴.
func TestTwiddleAccuracy(t *testing.T) {
	maxLg := 18
	if testing.Short() {
		maxLg = 12
	}
	worst := 0.0
	for lg := 0; lg <= maxLg; lg++ {
		N := 1 << lg
		for k := 0; k < N; k++ {
			d := math.Sqrt(abs2(refTwiddle(k, N).sub(Twiddle(k, N))))
			if d > worst {
				worst = d
			}
			if d > 3*0x1p-53 {
				t.Fatalf("Twiddle(%d, %d) off by %.3g > 3u", k, N, d)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, N := range []int{1 << 20, 1 << 24} {
		for i := 0; i < 1<<16; i++ {
			k := r.IntN(N)
			d := math.Sqrt(abs2(refTwiddle(k, N).sub(Twiddle(k, N))))
			worst = math.Max(worst, d)
			if d > 3*0x1p-53 {
				t.Fatalf("Twiddle(%d, %d) off by %.3g > 3u", k, N, d)
			}
		}
	}
	t.Logf("largest twiddle error: %.3f u", worst/0x1p-53)
}

// A violated bound fails the test: the reference check catches an FFT
// whose twiddle table is off by 8u (more than the 2u Bound assumes) in
// the post-processing, where it cannot cancel.
func TestErrorBoundCanFail(t *testing.T) {
	n := 1 << 10
	f := New(n)
	f.post = append([]complex128(nil), f.post...) // the shared table stays intact
	for k := range f.post {
		f.post[k] *= complex(1+64*0x1p-53*float64(k%7+1), 0)
	}
	x := inputs(n)["uniform"]
	xc := make([]cdd, n)
	l2 := 0.0
	for j, v := range x {
		xc[j] = cdd{ddF(v), ddF(0)}
		l2 += v * v
	}
	ref := refDFT(xc, -1)
	got := f.Coefficients(nil, x)
	e2 := 0.0
	for k, c := range got {
		w := 2.0
		if k == 0 || k == n/2 {
			w = 1
		}
		e2 += w * abs2(ref[k].sub(c))
	}
	if rel := math.Sqrt(e2 / (float64(n) * l2)); rel <= Bound(n) {
		t.Errorf("perturbed FFT's error %.3g within the bound %.3g: the check cannot fail", rel, Bound(n))
	}
}

func TestNewRefuses(t *testing.T) {
	for _, n := range []int{0, 1, 3, 6, 1000} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%d) did not panic", n)
				}
			}()
			New(n)
		}()
	}
}

// The tables New reads from one octant are Twiddle's values bit for bit
// (so Bound's twiddle accuracy carries over), and a second FFT of a length
// shares them.
func TestTablesMatchTwiddle(t *testing.T) {
	for lg := 1; lg <= 16; lg++ {
		n := 1 << lg
		f := New(n)
		for _, s := range f.stages {
			for j := range s.w1 {
				L := 4 * s.l
				if s.w1[j] != Twiddle(j, L) || s.w2[j] != Twiddle(2*j, L) || s.w3[j] != Twiddle(3*j, L) {
					t.Fatalf("n=%d: stage %d twiddle %d differs from Twiddle", n, L, j)
				}
			}
		}
		for k, w := range f.post {
			if w != Twiddle(k, n) {
				t.Fatalf("n=%d: post twiddle %d is %v, Twiddle %v", n, k, w, Twiddle(k, n))
			}
		}
		if g := New(n); len(g.post) > 0 && &g.post[0] != &f.post[0] || &g.work[0] == &f.work[0] {
			t.Fatalf("n=%d: tables not shared, or scratch space shared", n)
		}
	}
}

// SequenceBand is Sequence bit for bit (zeros of either sign equal) on
// coefficients zero from the band on, at every length and at bands that
// skip from no stage to nearly all; and a coefficient inside the band
// changes its output (the skipped part is not the whole).
func TestSequenceBand(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for lg := 1; lg <= 18; lg++ {
		n := 1 << lg
		f := New(n)
		for _, band := range []int{1, 2, 3, 5, 37, 70, 151, n / 64, n / 16, n/2 + 1} {
			if band < 1 || band > n/2+1 {
				continue
			}
			c := make([]complex128, n/2+1)
			for k := 0; k < band; k++ {
				c[k] = complex(r.NormFloat64(), r.NormFloat64())
			}
			want := f.Sequence(nil, c)
			got := f.SequenceBand(nil, c, band)
			inPlace := f.SequenceBandInPlace(nil, append([]complex128(nil), c...), band)
			for i := range want {
				if got[i] != want[i] || inPlace[i] != want[i] {
					t.Fatalf("n=%d band=%d: y[%d] = %v (in place %v), Sequence %v", n, band, i, got[i], inPlace[i], want[i])
				}
			}
			c[band-1] += 1
			if moved := f.SequenceBand(nil, c, band); moved[0] == got[0] && moved[n-1] == got[n-1] {
				t.Fatalf("n=%d band=%d: the top coefficient of the band does not reach the output", n, band)
			}
		}
	}
}

// CoefficientsOf is Coefficients of the sequence zeroed outside [0, a) ∪
// [n − b, n), bit for bit, whatever the entries outside hold (odd ends
// included); and an entry inside the support changes its output.
func TestCoefficientsOf(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for lg := 1; lg <= 17; lg++ {
		n := 1 << lg
		f := New(n)
		for _, ab := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {3, 1}, {n / 8, 0}, {n/5 + 1, 43}, {45, n/3 + 1}, {n / 2, n / 2}, {n, 0}, {n - 1, 1}, {7, 22}} {
			a, b := ab[0], ab[1]
			if a+b > n {
				continue
			}
			x := make([]float64, n)
			zeroed := make([]float64, n)
			for i := range x {
				x[i] = r.Float64() - 0.25
				if i < a || i >= n-b {
					zeroed[i] = x[i]
				}
			}
			want := f.Coefficients(nil, zeroed)
			got := f.CoefficientsOf(nil, x, a, b)
			for k := range want {
				if got[k] != want[k] {
					t.Fatalf("n=%d a=%d b=%d: X[%d] = %v, Coefficients %v", n, a, b, k, got[k], want[k])
				}
			}
			if a > 0 {
				x[a-1] += 1
				if moved := f.CoefficientsOf(nil, x, a, b); moved[0] == got[0] {
					t.Fatalf("n=%d a=%d b=%d: the support's last point does not reach the output", n, a, b)
				}
			}
		}
	}
}
