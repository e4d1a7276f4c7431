package saddle

import (
	"math"
	"math/rand/v2"
	"sort"
)

// sampler draws vertices of the simplex from the law ∝ exp(logw).
type sampler struct {
	cum []float64
}

func (s *sampler) reset(logw []float64) {
	m := math.Inf(-1)
	for _, v := range logw {
		m = math.Max(m, v)
	}
	s.cum = s.cum[:0]
	var c float64
	for _, v := range logw {
		c += math.Exp(v - m)
		s.cum = append(s.cum, c)
	}
}

func (s *sampler) prob(i int) float64 {
	p := s.cum[i]
	if i > 0 {
		p -= s.cum[i-1]
	}
	return p / s.cum[len(s.cum)-1]
}

func (s *sampler) draw(rng *rand.Rand) int {
	u := rng.Float64() * s.cum[len(s.cum)-1]
	i := sort.SearchFloat64s(s.cum, u)
	if i >= len(s.cum) {
		i = len(s.cum) - 1
	}
	return i
}

// state is one run of entropic mirror descent on a game: the log-weights of
// x and y (x_t ∝ exp(lx), y_t ∝ exp(ly), x_1, y_1 uniform), the released
// vertex counts and the running average of the iterates (for reporting).
type state struct {
	g          *Game
	lx, ly     []float64
	sx, sy     sampler
	relX, relY []float64 // counts of released vertices
	avgX, avgY []float64 // Σ_t x_t, Σ_t y_t
	steps      int
	// literalSign applies the y-update exactly as Algorithm 1's line 6
	// prints it (descent for the maximiser); for the sign test only.
	literalSign bool
	gx, gy      []float64
}

func newState(g *Game) *state {
	return &state{g: g, lx: make([]float64, g.DX), ly: make([]float64, g.DY), relX: make([]float64, g.DX), relY: make([]float64, g.DY),
		avgX: make([]float64, g.DX), avgY: make([]float64, g.DY), gx: make([]float64, g.DX), gy: make([]float64, g.DY)}
}

// begin prepares the samplers of x_t, y_t, adds them to the averages and
// draws the released pair (x̃_t, ỹ_t) ~ P_{x_t} × P_{y_t}.
func (s *state) begin(rng *rand.Rand) {
	s.sx.reset(s.lx)
	s.sy.reset(s.ly)
	for i := range s.avgX {
		s.avgX[i] += s.sx.prob(i)
	}
	for j := range s.avgY {
		s.avgY[j] += s.sy.prob(j)
	}
	s.relX[s.sx.draw(rng)]++
	s.relY[s.sy.draw(rng)]++
	s.steps++
}

// addGrad adds w·(∇x f, ∇y f) of the batch at the sparse point (x̂, ŷ)
// given as vertex counts cx, cy over m draws: ∇x = A_B ŷ, ∇y = A_Bᵀ x̂, A_B
// the batch mean.
func (s *state) addGrad(batch []int, cx, cy map[int]int, m int, w float64) {
	g := s.g
	dy := g.DY
	f := w / float64(len(batch)*m)
	for _, r := range batch {
		rec := g.Record(r)
		for j, c := range cy {
			cw := f * float64(c)
			for i := 0; i < g.DX; i++ {
				s.gx[i] += cw * rec[i*dy+j]
			}
		}
		for i, c := range cx {
			cw := f * float64(c)
			row := rec[i*dy : (i+1)*dy]
			for j := range row {
				s.gy[j] += cw * row[j]
			}
		}
	}
}

// step applies the entropic mirror step with the accumulated gradient:
// x_{t+1} ∝ x_t·exp(−τ∇x f) and y_{t+1} ∝ y_t·exp(+τ∇y f).
//
// The sign of the y-update: Algorithm 1 (and 3) line 5 sets g_y = −∇y F and
// line 6 writes y_{t+1} ∝ y_t·exp(+τ g_y) = y_t·exp(−τ∇y F), which read
// literally is DESCENT for the maximising player. The privacy proof (proof
// of Prop. 3.3) uses the score s_y = −τΣ g_y = +τΣ∇y F, i.e. ascent, and so
// does the convergence proof (mirror descent on the saddle operator Φ =
// (∇x F, −∇y F)): the text's line 6 has a sign slip, and ascent is right.
// TestSignOfYUpdate settles it on a bilinear game: with ascent the gap goes
// to zero; with the literal sign it does not.
func (s *state) step(tau float64) {
	sign := 1.0
	if s.literalSign {
		sign = -1
	}
	for i := range s.lx {
		s.lx[i] -= tau * s.gx[i]
		s.gx[i] = 0
	}
	for j := range s.ly {
		s.ly[j] += sign * tau * s.gy[j]
		s.gy[j] = 0
	}
	renorm(s.lx)
	renorm(s.ly)
}

// renorm shifts log-weights so their maximum is 0 (the law is unchanged).
func renorm(l []float64) {
	m := math.Inf(-1)
	for _, v := range l {
		m = math.Max(m, v)
	}
	for i := range l {
		l[i] -= m
	}
}

