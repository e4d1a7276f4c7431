package saddle

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
)

// SCOProblem is a DP-SCO instance on the simplex Δd (seed 003 §4): records
// z = (h, b) with h ∈ [−1, 1]^d and a per-record loss f(x; z) that is
// convex on Δd with declared constants (never measured on the data).
//
//   - Logistic (the shipped data): the ℓ1-ball of radius R written as the
//     simplex over the signed coordinates ±R e_j, f(x; z) = ln(1 +
//     exp(−b R⟨h, x⟩)), b = ±1, h_{(j,s)} = s·clip(u_j, [−c, c])/c: L0 = R,
//     L1 = R²/4, L2 = R³/(6√3) (|φ”| ≤ 1/4, |φ”'| ≤ 1/(6√3) for φ(m) =
//     ln(1 + e^{−m})).
//   - LSQ (synthetic): h ∈ {±1}^d uniform, b = ⟨h, x*⟩ + ξ, ξ = ±σ, f(x; z)
//     = ½(⟨h, x⟩ − b)²: F(x) = ½‖x − x*‖₂² + σ²/2 exactly, so the excess
//     risk of x is ½‖x − x*‖₂²; L0 = 2 + σ, L1 = 1, L2 = 0.
type SCOProblem struct {
	D        int
	Logistic bool
	R        float64
	// H holds the records' h row-major, B their b.
	H []float64
	B []float64
	// Population: for data the uniform law on Pop's records; for the
	// synthetic instance x* and σ.
	Pop            *SCOProblem
	XStar          []float64
	Sigma          float64
	Consts         SCOConstants
	Description    string
	Names          []string
	Assumptions    []string
	dataSeed       uint64
	popOpt, popGap float64
}

// N is the number of records.
func (p *SCOProblem) N() int { return len(p.B) }

func (p *SCOProblem) row(r int) []float64 { return p.H[r*p.D : (r+1)*p.D : (r+1)*p.D] }

// loss returns f(x; z_r) and adds coef·∇f(x; z_r) to grad (if non-nil),
// given m = ⟨h_r, x⟩.
func (p *SCOProblem) lossAt(r int, m float64, grad []float64, coef float64) float64 {
	h, b := p.row(r), p.B[r]
	var v, d float64
	if p.Logistic {
		z := -b * p.R * m
		v = softplus(z)
		d = -b * p.R * sigmoid(z)
	} else {
		v = (m - b) * (m - b) / 2
		d = m - b
	}
	if grad != nil {
		c := coef * d
		for j, hj := range h {
			grad[j] += c * hj
		}
	}
	return v
}

func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Risk is the empirical risk of x on the records and its gradient.
func (p *SCOProblem) Risk(x []float64, grad []float64) float64 {
	if grad != nil {
		clear(grad)
	}
	var s float64
	inv := 1 / float64(p.N())
	for r := range p.B {
		s += p.lossAt(r, dot(p.row(r), x), grad, inv)
	}
	return s * inv
}

// Excess is the population excess risk F(x) − min F: exact (½‖x − x*‖²)
// for the synthetic instance; for data F(x) − F_lo with F_lo = F(x̄) −
// FW-gap(x̄) ≤ min F certified by the Frank–Wolfe gap of a reference
// solution (so the reported excess is never below the true one).
func (p *SCOProblem) Excess(x []float64) float64 {
	if p.XStar != nil {
		var s float64
		for j := range x {
			s += (x[j] - p.XStar[j]) * (x[j] - p.XStar[j])
		}
		return s / 2
	}
	return p.Pop.Risk(x, nil) - (p.popOpt - p.popGap)
}

