package optimizer

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/shifted"
)

func synthData(t testing.TB, kind string, n, d int) (*dataset.Dataset, Objective) {
	g, err := dataset.NewSynthetic(kind, d, 7)
	if err != nil {
		t.Fatal(err)
	}
	return g.Sample(rand.New(rand.NewPCG(1, 1)), n), objectiveOf(g)
}

func TestRunDeterministic(t *testing.T) {
	data, obj := synthData(t, "logistic", 200, 5)
	for _, v := range shifted.Variants {
		for _, b := range []int{1, 7} {
			cfg := Config{Training: shifted.Training{Variant: v, Sigma: 1, Epochs: 2, Batch: int64(b), Loss: shifted.Loss{Eta: 0.1}}, R: 3}
			r1, _ := NewRunner(cfg, obj, data)
			r2, _ := NewRunner(cfg, obj, data)
			a := append([]float64(nil), r1.Run(42).W...)
			r1.Run(43)
			res := r1.Run(42)
			c := r2.Run(42)
			for j := range a {
				if a[j] != res.W[j] || a[j] != c.W[j] {
					t.Fatalf("%v b=%d: not deterministic", v, b)
				}
			}
			if norm(a) > 3*(1+1e-12) {
				t.Fatalf("%v: output outside K", v)
			}
			// tracing must not change the output
			tr := &Tracer{}
			r2.SetTracer(tr)
			c = r2.Run(42)
			for j := range a {
				if a[j] != c.W[j] {
					t.Fatalf("%v b=%d: tracing changed the output", v, b)
				}
			}
			if len(tr.Points) == 0 || tr.Points[len(tr.Points)-1].Step != c.End {
				t.Fatalf("%v: trace does not end at the last step", v)
			}
			if math.Abs(maxGrad(tr.Points)-c.MaxGradNorm) > 1e-12 {
				t.Fatalf("trace max grad %v, run %v", maxGrad(tr.Points), c.MaxGradNorm)
			}
		}
	}
}

func maxGrad(p []Point) float64 {
	var m float64
	for _, x := range p {
		m = math.Max(m, x.GradNorm)
	}
	return m
}

func TestVariantRanges(t *testing.T) {
	data, obj := synthData(t, "logistic", 10, 2)
	cfg := Config{Training: shifted.Training{Variant: shifted.VariantSkip, Sigma: 1, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.1}}, R: 1}
	r, _ := NewRunner(cfg, obj, data)
	seen := map[int]bool{}
	for s := uint64(0); s < 2000; s++ {
		res := r.Run(s)
		if res.Start < 0 || res.Start > 5 || res.End != 10 {
			t.Fatalf("skip: start %d end %d", res.Start, res.End)
		}
		seen[res.Start] = true
	}
	if len(seen) != 6 {
		t.Fatalf("skip t0 takes %d values, want 6 (0..⌊n/2⌋)", len(seen))
	}
	cfg.Variant = shifted.VariantStop
	r, _ = NewRunner(cfg, obj, data)
	seen = map[int]bool{}
	for s := uint64(0); s < 2000; s++ {
		res := r.Run(s)
		seen[res.End] = true
		if res.End < 1 || res.End > 10 {
			t.Fatalf("stop T = %d", res.End)
		}
	}
	if len(seen) != 10 {
		t.Fatalf("stop T takes %d values, want 10", len(seen))
	}
}

func TestRunNoAllocs(t *testing.T) {
	for _, b := range []int{1, 4} {
		data, obj := synthData(t, "logistic", 64, 20)
		r, _ := NewRunner(Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 1, Epochs: 2, Batch: int64(b), Loss: shifted.Loss{Eta: 0.1}}, R: 2}, obj, data)
		seed := uint64(0)
		allocs := testing.AllocsPerRun(20, func() { seed++; r.Run(seed) })
		if allocs != 0 {
			t.Fatalf("batch %d: %v allocations per run", b, allocs)
		}
	}
}

