package rdp

import (
	"math"
	"sync"

	"github.com/privamp/privamp/internal/numeric"
)

// RandomAllocation is the RDP curve of one epoch of balls-in-bins batching
// ("random allocation" of one step out of Steps: Feldman & Shenfeld,
// "Privacy amplification by random allocation", arXiv 2502.08202; Chua et
// al., "Scalable DP-SGD: Shuffling vs. Poisson Subsampling", NeurIPS 2024,
// balls-and-bins): each record is used in exactly one of the epoch's t =
// Steps steps, chosen uniformly and independently of the other records, and
// each step adds N(0, (Z·C)² I) to the sum of its records' clipped
// contributions (ℓ2 norm ≤ C). Neighbours are add/remove-one.
//
// The pair. With the record x and unit noise (C = 1, σ = Z), the epoch's
// output is P = (1/t)·Σ_i N(e_i, σ²I_t) against Q = N(0, σ²I_t) without it
// (the worst case: the other records' contributions are known; a
// contribution of norm < 1, or in another direction, is a post-processing
// of this one, Feldman & Shenfeld 2025, §2). The likelihood ratio is
// S = P/Q = (1/t)·Σ_i e^{Y_i}, Y_i = x_i/σ² − 1/(2σ²), i.i.d.
// N(−1/(2σ²), 1/σ²) under Q with E e^{Y} = 1.
//
// Remove direction, D_α(P‖Q) = ln E_Q[S^α]/(α − 1), exactly, at integer
// α: E_Q[S^α] is the α-th moment of the mean of t i.i.d. lognormals whose
// moments are E e^{kY} = e^{k(k−1)/(2σ²)}; the moments of the mean of
// a + b of them are the binomial convolution of those of a and of b,
// weighted by (a/(a+b))^i (b/(a+b))^{α−i}, so t is reached by doubling in
// O(α² log t). Expanded, this is Feldman & Shenfeld's sum over the
// partitions of α into at most t parts (2502.08202, Cor. 6.2 in the
// authors' numbering; the same multinomial expansion).
//
// Add direction, D_α(Q‖P) = ln E_Q[S^{−(α−1)}]/(α − 1): with β = α − 1,
// S^{−β} = (1/Γ(β))∫₀^∞ u^{β−1} e^{−uS} du, so E_Q[S^{−β}] =
// (1/Γ(β))∫ e^{βw} φ(e^w/t)^t dw with φ(v) = E e^{−v·e^Y}, a
// one-dimensional integral: two nested trapezoid rules on smooth, doubly
// exponentially decaying integrands, the outer one on a grid of its own for
// each order, a third of its peak's width apart (exponentially convergent;
// the tests check them at t = 1, where the answer is the Gaussian's
// α/(2σ²), against a direct two-dimensional integration at t = 2, and
// against exact enumeration). Where this is not cheaper than needed, the
// closed-form bound D_α(Q‖P) ≤ 1/(2σ²) + (α−1)/(2tσ²) is used: ln(1/S) ≤
// −(1/t)Σ Y_i by Jensen (ln is concave), and −(1/t)Σ Y_i is
// N(1/(2σ²), 1/(tσ²)) under Q. The add direction is computed only at
// orders where that bound exceeds the remove direction (elsewhere the
// maximum is the remove direction's exact value).
//
// Epsilon(α) is the larger of the two directions (an RDP guarantee for
// add/remove neighbours), at the smallest grid order ≥ α (D_α is
// non-decreasing in α). Epochs compose adaptively (Repeat). The
// quadrature's error, measured below 1e-12 in the tests, and the rounding
// of the log-space sums are covered by a margin: every value is raised by
// a relative 1e-9 and an absolute 1e-13·(log₂t + α)·(1 + 1e-3·t)/(α−1).
type RandomAllocation struct {
	Steps int64   // t ≥ 1: the steps of one epoch, among which each record is used once
	Z     float64 // the noise multiplier σ/C, > 0

	once  sync.Once
	table *Table
}

// SourceAllocation names the bound of RandomAllocation.
const SourceAllocation = "random allocation (Feldman–Shenfeld 2025, arXiv 2502.08202): the epoch's exact Rényi divergence, remove direction at integer orders (the moments of a mean of t lognormals), add direction by quadrature of its Laplace-transform form or its Jensen bound (rdp.RandomAllocation)"

