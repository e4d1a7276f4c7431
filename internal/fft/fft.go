// Package fft is a real-input fast Fourier transform for power-of-two
// lengths, with the conventions of gonum's fourier.FFT (Coefficients:
// n reals to n/2+1 complex coefficients X_k = Σ_t x_t e^{−2πikt/n};
// Sequence: the unnormalised inverse, n·x from X), built for the privacy
// loss distribution accountant (composition/pld), whose soundness needs a
// stated bound on the transform's rounding error (see Bound).
//
// Structure: the n reals are packed as m = n/2 complex numbers
// z_j = x_{2j} + i·x_{2j+1}; an m-point complex FFT (iterative radix-4
// decimation in frequency, in place, with one radix-2 stage when log₂m is
// odd, then a bit-reversal permutation) gives Z; one more butterfly stage
// (the standard real post-processing) turns the pairs (Z_k, Z_{m−k}) into
// (X_k, X_{m−k}). The inverse runs the same steps backwards on conjugates.
// Stages whose blocks fit in 128 KB run depth first, chunk by chunk (the
// same operations in another order). CoefficientsOf and SequenceBand take
// what the caller knows about zeros (a sequence's support, a spectrum's
// band) and skip the butterflies whose four inputs are all zero: the
// output is the same bit for bit (but for the sign of a zero), so is the
// error bound.
//
// Twiddle factors are computed directly for every index (never by a
// recurrence): the angle is reduced to [0, π/4] by exact octant symmetry,
// formed in double-double (2π·k/N with 2π split in two float64s) and
// passed to math.Sincos with a first-order correction; each twiddle's
// error measures at most 1.98u (u = 2⁻⁵³, every index up to N = 2²⁰;
// TestTwiddleAccuracy checks ≤ 3u against a double-double reference),
// and Bound's argument needs μ ≤ 4u. New computes one octant of them per
// length (n/8 + 1 calls to math.Sincos) and reads every table from it, the
// same values bit for bit (TestTablesMatchTwiddle); tables up to 2²¹
// points are shared by the process's FFTs of that length.
package fft

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
)

// FFT holds the twiddle tables and scratch space of one length. It is not
// safe for concurrent use.
type FFT struct {
	n, m   int
	stages []stage      // radix-4 stages, block length m, m/4, …
	radix2 bool         // a final twiddle-free radix-2 stage
	swaps  []int32      // bit-reversal pairs (i, j), i < j
	post   []complex128 // e^{−2πik/n}, k = 0 … m/2
	work   []complex128 // m points for Sequence
}

// stage is one radix-4 stage over blocks of length 4l; w1, w2, w3 hold
// w^j, w^{2j}, w^{3j} (w = e^{−2πi/(4l)}), j < l, each contiguous.
type stage struct {
	l          int
	w1, w2, w3 []complex128
}

// New returns an FFT of length n, a power of two ≥ 2; it panics otherwise.
// Its twiddle tables are built once per length (up to maxShared) and
// process and shared (read only) by every FFT of that length; only the
// scratch space is its own.
func New(n int) *FFT {
	if n < 2 || n&(n-1) != 0 {
		panic(fmt.Sprintf("fft: length %d is not a power of two ≥ 2", n))
	}
	t := tablesFor(n)
	t.work = make([]complex128, t.m)
	return &t
}

// shared holds one FFT (without scratch space) per length, built once:
// lengths are built concurrently, and a second caller of a length waits
// for the first's tables.
var shared struct {
	sync.Mutex
	by map[int]*sharedFFT
}

type sharedFFT struct {
	once sync.Once
	t    *FFT
}

// maxShared is the longest length whose tables are kept for the process
// (about 24 MB; all the shorter ones together as much again); longer
// FFTs build their own.
const maxShared = 1 << 21

// tablesFor returns a copy of the shared FFT of length n (its slices
// shared), building it on first use.
func tablesFor(n int) FFT {
	if n > maxShared {
		return *build(n)
	}
	shared.Lock()
	if shared.by == nil {
		shared.by = map[int]*sharedFFT{}
	}
	e := shared.by[n]
	if e == nil {
		e = &sharedFFT{}
		shared.by[n] = e
	}
	shared.Unlock()
	e.once.Do(func() { e.t = build(n) })
	return *e.t
}

