package saddle

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

func near(t *testing.T, name string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Abs(want) {
		t.Errorf("%s = %.9g, want %.9g (rel %g)", name, got, want, rel)
	}
}

// Prop. 3.3 recomputed by hand: Δs = 2aτ/B, ε₀ = 2Δs, k = 2T(K+1),
// ε = ε₀√(2k ln(1/δ)) + kε₀²/2 (Thm 3.5 with equal steps).
func TestSMDPrivacyIndependent(t *testing.T) {
	for _, c := range []struct {
		n, T, K       int
		a, tau, delta float64
	}{{569, 71, 1, 0.5, 0.05, 1e-5}, {100000, 1000, 1, 1, 0.0411881, 1e-5}, {20000, 333, 7, 2, 0.003, 1e-6}} {
		p, err := SMDPrivacy(c.n, c.T, c.K, c.a, c.tau, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		B := math.Floor(float64(c.n) / float64(c.T))
		e0 := 4 * c.a * c.tau / B
		k := 2 * float64(c.T) * float64(c.K+1)
		want := e0*math.Sqrt(2*k*math.Log(1/c.delta)) + k*e0*e0/2
		near(t, "vertex ε", p.VertexEpsilon, e0, 1e-12)
		near(t, "ε", float64(p.Epsilon), want, 1e-9)
		if p.EpsilonRDP > float64(p.Epsilon) {
			t.Errorf("RDP ε %v above the filter's %v", p.EpsilonRDP, p.Epsilon)
		}
	}
	// Seed 003 notes §5: Prop. 3.3's τ_max and the ε it really spends.
	for _, c := range []struct {
		n, T, K             int
		l0, eps, delta, tau float64
		total               float64
	}{{100000, 1000, 1, 1, 1, 1e-5, 0.0411881, 0.505429}, {100000, 2000, 50, 1, 1, 1e-5, 0.00288375, 0.505429}, {1000000, 10000, 10, 2, 0.5, 1e-6, 0.00126748, 0.251131}} {
		tau, err := PaperSMDStep(c.n, c.T, c.K, c.l0, c.eps, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "Prop 3.3 τ", tau, c.tau, 1e-5)
		p, _ := SMDPrivacy(c.n, c.T, c.K, c.l0, tau, c.delta)
		near(t, "ε at Prop 3.3 τ", float64(p.Epsilon), c.total, 1e-5)
		// The exact inverse meets the target and is tight.
		tm, err := SMDMaxStep(c.n, c.T, c.K, c.l0, c.eps, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		p, _ = SMDPrivacy(c.n, c.T, c.K, c.l0, tm, c.delta)
		q, _ := SMDPrivacy(c.n, c.T, c.K, c.l0, tm*(1+1e-6), c.delta)
		if !(float64(p.Epsilon) <= c.eps && float64(q.Epsilon) > c.eps) {
			t.Errorf("SMDMaxStep %v: ε %v, just above %v; target %v", tm, p.Epsilon, q.Epsilon, c.eps)
		}
	}
}

// Prop. 3.17 recounted by brute force over N: three batch gradients, each
// moved by ≤ 2L0/b by one record, weighted w_N, w_N, 1.
func TestBRPrivacyIndependent(t *testing.T) {
	for _, c := range []struct {
		U                    float64
		M                    int
		alpha, a, tau, delta float64
	}{{481.132, 4, 0.00962263, 1, 0.0223933, 1e-5}, {4, 1, 0.0072, 0.5, 0.7, 1e-5}, {100, 3, 2.5, 1, 0.01, 1e-6}} {
		p, err := BRPrivacy(c.U, c.M, c.alpha, c.a, c.tau, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		z := 0.0
		for k := 0; k <= c.M; k++ {
			z += math.Pow(0.5, float64(k))
		}
		worst := 0.0
		for N := 0; N <= c.M; N++ {
			w := z * math.Pow(2, float64(N))
			b := math.Max(1, math.Ceil(math.Pow(2, float64(N))/c.alpha))
			d := 2 * c.a / b // one record's effect on a batch gradient
			worst = math.Max(worst, c.tau*(w*d+w*d+d))
		}
		e0 := 2 * worst
		k := math.Floor(6 * c.U)
		near(t, "vertex ε", p.VertexEpsilon, e0, 1e-12)
		near(t, "ε", float64(p.Epsilon), e0*math.Sqrt(2*k*math.Log(1/c.delta))+k*e0*e0/2, 1e-9)
		if !(p.VertexEpsilon > p.PaperVertexEpsilon) {
			t.Errorf("recounted %v not above the printed 9ταL0 = %v", p.VertexEpsilon, p.PaperVertexEpsilon)
		}
	}
}

// Thm 3.14's fixed point against the notes' test vectors (L0 = L1 = L2 = 1).
func TestBRPlanVectors(t *testing.T) {
	for _, c := range []struct {
		n, dx, dy  int
		eps, delta float64
		U          float64
		M          int
		tau, alpha float64
	}{{100000, 1000, 1000, 1, 1e-5, 481.132, 4, 0.0223933, 0.00962263}, {1000000, 10000, 100, 1, 1e-6, 5347.81, 6, 0.00551645, 0.0106956}} {
		U, M, tau, alpha := brPlan(c.n, c.dx, c.dy, 1, 1, c.eps, c.delta)
		near(t, "U", U, c.U, 1e-5)
		near(t, "τ", tau, c.tau, 1e-5)
		near(t, "α", alpha, c.alpha, 1e-5)
		if M != c.M {
			t.Errorf("M = %d, want %d", M, c.M)
		}
	}
}

func TestTruncatedGeometric(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const draws = 200000
	cnt := make([]float64, 5)
	var mean float64
	for i := 0; i < draws; i++ {
		N := TruncatedGeometric(4, rng)
		cnt[N]++
		mean += math.Ldexp(1, N)
	}
	near(t, "Z", tgNorm(4), 1.9375, 1e-12)
	near(t, "E[2^N]", mean/draws, 2.58065, 0.01) // (M+1)/Z
	for k, want := range []float64{.5161, .2581, .1290, .0645, .0323} {
		if math.Abs(cnt[k]/draws-want) > 0.005 {
			t.Errorf("P[N=%d] ≈ %v, want %v", k, cnt[k]/draws, want)
		}
	}
}

func randomGame(rng *rand.Rand, dx, dy int) *Game {
	g := &Game{DX: dx, DY: dy, Mean: make([]float64, dx*dy), Bound: 1}
	for k := range g.Mean {
		g.Mean[k] = 2*rng.Float64() - 1
	}
	return g
}

// simplexGrid calls fn with every point of the simplex in R^d whose
// coordinates are multiples of 1/m.
func simplexGrid(d, m int, fn func([]float64)) {
	p := make([]int, d)
	var rec func(i, left int)
	rec = func(i, left int) {
		if i == d-1 {
			p[i] = left
			v := make([]float64, d)
			for k := range p {
				v[k] = float64(p[k]) / float64(m)
			}
			fn(v)
			return
		}
		for c := 0; c <= left; c++ {
			p[i] = c
			rec(i+1, left-c)
		}
	}
	rec(0, m)
}

func payoff(g *Game, x, y []float64) float64 {
	var s float64
	for i := 0; i < g.DX; i++ {
		for j := 0; j < g.DY; j++ {
			s += x[i] * g.Mean[i*g.DY+j] * y[j]
		}
	}
	return s
}

// The closed-form gap against a brute-force search over mixed strategies.
func TestGapBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := 0; trial < 5; trial++ {
		g := randomGame(rng, 3, 4)
		x, y := []float64{0.2, 0.5, 0.3}, []float64{0.1, 0.4, 0.25, 0.25}
		best := math.Inf(-1)
		simplexGrid(4, 20, func(w []float64) {
			simplexGrid(3, 20, func(v []float64) { best = math.Max(best, payoff(g, x, w)-payoff(g, v, y)) })
		})
		// Vertices are on the grid, so the search attains the closed form.
		near(t, "gap", g.Gap(x, y), best, 1e-12)
	}
}

// The LP value against closed forms (2×2) and a grid search (3×3).
func TestSolveAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := 0; trial < 20; trial++ {
		g := randomGame(rng, 2, 2)
		a, b, c, d := g.Mean[0], g.Mean[1], g.Mean[2], g.Mean[3]
		// Pure saddle points first, else the mixed formula.
		want := math.NaN()
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				v := g.Mean[i*2+j]
				if v == math.Max(g.Mean[i*2], g.Mean[i*2+1]) && v == math.Min(g.Mean[j], g.Mean[2+j]) {
					want = v
				}
			}
		}
		if math.IsNaN(want) {
			want = (a*d - b*c) / (a + d - b - c)
		}
		e, err := g.Solve()
		if err != nil {
			t.Fatal(err)
		}
		near(t, "2×2 value", e.Value, want, 1e-9)
		if e.Gap > 1e-9 {
			t.Errorf("2×2: LP strategies' gap %v", e.Gap)
		}
	}
	rps := &Game{DX: 3, DY: 3, Mean: []float64{0, 1, -1, -1, 0, 1, 1, -1, 0}}
	if e, _ := rps.Solve(); math.Abs(e.Value) > 1e-12 || math.Abs(e.X[0]-1.0/3) > 1e-9 {
		t.Errorf("rock-paper-scissors: %+v", e)
	}
	for trial := 0; trial < 5; trial++ {
		g := randomGame(rng, 3, 3)
		grid := math.Inf(1)
		simplexGrid(3, 200, func(x []float64) {
			m := math.Inf(-1)
			for j := 0; j < 3; j++ {
				m = math.Max(m, x[0]*g.Mean[j]+x[1]*g.Mean[3+j]+x[2]*g.Mean[6+j])
			}
			grid = math.Min(grid, m)
		})
		e, _ := g.Solve()
		// min over a grid ≥ the value, and within the grid's resolution.
		if !(e.Value <= grid+1e-12 && grid-e.Value < 0.02) || e.Gap > 1e-9 {
			t.Errorf("3×3: LP value %v, grid %v, gap %v", e.Value, grid, e.Gap)
		}
	}
}

