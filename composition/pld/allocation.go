package pld

import (
	"math"

	"github.com/privamp/privamp/internal/field"
)

// RandomAllocation is the PLD of one epoch of random allocation (balls-in-
// bins batches): each record is used in exactly one of t steps, chosen
// uniformly, and each step adds N(0, z²) noise to a sum of sensitivity 1
// (add/remove neighbours).
//
// The pair. As in rdp.RandomAllocation (whose doc states the dominating
// pair and its sources: Feldman & Shenfeld, arXiv 2502.08202; Chua et al.,
// balls-and-bins), the epoch is dominated by P = (1/t)Σ_i N(e_i, z²I_t)
// against Q = N(0, z²I_t), whose likelihood ratio is S = (1/t)Σ_i e^{Y_i},
// Y_i i.i.d. N(−m, 2m) under Q, m = 1/(2z²). Its PLD is that of
// L = ln S: the loss of a mean of t one-step losses taken in exp-space
// (Feldman & Shenfeld, "Efficient privacy loss accounting for subsampling
// and random allocation", arXiv 2602.17284, characterize the PLD of random
// allocation this way, as a convolution of exp-PLDs, Thm 4.4 in a secondary
// source's numbering; that paper's text was not read here, and the
// construction below is derived from the pair above only).
//
// The computation. The pair of a mean of a + b steps is the mixture
//
//	P_{a+b} = (a/(a+b))·P_a⊗Q_b + (b/(a+b))·Q_a⊗P_b,  Q_{a+b} = Q_a⊗Q_b,
//
// (the record is in the first a steps with probability a/(a+b)), so t is
// reached by doubling, as rdp.AllocationRemove reaches its moments. Each
// pair is held as atoms on a grid of losses g_k (Q-mass q_k, P-mass
// e^{g_k}q_k) plus a P-only atom (loss +∞, mass pInf) and a Q-only atom
// (loss −∞, mass qInf). Merging atoms i and j gives an atom of loss
// ln(w_a e^{g_i} + w_b e^{g_j}) exactly; it is split between the two grid
// points around it, keeping both its masses (q = q₁ + q₂, e^l q =
// e^{g_k}q₁ + e^{g_{k+1}}q₂). Splitting an atom is the inverse of merging
// two, a post-processing, so every split pair dominates the pair before it
// (and the mixture above preserves domination: the same kernel acts on
// both sides); no loss is rounded. The one-step Gaussian is split in the
// same way (connect the dots: Doroshenko et al. 2022), cell by cell, from
// its exact cell masses. Tails: atoms whose Q-mass below the grid or
// P-mass above it is at most TailMass are moved onto its ends by the same
// split against the ±∞ atoms (exactly, not dropped). Where rounding would
// make a one-step split mass negative it is clamped, and the cell's P-mass
// that the clamped split does not represent is added to the P-only atom.
//
// The optimistic PLD (an estimate from below, never a guarantee) merges
// instead of splitting: each merged atom is added, with both its masses,
// to the bucket at the grid point nearest its loss (any assignment of atoms
// to buckets is a post-processing, so the bucketed pair is dominated by
// the exact one); a bucket's loss is ln(P/Q) of its masses, rounded down
// (each direction) only at the end, onto the fine grid; trimmed tails are
// dropped (which only lowers δ).
// SourceAllocation names the construction of RandomAllocation.
const SourceAllocation = "balls-in-bins: the PLD of random allocation (Feldman–Shenfeld 2025, arXiv 2502.08202 and 2602.17284): the dominating pair of rdp.RandomAllocation, its loss ln((1/t)Σe^{Y_i}) built by doubling, every merged atom split between its grid neighbours (pld.RandomAllocation)"