// TestMaxGradNormExact compares the inline per-example gradient norm with a
// direct computation.
func TestMaxGradNormExact(t *testing.T) {
	data, _ := synthData(t, "linear", 50, 3)
	obj := Objective{Loss: Huber{Delta: 0.3}, L2: 0.2}
	cfg := Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 0, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.05}}, R: 1}
	r, _ := NewRunner(cfg, obj, data)
	res := r.Run(1)
	// replay without noise
	w := make([]float64, 3)
	g := make([]float64, 3)
	var m float64
	for i := 0; i < 50; i++ {
		obj.Grad(g, w, data.Row(i), data.Y[i])
		m = math.Max(m, norm(g))
		for j := range w {
			w[j] -= 0.05 * g[j]
		}
		projectBall(w, dot(w, w), 1)
	}
	if math.Abs(m-res.MaxGradNorm) > 1e-12 || math.Abs(w[0]-res.W[0]) > 1e-12 {
		t.Fatalf("max grad %v vs %v; w %v vs %v", res.MaxGradNorm, m, res.W, w)
	}
}

// TestExactGaussianMonteCarlo runs the unprojected quadratic many times and
// compares the final iterate's mean and variance with the closed form behind
// ExactRho.
func TestExactGaussianMonteCarlo(t *testing.T) {
	n, d := 20, 1
	data := &dataset.Dataset{D: d, X: make([]float64, n), Y: make([]float64, n)}
	for i := range data.X {
		data.X[i] = 0.5
	}
	obj := Objective{Loss: LinearLoss{}, L2: 1}
	cfg := Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 2, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.1}}, R: math.Inf(1)}
	S, Sp := data.Clone(), data.Clone()
	const t0 = 5
	S.X[t0-1], Sp.X[t0-1] = 1, -1
	trials := 20000
	if testing.Short() {
		trials = 4000
	}
	rIn, _ := NewRunner(cfg, obj, S)
	rOut, _ := NewRunner(cfg, obj, Sp)
	var m1, m2, v1 float64
	for i := 0; i < trials; i++ {
		a := rIn.Run(uint64(2 * i)).W[0]
		b := rOut.Run(uint64(2*i + 1)).W[0]
		m1 += a
		m2 += b
		v1 += a * a
	}
	m1 /= float64(trials)
	m2 /= float64(trials)
	v1 = v1/float64(trials) - m1*m1
	c := 1 - cfg.Loss.Eta
	wantV := cfg.Loss.Eta * cfg.Loss.Eta * cfg.Sigma * cfg.Sigma * (1 - math.Pow(c, 2*float64(n))) / (1 - c*c)
	wantDm := cfg.Loss.Eta * 2 * math.Pow(c, float64(n-t0))
	se := math.Sqrt(2 * wantV / float64(trials))
	if math.Abs((m1-m2)-wantDm) > 5*se {
		t.Fatalf("mean difference %v, want %v ± %v", m1-m2, wantDm, se)
	}
	if math.Abs(v1/wantV-1) > 5*math.Sqrt(2/float64(trials)) {
		t.Fatalf("variance %v, want %v", v1, wantV)
	}
	rho, err := ExactRho(cfg, n, 1, 2, t0)
	if err != nil {
		t.Fatal(err)
	}
	if want := wantDm * wantDm / (2 * wantV); math.Abs(rho/want-1) > 1e-12 {
		t.Fatalf("ExactRho %v, want %v", rho, want)
	}
}

func TestExactRhoLinearIndexOne(t *testing.T) {
	// linear loss, no ℓ2: ρ = (η·diff)²/(2nη²σ²) at every index (docs/amplification.md#exact-gaussian-cases).
	cfg := Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 1.5, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.3}}, R: math.Inf(1)}
	for _, tt := range []int{1, 7, 100} {
		rho, _ := ExactRho(cfg, 100, 0, 2, tt)
		want := 4.0 / (2 * 100 * 1.5 * 1.5)
		if math.Abs(rho/want-1) > 1e-12 {
			t.Fatalf("t=%d: ρ = %v, want %v", tt, rho, want)
		}
	}
	// multi-epoch, batch: person in every epoch, shift adds up.
	cfg = Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 1.5, Epochs: 3, Batch: 4, Loss: shifted.Loss{Eta: 0.3}}, R: math.Inf(1)}
	rho, _ := ExactRho(cfg, 100, 0, 2, 9)
	want := math.Pow(0.3*2*3/4, 2) / (2 * 0.09 * 2.25 * 75)
	if math.Abs(rho/want-1) > 1e-12 {
		t.Fatalf("epochs: ρ = %v, want %v", rho, want)
	}
	// long strongly convex run: no underflow/NaN
	cfg = Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 1, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.01}}, R: math.Inf(1)}
	rho, _ = ExactRho(cfg, 10_000_000, 1, 2, 1)
	if math.IsNaN(rho) || rho < 0 {
		t.Fatalf("ρ = %v", rho)
	}
}

