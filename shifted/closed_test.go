package shifted

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
)

func TestSGDMatchesEngine(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	trials := 300
	if testing.Short() {
		trials = 60
	}
	for trial := 0; trial < trials; trial++ {
		g := SGD{
			N:     1 + r.Int64N(60),
			Sigma: 0.5 + 3*r.Float64(),
			Loss:  Loss{Lipschitz: 0.5 + r.Float64()},
		}
		g.Public = r.Int64N(3) * r.Int64N(10)
		g.Batch = 1 + r.Int64N(min(g.N+g.Public, 7))
		g.Epochs = 1 + r.Int64N(5)
		switch r.IntN(3) {
		case 1: // strongly convex
			g.Loss.Smoothness = 1 + r.Float64()
			g.Loss.StrongConvexity = g.Loss.Smoothness * r.Float64()
			g.Loss.Eta = 2 / g.Loss.Smoothness * r.Float64()
		case 2: // c close to 1
			g.Loss.Smoothness, g.Loss.StrongConvexity, g.Loss.Eta = 1, 1e-4, 0.5
		}
		if err := g.Check(); err != nil {
			t.Fatalf("%+v: %v", g, err)
		}
		for k := 0; k < 5; k++ {
			idx := 1 + r.Int64N(g.N)
			// LogRho is the closed form on the uniform schedule (c_eff at
			// every step), or, where exactPartial, the smaller of that and
			// the engine on the per-step schedule; never below the latter.
			uni, err := Solve(g.uniformSchedule(idx))
			if err != nil {
				t.Fatal(err)
			}
			sol, err := Solve(g.Schedule(idx))
			if err != nil {
				t.Fatal(err)
			}
			want := uni.LogK
			if g.exactPartial() {
				want = math.Min(want, sol.LogK)
			}
			got := g.LogRho(idx)
			if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(got)) {
				t.Fatalf("%+v index %d: closed form ln ρ = %.15g, engine %.15g", g, idx, got, want)
			}
			if got < sol.LogK-1e-9*math.Max(1, math.Abs(got)) {
				t.Fatalf("%+v index %d: ln ρ = %.15g below Thm 22 on the per-step schedule %.15g", g, idx, got, sol.LogK)
			}
		}
	}
}

func TestSGDMonotone(t *testing.T) {
	// Monotone() = +1: ρ_t non-decreasing in t, also with c < 1, batches,
	// public records and several passes.
	r := rand.New(rand.NewPCG(15, 16))
	for trial := 0; trial < 300; trial++ {
		g := SGD{N: 1 + r.Int64N(80), Sigma: 1, Loss: Loss{Lipschitz: 1}}
		g.Public = r.Int64N(2) * r.Int64N(20)
		g.Batch = 1 + r.Int64N(min(g.N+g.Public, 6))
		g.Epochs = 1 + r.Int64N(6)
		if r.IntN(4) > 0 {
			g.Loss.Smoothness = 1
			g.Loss.StrongConvexity = r.Float64()
			g.Loss.Eta = 2 * r.Float64()
		}
		for idx := int64(1); idx < g.N; idx++ {
			if a, b := g.LogRho(idx), g.LogRho(idx+1); b < a-1e-12*math.Abs(a) {
				t.Fatalf("%+v: ln ρ_%d = %g > ln ρ_%d = %g", g, idx, a, idx+1, b)
			}
		}
	}
}

func TestTheorem23Values(t *testing.T) {
	g := SGD{N: 1000, Sigma: 4, Loss: Loss{Lipschitz: 2}}
	for _, idx := range []int64{1, 500, 1000} {
		want := 2 * 4.0 / (16 * float64(1000-idx+1)) // 2L²/(σ²(n−t+1))
		if got := g.Rho(idx); !relClose(got, want, 1e-14) {
			t.Errorf("ρ_%d = %g, want %g", idx, got, want)
		}
	}
	if g.Source() != "FMTT18 Thm 23" {
		t.Errorf("source %q", g.Source())
	}
}

func TestMinibatch(t *testing.T) {
	// n = 10, b = 3: batches {1,2,3},{4,5,6},{7,8,9},{10}: m = 4 steps; the
	// last batch has one record, and its sum is divided by the nominal b = 3
	// as DP-SGD does (sensitivity 2ηL/3, not 2ηL: the old re-weighting gave
	// ρ_10 = 2).
	g := SGD{N: 10, Batch: 3, Sigma: 1, Loss: Loss{Lipschitz: 1}}
	cases := map[int64]float64{
		1:  2.0 / (9 * 4),
		6:  2.0 / (9 * 3),
		9:  2.0 / (9 * 2),
		10: 2.0 / 9,
	}
	for idx, want := range cases {
		if got := g.Rho(idx); !relClose(got, want, 1e-14) {
			t.Errorf("ρ_%d = %g, want %g", idx, got, want)
		}
	}
}