// solvePop computes a reference minimiser of the population (empirical on
// Pop) risk by entropic mirror descent with full gradients and its
// Frank–Wolfe gap max_j ⟨∇F(x), x − e_j⟩ ≥ F(x) − min F.
func (p *SCOProblem) solvePop() {
	d := p.D
	x, g, lx := make([]float64, d), make([]float64, d), make([]float64, d)
	// lo = max over iterates of F(x) − gap(x) ≤ min F (convexity).
	best, bestGap, lo := math.Inf(1), math.Inf(1), math.Inf(-1)
	// Any step keeps lo a valid lower bound (it is a certificate, not a
	// convergence claim); 4/L1 converges much faster here than 1/L1.
	step := 4 / math.Max(p.Consts.L1, 1e-9)
	for it := 0; it < 6000; it++ {
		softmaxInto(x, lx)
		f := p.Pop.Risk(x, g)
		gap := dot(g, x)
		mn := math.Inf(1)
		for _, v := range g {
			mn = math.Min(mn, v)
		}
		gap -= mn
		if f-gap > lo {
			lo = f - gap
		}
		if f < best {
			best = f
		}
		bestGap = best - lo
		if bestGap < 1e-6 {
			break
		}
		for j := range lx {
			lx[j] -= step * g[j]
		}
		renorm(lx)
	}
	p.popOpt, p.popGap = best, bestGap
}

func softmaxInto(x, l []float64) {
	m := math.Inf(-1)
	for _, v := range l {
		m = math.Max(m, v)
	}
	var s float64
	for j, v := range l {
		x[j] = math.Exp(v - m)
		s += x[j]
	}
	for j := range x {
		x[j] /= s
	}
}

// LogisticSCO builds the ℓ1-constrained logistic regression instance on a
// labelled data set (labels ±1, standardized features): d = 2(p + 1)
// signed coordinates (features and an intercept), coordinates clipped to
// the declared bound c, ℓ1 radius R declared.
func LogisticSCO(data *dataset.Dataset, c, R float64) (*SCOProblem, error) {
	if err := field.First(field.Positive("coordinate_bound", c), field.Range("coordinate_bound", c, 0, 1e6),
		field.Positive("l1_radius", R), field.Range("l1_radius", R, 0, 1e3)); err != nil {
		return nil, err
	}
	pf, n := data.D, data.N()
	d := 2 * (pf + 1)
	p := &SCOProblem{D: d, Logistic: true, R: R, H: make([]float64, n*d), B: make([]float64, n),
		Consts:      SCOConstants{L0: R, L1: R * R / 4, L2: R * R * R / (6 * math.Sqrt(3))},
		Description: fmt.Sprintf("%s: ℓ1-constrained logistic regression (‖θ‖₁ ≤ %g, %d signed coordinates incl. intercept, coordinates clipped to ±%g)", data.Source, R, d, c)}
	for j := 0; j <= pf; j++ {
		name := "intercept"
		if j < pf && j < len(data.Names) {
			name = data.Names[j]
		} else if j < pf {
			name = fmt.Sprintf("x%d", j)
		}
		p.Names = append(p.Names, "+"+name, "−"+name)
	}
	for r := 0; r < n; r++ {
		u, b := data.Row(r), data.Y[r]
		if b != 1 && b != -1 {
			return nil, field.New("label", data.Label, "must be 0/1 or ±1, row %d has %v", r+1, b)
		}
		h := p.row(r)
		for j := 0; j <= pf; j++ {
			v := 1.0
			if j < pf {
				v = math.Max(-c, math.Min(c, u[j])) / c
			}
			h[2*j], h[2*j+1] = v, -v
		}
		p.B[r] = b
	}
	p.Pop = p
	p.Assumptions = []string{fmt.Sprintf("records' features are clipped to ±%g on the standardized scale (declared), so |h| ≤ 1 and L0 = R, L1 = R²/4, L2 = R³/(6√3) hold for every possible record", c),
		"the population is the uniform law on the file's records; each repeat runs on a bootstrap sample of n records (iid, the theorem's setting), and its excess risk is the population's, measured against a lower bound on min F certified by a Frank–Wolfe gap"}
	p.solvePop()
	return p, nil
}