// output returns the released point (x̃, ỹ), the average of the released
// vertices, and (x̄, ȳ), the average of the (never released) iterates.
func (s *state) output() (xt, yt, xb, yb []float64) {
	T := float64(s.steps)
	scale := func(v []float64) []float64 {
		o := make([]float64, len(v))
		for i := range v {
			o[i] = v[i] / T
		}
		return o
	}
	return scale(s.relX), scale(s.relY), scale(s.avgX), scale(s.avgY)
}

// drawCounts draws m vertices from s and returns their counts.
func drawCounts(s *sampler, m int, rng *rand.Rand, into map[int]int) {
	clear(into)
	for k := 0; k < m; k++ {
		into[s.draw(rng)]++
	}
}

// RunSMD runs Algorithm 1 of seed 003 (private stochastic mirror descent
// with vertex sampling) once on the records of g: T steps, each on a fresh
// batch of B = ⌊n/T⌋ records (the order is a permutation drawn from rng,
// independent of the data), with the gradient at the mean of K pairs drawn
// from P_{x_t} × P_{y_t}, and returns the released (x̃, ỹ) (the mean of T
// vertex pairs, one per step: T-sparse) and the iterates' average (x̄, ȳ).
func RunSMD(g *Game, T, K int, tau float64, rng *rand.Rand) (xt, yt, xb, yb []float64) {
	return runSMD(g, T, K, tau, rng, false)
}

func runSMD(g *Game, T, K int, tau float64, rng *rand.Rand, literal bool) (xt, yt, xb, yb []float64) {
	n := g.N()
	B := n / T
	perm := rng.Perm(n)
	s := newState(g)
	s.literalSign = literal
	cx, cy := map[int]int{}, map[int]int{}
	for t := 0; t < T; t++ {
		s.begin(rng)
		drawCounts(&s.sx, K, rng, cx)
		drawCounts(&s.sy, K, rng, cy)
		s.addGrad(perm[t*B:(t+1)*B], cx, cy, K, 1)
		s.step(tau)
	}
	return s.output()
}

// TruncatedGeometric draws N ~ TG(½, M): P[N = k] = 2^{−k}/Z for k = 0..M,
// Z = 2 − 2^{−M} (seed 003 Algorithm 2, with the normaliser that makes the
// estimator unbiased).
func TruncatedGeometric(M int, rng *rand.Rand) int {
	u := rng.Float64() * tgNorm(M)
	var c float64
	for k := 0; k < M; k++ {
		c += math.Ldexp(1, -k)
		if u < c {
			return k
		}
	}
	return M
}

// BRRun is what one run of Algorithm 3 did.
type BRRun struct {
	Rounds  int   // 𝒯 + 1
	Records int   // records used
	Ns      []int // N_t of every round
}

// RunBR runs Algorithm 3 of seed 003 (mirror descent with the bias-reduced
// gradient of Algorithm 2) once: rounds continue while Σ_{i<t} 2^{N_i} ≤
// U − 2^M and the next batch of b(N_t) = max{1, ⌈2^{N_t}/α⌉} fresh records
// fits in the data (both rules depend on the N's and n only, never on the
// records). Round t draws 2^{N+1} pairs p_1..p_{2^{N+1}} ~ P_{x_t} × P_{y_t} and
// uses g = w_N[∇f(p̄₊; B) − ∇f(p̄₋; B)] + ∇f(p_1; B) with p̄₊ the mean of all,
// p̄₋ the mean of the first 2^N and w_N = Z·2^N. The output averages one
// released pair per round (𝒯 + 1 of them).
func RunBR(g *Game, U float64, M int, alpha, tau float64, rng *rand.Rand) (xt, yt, xb, yb []float64, run BRRun) {
	n := g.N()
	perm := rng.Perm(n)
	s := newState(g)
	z := tgNorm(M)
	cxAll, cyAll, cxHalf, cyHalf, cx1, cy1 := map[int]int{}, map[int]int{}, map[int]int{}, map[int]int{}, map[int]int{}, map[int]int{}
	var sum float64
	used := 0
	for sum <= U-math.Ldexp(1, M) {
		N := TruncatedGeometric(M, rng)
		b := brBatch(N, alpha)
		if used+b > n {
			break
		}
		batch := perm[used : used+b]
		used += b
		s.begin(rng)
		m := 1 << N
		clear(cxAll)
		clear(cyAll)
		clear(cxHalf)
		clear(cyHalf)
		clear(cx1)
		clear(cy1)
		for k := 0; k < 2*m; k++ {
			i, j := s.sx.draw(rng), s.sy.draw(rng)
			cxAll[i]++
			cyAll[j]++
			if k < m {
				cxHalf[i]++
				cyHalf[j]++
			}
			if k == 0 {
				cx1[i]++
				cy1[j]++
			}
		}
		w := z * float64(m)
		s.addGrad(batch, cxAll, cyAll, 2*m, w)
		s.addGrad(batch, cxHalf, cyHalf, m, -w)
		s.addGrad(batch, cx1, cy1, 1, 1)
		s.step(tau)
		sum += float64(m)
		run.Ns = append(run.Ns, N)
	}
	run.Rounds, run.Records = s.steps, used
	if s.steps == 0 {
		// No round fitted: release the uniform point's vertex draws is not
		// possible without a step; return the uniform iterate's sample.
		s.begin(rng)
	}
	xt, yt, xb, yb = s.output()
	return
}