func TestTheorem35(t *testing.T) {
	// n fixed-order passes: the engine's value is (2L²/σ²)((n−1)/n + 1/(n−t+1)),
	// the expression inside Thm 35's proof, and never above 4L²/σ².
	for _, n := range []int64{1, 2, 7, 50} {
		g := SGD{N: n, Epochs: n, Sigma: 1.3, Loss: Loss{Lipschitz: 0.7}}
		bound := 4 * 0.49 / (1.3 * 1.3)
		for idx := int64(1); idx <= n; idx++ {
			sol, err := Solve(g.Schedule(idx))
			if err != nil {
				t.Fatal(err)
			}
			paper := 2 * 0.49 / 1.69 * (float64(n-1)/float64(n) + 1/float64(n-idx+1))
			if !relClose(sol.K, paper, 1e-10) || !relClose(g.Rho(idx), paper, 1e-12) {
				t.Fatalf("n = %d, t = %d: engine %g, closed form %g, proof's value %g", n, idx, sol.K, g.Rho(idx), paper)
			}
			if sol.K > bound*(1+1e-12) {
				t.Fatalf("n = %d, t = %d: engine %g above Thm 35's %g", n, idx, sol.K, bound)
			}
		}
	}
	// Strictly below at every index for n ≥ 2 (the bound is attained only
	// in the limit).
	g := SGD{N: 1000, Epochs: 1000, Sigma: 1, Loss: Loss{Lipschitz: 1}}
	if g.Rho(1000) >= 4 || g.Rho(1) >= 2.01 {
		t.Errorf("ρ_n = %g, ρ_1 = %g", g.Rho(1000), g.Rho(1))
	}
}

func TestStronglyConvexLimit(t *testing.T) {
	// m → 0: c → 1 and ρ_t → Thm 23, stably for n = 10⁹.
	const n = 1_000_000_000
	thm23 := SGD{N: n, Sigma: 2, Loss: Loss{Lipschitz: 1}}
	for _, m := range []float64{1e-16, 1e-14, 1e-12} {
		g := SGD{N: n, Sigma: 2, Loss: Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: m, Eta: 0.5}}
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		for _, idx := range []int64{1, n / 2, n - 10, n} {
			got, want := g.Rho(idx), thm23.Rho(idx)
			// With ηm(n−t) ≪ 1 the two agree to O(ηm·n).
			tol := 4 * 0.5 * m * float64(n)
			if !relClose(got, want, tol+1e-12) || got > want*(1+1e-12) {
				t.Errorf("m = %g, t = %d: ρ = %.16g, Thm 23 %.16g", m, idx, got, want)
			}
		}
	}
	// A real contraction: early indices are exponentially protected.
	g := SGD{N: 10_000_000, Sigma: 1, Loss: Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 0.01, Eta: 1}}
	if lr := g.LogRho(1); !(lr < -1e5) || math.IsInf(lr, 0) {
		t.Errorf("ln ρ_1 = %g", lr)
	}
	if e, _ := epsFromLogRho(g.LogRho(1), 1e-6, rdp.Improved); e != 0 {
		t.Errorf("ε_1 = %g, want 0 (ρ < δ²)", e)
	}
	if e, _ := epsFromLogRho(g.LogRho(1), 1e-6, rdp.Classic); !(e > 0) {
		t.Errorf("classic ε_1 = %g, want > 0", e)
	}
}

func TestLossCheck(t *testing.T) {
	cases := []struct {
		l    Loss
		want string
	}{
		{Loss{Lipschitz: 1, Smoothness: 1, Eta: 2.5}, "not a contraction"},
		{Loss{Lipschitz: 0}, "Lipschitz"},
		{Loss{Lipschitz: 1, StrongConvexity: 1}, "needs the smoothness"},
		{Loss{Lipschitz: 1, StrongConvexity: 2, Smoothness: 1, Eta: 0.1}, "exceeds"},
		{Loss{Lipschitz: math.Inf(1)}, "finite"},
	}
	for _, c := range cases {
		if err := c.l.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.l, err, c.want)
		}
	}
	if err := (Loss{Lipschitz: 1, Smoothness: 1, Eta: 2}).Check(); err != nil {
		t.Errorf("η = 2/β refused: %v", err)
	}
	// c = max(|1 − ηm|, |1 − ηβ|)
	l := Loss{Lipschitz: 1, Smoothness: 4, StrongConvexity: 1, Eta: 0.45}
	if c := l.Contraction(); !relClose(c, 0.8, 1e-14) {
		t.Errorf("c = %g, want 0.8", c)
	}
}

