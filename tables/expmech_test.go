package tables

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// softmax returns P(j) ∝ exp(c·s_j).
func softmax(s []float64, c float64) []float64 {
	m := math.Inf(-1)
	for _, x := range s {
		m = math.Max(m, c*x)
	}
	p := make([]float64, len(s))
	var z float64
	for i, x := range s {
		p[i] = math.Exp(c*x - m)
		z += p[i]
	}
	for i := range p {
		p[i] /= z
	}
	return p
}

// TestExpMechFinite checks Thm 3.4's privacy and Thm 3.24's tail bound
// exactly on random score vectors: the worst log-ratio over neighbouring
// scores (each moved by ≤ Δs) is ≤ ε, and P[gap ≥ Gap(α)] ≤ α, E[gap] ≤
// ExpectedGap.
func TestExpMechFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		J := 1 + rng.IntN(30)
		eps, ds := 0.1+3*rng.Float64(), 0.1+rng.Float64()
		alpha := 0.01 + 0.9*rng.Float64()
		r, err := ExpMech(eps, ds, float64(J), alpha)
		if err != nil {
			t.Fatal(err)
		}
		s := make([]float64, J)
		s2 := make([]float64, J)
		best := math.Inf(-1)
		for i := range s {
			s[i] = 10 * rng.Float64()
			s2[i] = s[i] + ds*(2*rng.Float64()-1)
			if rng.IntN(2) == 0 { // extreme neighbours
				s2[i] = s[i] + ds*float64(1-2*rng.IntN(2))
			}
			best = math.Max(best, s[i])
		}
		p, q := softmax(s, r.Temperature), softmax(s2, r.Temperature)
		var tail, mean float64
		for i := range p {
			if lr := math.Abs(math.Log(p[i] / q[i])); lr > eps*(1+1e-12) {
				t.Fatalf("privacy: log-ratio %v > ε = %v", lr, eps)
			}
			g := best - s[i]
			mean += p[i] * g
			if g >= r.Gap {
				tail += p[i]
			}
		}
		if tail > alpha || mean > r.ExpectedGap*(1+1e-12) {
			t.Fatalf("utility: tail %v (α %v), mean %v (bound %v)", tail, alpha, mean, r.ExpectedGap)
		}
	}
	r, _ := ExpMech(1, 0.5, 100, 0.05)
	checkNear(t, "gap formula", r.Gap, 2*0.5*(math.Log(100)+math.Log(20))/1, 1e-12)
	checkNear(t, "∝exp(s) is 2Δs-DP", r.UnitTemperatureEpsilon, 1, 1e-15)
	if _, err := ExpMech(1, 1, 2.5, 0.1); err == nil {
		t.Error("fractional J accepted")
	}
	if _, err := ExpMech(1, 1, 2, 1); err == nil {
		t.Error("α = 1 accepted")
	}
}

// TestExpMechConvex checks the vectors of
// docs/seeds.md#seed-001-test-vectors and, in one
// dimension, the exact expected excess risk of the exponential mechanism
// for the median loss by quadrature.
func TestExpMechConvex(t *testing.T) {
	r, err := ExpMechConvex(1, 1, 1, 10, 1000, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "tail p=10", r.TailBound, 120.643740, 1e-8)
	checkNear(t, "mean p=10", r.MeanBST, 104.677881, 1e-8)
	checkNear(t, "Gibbs mean", r.MeanGibbs, 20, 1e-15)
	x, _ := ExpMechConvex(1, 1, 1, 10, 1e4, 0.5)
	checkNear(t, "β average (seed 000 vector 5)", x.BetaAverage, 5000, 1e-15)
	checkNear(t, "seed 000 p/β", 10/x.BetaAverage, 0.002, 1e-12)
	r, _ = ExpMechConvex(0.5, 1, 1, 100, 1000, 0.01)
	checkNear(t, "tail p=100", r.TailBound, 1849.040181, 1e-8)
	checkNear(t, "mean p=100", r.MeanBST, 1791.357458, 1e-8)

	// 1-D: C = [0, 1], ℓ(θ; d) = |θ − d| (L = 1, ‖C‖ = 1), density ∝ exp(−ε Σ|θ − dᵢ|/2).
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{5, 50} {
		data := make([]float64, n)
		for i := range data {
			data[i] = rng.Float64()
		}
		loss := func(th float64) float64 {
			var s float64
			for _, d := range data {
				s += math.Abs(th - d)
			}
			return s
		}
		eps := 1.0
		const K = 200000
		minL := math.Inf(1)
		for i := 0; i <= K; i++ {
			minL = math.Min(minL, loss(float64(i)/K))
		}
		var z, m float64
		for i := 0; i <= K; i++ {
			th := float64(i) / K
			w := math.Exp(-eps * (loss(th) - minL) / 2)
			z += w
			m += w * (loss(th) - minL)
		}
		exact := m / z
		b, _ := ExpMechConvex(eps, 1, 1, 1, float64(n), 0.5)
		if !(exact <= b.Mean) {
			t.Errorf("n=%d: E[R] = %v above the bound %v", n, exact, b.Mean)
		}
	}
}