// build computes the tables of length n. Every twiddle e^{−2πik/N} (N
// divides n) is read from one octant of n/8 + 1 sines and cosines,
// computed as Twiddle computes them: the same values bit for bit (the
// reduced angle 2π·r/N is the same float64 as 2π·(r·n/N)/n), with an
// eighth of the calls to math.Sincos.
func build(n int) *FFT {
	m := n / 2
	t := &FFT{n: n, m: m}
	// tw(K) = Twiddle(K, n); Twiddle(k, N) = tw(k·n/N) for N dividing n.
	tw := func(K int) complex128 { return Twiddle(K, n) }
	if n >= 8 {
		tw = newOctant(n).at
	}
	L := m
	for ; L >= 4; L /= 4 {
		l := L / 4
		s := stage{l: l}
		if l > 1 {
			s.w1, s.w2, s.w3 = make([]complex128, l), make([]complex128, l), make([]complex128, l)
			sc := n / L
			for j := 0; j < l; j++ {
				s.w1[j] = tw(j * sc)
				s.w2[j] = tw(2 * j * sc)
				s.w3[j] = tw(3 * j * sc)
			}
		}
		t.stages = append(t.stages, s)
	}
	t.radix2 = L == 2
	if m > 1 {
		t.swaps = make([]int32, 0, m)
		shift := 64 - bits.Len(uint(m-1))
		for i := 0; i < m; i++ {
			if j := int(bits.Reverse64(uint64(i)) >> shift); i < j {
				t.swaps = append(t.swaps, int32(i), int32(j))
			}
		}
	}
	t.post = make([]complex128, m/2+1)
	for k := range t.post {
		t.post[k] = tw(k)
	}
	return t
}

// octant holds sin and cos of 2π·r/n for r = 0 … n/8, as octantSinCos.
type octant struct {
	n     int
	shift int // log₂(n/4)
	s, c  []float64
}

func newOctant(n int) *octant {
	o := &octant{n: n, shift: bits.Len(uint(n)) - 3, s: make([]float64, n/8+1), c: make([]float64, n/8+1)}
	for r := range o.s {
		o.s[r], o.c[r] = octantSinCos(r, n)
	}
	return o
}

// at returns Twiddle(K, n) from the table, by the symmetries Twiddle
// uses, with shifts and masks for its divisions (n is a power of two):
// Twiddle(k, N) for N dividing n is at(k·n/N), the same reduced angle
// r/N = (r·n/N)/n.
func (o *octant) at(K int) complex128 {
	n := o.n
	K &= n - 1
	q, r := K>>o.shift, K&(n/4-1)
	if r > n/8 {
		i := n/4 - r
		return rotate(o.c[i], o.s[i], q)
	}
	return rotate(o.s[r], o.c[r], q)
}

