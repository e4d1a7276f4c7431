package shifted

import (
	"math"
	"math/rand/v2"
	"testing"
)

// For affine maps ψ_t(w) = c_t w + b_t the final iterate is Gaussian, and the
// Rényi divergence between neighbours whose b_t differ by s_t (all in one
// direction) is exactly αΔ²/(2V) with Δ = Σ s_t D_t and V = Σ v_t D_t²,
// D_t = Π_{i>t} c_i (docs/amplification.md#exact-gaussian-cases). exactRho returns Δ²/(2V).
func exactRho(steps []Step) float64 {
	var delta, v float64
	for _, st := range steps {
		delta = st.Contraction*delta + st.Sensitivity
		v = st.Contraction*st.Contraction*v + st.Variance
	}
	return delta * delta / (2 * v)
}

func TestLinearLossExact(t *testing.T) {
	// f(w, x) = −⟨w, x⟩, no projection: identity maps, D_α = α(2ηL)²/(2nη²σ²)
	// for every index; Thm 23's bound equals it at t = 1.
	const n = 1000
	g := SGD{N: n, Sigma: 3, Loss: Loss{Lipschitz: 0.5}}
	exact := 2 * 0.25 / (9 * n)
	for idx := int64(1); idx <= n; idx++ {
		rho := g.Rho(idx)
		if rho < exact*(1-1e-13) {
			t.Fatalf("t = %d: bound %g below the exact %g", idx, rho, exact)
		}
		if idx == 1 && !relClose(rho, exact, 1e-13) {
			t.Fatalf("t = 1: bound %g, exact %g", rho, exact)
		}
	}
}

func TestQuadraticLossExact(t *testing.T) {
	// f(w, x) = ½‖w − x‖² (m = β = 1), no projection: w ← (1−η)w + ηx − ηZ,
	// an affine c-contraction with c = 1 − η. Mean difference η c^{n−t}·2L,
	// variance η²σ² Σ_{j<n} c^{2j}.
	const n = 200
	eta, sigma, L := 0.05, 2.0, 1.0
	g := SGD{N: n, Sigma: sigma, Loss: Loss{Lipschitz: L, Smoothness: 1, StrongConvexity: 1, Eta: eta}}
	c := 1 - eta
	var vsum float64
	for j := 0; j < n; j++ {
		vsum += math.Pow(c, 2*float64(j))
	}
	for idx := int64(1); idx <= n; idx++ {
		mean := eta * math.Pow(c, float64(n-idx)) * 2 * L
		exact := mean * mean / (2 * eta * eta * sigma * sigma * vsum)
		rho := g.Rho(idx)
		if rho < exact*(1-1e-12) {
			t.Fatalf("t = %d: bound %g below the exact %g", idx, rho, exact)
		}
		if idx == 1 && !relClose(rho, exact, 1e-12) {
			t.Fatalf("t = 1: bound %g, exact %g", rho, exact)
		}
		if idx > 1 && rho <= exact {
			t.Fatalf("t = %d: bound %g not above the exact %g", idx, rho, exact)
		}
	}
}

func TestEngineAboveExactGaussian(t *testing.T) {
	// Random affine schedules: Theorem 22's optimum is never below the exact
	// divergence, and equals it when the only sensitivity is at step 1.
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 500; trial++ {
		steps := randomSteps(r, 1+r.IntN(40))
		sol, err := Solve(FromSteps(steps))
		if err != nil {
			t.Fatal(err)
		}
		exact := exactRho(steps)
		if sol.K < exact*(1-1e-12) {
			t.Fatalf("trial %d: K = %.16g below exact %.16g", trial, sol.K, exact)
		}
		for i := range steps {
			steps[i].Sensitivity = 0
		}
		steps[0].Sensitivity = 1
		sol, _ = Solve(FromSteps(steps))
		if exact := exactRho(steps); !relClose(sol.K, exact, 1e-10) && math.Abs(sol.K-exact) > 1e-300 {
			t.Fatalf("trial %d: first-step K = %.16g, exact %.16g", trial, sol.K, exact)
		}
	}
}

func TestMonteCarloFinalIterate(t *testing.T) {
	// Simulate noisy SGD on f(w, x) = ½(w − x)² in one dimension, n = 12
	// steps, for two datasets differing at index 4 (x = +L vs −L). The final
	// iterates' mean difference, variance and E_Q[(p/q)^α] (the Rényi moment,
	// with the exact Gaussian densities) must sit within 4 standard errors of
	// the exact values, and the moment below the bound's.
	const (
		n, idx = 12, 4
		runs   = 40000
		eta    = 0.3
		sigma  = 1.5
		L      = 1.0
		alpha  = 2.0
	)
	c := 1 - eta
	r := rand.New(rand.NewPCG(7, 8))
	sim := func(x float64) []float64 {
		out := make([]float64, runs)
		for k := range out {
			w := 0.0
			for step := 1; step <= n; step++ {
				xt := 0.0
				if step == idx {
					xt = x
				}
				w -= eta * ((w - xt) + sigma*r.NormFloat64())
			}
			out[k] = w
		}
		return out
	}
	p, q := sim(L), sim(-L)
	delta := eta * math.Pow(c, n-idx) * 2 * L
	var v float64
	for j := 0; j < n; j++ {
		v += eta * eta * sigma * sigma * math.Pow(c, 2*float64(j))
	}
	meanVar := func(xs []float64) (float64, float64) {
		var m, s float64
		for _, x := range xs {
			m += x
		}
		m /= float64(len(xs))
		for _, x := range xs {
			s += (x - m) * (x - m)
		}
		return m, s / float64(len(xs)-1)
	}
	mp, vp := meanVar(p)
	mq, vq := meanVar(q)
	if se := math.Sqrt(2 * v / runs); math.Abs((mp-mq)-delta) > 4*se {
		t.Errorf("mean difference %g, exact %g (se %g)", mp-mq, delta, se)
	}
	if se := v * math.Sqrt(2.0/(runs-1)); math.Abs(vp-v) > 4*se || math.Abs(vq-v) > 4*se {
		t.Errorf("variances %g, %g, exact %g (se %g)", vp, vq, v, se)
	}
	// Rényi moment E_Q[(p/q)^α] = exp((α−1)D_α), D_α = αΔ²/(2V).
	exactD := alpha * delta * delta / (2 * v)
	var sum, sum2 float64
	for _, w := range q {
		// ln p(w) − ln q(w) for N(Δ/2, V) vs N(−Δ/2, V)
		loss := delta * w / v
		y := math.Exp(alpha * loss)
		sum += y
		sum2 += y * y
	}
	mean := sum / runs
	se := math.Sqrt((sum2/runs - mean*mean) / runs)
	want := math.Exp((alpha - 1) * exactD)
	if math.Abs(mean-want) > 4*se {
		t.Errorf("Rényi moment %g ± %g, exact %g", mean, se, want)
	}
	g := SGD{N: n, Sigma: sigma, Loss: Loss{Lipschitz: L, Smoothness: 1, StrongConvexity: 1, Eta: eta}}
	bound := math.Exp((alpha - 1) * alpha * g.Rho(idx))
	if mean-4*se > bound {
		t.Errorf("simulated Rényi moment %g ± %g beats the bound %g", mean, se, bound)
	}
	if exactD > alpha*g.Rho(idx) {
		t.Errorf("exact D_α %g above the bound %g", exactD, alpha*g.Rho(idx))
	}
}
