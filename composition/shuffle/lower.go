package shuffle

import (
	"math"

	"github.com/privamp/privamp/internal/fft"
	"github.com/privamp/privamp/internal/numeric"
)

// The lower bound is the hockey-stick divergence of one pair of output
// distributions of a one-dimensional instance of shuffled DP-SGD (adaptive
// batch linear queries, ABLQ, with a shuffle batch sampler: Chua, Ghazi,
// Kamath, Kumar, Manurangsi, Sinha, Zhang, "How Private are DP-SGD
// Implementations?", ICML 2024, arXiv 2403.17673; multi-epoch: "Scalable
// DP-SGD: Shuffling vs. Poisson Subsampling", NeurIPS 2024, arXiv
// 2411.04205), evaluated on the sets the authors use (their reference code,
// google-research/dpsgd_batch_sampler_accounting, dpsgd_bounds.py,
// ShuffleAccountant): the "cubes" E_C = {w : max_t w_t ≤ C}. The papers'
// text could not be read here; the pair, the sets and the multi-epoch
// construction are the authors' code's, and why they bound this package's
// mechanism from below is derived in the comments (instance).
//
// Instance. Clip norm C = 1, one-dimensional gradients ψ(x) = x with
// records in [−1, 1], noise σ = z. An epoch shuffles the records and cuts
// T consecutive batches; its output is the T noisy batch sums. Every record
// is −1 except one, x*:
//
//   - replace-one: x* = +1 in D, −1 in D′ (same n, same batch sizes). After
//     subtracting the known sums −|B_t|, D gives a mixture over the batch t
//     holding x* of N(2e_t, σ²I) and D′ gives N(0, σ²I).
//   - add/remove: D holds x* = +1 and D′ lacks it. Read as zero-out (x*
//     replaced by a record that contributes 0, same batches), D′ gives the
//     mixture of N(e_t, σ²I) over the same t. Read as removal (n and n − 1
//     records, or n + 1 and n when n − 1 would change T), D′ gives
//     N(e_s, σ²I), s the batch one record short (wherever the cutting rule
//     puts it, random or fixed). D gives the mixture of N(2e_t, σ²I).
//
// The cube masses do not depend on the mixture's weights nor on s (E_C is
// symmetric in the coordinates and each term has the same form), so with
// F_m(C) = Φ((C − m)/σ)·Φ(C/σ)^{T−1} the mass of E_C under "mean m in one
// coordinate", P = F_2 and Q = F_1 (add/remove) or F_0 = Φ(C/σ)^T
// (replace-one), and for every ε and C
//
//	δ(ε) ≥ (1 − F_2(C)) − e^ε (1 − F_Q(C)),
//
// the definition of (ε, δ)-DP applied to the complement of E_C. The pair
// (F_2, F_1) is the authors' (mean_upper = 2, mean_lower = 1).
//
// Epochs. Reshuffled every epoch, the E epochs' outputs are independent, so
// the pair is (P^⊗E, Q^⊗E); post-processing each epoch to the slice of
// max_t w_t it falls in keeps a lower bound, and the product of the
// slices' discrete pair is composed by FFT, every privacy loss rounded
// down, far tails dropped and every composed mass lowered by its rounding
// error bound (each of which only lowers δ). With one
// order for all epochs (Persistent) the E noisy copies of each batch sum
// average to one epoch at σ/√E (a post-processing), as in the authors'
// code.

// meanQ is the mean of the one shifted coordinate under D′.
func meanQ(replaceOne bool) float64 {
	if replaceOne {
		return 0
	}
	return 1
}

// logIn returns ln F_m(C) = ln Φ((C−m)/σ) + (T−1)·ln Φ(C/σ).
func logIn(sigma float64, T int64, c, m float64) float64 {
	return numeric.LogPhi((c-m)/sigma) + float64(T-1)*numeric.LogPhi(c/sigma)
}

// out returns 1 − F_m(C), the mass outside the cube, without cancellation.
func out(sigma float64, T int64, c, m float64) float64 {
	return -math.Expm1(logIn(sigma, T, c, m))
}

// tinyMass is the smallest mass taken at face value: below it a computed
// Q-mass may be subnormal or have underflowed, and is replaced by tinyMass
// (cubeDelta) or its slice dropped (epochDist), both of which only lower δ.
const tinyMass = 1e-290

// relSlack is the relative error allowed each computed mass (logΦ and
// expm1 are good to a few ulps; this covers them a thousandfold).
const relSlack = 1e-12