// Bound returns η(n) = 8u·(log₂n + 1), u = 2⁻⁵³, a bound on the relative
// ℓ2 rounding error of Coefficients, ‖X̂ − X‖₂ ≤ η(n)·‖X‖₂ over the full
// spectrum (X_{n−k} = conj X_k, so ‖X‖₂ = √n·‖x‖₂), and of Sequence,
// ‖ŷ − y‖₂ ≤ η(n)·‖y‖₂; 2η(n)·‖x‖₁ bounds the error of every single
// output of Coefficients (composition/pld's fftEta is this bound).
//
// Why. Higham (Accuracy and Stability of Numerical Algorithms, 2nd ed.,
// 2002, §24.1, Theorem 24.2) bounds a radix-2 FFT, a product of log₂n
// stages A_k (butterflies (x, y) ↦ (x + wy, x − wy) up to a permutation,
// A_k/√2 unitary, twiddle error |ŵ − w| ≤ μ), by log₂n·η/(1 − log₂n·η),
// η = μ + γ₄(√2 + μ), γ₄ = 4u/(1 − 4u): the computed stage is
// (A_k + ΔA_k)x with ‖ΔA_k‖₂ ≤ η‖A_k‖₂, so relative stage errors ε_k
// compound to at most Π(1 + ε_k) − 1 ≤ Σε_k/(1 − Σε_k). The same proof
// applies stage by stage to this FFT, with these per-stage ε (μ ≤ 4u
// assumed; Twiddle measures ≤ 1.98u, TestTwiddleAccuracy asserts ≤ 3u;
// complex products err by at most √2γ₂|ŵ||s|, Higham Lemma 3.5):
//
//   - packing z_j = x_{2j} + i·x_{2j+1}: exact, ‖z‖₂ = ‖x‖₂.
//   - a radix-4 stage is two radix-2 stages B = A_{k+1}A_k (‖B‖₂ = 2,
//     B/2 unitary) fused: per butterfly a (4 points), one layer of
//     additions (error ≤ u·√2‖a‖₂), a second of norm √2 (±, ∓i exact;
//     error ≤ 2u‖a‖₂ + 2u(1+u)‖a‖₂), one product by a directly computed
//     twiddle (error ≤ (μ + √2γ₂(1+μ))·2‖a‖₂(1+2u)): in all at most
//     (9.7u + 2μ)‖a‖₂ = (4.9u + μ)·‖B‖₂‖a‖₂, under the 2η of the two
//     radix-2 stages it replaces; ε ≤ 8.9u per two levels.
//   - the final radix-2 stage (odd log₂(n/2)) has twiddle 1: ε ≤ u.
//   - the bit-reversal permutation: exact.
//   - the real post-processing maps each pair (Z_k, conj Z_{m−k}),
//     m = n/2, to (X_k, conj X_{m−k}) by the unitary matrix
//     ½[[1 − iw, 1 + iw], [1 + iw, 1 − iw]] (w = e^{−2πik/n}), computed as
//     A = Z_k + conj Z_{m−k}, B = Z_k − conj Z_{m−k}, c = wB, ½(A ∓ ic)
//     (halving exact): error at most √(u² + (μ + 3.9u)²)·|(A, B)| plus
//     u·|(X_k, X_{m−k})|, with |(A, B)| = √2·|(Z_k, Z_{m−k})| and the
//     ½ and the two outputs' √2 cancelling, so ≤ 9u·|(Z_k, Z_{m−k})|;
//     X_0, X_m = Re Z_0 ± Im Z_0 (error u) and X_{m/2} = conj Z_{m/2}
//     (exact: w = −i). Over the full spectrum ‖X‖₂ = √2‖Z‖₂ pair by
//     pair, so relative errors carry over: ε ≤ 9u.
//
// So Σε ≤ 4.5u·log₂(n/2) + u + 9u < 8u·(log₂n + 1)(1 − Σε) for every
// n ≤ 2⁴⁰: one real FFT stays within η(n), the radix-2 bound's form with
// its factor 8u ≥ μ + γ₄(√2 + μ) for μ ≤ 2u, and the bound holds up to
// μ = 4u. Sequence runs the same
// stages backwards on conjugates (conjugation, ±i and the factor 2 are
// exact), relative to ‖y‖₂ = √n·‖X‖₂.
// Per output: each stage's butterflies feeding one output act on disjoint
// parts of the input (modulus at most their ℓ1 norm), so a stage adds at
// most (μ + 4u)·‖x‖₁ ≤ 8u·‖x‖₁ per level to it; the post-processing
// passes the errors of Z_k and Z_{m−k} on with a factor at most √2 and
// adds at most 18u·‖x‖₁: in all 8√2u·log₂(n/2) + 18u < 2η(n)·‖x‖₁.
// The model is Higham's: no underflow or overflow (subnormal
// intermediates, below 2⁻¹⁰²² times the input's size, are not covered).
// TestErrorBound measures every case against a double-double reference.
func Bound(n int) float64 { return 8 * 0x1p-53 * float64(bits.Len(uint(n))) }

// Len returns the length of the real sequence.
func (t *FFT) Len() int { return t.n }

// twoPi is 2π as an unevaluated sum of two float64s.
const (
	twoPiHi = 2 * math.Pi
	twoPiLo = 2.4492935982947064e-16
)

// Twiddle returns e^{−2πik/N} for N a power of two (measured within 1.98u
// in modulus; see the package comment).
func Twiddle(k, N int) complex128 {
	if N < 8 {
		k, N = k*(8/N), 8
	}
	return fromOctant(k, N, func(r int) (float64, float64) { return octantSinCos(r, N) })
}