// The released point is the mean of T vertices: at most T nonzeros, each a
// multiple of 1/T.
func TestTSparse(t *testing.T) {
	g, err := SyntheticGame(100, 200, 150, 0.5, 9)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, T := range []int{1, 5, 40} {
		xt, yt, xb, _ := RunSMD(g, T, 3, 0.1, rng)
		if support(xt) > T || support(yt) > T {
			t.Errorf("T = %d: supports %d, %d", T, support(xt), support(yt))
		}
		for _, v := range append(xt, yt...) {
			if r := v * float64(T); math.Abs(r-math.Round(r)) > 1e-9 {
				t.Fatalf("T = %d: entry %v is not a multiple of 1/T", T, v)
			}
		}
		if support(xb) != g.DX {
			t.Errorf("the iterates' average should be dense, support %d", support(xb))
		}
	}
	xt, yt, _, _, run := RunBR(g, 64, 3, 0.5, 0.05, rng)
	if support(xt) > run.Rounds || support(yt) > run.Rounds || run.Rounds < 1 {
		t.Errorf("Algorithm 3: supports %d, %d with %d rounds", support(xt), support(yt), run.Rounds)
	}
}

// The sign of the y-update, settled on a bilinear game: ascent (the proofs'
// sign) drives the iterates' gap down; the algorithm box's literal sign
// (y ∝ y·exp(τg_y), g_y = −∇yF: descent for the maximiser) does not.
func TestSignOfYUpdate(t *testing.T) {
	g, err := SyntheticGame(4000, 8, 8, 0.5, 11)
	if err != nil {
		t.Fatal(err)
	}
	gap := func(literal bool) float64 {
		var s float64
		for r := uint64(0); r < 5; r++ {
			_, _, xb, yb := runSMD(g, 2000, 4, 0.1, rand.New(rand.NewPCG(r, 1)), literal)
			s += g.Gap(xb, yb)
		}
		return s / 5
	}
	asc, lit := gap(false), gap(true)
	t.Logf("iterates' gap: ascent %.4f, literal sign %.4f", asc, lit)
	if !(asc < 0.05 && lit > 4*asc) {
		t.Errorf("ascent gap %v, literal-sign gap %v: the sign test does not separate them", asc, lit)
	}
}