func TestSkip(t *testing.T) {
	s := Skip{N: 101, Sigma: 2, Loss: Loss{Lipschitz: 1}}
	for _, idx := range []int64{1, 20, 50, 51, 101} {
		c := s.Curve(idx)
		paper := s.PaperCurve(idx)
		p := s.SkipProbability(idx)
		rho := paper.Rho()
		for _, a := range []float64{1.01, 1.5, 2, 8, 64, 1000} {
			got := c.Epsilon(a)
			if (a-1)*a*rho > 700 {
				if math.IsInf(got, 0) || math.IsNaN(got) {
					t.Errorf("t = %d α = %g: %g", idx, a, got)
				}
				continue
			}
			// Direct evaluation of the mixture.
			want := math.Log1p((1-p)*math.Expm1((a-1)*a*rho)) / (a - 1)
			if !relClose(got, want, 1e-10) {
				t.Errorf("t = %d α = %g: mixture %g, direct %g", idx, a, got, want)
			}
			if got > paper.Epsilon(a)*(1+1e-14) {
				t.Errorf("t = %d α = %g: mixture %g above Thm 24 %g", idx, a, got, paper.Epsilon(a))
			}
		}
	}
	// The per-index ρ inside the mixture is the engine's.
	for _, idx := range []int64{1, 60, 101} {
		sol, _ := Solve(s.base().Schedule(idx))
		if !relClose(s.PaperCurve(idx).Rho(), sol.K, 1e-12) {
			t.Errorf("t = %d: ρ = %g, engine %g", idx, s.PaperCurve(idx).Rho(), sol.K)
		}
	}
	if p := s.SkipProbability(1); !relClose(p, 50.0/51, 1e-15) {
		t.Errorf("p_1 = %g", p)
	}
	if s.SkipProbability(51) != 0 {
		t.Errorf("p_51 = %g", s.SkipProbability(51))
	}
}

// stopDirect evaluates the Stop mixture term by term: for moderate x as
// log1p(Σ_j expm1(x/j)/n)/(α−1) (summed smallest first), for large x in log
// space.
func stopDirect(n, m int64, rho1, a float64) float64 {
	x := (a - 1) * a * rho1
	if x < 500 {
		var s float64
		for j := m; j >= 1; j-- {
			s += math.Expm1(x / float64(j))
		}
		return math.Log1p(s/float64(n)) / (a - 1)
	}
	terms := []float64{}
	if m < n {
		terms = append(terms, math.Log(float64(n-m)))
	}
	for j := int64(1); j <= m; j++ {
		terms = append(terms, x/float64(j))
	}
	mx := math.Inf(-1)
	for _, x := range terms {
		mx = math.Max(mx, x)
	}
	var s float64
	for _, x := range terms {
		s += math.Exp(x - mx)
	}
	return (mx + math.Log(s) - math.Log(float64(n))) / (a - 1)
}

func TestStopMixture(t *testing.T) {
	for _, n := range []int64{1, 2, 10, 300, 5000, 200_000} {
		s := Stop{N: n, Sigma: 3, Loss: Loss{Lipschitz: 1}}
		for _, idx := range []int64{1, 2, n / 3, n - 100, n - 64, n} {
			if idx < 1 || idx > n {
				continue
			}
			c := s.Curve(idx)
			for _, a := range []float64{1.001, 1.5, 3, 10, 40, 200, 1500} {
				got := c.Epsilon(a)
				want := stopDirect(n, n-idx+1, s.rho1(), a)
				if !relClose(got, want, 1e-11) {
					t.Errorf("n = %d, t = %d, α = %g: %.16g, direct %.16g", n, idx, a, got, want)
				}
				if h := s.HarmonicCurve(idx).Epsilon(a); h < got*(1-1e-12) {
					t.Errorf("n = %d, t = %d, α = %g: harmonic %g below the exact mixture %g", n, idx, a, h, got)
				}
			}
		}
	}
}

func TestStopPaperClaimUnsound(t *testing.T) {
	// Thm 26's claimed 4αL² ln n/(nσ²) is 0 at n = 1, yet one noisy step of
	// a linear loss is a Gaussian mechanism with D_α = 2αL²/σ² exactly.
	s := Stop{N: 1, Sigma: 2, Loss: Loss{Lipschitz: 1}}
	if s.PaperClaimRho() != 0 {
		t.Fatalf("paper's claim at n = 1: %g", s.PaperClaimRho())
	}
	exact := 2 * 1.0 / 4 // ρ of the Gaussian step
	if got := s.Curve(1).Epsilon(3) / 3; !relClose(got, exact, 1e-12) {
		t.Fatalf("Stop mixture at n = 1: %g, exact %g", got, exact)
	}
	// The proof's own sum, 2·(1/n)Σ_{j ≤ n} 2αL²/(σ²j) = 4αL²H_n/(nσ²), is
	// above the claimed 4αL² ln n/(nσ²): its last step is wrong.
	s = Stop{N: 1000, Sigma: 10, Loss: Loss{Lipschitz: 1}}
	if proofSum := 2 * s.rho1() * harmonic(1000) / 1000; proofSum <= s.PaperClaimRho() {
		t.Fatalf("the proof's sum %g is not above the claim %g", proofSum, s.PaperClaimRho())
	}
	if !relClose(harmonic(1000), 7.485470860550345, 1e-14) || !relClose(harmonic(1e9), 21.30048150234794, 1e-14) {
		t.Fatalf("H_1000 = %.16g, H_1e9 = %.16g", harmonic(1000), harmonic(1e9))
	}
}