// fromOctant returns e^{−2πik/N} (N ≥ 8) from sc(r) = (sin, cos) of
// 2π·r/N for r in [0, N/8], by exact symmetries.
func fromOctant(k, N int, sc func(r int) (float64, float64)) complex128 {
	k &= N - 1
	q, r := k/(N/4), k%(N/4)
	swap := false
	if r > N/8 {
		r, swap = N/4-r, true
	}
	s, c := sc(r)
	if swap {
		s, c = c, s
	}
	return rotate(s, c, q)
}

// rotate returns (c − i s)·(−i)^q.
func rotate(s, c float64, q int) complex128 {
	switch q {
	case 0:
		return complex(c, -s)
	case 1:
		return complex(-s, -c)
	case 2:
		return complex(-c, s)
	default:
		return complex(s, c)
	}
}

// octantSinCos returns sin and cos of θ = 2π·r/N ∈ [0, π/4], the angle
// formed as θhi + θlo in double-double, math.Sincos at θhi with a
// first-order correction.
func octantSinCos(r, N int) (float64, float64) {
	f := float64(r) / float64(N) // exact
	hi := twoPiHi * f
	lo := math.FMA(twoPiHi, f, -hi) + twoPiLo*f
	s, c := math.Sincos(hi)
	return s + c*lo, c - s*lo
}

// Coefficients returns the n/2+1 coefficients X_k = Σ_t seq_t e^{−2πikt/n}
// of the real sequence seq (length n), in dst if it is non-nil (length
// n/2+1; seq is not modified).
func (t *FFT) Coefficients(dst []complex128, seq []float64) []complex128 {
	return t.CoefficientsOf(dst, seq, t.n, 0)
}

// CoefficientsOf is Coefficients of the sequence equal to seq on [0, a) ∪
// [n − b, n) and zero elsewhere (seq's other entries are not read, and
// need not be zero). The transform's stages skip the butterflies whose
// four inputs are all zero, as SequenceBand does (the packed input
// z_j = x_{2j} + i·x_{2j+1} is zero outside [0, ⌈a/2⌉) ∪ [m − b', m)):
// the same output as Coefficients of that sequence, bit for bit but for
// the sign of a zero, and Bound holds as for Coefficients.
func (t *FFT) CoefficientsOf(dst []complex128, seq []float64, a, b int) []complex128 {
	if len(seq) != t.n {
		panic("fft: sequence length mismatch")
	}
	if dst == nil {
		dst = make([]complex128, t.m+1)
	} else if len(dst) != t.m+1 {
		panic("fft: destination length mismatch")
	}
	n, m := t.n, t.m
	a, b = max(0, min(a, n)), max(0, min(b, n))
	z := dst[:m]
	if a+b >= n { // dense
		for j := range z {
			z[j] = complex(seq[2*j], seq[2*j+1])
		}
		t.complexFFT(z)
	} else {
		at := func(i int) float64 { // seq on the support, 0 elsewhere
			if i < a || i >= n-b {
				return seq[i]
			}
			return 0
		}
		za, zb := (a+1)/2, m-(n-b)/2 // z_j ≠ 0 only for j < za or j ≥ m − zb
		for j := 0; j < za; j++ {
			z[j] = complex(at(2*j), at(2*j+1))
		}
		clear(z[za : m-zb])
		for j := m - zb; j < m; j++ {
			z[j] = complex(at(2*j), at(2*j+1))
		}
		t.complexFFTBand(z, za, zb)
	}
	z0 := dst[0]
	dst[0] = complex(real(z0)+imag(z0), 0)
	dst[m] = complex(real(z0)-imag(z0), 0)
	// X_k = ½(A − i·w^k·B), X_{m−k} = ½·conj(A + i·w^k·B), with
	// A = Z_k + conj Z_{m−k}, B = Z_k − conj Z_{m−k}.
	for k := 1; k <= m/2; k++ {
		zk, zm := dst[k], dst[m-k]
		zmc := complex(real(zm), -imag(zm))
		a, b := zk+zmc, zk-zmc
		c := t.post[k] * b
		ic := complex(-imag(c), real(c)) // i·c
		dst[k] = (a - ic) * 0.5
		v := (a + ic) * 0.5
		dst[m-k] = complex(real(v), -imag(v))
	}
	return dst
}

