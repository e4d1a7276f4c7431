package saddle

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// Prop. 4.3 recomputed by hand: the sampling rounds counted by brute force,
// ε₀ = 4L0τ/B, ε = ε₀√(2k ln(1/δ)) + kε₀²/2; the printed step bound at the
// notes' test vector (seed 003 notes §5).
func TestSCOPrivacyIndependent(t *testing.T) {
	for _, c := range []struct {
		n, T, K, q     int
		l0, tau, delta float64
	}{{569, 40, 13, 3, 4, 0.0123, 1e-5}, {100000, 1000, 100, 10, 1, 0.0248, 1e-5}, {20000, 1967, 77, 26, 2.5, 0.0023, 1e-6}, {1000, 7, 3, 10, 1, 0.1, 1e-3}} {
		p, err := SCOPrivacy(c.n, c.T, c.K, c.q, c.l0, c.tau, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		rounds := 1 // the final draw of line 11
		for s := 1; s <= c.T; s++ {
			if s <= c.q || s%c.q == 0 {
				rounds++
			}
		}
		k := float64(rounds * c.K)
		if printed := float64(c.T*c.K)/float64(c.q) + float64(c.q*c.K); c.T >= c.q && k > printed {
			t.Errorf("count %v above Prop. 4.3's TK/q + qK = %v", k, printed)
		}
		B := math.Floor(float64(c.n) / float64(c.T))
		e0 := 4 * c.l0 * c.tau / B
		near(t, "k", float64(p.Samples), k, 0)
		near(t, "vertex ε", p.VertexEpsilon, e0, 1e-12)
		near(t, "ε", float64(p.Epsilon), e0*math.Sqrt(2*k*math.Log(1/c.delta))+k*e0*e0/2, 1e-9)
		if p.EpsilonRDP > float64(p.Epsilon) {
			t.Errorf("RDP ε %v above the filter's %v", p.EpsilonRDP, p.Epsilon)
		}
	}
	tau, err := PaperSCOStep(100000, 1000, 100, 10, 1, 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Prop. 4.3 τ (printed)", tau, 0.0248374, 1e-5)
	tm, err := SCOMaxStep(100000, 1000, 100, 10, 1, 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := SCOPrivacy(100000, 1000, 100, 10, 1, tm, 1e-5)
	q, _ := SCOPrivacy(100000, 1000, 100, 10, 1, tm*(1+1e-6), 1e-5)
	if !(p.Epsilon <= 1 && q.Epsilon > 1) || !(tm > 1.5*tau) {
		t.Errorf("max step %v (ε %v, just above %v); printed %v", tm, p.Epsilon, q.Epsilon, tau)
	}
}

// The per-vertex ε of Prop. 4.3 by direct computation: two neighbouring
// data sets (one record replaced by its worst opposite), the same past
// vertex draws; the law P_{w^t} moves by at most e^{4L0τ/B} at every t and
// coordinate (the mixture argument of docs/saddle.md §7).
func TestSCOVertexRatio(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const d, n, T, R = 6, 40, 10, 3.0
	p := &SCOProblem{D: d, Logistic: true, R: R, H: make([]float64, n*d), B: make([]float64, n), Consts: SCOConstants{L0: R}}
	for r := 0; r < n; r++ {
		for j := range p.row(r) {
			p.row(r)[j] = 2*rng.Float64() - 1
		}
		p.B[r] = float64(2*rng.IntN(2) - 1)
	}
	p2 := *p
	p2.H, p2.B = append([]float64(nil), p.H...), append([]float64(nil), p.B...)
	for j := range p2.row(13) {
		p2.row(13)[j] = -math.Copysign(1, p.row(13)[j])
	}
	p2.B[13] = -p.B[13]
	tau, B := 0.7, n/T
	worst := 0.0
	what := make([][]float64, T) // the shared past draws
	for s := range what {
		what[s] = make([]float64, d)
		what[s][rng.IntN(d)] = 1
	}
	var ws [2][][]float64
	var ls [2][][]float64 // cumulative scores −τΣg
	for k, pr := range []*SCOProblem{p, &p2} {
		lx, x, wsum, g := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
		for s := 0; s < T; s++ {
			softmaxInto(x, lx)
			w := make([]float64, d)
			for j := range wsum {
				wsum[j] += x[j]
				w[j] = wsum[j] / float64(s+1)
			}
			ws[k] = append(ws[k], w)
			ls[k] = append(ls[k], append([]float64(nil), lx...))
			clear(g)
			for r := s * B; r < (s+1)*B; r++ {
				pr.lossAt(r, dot(pr.row(r), what[s]), g, 1/float64(B))
			}
			for j := range lx {
				lx[j] -= tau * g[j]
			}
		}
	}
	var ds float64 // the realised score sensitivity
	for s := range ws[0] {
		for j := range ws[0][s] {
			worst = math.Max(worst, math.Abs(math.Log(ws[0][s][j]/ws[1][s][j])))
			ds = math.Max(ds, math.Abs(ls[0][s][j]-ls[1][s][j]))
		}
	}
	bound := 4 * R * tau / float64(B)
	if worst > 2*ds || 2*ds > bound || worst == 0 {
		t.Errorf("largest log-ratio of P_{w^t} %v, want ≤ 2Δs = %v ≤ 4L0τ/B = %v (and > 0)", worst, 2*ds, bound)
	}
}

// The bound's sums by hand at T = 5, q = 2 (t0 = 1, 2, 2, 4, 4).
func TestSCOBoundByHand(t *testing.T) {
	h, lag := scoSums(5, 2)
	near(t, "Σ H_t", h, 1.0/3+1.0/5, 1e-15)
	near(t, "Σ (t − t0)", lag, 2, 0)
	c := SCOConstants{L0: 2, L1: 1, L2: 0.5}
	G := math.Min(16*(1+math.Log(8))/3+8*0.25/9, 4)
	want := math.Log(4)/(0.1*5) + 0.1*4/2 + 4*0.5/3 + 2*1.0/3 + 4*h/5 + 0.1*G*lag/5
	near(t, "bound", SCOBound(4, 5, 3, 2, c, 0.1), want, 1e-12)
}

// scoSums' block form (O(T/q)) equals the direct double sum over t and k
// of its definition, to 1e-12 relative, where the asymptotic series is used
// (blocks from a = 64 on) and where it is not.
func TestSCOSumsBlockForm(t *testing.T) {
	for _, c := range [][2]int{{1, 1}, {5, 2}, {7, 7}, {9, 10}, {1000, 31}, {20000, 130}, {50000, 3}, {4097, 64}} {
		T, q := c[0], c[1]
		var h, lag float64
		for tt := 1; tt <= T; tt++ {
			t0 := tt
			if tt > q {
				t0 = q * (tt / q)
			}
			for k := t0 + 1; k <= tt; k++ {
				h += 1 / float64(k)
			}
			lag += float64(tt - t0)
		}
		gh, gl := scoSums(T, q)
		near(t, fmt.Sprintf("Σ H_t at T = %d, q = %d", T, q), gh, h, 1e-12)
		near(t, fmt.Sprintf("Σ (t − t0) at T = %d, q = %d", T, q), gl, lag, 0)
	}
}

// Lemma C (docs/saddle.md §8) by Monte Carlo: for F(x) = ½‖x − x*‖²
// (∇F = x − x*, L1 = 1, L2 = 0) and a logistic batch risk on random
// records, E‖∇h(ŵ) − ∇h(w)‖∞² over ŵ = mean of K draws of P_w stays below
// SCOReuseMoment, and the bias ‖E[∇h(ŵ) − ∇h(w)]‖∞ below 2L2/K (+ MC slack).
func TestSCOReuseMomentMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	lsq, _ := SyntheticSCO(400, 30, 0.5, 2)
	logi := &SCOProblem{D: 30, Logistic: true, R: 4, H: make([]float64, 400*30), B: make([]float64, 400)}
	for i := range logi.H {
		logi.H[i] = 2*rng.Float64() - 1
	}
	for r := range logi.B {
		logi.B[r] = float64(2*rng.IntN(2) - 1)
	}
	logi.Consts = SCOConstants{L0: 4, L1: 4, L2: 64 / (6 * math.Sqrt(3))}
	for _, pr := range []*SCOProblem{lsq, logi} {
		w := make([]float64, pr.D)
		for j := range w {
			w[j] = rng.ExpFloat64()
		}
		var s float64
		for _, v := range w {
			s += v
		}
		for j := range w {
			w[j] /= s
		}
		for _, K := range []int{1, 4, 32} {
			gw, gh := make([]float64, pr.D), make([]float64, pr.D)
			pr.Risk(w, gw)
			var sp sampler
			lw := make([]float64, pr.D)
			for j := range lw {
				lw[j] = math.Log(w[j])
			}
			sp.reset(lw)
			const M = 1500
			var m2 float64
			bias := make([]float64, pr.D)
			for it := 0; it < M; it++ {
				wh := make([]float64, pr.D)
				for k := 0; k < K; k++ {
					wh[sp.draw(rng)] += 1 / float64(K)
				}
				pr.Risk(wh, gh)
				var mx float64
				for j := range gh {
					mx = math.Max(mx, math.Abs(gh[j]-gw[j]))
					bias[j] += (gh[j] - gw[j]) / M
				}
				m2 += mx * mx / M
			}
			if G := SCOReuseMoment(pr.D, K, pr.Consts); m2 > G {
				t.Errorf("K = %d: E‖∇h(ŵ) − ∇h(w)‖∞² ≈ %v above G = %v", K, m2, G)
			}
			var bmax float64
			for _, b := range bias {
				bmax = math.Max(bmax, math.Abs(b))
			}
			if lim := 2*pr.Consts.L2/float64(K) + 4*pr.Consts.L1/math.Sqrt(M); bmax > lim {
				t.Errorf("K = %d: bias %v above 2L2/K + MC slack %v", K, bmax, lim)
			}
		}
	}
}

// The synthetic instance's exact excess ½‖x − x*‖² against the empirical
// risk of a large fresh sample minus σ²/2; the data instance's certified
// lower bound on min F against random points of the simplex.
func TestSCOPopulation(t *testing.T) {
	pr, err := SyntheticSCO(200000, 8, 0.5, 9)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 3; it++ {
		x := make([]float64, 8)
		x[rng.IntN(8)] += 0.5
		x[rng.IntN(8)] += 0.5
		near(t, "excess", pr.Risk(x, nil)-0.125, pr.Excess(x), 0.02)
	}
	lp, err := LoadSCO(optimizer.DataSpec{Path: "../../testdata/breast_cancer.csv", Label: "malignant", Standardize: true}, DefaultSCOParams())
	if err != nil {
		t.Fatal(err)
	}
	if !(lp.popGap >= 0 && lp.popGap < 1e-3) {
		t.Errorf("reference Frank–Wolfe gap %v", lp.popGap)
	}
	for it := 0; it < 200; it++ {
		x := make([]float64, lp.D)
		var s float64
		for j := range x {
			x[j] = rng.ExpFloat64()
			s += x[j]
		}
		for j := range x {
			x[j] /= s
		}
		if e := lp.Excess(x); e < 0 {
			t.Fatalf("negative excess %v: the lower bound on min F is not one", e)
		}
	}
}

// Without privacy constraints (τ given, many steps) Algorithm 5 converges,
// the released point is K-sparse, and the run's checks pass; a step size
// the target ε does not allow fails the ε check.
func TestSCORun(t *testing.T) {
	ds := optimizer.DataSpec{Synthetic: "simplex-lsq", N: 20000, Dimension: 5, Seed: 4}
	pr, _ := LoadSCO(ds, DefaultSCOParams())
	rng := rand.New(rand.NewPCG(1, 1))
	out, wT, run := RunSCO(pr, 4000, 50, 20, 0.2, rng)
	if e := pr.Excess(wT); e > 0.01 {
		t.Errorf("non-private run's w^T excess %v", e)
	}
	if run.Support > 50 || pr.Excess(out) > 0.05 {
		t.Errorf("released support %d, excess %v", run.Support, pr.Excess(out))
	}
	p := DefaultSCOParams()
	p.Repeats = 5
	ds.N, ds.Dimension = 4000, 10
	res, err := RunSCOSpec(ds, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.MaxSupport > res.Samples || res.Privacy.Epsilon > 1 {
		t.Errorf("ok %v, support %d > K %d, ε %v", res.OK, res.MaxSupport, res.Samples, res.Privacy.Epsilon)
	}
	p.Eta = 1
	if res, err := RunSCOSpec(ds, p, nil); err != nil || res.OK {
		t.Errorf("τ = 1 at ε = 1: ok %v, err %v; want a failed ε check", res != nil && res.OK, err)
	}
}

func TestSCOFieldErrors(t *testing.T) {
	syn := optimizer.DataSpec{Synthetic: "simplex-lsq", N: 500, Dimension: 5, Seed: 1}
	data := optimizer.DataSpec{Path: "../../testdata/breast_cancer.csv", Label: "malignant", Standardize: true}
	for _, c := range []struct {
		name string
		ds   optimizer.DataSpec
		mod  func(*SCOParams)
	}{
		{"samples", syn, func(p *SCOParams) { p.Samples = -1 }},
		{"round_length", syn, func(p *SCOParams) { p.RoundLength = -2 }},
		{"steps", syn, func(p *SCOParams) { p.Steps = 501 }},
		{"target_epsilon", syn, func(p *SCOParams) { p.TargetEpsilon = 1000 }},
		{"delta", syn, func(p *SCOParams) { p.Delta = 1 }},
		{"label_noise", syn, func(p *SCOParams) { p.LabelNoise = -1 }},
		{"repeats", syn, func(p *SCOParams) { p.Repeats = 1 }},
		{"l1_radius", data, func(p *SCOParams) { p.L1Radius = 0 }},
		{"coordinate_bound", data, func(p *SCOParams) { p.CoordinateBound = -3 }},
		{"synthetic", optimizer.DataSpec{Synthetic: "bilinear", N: 500, Dimension: 5}, func(*SCOParams) {}},
		{"scaling", optimizer.DataSpec{Path: data.Path, Label: "malignant"}, func(*SCOParams) {}},
	} {
		p := DefaultSCOParams()
		c.mod(&p)
		_, err := RunSCOSpec(c.ds, p, nil)
		fe, ok := field.As(err)
		if !ok || fe.Field != c.name {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
	if _, err := SCOPrivacy(100, 10, 1, 0, 1, 0.1, 1e-5); err == nil {
		t.Error("round length 0 accepted")
	}
}