// SyntheticSCO draws the least-squares instance: x* uniform on k = min(3,
// d) coordinates chosen from seed, n records h ∈ {±1}^d, b = ⟨h, x*⟩ ± σ.
func SyntheticSCO(n, d int, sigma float64, seed uint64) (*SCOProblem, error) {
	if err := field.First(field.Count("n", int64(n), 2, 10_000_000), field.Count("dimension", int64(d), 2, 100_000),
		field.Range("label_noise", sigma, 0, 1e3)); err != nil {
		return nil, err
	}
	if float64(n)*float64(d) > maxCells {
		return nil, field.New("n", n, "must keep n·d ≤ %d (memory), with d = %d", maxCells, d)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5c0))
	k := min(3, d)
	xs := make([]float64, d)
	for _, j := range rng.Perm(d)[:k] {
		xs[j] = 1 / float64(k)
	}
	p := &SCOProblem{D: d, XStar: xs, Sigma: sigma, dataSeed: seed, Consts: SCOConstants{L0: 2 + sigma, L1: 1, L2: 0},
		Description: fmt.Sprintf("synthetic least squares on the simplex (n = %d, d = %d, x* uniform on %d coordinates, noise ±%g, data seed %d)", n, d, k, sigma, seed)}
	p.fill(n, rng)
	p.Assumptions = []string{"records are drawn iid from the generator: F(x) = ½‖x − x*‖² + σ²/2 exactly, so the excess risk ½‖x − x*‖² is the population's"}
	return p, nil
}

func (p *SCOProblem) fill(n int, rng *rand.Rand) {
	d := p.D
	p.H, p.B = make([]float64, n*d), make([]float64, n)
	for r := 0; r < n; r++ {
		h := p.row(r)
		for j := range h {
			h[j] = 1
			if rng.Uint64()&1 == 0 {
				h[j] = -1
			}
		}
		e := p.Sigma
		if rng.Uint64()&1 == 0 {
			e = -e
		}
		p.B[r] = dot(h, p.XStar) + e
	}
}

// resample returns the sample of one repeat: a bootstrap of the data, a
// fresh draw of the synthetic instance.
func (p *SCOProblem) resample(rng *rand.Rand) *SCOProblem {
	q := *p
	n := p.N()
	if p.XStar != nil {
		q.fill(n, rng)
		return &q
	}
	q.H, q.B = make([]float64, len(p.H)), make([]float64, n)
	for r := 0; r < n; r++ {
		s := rng.IntN(n)
		copy(q.row(r), p.row(s))
		q.B[r] = p.B[s]
	}
	return &q
}

// SCORun reports what one run of Algorithm 5 did.
type SCORun struct {
	Rounds  int // sampling rounds (including the final draw)
	Support int // support of the released ŵ_T (≤ K)
}

// RunSCO is Algorithm 5 of seed 003 on the records of p: T steps with
// disjoint batches of ⌊n/T⌋ records (in an order drawn from rng,
// independently of the data), x_1 uniform, w^t the running average of the
// iterates; at t ≤ q and at multiples of q, ŵ is redrawn as the mean of K
// vertices from P_{w^t}, otherwise the last ŵ is reused; g_t = ∇f(ŵ; B_t)
// and x_{t+1} ∝ x_t·exp(−τg_t). It returns the released ŵ_T (the mean of K
// fresh vertices from P_{w^T}, K-sparse) and the unreleased w^T.
func RunSCO(p *SCOProblem, T, K, q int, tau float64, rng *rand.Rand) (out, wT []float64, run SCORun) {
	d, n := p.D, p.N()
	B := n / T
	order := rng.Perm(n)
	lx, x, wsum, g := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	what := make([]float64, d)
	var s sampler
	counts := map[int]int{}
	var supp []int
	draw := func(t int) {
		for j := range x {
			x[j] = math.Log(wsum[j] / float64(t))
		}
		s.reset(x)
		clear(counts)
		drawCounts(&s, K, rng, counts)
		clear(what)
		supp = supp[:0]
		for j, c := range counts {
			what[j] = float64(c) / float64(K)
			supp = append(supp, j)
		}
		sort.Ints(supp) // a fixed summation order: runs are reproducible from the seed
		run.Rounds++
	}
	for t := 1; t <= T; t++ {
		softmaxInto(x, lx)
		for j := range wsum {
			wsum[j] += x[j]
		}
		if t <= q || t%q == 0 {
			draw(t)
		}
		clear(g)
		inv := 1 / float64(B)
		for _, r := range order[(t-1)*B : t*B] {
			var m float64
			for _, j := range supp {
				m += what[j] * p.H[r*d+j]
			}
			p.lossAt(r, m, g, inv)
		}
		for j := range lx {
			lx[j] -= tau * g[j]
		}
		renorm(lx)
	}
	draw(T)
	out = append([]float64(nil), what...)
	wT = make([]float64, d)
	for j := range wT {
		wT[j] = wsum[j] / float64(T)
	}
	run.Support = support(out)
	return out, wT, run
}