// cubeDelta returns max over C of (1−F_2(C)) − e^ε(1−F_Q(C)), each mass
// moved by relSlack in the direction that lowers the result: a lower bound
// on the single-epoch δ(ε) at noise σ with T batches. C is searched on a
// grid of 4001 points over [−4σ, 2 + 12σ + σ√(2 ln T)] and refined by
// golden section around the best point (any C gives a valid bound).
func cubeDelta(sigma float64, T int64, eps float64, replaceOne bool) float64 {
	mq := meanQ(replaceOne)
	ee := math.Exp(eps)
	f := func(c float64) float64 {
		// Q's mass is raised to tinyMass where it is computed below it (it
		// may have underflowed; a larger Q-mass only lowers the bound).
		return out(sigma, T, c, 2)*(1-relSlack) - ee*math.Max(out(sigma, T, c, mq), tinyMass)*(1+relSlack)
	}
	lo := -4 * sigma
	hi := 2 + 12*sigma + sigma*math.Sqrt(2*math.Log(float64(T)))
	const n = 4000
	step := (hi - lo) / n
	best, bc := math.Inf(-1), lo
	for i := 0; i <= n; i++ {
		c := lo + float64(i)*step
		if v := f(c); v > best {
			best, bc = v, c
		}
	}
	a, b := bc-step, bc+step
	g := (math.Sqrt(5) - 1) / 2
	x1, x2 := b-g*(b-a), a+g*(b-a)
	f1, f2 := f(x1), f(x2)
	for range 60 {
		if f1 > f2 {
			b, x2, f2 = x2, x1, f1
			x1 = b - g*(b-a)
			f1 = f(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + g*(b-a)
			f2 = f(x2)
		}
	}
	best = math.Max(best, math.Max(f1, f2))
	return math.Max(best, 0)
}

// lossDist is the distribution under P of the rounded-down privacy loss
// ln(p/q) of a discrete pair: mass p[i] at loss (lo+i)·h.
type lossDist struct {
	h  float64
	lo int
	p  []float64
}

// dropBelow is the mass under which a grid point is dropped (dropping
// P-mass only lowers δ).
const dropBelow = 1e-30

// maxSlices caps the slices of one epoch (tiny noise would ask for
// millions).
const maxSlices = 200000

// epochDist returns the rounded-down loss distribution of one epoch's
// max statistic, sliced so that the loss moves by about h per slice, over
// the range outside which P has mass ≤ tail on each side (kept as two end
// slices).
func epochDist(sigma float64, T int64, replaceOne bool, h, tail float64) lossDist {
	mq := meanQ(replaceOne)
	tail = math.Max(tail, dropBelow)
	// Steps of σ/4 out to where P's cube mass (lo) and its outside mass
	// (hi) are at most tail.
	lo := 2.0
	for logIn(sigma, T, lo, 2) > math.Log(tail) {
		lo -= sigma / 4
	}
	hi := 2 + sigma
	for out(sigma, T, hi, 2) > tail {
		hi += sigma / 4
	}
	// At most maxSlices slices: coarser slices are still a post-processing
	// (the loss then moves by more than h between slices, each rounded down).
	gap := math.Max(h*sigma*sigma/(2-mq), (hi-lo)/maxSlices)
	// Slices (c_i, c_{i+1}], plus (−∞, lo] and (hi', ∞).
	var masses []struct{ p, q float64 }
	mass := func(c1, c2 float64, m float64) (v, rel float64) {
		// F(c2) − F(c1), taken on the side where it does not cancel.
		l1, l2 := logIn(sigma, T, c1, m), logIn(sigma, T, c2, m)
		if l2 < math.Log(0.5) {
			a, b := math.Exp(l2), math.Exp(l1)
			v = a - b
			return v, relSlack * (a + b) / math.Max(v, math.SmallestNonzeroFloat64)
		}
		a, b := -math.Expm1(l1), -math.Expm1(l2)
		v = a - b
		return v, relSlack * (a + b) / math.Max(v, math.SmallestNonzeroFloat64)
	}
	add := func(p, rp, q, rq float64) {
		if p <= dropBelow || q < tinyMass || rp >= 1e-3 || rq >= 1e-3 {
			return // dropped: only lowers δ
		}
		masses = append(masses, struct{ p, q float64 }{p * (1 - rp), q * (1 + rq)})
	}
	add(math.Exp(logIn(sigma, T, lo, 2))*(1-relSlack), 0, math.Exp(logIn(sigma, T, lo, mq))*(1+relSlack), 0)
	c := lo
	for ; c < hi; c += gap {
		p, rp := mass(c, c+gap, 2)
		q, rq := mass(c, c+gap, mq)
		add(p, rp, q, rq)
	}
	add(out(sigma, T, c, 2)*(1-relSlack), 0, out(sigma, T, c, mq)*(1+relSlack), 0)
	// Round each loss down to the grid.
	minK, maxK := math.MaxInt, math.MinInt
	ks := make([]int, len(masses))
	for i, m := range masses {
		ks[i] = int(math.Floor(math.Log(m.p/m.q) / h))
		minK, maxK = min(minK, ks[i]), max(maxK, ks[i])
	}
	d := lossDist{h: h, lo: minK, p: make([]float64, maxK-minK+1)}
	for i, m := range masses {
		d.p[ks[i]-minK] += m.p
	}
	return d
}

// trim drops the end grid points of d, smallest first, while their total
// mass stays ≤ budget (dropping P-mass only lowers δ).
func (d lossDist) trim(budget float64) lossDist {
	s, e := 0, len(d.p)
	for s < e {
		if d.p[s] <= d.p[e-1] && d.p[s] <= budget {
			budget -= d.p[s]
			s++
		} else if d.p[e-1] < d.p[s] && d.p[e-1] <= budget {
			budget -= d.p[e-1]
			e--
		} else {
			break
		}
	}
	return lossDist{h: d.h, lo: d.lo + s, p: d.p[s:e]}
}

// convolve returns the distribution of the sum of independent losses from
// a and b (same h), dropping grid points under dropBelow.
func convolve(a, b lossDist) lossDist {
	if len(a.p) == 0 || len(b.p) == 0 {
		return lossDist{h: a.h}
	}
	out := make([]float64, len(a.p)+len(b.p)-1)
	for i, x := range a.p {
		if x == 0 {
			continue
		}
		o := out[i : i+len(b.p)]
		for j, y := range b.p {
			o[j] += x * y
		}
	}
	s, e := 0, len(out)
	for s < e && out[s] < dropBelow {
		s++
	}
	for e > s && out[e-1] < dropBelow {
		e--
	}
	return lossDist{h: a.h, lo: a.lo + b.lo + s, p: out[s:e]}
}

// delta returns Σ_k p_k (1 − e^{ε − k h})_+, lowered by a relative 1e-12
// for the rounding of the sums: a lower bound on the composed δ(ε).
func (d lossDist) delta(eps float64) float64 {
	s := 0.0
	for i, p := range d.p {
		l := float64(d.lo+i) * d.h
		if l > eps {
			s += p * -math.Expm1(eps-l)
		}
	}
	return s * (1 - 1e-12)
}

// convolveFFT is convolve by FFT, every output lowered by a bound on its
// rounding error (twice 3η(‖a‖₂‖b‖₁ + ‖a‖₁‖b‖₂), an ℓ2 bound and so one on
// each output) and clamped at 0: each mass is at most the exact one, so δ
// computed from it is still a lower bound.
func convolveFFT(a, b lossDist) lossDist {
	if len(a.p) == 0 || len(b.p) == 0 {
		return lossDist{h: a.h} // all mass dropped: δ = 0
	}
	m := len(a.p) + len(b.p) - 1
	n := 2 // internal/fft's lengths: powers of two ≥ 2
	for n < m {
		n <<= 1
	}
	ft := fft.New(n)
	x, y := make([]float64, n), make([]float64, n)
	copy(x, a.p)
	copy(y, b.p)
	cx, cy := ft.Coefficients(nil, x), ft.Coefficients(nil, y)
	for i := range cx {
		cx[i] *= cy[i]
	}
	z := ft.Sequence(x, cx)
	a1, a2 := norm12(a.p)
	b1, b2 := norm12(b.p)
	e := 2 * 3 * fft.Bound(n) * (a2*b1 + a1*b2) // the PLD accountant's FFT and its bound
	out := make([]float64, m)
	inv := 1 / float64(n)
	for i := range out {
		out[i] = math.Max(0, z[i]*inv-e)
	}
	return lossDist{h: a.h, lo: a.lo + b.lo, p: out}
}

func norm12(p []float64) (l1, l2 float64) {
	for _, v := range p {
		l1 += v
		l2 += v * v
	}
	return l1, math.Sqrt(l2)
}

// maxGrid caps the grid of the composed distribution (its FFT length is at
// most twice this): the grid h is coarsened until it fits, which only
// lowers the bound.
const maxGrid = 1 << 21

// composedDist returns the rounded-down loss distribution of E reshuffled
// epochs on the finest grid h ≥ 1e-3 that fits maxGrid, by repeated
// squaring (convolveFFT); each epoch's distribution and each product drop
// at most drop of their P-mass at their ends.
func composedDist(sigma float64, T, E int64, replaceOne bool, drop float64) lossDist {
	h := 1e-3
	for {
		one := epochDist(sigma, T, replaceOne, h, drop/4).trim(drop / 2)
		if float64(len(one.p))*float64(E) <= maxGrid || h >= 1 {
			return power(one, E, drop)
		}
		h = math.Min(1, 1.05*h*float64(len(one.p))*float64(E)/maxGrid)
	}
}

// power returns the E-fold convolution of one by repeated squaring.
func power(one lossDist, E int64, drop float64) lossDist {
	var acc lossDist
	have := false
	sq := one
	for e := E; e > 0; e >>= 1 {
		if e&1 == 1 {
			if have {
				acc = convolveFFT(acc, sq).trim(drop)
			} else {
				acc, have = sq, true
			}
		}
		if e > 1 {
			sq = convolveFFT(sq, sq).trim(drop)
		}
	}
	return acc
}

// lowerEpsilon returns the largest ε (to 1e-9) at which delta(ε) > target
// still holds, 0 if it fails at ε = 0: no (ε′, target)-DP claim with ε′
// below it can hold.
func lowerEpsilon(delta func(float64) float64, target float64) float64 {
	if delta(0) <= target {
		return 0
	}
	lo, hi := 0.0, 1.0
	for delta(hi) > target {
		lo, hi = hi, 2*hi
		if hi > 1e6 {
			return lo
		}
	}
	for hi-lo > 1e-9*math.Max(1, hi) {
		m := (lo + hi) / 2
		if delta(m) > target {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}