func RandomAllocation(t int64, z float64, opt Options) (*PLD, error) {
	if t < 1 {
		return nil, field.New("num_steps", t, "must be a whole number ≥ 1")
	}
	if err := field.Positive("noise_multiplier", z); err != nil {
		return nil, err
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	m := 1 / (2 * z * z)
	if !(m > 0) || math.IsInf(m, 1) || m > 200 {
		return nil, field.New("noise_multiplier", z, "gives a one-step loss N(∓m, 2m) with m = %g, outside the range random allocation is accounted for (m ≤ 200)", m)
	}
	if o.Discretization == Optimistic {
		b := allocate(t, m, o, modeMerge)
		return &PLD{opt: o, remove: b.bucketPMF(o.Interval, false), add: b.bucketPMF(o.Interval, true)}, nil
	}
	s := allocate(t, m, o, modeSplit)
	return &PLD{opt: o, remove: s.removePMF(o.Interval), add: s.addPMF(o.Interval)}, nil
}

type allocMode int

const (
	modeSplit allocMode = iota // sound: split between neighbours
	modeMerge                  // optimistic: merged into the nearest bucket
)

// allocMaxPoints is the most grid points of one level's pair: a merge
// costs the product of its two sides' points.
var allocMaxPoints = 2000

// allocPair is a pair on the grid base + i·s (in units of the interval h):
// q[i] Q-masses; p[i] P-masses in the optimistic modes (in modeSplit the
// P-mass is e^{g}q and p is nil).
type allocPair struct {
	base, s    int64
	n          int64 // the steps whose mean this is
	q, p       []float64
	pInf, qInf float64
}

func (a *allocPair) loss(i int, h float64) float64 { return float64(a.base+int64(i)*a.s) * h }

// allocate is the pair of one epoch of t steps in mode md.
func allocate(t int64, m float64, o Options, md allocMode) *allocPair {
	pow := allocOne(m, o, md)
	var res *allocPair
	for rest := t; rest > 0; rest >>= 1 {
		if rest&1 == 1 {
			if res == nil {
				res = pow
			} else {
				res = allocMerge(res, pow, o, md)
			}
		}
		if rest > 1 {
			pow = allocMerge(pow, pow, o, md)
		}
	}
	return res
}

// cell is P(a < X ≤ b) for X ~ N(mean, sd²), from the nearer tail.
func cell(a, b, mean, sd float64) float64 {
	r := sd * math.Sqrt2
	switch {
	case a >= mean:
		return 0.5 * (math.Erfc((a-mean)/r) - math.Erfc((b-mean)/r))
	case b <= mean:
		return 0.5 * (math.Erfc((mean-b)/r) - math.Erfc((mean-a)/r))
	}
	return 1 - 0.5*math.Erfc((mean-a)/r) - 0.5*math.Erfc((b-mean)/r)
}

// allocOne is the one-step Gaussian pair: the loss is N(−m, 2m) under Q
// and N(m, 2m) under P.
func allocOne(m float64, o Options, md allocMode) *allocPair {
	h, sd := o.Interval, math.Sqrt(2*m)
	z := -normQuantile(o.TailMass) // the tails beyond ±z sd hold TailMass
	lo, hi := -m-z*sd, m+z*sd
	s := int64(1)
	for (hi-lo)/(float64(s)*h) > float64(allocMaxPoints) {
		s *= 2
	}
	base := int64(math.Floor(lo/(float64(s)*h))) * s
	n := int(math.Ceil((hi-float64(base)*h)/(float64(s)*h))) + 1
	a := &allocPair{base: base, s: s, n: 1, q: make([]float64, n)}
	if md != modeSplit {
		a.p = make([]float64, n)
	}
	gs := float64(s) * h
	for k := 0; k+1 < n; k++ {
		g0, g1 := a.loss(k, h), a.loss(k+1, h)
		pc, qc := cell(g0, g1, m, sd), cell(g0, g1, -m, sd)
		switch md {
		case modeSplit:
			q2 := (math.Exp(-g0)*pc - qc) / math.Expm1(gs)
			q2 = math.Min(math.Max(q2, 0), qc)
			a.q[k] += qc - q2
			a.q[k+1] += q2
			// P-mass a clamped split does not represent goes to +∞.
			a.pInf += math.Max(pc-math.Exp(g0)*(qc-q2)-math.Exp(g1)*q2, 0)
		default: // the cell is one bucket
			a.q[k] += qc
			a.p[k] += pc
		}
	}
	gl, gh := a.loss(0, h), a.loss(n-1, h)
	if md == modeMerge { // the tails, buckets of their own at the ends
		a.q[0] += cell(math.Inf(-1), gl, -m, sd)
		a.p[0] += cell(math.Inf(-1), gl, m, sd)
		a.q[n-1] += cell(gh, math.Inf(1), -m, sd)
		a.p[n-1] += cell(gh, math.Inf(1), m, sd)
	} else { // moved onto the ends exactly
		pl, ql := cell(math.Inf(-1), gl, m, sd), cell(math.Inf(-1), gl, -m, sd)
		ph, qh := cell(gh, math.Inf(1), m, sd), cell(gh, math.Inf(1), -m, sd)
		ql0 := math.Min(pl*math.Exp(-gl), ql)
		a.q[0] += ql0
		a.qInf += ql - ql0
		a.q[n-1] += qh
		a.pInf += math.Max(ph-qh*math.Exp(gh), 0)
	}
	return a
}

// allocMerge is the pair of the mean of a's steps and b's.
func allocMerge(a, b *allocPair, o Options, md allocMode) *allocPair {
	// One spacing for both: the finer one where the coarser side refined
	// to it stays small (refining is exact), else the coarser.
	sp := max(a.s, b.s)
	fine := min(a.s, b.s)
	if fine < sp {
		wide := a
		if b.s == sp {
			wide = b
		}
		if (len(wide.q)-1)*int(sp/fine)+1 <= 2*allocMaxPoints {
			sp = fine
		}
	}
	a, b = a.regrid(sp, o.Interval, md), b.regrid(sp, o.Interval, md)
	h := o.Interval
	gs := float64(sp) * h
	wa := float64(a.n) / float64(a.n+b.n)
	wb := 1 - wa
	la, lwa, lwb := len(a.q), math.Log(wa), math.Log(wb)
	lb := len(b.q)
	// c(d) = ln(wa + wb·e^x), x = g_{j} − g_{i} for j − i = d: the merged
	// loss is g_i + c(d), at offset k(d) = ⌊c/gs⌋ (+ fraction r) on a's grid.
	d0 := float64(b.base - a.base)
	koff := make([]int, la+lb-1)
	frac := make([]float64, la+lb-1)
	for d := -(la - 1); d <= lb-1; d++ {
		x := (d0 + float64(d)*float64(sp)) * h
		var c float64
		if x > 0 {
			c = x + lwb + math.Log1p(wa/wb*math.Exp(-x))
		} else {
			c = lwa + math.Log1p(wb/wa*math.Exp(x))
		}
		k := math.Floor(c / gs)
		koff[d+la-1] = int(k)
		frac[d+la-1] = math.Max(c-k*gs, 0)
	}
	omin := koff[0]
	n := la - 1 + koff[len(koff)-1] + 2 - omin
	out := &allocPair{base: a.base + int64(omin)*sp, s: sp, n: a.n + b.n, q: make([]float64, n)}
	if md != modeSplit {
		out.p = make([]float64, n)
	}
	em := math.Expm1(gs)
	for d := -(la - 1); d <= lb-1; d++ {
		k, r := koff[d+la-1]-omin, frac[d+la-1]
		i0, i1 := max(0, -d), min(la, lb-d)
		if i0 >= i1 {
			continue
		}
		qa, qb := a.q[i0:i1], b.q[i0+d:i1+d]
		switch md {
		case modeSplit:
			phi := math.Min(math.Expm1(r)/em, 1)
			o0, o1 := out.q[i0+k:i1+k], out.q[i0+k+1:i1+k+1]
			for i, x := range qa {
				v := x * qb[i]
				o0[i] += v - v*phi
				o1[i] += v * phi
			}
		default:
			if r > gs/2 { // the nearest bucket
				k++
			}
			pa, pb := a.p[i0:i1], b.p[i0+d:i1+d]
			oq, op := out.q[i0+k:i1+k], out.p[i0+k:i1+k]
			for i, x := range qa {
				oq[i] += x * qb[i]
				op[i] += wa*pa[i]*qb[i] + wb*x*pb[i]
			}
		}
	}
	if md == modeSplit {
		// Every pairing that involves a ±∞ atom is split into its P-only
		// and Q-only parts: P = wa·P_a·Q_b + wb·Q_a·P_b, Q = Q_a·Q_b.
		type at struct{ p, q float64 }
		pf, qf := a.finite(h)
		sa := []at{{pf, qf}, {a.pInf, 0}, {0, a.qInf}}
		pf, qf = b.finite(h)
		sb := []at{{pf, qf}, {b.pInf, 0}, {0, b.qInf}}
		for i, x := range sa {
			for j, y := range sb {
				if i == 0 && j == 0 {
					continue
				}
				out.pInf += wa*x.p*y.q + wb*x.q*y.p
				out.qInf += x.q * y.q
			}
		}
	}
	out.trim(o.TailMass, h, md)
	for len(out.q) > allocMaxPoints {
		out = out.regrid(2*out.s, h, md)
	}
	for out.s > 1 && 2*len(out.q) <= allocMaxPoints {
		out = out.regrid(out.s/2, h, md)
	}
	return out
}

// finite is the P- and Q-mass of a's grid atoms (modeSplit).
func (a *allocPair) finite(h float64) (p, q float64) {
	for i, x := range a.q {
		p += math.Exp(a.loss(i, h)) * x
		q += x
	}
	return p, q
}

// trim moves the atoms below the grid's new bottom (Q-mass at most tail in
// all) and above its new top (P-mass at most tail) onto the ends: split
// against the Q-only and the P-only atom (modeSplit), dropped otherwise.
func (a *allocPair) trim(tail, h float64, md allocMode) {
	n := len(a.q)
	pm := func(i int) float64 {
		if md == modeSplit {
			return math.Exp(a.loss(i, h)) * a.q[i]
		}
		return a.p[i]
	}
	lo, acc := 0, 0.0
	for lo < n-1 && acc+a.q[lo] <= tail {
		acc += a.q[lo]
		lo++
	}
	hi, acc := n-1, 0.0
	for hi > lo && acc+pm(hi) <= tail {
		acc += pm(hi)
		hi--
	}
	if md == modeSplit {
		g0, g1 := a.loss(lo, h), a.loss(hi, h)
		for i := 0; i < lo; i++ {
			f := math.Exp(a.loss(i, h) - g0)
			a.q[lo] += a.q[i] * f
			a.qInf += a.q[i] * (1 - f)
		}
		for i := hi + 1; i < n; i++ {
			a.q[hi] += a.q[i]
			a.pInf += a.q[i] * (math.Exp(a.loss(i, h)) - math.Exp(g1))
		}
	}
	a.base += int64(lo) * a.s
	a.q = a.q[lo : hi+1]
	if a.p != nil {
		a.p = a.p[lo : hi+1]
	}
}

// regrid puts a on the grid of spacing s (a power of two, as a.s):
// exactly where s is finer; where coarser, each atom is split between its
// two new neighbours (modeSplit) or merged into the nearer bucket.
func (a *allocPair) regrid(s int64, h float64, md allocMode) *allocPair {
	if s == a.s {
		return a
	}
	n := len(a.q)
	if s < a.s {
		r := int(a.s / s)
		out := &allocPair{base: a.base, s: s, n: a.n, pInf: a.pInf, qInf: a.qInf, q: make([]float64, (n-1)*r+1)}
		if a.p != nil {
			out.p = make([]float64, len(out.q))
		}
		for i := range a.q {
			out.q[i*r] = a.q[i]
			if a.p != nil {
				out.p[i*r] = a.p[i]
			}
		}
		return out
	}
	base := int64(math.Floor(float64(a.base)/float64(s))) * s
	top := a.base + int64(n-1)*a.s
	m := int((top-base)/s) + 2
	out := &allocPair{base: base, s: s, n: a.n, pInf: a.pInf, qInf: a.qInf, q: make([]float64, m)}
	if a.p != nil {
		out.p = make([]float64, m)
	}
	em := math.Expm1(float64(s) * h)
	for i, x := range a.q {
		pos := a.base + int64(i)*a.s - base
		k, r := int(pos/s), pos%s
		switch {
		case r == 0:
			out.q[k] += x
			if a.p != nil {
				out.p[k] += a.p[i]
			}
		case md == modeSplit:
			phi := math.Min(math.Expm1(float64(r)*h)/em, 1)
			out.q[k] += x - x*phi
			out.q[k+1] += x * phi
		default:
			if 2*r > s {
				k++
			}
			out.q[k] += x
			out.p[k] += a.p[i]
		}
	}
	for len(out.q) > 1 && out.q[len(out.q)-1] == 0 && (out.p == nil || out.p[len(out.p)-1] == 0) {
		out.q = out.q[:len(out.q)-1]
		if out.p != nil {
			out.p = out.p[:len(out.p)-1]
		}
	}
	return out
}

// removePMF is the remove direction (losses g under P) as a pmf on the
// interval h; addPMF the add direction (losses −g under Q).
func (a *allocPair) removePMF(h float64) *pmf {
	n := len(a.q)
	f := &pmf{h: h, lo: int(a.base), p: make([]float64, (n-1)*int(a.s)+1), inf: a.pInf}
	for i, x := range a.q {
		f.p[i*int(a.s)] = math.Exp(a.loss(i, h)) * x
	}
	return f
}

func (a *allocPair) addPMF(h float64) *pmf {
	n := len(a.q)
	top := a.base + int64(n-1)*a.s
	f := &pmf{h: h, lo: int(-top), p: make([]float64, (n-1)*int(a.s)+1), inf: a.qInf}
	for i, x := range a.q {
		f.p[(n-1-i)*int(a.s)] = x
	}
	return f
}

// bucketPMF is the optimistic pmf of a bucketed pair: each bucket (p, q) is
// one atom of loss l = ln(p/q), put on the grid of interval h rounded down
// with its P-mass (remove direction), or, for add, its loss −l rounded down
// with its Q-mass: every loss at most the bucket's, so δ(ε) at most the
// bucketed pair's, itself at most the exact pair's (a post-processing).
func (a *allocPair) bucketPMF(h float64, add bool) *pmf {
	idx := make([]int, len(a.q))
	lo, hi := math.MaxInt, math.MinInt
	inf := 0.0
	for i, q := range a.q {
		p := a.p[i]
		if p <= 0 || q <= 0 {
			if add && p <= 0 && q > 0 || !add && q <= 0 && p > 0 {
				inf += max(p, q) // a one-sided bucket: an infinite loss
			}
			idx[i] = math.MinInt
			continue
		}
		l := math.Log(p / q)
		if add {
			l = -l
		}
		k := int(math.Floor(l / h))
		idx[i] = k
		lo, hi = min(lo, k), max(hi, k)
	}
	if lo > hi {
		return &pmf{h: h, p: []float64{0}, inf: inf}
	}
	f := &pmf{h: h, lo: lo, p: make([]float64, hi-lo+1), inf: inf}
	for i, k := range idx {
		if k == math.MinInt {
			continue
		}
		if add {
			f.p[k-lo] += a.q[i]
		} else {
			f.p[k-lo] += a.p[i]
		}
	}
	return f
}

// normQuantile is Φ⁻¹(p) for small p (the lower tail), by Newton steps on
// erfc from a rational start; accurate to ~1e-12 for p in [1e-300, 0.5].
func normQuantile(p float64) float64 {
	if p >= 0.5 {
		return 0
	}
	x := -math.Sqrt(-2 * math.Log(p)) // a start below the root
	for range 60 {
		f := 0.5*math.Erfc(-x/math.Sqrt2) - p
		d := math.Exp(-x*x/2) / math.Sqrt(2*math.Pi)
		if d == 0 {
			break
		}
		nx := x - f/d
		if math.Abs(nx-x) < 1e-13*math.Max(1, math.Abs(x)) {
			return nx
		}
		x = nx
	}
	return x
}