// allocCache keeps the last curves computed (a calibration asks for the
// same epoch many times).
var allocCache = struct {
	sync.Mutex
	m map[[2]float64]*RandomAllocation
}{m: map[[2]float64]*RandomAllocation{}}

// AllocationCurve is the curve of one epoch of t steps at noise multiplier
// z, shared between callers that ask for the same one.
func AllocationCurve(t int64, z float64) *RandomAllocation {
	k := [2]float64{float64(t), z}
	allocCache.Lock()
	defer allocCache.Unlock()
	if c, ok := allocCache.m[k]; ok {
		return c
	}
	if len(allocCache.m) >= 256 {
		clear(allocCache.m)
	}
	c := &RandomAllocation{Steps: t, Z: z}
	allocCache.m[k] = c
	return c
}

// AllocationOrders are the orders at which RandomAllocation is computed:
// 2–64, then 80, 96, 128, 160, 192, 256 (and, where ε(256) is small, 320,
// 384, 512, 768, 1024, 1536, 2048).
func AllocationOrders() []float64 {
	out := make([]float64, 0, 70)
	for a := 2; a <= 64; a++ {
		out = append(out, float64(a))
	}
	return append(out, 80, 96, 128, 160, 192, 256)
}

// Orders is the grid (Gridded).
func (r *RandomAllocation) Orders() []float64 { return r.tab().Orders() }

// Table is the curve as a gridded table (which Repeat and Compose keep
// gridded).
func (r *RandomAllocation) Table() *Table { return r.tab() }

// Epsilon is the bound at the smallest grid order ≥ alpha (+Inf above the grid).
func (r *RandomAllocation) Epsilon(alpha float64) float64 { return r.tab().Epsilon(alpha) }

func (r *RandomAllocation) tab() *Table {
	r.once.Do(func() {
		orders := AllocationOrders()
		rem := AllocationRemove(r.Steps, r.Z, orders)
		// Where the moments are still small at 256 (much noise), the best
		// order of a run lies higher: compute up to 2048 (O(α² log t)).
		for _, more := range [][]float64{{320, 384, 512, 768, 1024}, {1536, 2048}} {
			if top := len(orders) - 1; (orders[top]-1)*rem[top] >= 10 {
				break
			}
			orders = append(orders, more...)
			rem = AllocationRemove(r.Steps, r.Z, orders)
		}
		add := AllocationAdd(r.Steps, r.Z, orders, rem)
		eps := make([]float64, len(orders))
		for i := range orders {
			eps[i] = math.Max(rem[i], add[i])
		}
		r.table = NewTable(orders, eps)
	})
	return r.table
}

// allocationMargin is the absolute margin added to a direction's value at
// order alpha (see RandomAllocation).
func allocationMargin(t int64, alpha float64) float64 {
	return 1e-13 * (math.Log2(float64(t)) + alpha) * (1 + 1e-3*float64(t)) / (alpha - 1)
}

func raise(v float64, t int64, alpha float64) float64 {
	if math.IsNaN(v) {
		return math.Inf(1)
	}
	return math.Max(v, 0)*(1+1e-9) + allocationMargin(t, alpha)
}

// AllocationRemove is D_α(P‖Q) of one epoch (the remove direction of
// RandomAllocation) at each of the integer orders given (each ≥ 2), with
// the margin added.
func AllocationRemove(t int64, z float64, orders []float64) []float64 {
	top := 0
	for _, a := range orders {
		top = max(top, int(a))
	}
	inv := 1 / (2 * z * z)
	lbin := logBinomRows(top)
	// The moments of one lognormal: ln E e^{kY} = k(k−1)/(2σ²).
	one := make([]float64, top+1)
	for k := range one {
		one[k] = float64(k) * float64(k-1) * inv
	}
	var res []float64 // the moments of the mean of n so far (nil: none yet)
	var n int64
	pow, np := one, int64(1)
	for rest := t; rest > 0; rest >>= 1 {
		if rest&1 == 1 {
			if res == nil {
				res, n = pow, np
			} else {
				res, n = meanMoments(res, n, pow, np, lbin), n+np
			}
		}
		if rest > 1 {
			pow, np = meanMoments(pow, np, pow, np, lbin), 2*np
		}
	}
	out := make([]float64, len(orders))
	for i, a := range orders {
		out[i] = raise(res[int(a)]/(a-1), t, a)
	}
	return out
}

