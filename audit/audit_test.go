package audit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// upperEpsilon is shifted's certified ε of index t at δ (the improved
// conversion of package rdp), computed here without package optimizer.
func upperEpsilon(t *testing.T, tr shifted.Training, idx int64, delta float64) float64 {
	t.Helper()
	tr.Delta = delta
	g, err := tr.Guarantee()
	if err != nil {
		t.Fatal(err)
	}
	dp, err := rdp.EpsilonFor(g.Curve(idx), delta, rdp.Improved)
	if err != nil {
		t.Fatal(err)
	}
	return dp.Epsilon
}

// linearGaussian is the exactly solvable case of docs/amplification.md#exact-gaussian-cases: the
// linear loss −⟨w, x⟩ without projection, where every step is a translation.
func linearGaussian(n int, sigma float64) (optimizer.Config, optimizer.Objective, *dataset.Dataset) {
	d := 2
	data := &dataset.Dataset{D: d, X: make([]float64, n*d), Y: make([]float64, n)}
	for i := 0; i < n; i++ {
		data.X[i*d+1] = 0.5
	}
	cfg := optimizer.Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: sigma, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.1}}, R: math.Inf(1)}
	return cfg, optimizer.Objective{Loss: optimizer.LinearLoss{}}, data
}

func TestAuditLinearGaussian(t *testing.T) {
	n := 10
	sigma := 1 / math.Sqrt(10) // μ = 2/(σ√n) = 2
	cfg, obj, data := linearGaussian(n, sigma)
	trials := 40000
	if testing.Short() {
		trials = 6000
	}
	// A finite audit can only see ε where TPR ≫ δ and FPR ≫ 1/trials: at
	// μ = 2 and δ = 0.05 the exact ε is 4.57, in reach of 2·10⁴ runs.
	delta := 0.05
	c := NewCanary(obj, data, 1, 0)
	if c.Dir[0] != 1 {
		t.Fatalf("canary direction %v, want the empty axis", c.Dir)
	}
	for _, tt := range []int{1, n} {
		S, Sp := c.Neighbours(data, tt)
		res, err := Run(cfg, obj, S, Sp, c.Dir, Config{Trials: trials, Delta: delta, Confidence: 0.95, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		// exact: ρ = 2X²/(nσ²) at every index (docs/amplification.md#exact-gaussian-cases)
		rho, _ := optimizer.ExactRho(cfg, n, 0, 2, tt)
		exact := optimizer.GaussianShiftEpsilon(math.Sqrt(2*rho), delta)
		// upper bound: shifted's per-index guarantee
		upper := upperEpsilon(t, shifted.Training{Variant: shifted.VariantPNSGD, N: int64(n), Batch: 1, Epochs: 1, Tasks: 1, Sigma: sigma,
			Loss: shifted.Loss{Lipschitz: 1, Eta: cfg.Loss.Eta}}, int64(tt), delta)
		t.Logf("t=%d: audit %.3f  exact %.3f  upper %.3f  (TP %d FP %d of %d)", tt, res.Epsilon, exact, upper, res.TP, res.FP, res.EvalTrials)
		// the run's final iterate is Gaussian: the GDP estimate brackets its μ = √(2ρ)
		if mu := math.Sqrt(2 * rho); float64(res.GDP.MuLower) > mu || float64(res.GDP.MuUpper) < mu {
			t.Fatalf("t=%d: GDP μ ∈ [%v, %v] misses the exact μ %v", tt, res.GDP.MuLower, res.GDP.MuUpper, mu)
		}
		if res.Epsilon > exact || res.Epsilon > upper {
			t.Fatalf("t=%d: audit lower bound %v above exact %v / upper bound %v", tt, res.Epsilon, exact, upper)
		}
		if !testing.Short() && res.Epsilon < 0.75*exact {
			t.Fatalf("t=%d: audit %v not close to exact %v", tt, res.Epsilon, exact)
		}
	}
}

// TestAuditNeverAboveUpperBound audits logistic regression runs of several
// variants and checks the lower bound against shifted's upper bound.
func TestAuditNeverAboveUpperBound(t *testing.T) {
	g, err := dataset.NewSynthetic("logistic", 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	data, obj := g.Sample(rand.New(rand.NewPCG(1, 1)), 30), optimizer.Objective{Loss: optimizer.Logistic{}}
	data.NormalizeRows(1)
	cons := obj.Constants(1, 1, 2)
	trials := 4000
	if testing.Short() {
		trials = 1000
	}
	for _, v := range []shifted.Variant{shifted.VariantPNSGD, shifted.VariantSkip, shifted.VariantStop} {
		cfg := optimizer.Config{Training: shifted.Training{Variant: v, Sigma: 0.3, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 1 / cons.Beta}}, R: 2}
		c := NewCanary(obj, data, 1, 1)
		S, Sp := c.Neighbours(data, 30)
		res, err := Run(cfg, obj, S, Sp, c.Dir, Config{Trials: trials, Delta: 1e-5, Confidence: 0.95, Seed: 9, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		upper := upperEpsilon(t, shifted.Training{Variant: v, N: 30, Batch: 1, Epochs: 1, Tasks: 1, Sigma: cfg.Sigma,
			Loss: shifted.Loss{Lipschitz: cons.Sens, Smoothness: cons.Beta, Eta: cfg.Loss.Eta}}, 30, 1e-5)
		t.Logf("%v: audit %.3f ≤ upper %.3f", v, res.Epsilon, upper)
		if res.Epsilon > upper {
			t.Fatalf("%v: audit %v above the proven bound %v", v, res.Epsilon, upper)
		}
	}
}

func TestAuditDeterministicAcrossWorkers(t *testing.T) {
	cfg, obj, data := linearGaussian(5, 0.5)
	c := NewCanary(obj, data, 1, 0)
	S, Sp := c.Neighbours(data, 2)
	var prev Result
	for i, w := range []int{1, 2, 3} {
		res, err := Run(cfg, obj, S, Sp, c.Dir, Config{Trials: 500, Delta: 1e-3, Confidence: 0.9, Seed: 1, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && res != prev {
			t.Fatalf("workers %d: %+v differs from %+v", w, res, prev)
		}
		prev = res
	}
}

func TestClopperPearson(t *testing.T) {
	// k = 0 of n: upper bound 1 − α^{1/n}; k = n: lower bound α^{1/n}.
	n, a := 50, 0.05
	if got, want := ClopperPearsonUpper(0, n, a), 1-math.Pow(a, 1.0/float64(n)); math.Abs(got-want) > 1e-9 {
		t.Fatalf("upper(0) = %v, want %v", got, want)
	}
	if got, want := ClopperPearsonLower(n, n, a), math.Pow(a, 1.0/float64(n)); math.Abs(got-want) > 1e-9 {
		t.Fatalf("lower(n) = %v, want %v", got, want)
	}
	// coverage by simulation of the binomial tail: P(X ≥ k) at p = lower bound equals α.
	k := 17
	lo := ClopperPearsonLower(k, n, a)
	var tail float64
	for j := k; j <= n; j++ {
		lb, _ := lgammaBinom(n, j)
		tail += math.Exp(lb + float64(j)*math.Log(lo) + float64(n-j)*math.Log1p(-lo))
	}
	if math.Abs(tail-a) > 1e-6 {
		t.Fatalf("P(X ≥ %d | p = %v) = %v, want %v", k, lo, tail, a)
	}
}

func lgammaBinom(n, k int) (float64, int) {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c, 1
}