// Algorithm 3's gradient is unbiased on a bilinear game: E g = (Āy, Āᵀx)
// (checked at the first round, x, y uniform, by Monte Carlo).
func TestBiasReducedUnbiased(t *testing.T) {
	g, _ := SyntheticGame(50, 4, 3, 0.5, 2)
	rng := rand.New(rand.NewPCG(4, 4))
	const reps = 40000
	sum := make([]float64, g.DX)
	batch := []int{0, 1, 2}
	for r := 0; r < reps; r++ {
		s := newState(g)
		s.begin(rng)
		N := TruncatedGeometric(3, rng)
		m := 1 << N
		all, half, one, ax, hx, ox := map[int]int{}, map[int]int{}, map[int]int{}, map[int]int{}, map[int]int{}, map[int]int{}
		for k := 0; k < 2*m; k++ {
			j := s.sy.draw(rng)
			all[j]++
			if k < m {
				half[j]++
			}
			if k == 0 {
				one[j]++
			}
		}
		w := tgNorm(3) * float64(m)
		s.addGrad(batch, ax, all, 2*m, w)
		s.addGrad(batch, hx, half, m, -w)
		s.addGrad(batch, ox, one, 1, 1)
		for i := range sum {
			sum[i] += s.gx[i]
		}
	}
	for i := 0; i < g.DX; i++ {
		var want float64
		for _, r := range batch {
			for j := 0; j < g.DY; j++ {
				want += g.Record(r)[i*g.DY+j] / float64(g.DY) / float64(len(batch))
			}
		}
		if math.Abs(sum[i]/reps-want) > 0.02 {
			t.Errorf("E g_x[%d] ≈ %v, want %v", i, sum[i]/reps, want)
		}
	}
}