// TestAnalyticSigma checks output perturbation's exact σ against an
// independent evaluation of the Gaussian profile with math.Erfc:
// δ(ε) = Φ(s/(2σ) − εσ/s) − e^ε Φ(−s/(2σ) − εσ/s) (Balle–Wang 2018, Thm 8).
func TestAnalyticSigma(t *testing.T) {
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	prof := func(eps, s, sig float64) float64 {
		a, b := s/(2*sig), eps*sig/s
		return phi(a-b) - math.Exp(eps)*phi(-a-b)
	}
	checkNear(t, "δ(1) at σ = Δ = 1", prof(1, 1, 1), 0.126936737, 1e-6)
	for _, c := range []struct{ eps, delta float64 }{{0.5, 1e-5}, {0.9, 1e-6}, {4, 1e-8}} {
		r, err := OutputPerturbation(c.eps, c.delta, 1, 1, 100, 3)
		if err != nil {
			t.Fatal(err)
		}
		s, sig := r.Sensitivity, r.AnalyticSigma
		if prof(c.eps, s, sig) > c.delta*(1+1e-6) || prof(c.eps, s, sig*(1-1e-6)) <= c.delta {
			t.Errorf("%+v: σ = %v is not the exact boundary", c, sig)
		}
		dp, _ := rdp.EpsilonFor(rdp.Gaussian(s, sig), c.delta, rdp.Improved)
		if !(dp.Epsilon >= c.eps) {
			t.Errorf("RDP ε %v below the exact ε %v", dp.Epsilon, c.eps)
		}
		if c.eps < 1 && !(r.ClassicSigma >= sig) {
			t.Error("classic σ below the exact σ")
		}
		// The paper's σ₀ really gives PaperSigmaEpsilon: δ at it is the target.
		checkNear(t, "paper σ₀ profile", prof(r.PaperSigmaEpsilon, s, r.PaperSigma), c.delta, 1e-5)
	}
}

func TestOutputPerturbation(t *testing.T) {
	// docs/seeds.md#seed-001-test-vectors: n = 1000, p = 10, L = Δ = ε = 1: Gamma scale for ε/2 is 0.004 (A4);
	// for ε it is 0.002.
	r, err := OutputPerturbation(0.5, 1e-5, 1, 1, 1000, 10)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "sensitivity", r.Sensitivity, 0.002, 1e-15)
	checkNear(t, "Gamma scale at ε = 0.5", r.GammaScale, 0.004, 1e-15)
	checkNear(t, "paper σ₀", r.PaperSigma, 2*math.Sqrt(math.Log(1e5))/(0.5*1000), 1e-12)
	checkNear(t, "classic σ", r.ClassicSigma, math.Sqrt(8*math.Log(1.25e5))/(0.5*1000), 1e-12)
	if !(r.PaperSigmaEpsilon > 0.5) {
		t.Errorf("the paper's σ₀ should be optimistic: ε = %v", r.PaperSigmaEpsilon)
	}
	if !(r.AnalyticSigma > r.PaperSigma && r.AnalyticSigma < r.ClassicSigma) {
		t.Errorf("σ order: paper %v, analytic %v, classic %v", r.PaperSigma, r.AnalyticSigma, r.ClassicSigma)
	}
	// The App. B vector of docs/seeds.md#seed-001-test-vectors: σ₀ at (ε/2, δ/2) = 4L√(ln(2/δ))/(Δεn) = 0.01397488.
	r, _ = OutputPerturbation(0.5, 0.5e-5, 1, 1, 1000, 10)
	checkNear(t, "App. B σ₀ (ε/2, δ/2)", r.PaperSigma, 0.01397488, 1e-6)
	r, _ = OutputPerturbation(2, 1e-5, 1, 1, 1000, 10)
	if !math.IsNaN(r.ClassicSigma) {
		t.Error("classic σ reported for ε ≥ 1")
	}
}