// Sequence returns the real sequence y_t = Σ_{k<n} X_k e^{2πikt/n}
// (X_{n−k} = conj X_k; the imaginary parts of X_0 and X_{n/2} are
// ignored) of the n/2+1 coefficients coeff, unnormalised (n times the
// inverse), in dst if non-nil (length n; coeff is not modified).
func (t *FFT) Sequence(dst []float64, coeff []complex128) []float64 {
	return t.SequenceBand(dst, coeff, len(coeff))
}

// SequenceBand is Sequence for coefficients that are zero from index band
// on (coeff[k] = 0 for k ≥ band; the caller guarantees it): the
// transform's stages skip the butterflies whose four inputs are all zero
// (their outputs are zero), which at band ≪ n/2 is most of the first
// stages. Every other butterfly is the same operation on the same
// operands as in Sequence, so the output is the same (bit for bit, but
// for the sign of a zero) and Bound holds as for Sequence.
//
// Why the zeros are where they are skipped: the packed input v (see
// Sequence) is zero outside [0, band) ∪ (m − band, m), m = n/2; a radix-4
// stage over blocks of length 4l reads points j, j + l, j + 2l, j + 3l of
// a block, and if the block's input is zero outside [0, band) ∪
// (4l − band, 4l) with 2·band − 1 ≤ l, butterfly j has a nonzero input
// only for j < band or j > l − band, and each of its four output
// sub-blocks (length l) is zero outside [0, band) ∪ (l − band, l): the
// same form, one stage down.
func (t *FFT) SequenceBand(dst []float64, coeff []complex128, band int) []float64 {
	return t.sequence(dst, coeff, band, false)
}

// SequenceBandInPlace is SequenceBand using coeff as its scratch space
// (its contents are lost): the same output, with a third less memory
// touched.
func (t *FFT) SequenceBandInPlace(dst []float64, coeff []complex128, band int) []float64 {
	return t.sequence(dst, coeff, band, true)
}

func (t *FFT) sequence(dst []float64, coeff []complex128, band int, inPlace bool) []float64 {
	if len(coeff) != t.m+1 {
		panic("fft: coefficients length mismatch")
	}
	if dst == nil {
		dst = make([]float64, t.n)
	} else if len(dst) != t.n {
		panic("fft: destination length mismatch")
	}
	m := t.m
	v := t.work
	if inPlace {
		// Each pair (k, m − k) below is read before it is written, and
		// beyond the band coeff already holds the zeros v needs.
		v = coeff[:m]
	}
	top := m / 2 // the pairs (k, m − k) computed
	za, zb := -1, 0
	if band >= 1 && 2*band-1 <= m/4 { // else too wide to skip anything worth it
		top = min(band-1, m/2)
		za, zb = band, band-1
		if !inPlace {
			clear(v)
		}
	}
	// 2Z_k = A + i·conj(w^k)·B, 2Z_{m−k} = conj(A − i·conj(w^k)·B), with
	// A = X_k + conj X_{m−k}, B = X_k − conj X_{m−k}; v holds conj(2Z).
	x0, xm := real(coeff[0]), real(coeff[m])
	v[0] = complex(x0+xm, -(x0 - xm))
	for k := 1; k <= top; k++ {
		xk, xmk := coeff[k], coeff[m-k]
		xmc := complex(real(xmk), -imag(xmk))
		a, b := xk+xmc, xk-xmc
		w := t.post[k]
		c := complex(real(w), -imag(w)) * b
		ic := complex(-imag(c), real(c))
		zk := a + ic
		v[k] = complex(real(zk), -imag(zk))
		v[m-k] = a - ic // conj(conj(a − ic))
	}
	t.complexFFTBand(v, za, zb)
	for j, c := range v {
		dst[2*j] = real(c)
		dst[2*j+1] = -imag(c)
	}
	return dst
}

// chunk is the block (complex points, 128 KB) within which complexFFT
// runs its later stages depth first.
const chunk = 1 << 13

// complexFFT transforms x (length m) in place: X_k = Σ_j x_j e^{−2πijk/m}.
// The stages whose blocks are longer than chunk run over the whole array
// one after the other; the rest run chunk by chunk, all of them on one
// chunk while it is in cache (a chunk holds whole blocks of every later
// stage, so every butterfly is the same operation on the same operands
// as stage by stage: the output is the same bit for bit, and so is the
// error argument of Bound).
func (t *FFT) complexFFT(x []complex128) { t.complexFFTBand(x, -1, 0) }