func TestRunSpecs(t *testing.T) {
	ds := optimizer.DataSpec{Synthetic: "bilinear", N: 3000, Dimension: 20, Seed: 3}
	p := SMDParams{Common: DefaultCommon(), Samples: 1}
	p.Repeats = 5
	res, err := RunSMDSpec(ds, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || float64(res.Gap.Upper) > float64(res.Bound) || res.Privacy.Epsilon > 1 || res.MaxSupport > int(res.Steps) {
		t.Errorf("smd-vertex: %+v", res)
	}
	// A step size the target does not allow: the ε check fails, OK false.
	p.Eta = 1
	res, err = RunSMDSpec(ds, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.Checks[0].Status != dp.Fail {
		t.Errorf("τ = 1 should exceed ε = 1: %+v", res.Checks[0])
	}
	bp := BRParams{Common: DefaultCommon(), Truncation: -1}
	bp.Repeats = 5
	br, err := RunBRSpec(ds, bp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !br.OK || br.Privacy.Epsilon > 1 || br.Excess == nil {
		t.Errorf("smd-bias-reduced: %+v", br)
	}
}

func TestFieldErrors(t *testing.T) {
	syn := optimizer.DataSpec{Synthetic: "bilinear", N: 500, Dimension: 5, Seed: 1}
	data := optimizer.DataSpec{Path: "../../testdata/breast_cancer.csv", Label: "malignant", Standardize: true}
	smd := func(f func(*SMDParams)) SMDParams {
		p := SMDParams{Common: DefaultCommon(), Samples: 1}
		f(&p)
		return p
	}
	br := func(f func(*BRParams)) BRParams {
		p := BRParams{Common: DefaultCommon(), Truncation: -1}
		f(&p)
		return p
	}
	for _, c := range []struct {
		name  string
		field string
		err   error
	}{
		{"epsilon range", "target_epsilon", run1(RunSMDSpec(syn, smd(func(p *SMDParams) { p.TargetEpsilon = 100 }), nil))},
		{"delta", "delta", run1(RunSMDSpec(syn, smd(func(p *SMDParams) { p.Delta = 1 }), nil))},
		{"repeats", "repeats", run1(RunSMDSpec(syn, smd(func(p *SMDParams) { p.Repeats = 1 }), nil))},
		{"confidence", "confidence", run1(RunSMDSpec(syn, smd(func(p *SMDParams) { p.Confidence = 1 }), nil))},
		{"samples", "samples", run1(RunSMDSpec(syn, smd(func(p *SMDParams) { p.Samples = 0 }), nil))},
		{"steps", "steps", run1(RunSMDSpec(syn, smd(func(p *SMDParams) { p.Steps = 501 }), nil))},
		{"eta", "eta", run1(RunSMDSpec(syn, smd(func(p *SMDParams) { p.Eta = -1 }), nil))},
		{"eta huge", "eta", run1(RunSMDSpec(syn, smd(func(p *SMDParams) { p.Eta = 1e7 }), nil))},
		{"synthetic", "synthetic", run1(RunSMDSpec(optimizer.DataSpec{Synthetic: "logistic", N: 10, Dimension: 2}, smd(func(*SMDParams) {}), nil))},
		{"dimension", "dimension", run1(RunSMDSpec(optimizer.DataSpec{Synthetic: "bilinear", N: 10, Dimension: 1}, smd(func(*SMDParams) {}), nil))},
		{"payoff bound", "payoff_bound", run1(RunSMDSpec(syn, smd(func(p *SMDParams) { p.PayoffBound = 0 }), nil))},
		{"scaling", "scaling", run1(RunSMDSpec(optimizer.DataSpec{Path: data.Path, Label: "malignant"}, smd(func(*SMDParams) {}), nil))},
		{"coordinate bound", "coordinate_bound", run1(RunSMDSpec(data, smd(func(p *SMDParams) { p.CoordinateBound = -1 }), nil))},
		{"group feature", "group_feature", run1(RunSMDSpec(data, smd(func(p *SMDParams) { p.GroupFeature = 30 }), nil))},
		{"stop budget", "stop_budget", run1(RunBRSpec(syn, br(func(p *BRParams) { p.StopBudget = 2 }), nil))},
		{"truncation", "truncation", run1(RunBRSpec(syn, br(func(p *BRParams) { p.StopBudget = 8; p.Truncation = 4 }), nil))},
		{"batch parameter", "batch_parameter", run1(RunBRSpec(syn, br(func(p *BRParams) { p.BatchParameter = -1 }), nil))},
	} {
		fe, ok := field.As(c.err)
		if !ok || fe.Field != c.field {
			t.Errorf("%s: got %v, want a field error on %q", c.name, c.err, c.field)
		}
	}
}

func run1(_ *Result, err error) error { return err }