func TestGaussianShiftEpsilon(t *testing.T) {
	// δ(ε) at the returned ε must equal δ; monotone in μ.
	prev := 0.0
	for _, mu := range []float64{0.1, 0.5, 1, 2, 5} {
		e := GaussianShiftEpsilon(mu, 1e-5)
		if e < prev {
			t.Fatal("not monotone in μ")
		}
		prev = e
		dl := stdPhi(-e/mu+mu/2) - math.Exp(e)*stdPhi(-e/mu-mu/2)
		if math.Abs(dl-1e-5) > 1e-9 {
			t.Fatalf("μ=%v: δ(ε) = %v", mu, dl)
		}
	}
}

func TestMinimize(t *testing.T) {
	// least squares inside the ball: normal equations hold.
	data, obj := synthData(t, "linear", 300, 4)
	opt := Minimize(obj, data, 100)
	if opt.Stationarity > 1e-9 || opt.Mu != 0 {
		t.Fatalf("unconstrained: stationarity %v, μ %v", opt.Stationarity, opt.Mu)
	}
	// logistic with a small ball: constraint active; compare with long
	// projected gradient descent.
	data, obj = synthData(t, "logistic", 300, 4)
	R := 0.5
	opt = Minimize(obj, data, R)
	if math.Abs(norm(opt.W)-R) > 1e-12 || opt.Stationarity > 1e-8 {
		t.Fatalf("constrained: ‖w‖ %v, stationarity %v", norm(opt.W), opt.Stationarity)
	}
	w := make([]float64, 4)
	g := make([]float64, 4)
	for it := 0; it < 20000; it++ {
		empiricalGrad(g, obj, data, w)
		for j := range w {
			w[j] -= 1 * g[j]
		}
		projectBall(w, dot(w, w), R)
	}
	if f := EmpiricalRisk(obj, data, w); f < opt.F-1e-12 || f-opt.F > 1e-9 {
		t.Fatalf("projected GD %v, Minimize %v", f, opt.F)
	}
	// the linear loss: minimiser is R·x̄/‖x̄‖
	data, _ = synthData(t, "quadratic", 50, 3)
	opt = Minimize(Objective{Loss: LinearLoss{}}, data, 2)
	xbar := make([]float64, 3)
	for i := 0; i < 50; i++ {
		for j := range xbar {
			xbar[j] += data.Row(i)[j] / 50
		}
	}
	for j := range xbar {
		if math.Abs(opt.W[j]-2*xbar[j]/norm(xbar)) > 1e-8 {
			t.Fatalf("linear: %v vs %v", opt.W, xbar)
		}
	}
}

func TestTracerContraction(t *testing.T) {
	data, obj := synthData(t, "logistic", 100, 3)
	c := obj.Constants(data.MaxNorm(), 1, 2)
	for _, eta := range []float64{1 / c.Beta, 2 / c.Beta, 6 / c.Beta} {
		cfg := Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 0.5, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: eta}}, R: 2}
		r, _ := NewRunner(cfg, obj, data)
		tr := &Tracer{Pairs: 24}
		r.SetTracer(tr)
		r.Run(3)
		var m float64
		for _, p := range tr.Points {
			m = math.Max(m, p.Contraction)
		}
		bound := c.Contraction(eta)
		if m > bound*(1+1e-6) {
			t.Fatalf("η=%v: measured contraction %v > c = %v", eta, m, bound)
		}
		if eta <= 2/c.Beta && m < 0.999 {
			t.Fatalf("η=%v: measured %v, expected ≈ 1 (directions orthogonal to x)", eta, m)
		}
	}
}