// complexFFTBand is complexFFT for an input zero outside [0, a) ∪
// [m − b, m) (a < 0: any input), skipping the butterflies of all-zero
// inputs (see SequenceBand).
func (t *FFT) complexFFTBand(x []complex128, a, b int) {
	i := 0
	for ; i < len(t.stages) && 4*t.stages[i].l > chunk; i++ {
		t.stages[i].run(x, a, b)
	}
	for c := 0; c < len(x); c += chunk {
		y := x[c:min(c+chunk, len(x))]
		for _, s := range t.stages[i:] {
			s.run(y, a, b)
		}
		if t.radix2 {
			for b := 0; b+1 < len(y); b += 2 {
				a, c := y[b], y[b+1]
				y[b], y[b+1] = a+c, a-c
			}
		}
	}
	sw := t.swaps
	for i := 0; i+1 < len(sw); i += 2 {
		a, b := sw[i], sw[i+1]
		x[a], x[b] = x[b], x[a]
	}
}

// run applies the radix-4 stage s to every block of x; a ≥ 0: each
// block's input is zero outside [0, a) ∪ [4l − b, 4l), and where a + b ≤ l
// only the butterflies j < a and j ≥ l − b are run: butterfly j reads
// points j, j + l, j + 2l, j + 3l, all zero for a ≤ j < l − b, and its
// outputs are then zero, as its inputs (already in place). Each output
// sub-block (length l) is then zero outside [0, a) ∪ [l − b, l): the same
// form, one stage down.
func (s stage) run(x []complex128, a, b int) {
	l := s.l
	L := 4 * l
	if a >= 0 && a+b <= l && l > 1 {
		for o := 0; o < len(x); o += L {
			s.butterflies(x[o:o+L:o+L], 0, a)
			s.butterflies(x[o:o+L:o+L], l-b, l)
		}
		return
	}
	if l == 1 {
		for b := 0; b+3 < len(x); b += 4 {
			q := x[b : b+4 : b+4]
			a0, a1, a2, a3 := q[0], q[1], q[2], q[3]
			t0, t1, t2, t3 := a0+a2, a0-a2, a1+a3, a1-a3
			mt3 := complex(imag(t3), -real(t3)) // −i·t3
			q[0] = t0 + t2
			q[1] = t0 - t2
			q[2] = t1 + mt3
			q[3] = t1 - mt3
		}
		return
	}
	w1, w2, w3 := s.w1[:l], s.w2[:l], s.w3[:l]
	for b := 0; b < len(x); b += L {
		p0 := x[b : b+l : b+l]
		p1 := x[b+l : b+2*l : b+2*l]
		p2 := x[b+2*l : b+3*l : b+3*l]
		p3 := x[b+3*l : b+4*l : b+4*l]
		for j := range p0 {
			a0, a1, a2, a3 := p0[j], p1[j], p2[j], p3[j]
			t0, t1, t2, t3 := a0+a2, a0-a2, a1+a3, a1-a3
			mt3 := complex(imag(t3), -real(t3))
			p0[j] = t0 + t2
			p1[j] = (t0 - t2) * w2[j]
			p2[j] = (t1 + mt3) * w1[j]
			p3[j] = (t1 - mt3) * w3[j]
		}
	}
}

// butterflies runs the butterflies j0 ≤ j < j1 of stage s on one block q
// (length 4l), as run does.
func (s stage) butterflies(q []complex128, j0, j1 int) {
	l := s.l
	p0 := q[j0:j1:j1]
	p1 := q[l+j0 : l+j1 : l+j1]
	p2 := q[2*l+j0 : 2*l+j1 : 2*l+j1]
	p3 := q[3*l+j0 : 3*l+j1 : 3*l+j1]
	w1, w2, w3 := s.w1[j0:j1:j1], s.w2[j0:j1:j1], s.w3[j0:j1:j1]
	for j := range p0 {
		a0, a1, a2, a3 := p0[j], p1[j], p2[j], p3[j]
		t0, t1, t2, t3 := a0+a2, a0-a2, a1+a3, a1-a3
		mt3 := complex(imag(t3), -real(t3))
		p0[j] = t0 + t2
		p1[j] = (t0 - t2) * w2[j]
		p2[j] = (t1 + mt3) * w1[j]
		p3[j] = (t1 - mt3) * w3[j]
	}
}