func TestStopPaperCondition(t *testing.T) {
	s := Stop{N: 100, Sigma: 2, Loss: Loss{Lipschitz: 1}}
	// σ ≥ L√(2α(α−1)) ⇔ α ≤ (1 + √(1 + 2σ²/L²))/2 = 2
	if err := s.PaperCondition(2); err != nil {
		t.Errorf("α = 2: %v", err)
	}
	if err := s.PaperCondition(2.01); err == nil || !strings.Contains(err.Error(), "α ≤ 2") {
		t.Errorf("α = 2.01: %v", err)
	}
	if h := s.HarmonicCurve(5).Epsilon(2.5); !math.IsInf(h, 1) {
		t.Errorf("harmonic bound beyond Lemma 25's range: %g", h)
	}
}

func TestCor31Sigma(t *testing.T) {
	// Cor 31's σ for m = 100 public records, ε = 1, δ = 1e−5: the sound
	// bound at the last private index is above the target.
	m, eps, delta := int64(100), 1.0, 1e-5
	sigma := 2 * math.Sqrt(math.Log(1.25/delta)/float64(m)) / eps
	g := SGD{N: 100000, Public: m, Sigma: sigma, Loss: Loss{Lipschitz: 1}}
	got, _ := Epsilon(g, g.N, delta, rdp.Improved)
	if math.Abs(got.Epsilon-1.19) > 0.01 {
		t.Fatalf("ε = %g", got.Epsilon)
	}
}

func TestTasks(t *testing.T) {
	k := Tasks{Stop: Stop{N: 500, Sigma: 5, Loss: Loss{Lipschitz: 1}}, K: 7}
	for _, a := range []float64{1.5, 4, 20} {
		if got, want := k.Curve(3).Epsilon(a), 7*k.Stop.Curve(3).Epsilon(a); !relClose(got, want, 1e-14) {
			t.Errorf("α = %g: %g, want %g", a, got, want)
		}
	}
	if err := (Tasks{Stop: k.Stop}).Check(); err == nil {
		t.Error("k = 0 accepted")
	}
}

func TestLocalAndPublic(t *testing.T) {
	g := SGD{N: 100, Public: 20, Sigma: 2, Loss: Loss{Lipschitz: 1}}
	// Cor 31: the last private record still has m + 1 = 21 steps to go.
	if got, want := g.Rho(100), 2.0/(4*21); !relClose(got, want, 1e-14) {
		t.Errorf("ρ_n = %g, want %g", got, want)
	}
	loc := Local{SGD: SGD{N: 100, Epochs: 3, Sigma: 2, Loss: Loss{Lipschitz: 1, Smoothness: 1, Eta: 5}}}
	if err := loc.Check(); err != nil {
		t.Errorf("Lemma 27 needs no contraction: %v", err)
	}
	if got := math.Exp(loc.LogRho(7)); !relClose(got, 3*2.0/4, 1e-14) {
		t.Errorf("local ρ = %g", got)
	}
}

func TestSmoothing(t *testing.T) {
	s, err := SmoothingForStep(0.1, 2, 100)
	if err != nil {
		t.Fatal(err)
	}
	// λ = ηL/2 = 0.1, β = L/λ = 20 = 2/η, error Lλ√d = 2.
	if !relClose(s.Lambda, 0.1, 1e-15) || !relClose(s.Smoothness, 20, 1e-14) || !relClose(s.Error, 2, 1e-14) {
		t.Errorf("%+v", s)
	}
	if l := (Loss{Lipschitz: 2, Smoothness: s.Smoothness, Eta: 0.1}); l.Check() != nil {
		t.Errorf("smoothed loss does not contract: %v", l.Check())
	}
	c, err := SmoothingCor34(1, 0.5, 1e-5, 10000, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.5 / (2 * math.Sqrt(10000*math.Log(1e5)))
	if !relClose(c.Lambda, want, 1e-14) || !relClose(c.Error, 2*want, 1e-14) {
		t.Errorf("%+v, λ want %g", c, want)
	}
	if _, err := SmoothingForStep(0, 1, 1); err == nil {
		t.Error("η = 0 accepted")
	}
}