// meanMoments returns ln E[(w₁A + w₂B)^j] for j ≤ len−1, w₁ = na/(na+nb),
// A and B independent means with log-moments la, lb.
func meanMoments(la []float64, na int64, lb []float64, nb int64, lbin [][]float64) []float64 {
	tot := float64(na) + float64(nb)
	lw1, lw2 := math.Log(float64(na)/tot), math.Log(float64(nb)/tot)
	out := make([]float64, len(la))
	terms := make([]float64, len(la))
	for j := range out {
		m := math.Inf(-1)
		for i := 0; i <= j; i++ {
			terms[i] = lbin[j][i] + float64(i)*lw1 + float64(j-i)*lw2 + la[i] + lb[j-i]
			if terms[i] > m {
				m = terms[i]
			}
		}
		// Terms more than 40 nats below the largest are not exponentiated:
		// each is counted as e^{m−40}, an upper bound, so the moment is
		// overestimated (by a relative (j+1)e^{−40} at most), never under.
		var sum float64
		skipped := 0
		for _, x := range terms[:j+1] {
			if x < m-40 {
				skipped++
			} else {
				sum += math.Exp(x - m)
			}
		}
		out[j] = m + math.Log(sum+float64(skipped)*math.Exp(-40))
	}
	return out
}

// logBinomRows returns ln C(j, i) for 0 ≤ i ≤ j ≤ top.
func logBinomRows(top int) [][]float64 {
	lf := make([]float64, top+1)
	for k := 1; k <= top; k++ {
		lf[k] = lf[k-1] + math.Log(float64(k))
	}
	rows := make([][]float64, top+1)
	for j := range rows {
		rows[j] = make([]float64, j+1)
		for i := 0; i <= j; i++ {
			rows[j][i] = lf[j] - lf[i] - lf[j-i]
		}
	}
	return rows
}

// AllocationJensen is the closed-form bound on the add direction,
// 1/(2σ²) + (α−1)/(2tσ²), rounded up.
func AllocationJensen(t int64, z float64, alpha float64) float64 {
	v := (1 + (alpha-1)/float64(t)) / (2 * z * z)
	return v * (1 + 1e-14)
}

// maxOuterNodes bounds the quadrature's outer grid; orders that would need
// more use the closed-form bound.
const maxOuterNodes = 3000

// AllocationAdd is D_α(Q‖P) of one epoch (the add direction) at each order
// given, with the margin added. Where the closed-form bound is at most
// skip[i] (or skip is nil and never), the closed-form bound is returned
// without quadrature; pass skip = nil to compute every order.
func AllocationAdd(t int64, z float64, orders []float64, skip []float64) []float64 {
	out := make([]float64, len(orders))
	var need []int
	for i, a := range orders {
		out[i] = AllocationJensen(t, z, a)
		if t > 1 && (skip == nil || out[i] > skip[i]) {
			need = append(need, i)
		}
	}
	if t == 1 { // S = e^Y: the Gaussian, exactly α/(2σ²) in both directions
		for i, a := range orders {
			out[i] = numeric.DivUp(a, 2*mulDown(z, z))
		}
		return out
	}
	if len(need) == 0 {
		return out
	}
	addQuadrature(t, z, orders, need, out)
	return out
}

// addQuadrature replaces out[i], i in need, by the quadrature value where it
// is smaller (and its grid was wide enough).
func addQuadrature(t int64, z float64, orders []float64, need []int, out []float64) {
	q := &addGrid{phi: newLogPhi(z), tf: float64(t), lp: map[int64]float64{}}
	for _, i := range need {
		if v, ok := q.one(orders[i] - 1); ok {
			out[i] = math.Min(raise(v, t, orders[i]), out[i])
		}
	}
}

// addGrid holds t·ln φ(e^w/t) at the nodes w = k·h_f already evaluated
// (h_f = 0.1/2¹⁰), shared by the orders: each order's grid is a subset.
type addGrid struct {
	phi *logPhi
	tf  float64
	lp  map[int64]float64
}

const addFine = 0.1 / 1024

func (q *addGrid) at(k int64) float64 {
	v, ok := q.lp[k]
	if !ok {
		v = q.tf * q.phi.at(math.Exp(float64(k)*addFine)/q.tf)
		q.lp[k] = v
	}
	return v
}

// one is ln E_Q[S^{−β}]/β by the trapezoid rule in w = ln u: step h the
// largest 0.1/2^j ≤ min(0.1, 0.3/√β), at most a third of the width 1/√β
// of the integrand's peak at t = ∞ (S ≡ 1, the integrand e^{βw − e^w};
// finite t only widens it), so the rule's error is below e^{−200}
// relative. The grid starts at or below w₀ = (ln Γ(β) − 50 + ln β)/β,
// below which the integrand is at most e^{βw} (φ ≤ 1), whose integral
// e^{βw₀}/β ≤ Γ(β)e^{−50} is added; the integral itself is at least Γ(β)
// (E S^{−β} ≥ (E S)^{−β} = 1, Jensen). It ends once the integrand is 60
// nats below its peak and falling, with the rest bounded by a geometric
// tail at the last step's rate of decrease. ok is false if that takes more
// than maxOuterNodes nodes.
func (q *addGrid) one(b float64) (float64, bool) {
	lg, _ := math.Lgamma(b)
	stride := int64(1024)
	for float64(stride)*addFine > 0.3/math.Sqrt(b) && stride > 1 {
		stride /= 2
	}
	h := float64(stride) * addFine
	k0 := int64(math.Floor((lg-50+math.Log(b))/b/h)) * stride
	w0 := float64(k0) * addFine
	logs := make([]float64, 0, 256)
	best := math.Inf(-1)
	for n := int64(0); n < maxOuterNodes; n++ {
		k := k0 + n*stride
		g := b*float64(k)*addFine + q.at(k)
		logs = append(logs, g)
		best = math.Max(best, g)
		if m := len(logs); m >= 2 && g < best-60 && g < logs[m-2] {
			// The tail beyond: at most Σ_{m≥1} e^{g − m·d}, d the last drop.
			d := logs[m-2] - g
			s := numeric.LogSumExp(logs) + math.Log(h)
			s = numeric.LogAdd(s, g-d-math.Log(-math.Expm1(-d))+math.Log(h))
			s = numeric.LogAdd(s, b*w0-math.Log(b))
			return (s - lg) / b, true
		}
	}
	return 0, false
}

// logPhi evaluates ln φ(v) = ln E exp(−v·e^Y), Y ~ N(−1/(2σ²), 1/σ²), by
// the trapezoid rule in the standardized variable x = (Y − μ)/s on
// [−38, 38], plus the Gaussian mass below −38 (where the integrand is at
// most 1; above 38 it is below e^{−722}·e^{−v·e^Y}): an upper bound on φ
// wherever the trapezoid sum is accurate, so that for huge v, where φ is
// decided below −38, the integrand of AllocationAdd never decays and the
// closed-form bound is used instead.
type logPhi struct {
	ey, lw, wt []float64 // e^{Y}, the log weight (Gaussian density × step) and the weight at each node
	tail       float64   // ln Φ(−38), the mass below the grid
}

func newLogPhi(z float64) *logPhi {
	s := 1 / z
	mu := -s * s / 2
	h := math.Min(0.1, 0.1/s)
	m := int(38 / h)
	p := &logPhi{tail: numeric.LogPhi(-38)}
	for j := -m; j <= m; j++ {
		x := float64(j) * h
		p.ey = append(p.ey, math.Exp(mu+s*x))
		p.lw = append(p.lw, -x*x/2+math.Log(h/math.Sqrt(2*math.Pi)))
		p.wt = append(p.wt, math.Exp(p.lw[len(p.lw)-1]))
	}
	return p
}

// at is ln φ(v): as log1p(−E[−expm1(−v e^Y)]) where 1 − φ is small (no
// cancellation), else as a log-sum-exp.
func (p *logPhi) at(v float64) float64 {
	var c numeric.Kahan
	for j, e := range p.ey {
		c.Add(-math.Expm1(-v*e) * p.wt[j])
	}
	if om := c.Sum(); om < 0.5 {
		return math.Log1p(-om + math.Exp(p.tail))
	}
	terms := make([]float64, len(p.ey), len(p.ey)+1)
	for j, e := range p.ey {
		terms[j] = -v*e + p.lw[j]
	}
	return numeric.LogSumExp(append(terms, p.tail))
}
