package tables

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/optimizer/clipped"
)

// docs/seeds.md#seed-004-test-vectors.
func TestClippedVectors(t *testing.T) {
	r, err := ClippedMean(2, 1, 1, 1, 1000, 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "MeanOracle σ", r.Sigma, 0.002, 1e-12)
	checkNear(t, "bias k=2", clipped.BiasBound(2, 1, 2), 0.5, 1e-12)
	checkNear(t, "bias k=4", clipped.BiasBound(4, math.Pow(3, 0.25), 2), 0.125, 1e-12)
	// The true bias for Z ~ N(0,1), τ = 2: E(|Z| − 2)₊ = 2(φ(2) − 2(1 − Φ(2))) = 0.0169814.
	phi := math.Exp(-2) / math.Sqrt(2*math.Pi)
	truth := 2 * (phi - 2*0.5*math.Erfc(2/math.Sqrt2))
	checkNear(t, "true bias", truth, 0.0169814, 1e-5)
	if !(truth <= 0.125) {
		t.Error("bound below truth")
	}
	b, err := ZCDPBudgets(1e5, 100, 1, 0.5, 10, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "one-pass σ (s = 1000)", b.OnePassSigma, 0.002, 1e-12)
	// Alg. 3 per-step σ, τ = 1, n_i = 1000, T = 100, ρ = 0.5: 0.02.
	b, _ = ZCDPBudgets(1000, 100, 1, 0.5, 10, 1e-5)
	checkNear(t, "multi-pass σ", b.MultiPassSigma, 0.02, 1e-12)
	checkNear(t, "one-pass σ² = 2τ²T²/(n²ρ)", b.OnePassSigma*b.OnePassSigma, 2*100*100/(1e6*0.5), 1e-12)
	checkNear(t, "multi-pass per-step ρ", b.MultiPassStepRho, 0.005, 1e-15)
	checkNear(t, "ε(ρ)", b.Epsilon, epsImproved(0.5, 1e-5), 1e-12)
	if !(b.NaiveSequentialSigma > b.OnePassSigma) {
		t.Error("sequential accounting of disjoint batches should cost more noise")
	}
	if _, err := ZCDPBudgets(10, 11, 1, 1, 1, 0.1); err == nil {
		t.Error("T > n accepted")
	}
}

// TestOptimalClip checks the closed-form τ* against golden-section search.
func TestOptimalClip(t *testing.T) {
	for _, c := range []struct{ k, rk, r2, s, rho, d float64 }{
		{2, 1, 1, 100, 0.5, 10}, {4, 3.78, 2, 1000, 1, 100}, {8, 7.3, 2, 50, 0.1, 1}, {3, 10, 1, 1e4, 2, 1000},
	} {
		tau := clipped.OptimalClip(c.k, c.rk, c.s, c.rho, c.d)
		f := func(lt float64) float64 { return clipped.MSEBound(c.k, c.rk, c.r2, math.Exp(lt), c.s, c.rho, c.d) }
		lt, v := numeric.MinimizeUnimodal(f, math.Log(tau)-10, math.Log(tau)+10, 200)
		checkNear(t, "τ*", tau, math.Exp(lt), 1e-4)
		r, _ := ClippedMean(c.k, c.rk, c.r2, 0, c.s, c.rho, c.d)
		if r.MSEOpt > v*(1+1e-9) {
			t.Errorf("MSE at τ* %v above the numeric minimum %v", r.MSEOpt, v)
		}
		// Closed-form minimum: (k/(k−1))·Aτ*² + r_2²/s.
		A := 2 * c.d / (c.s * c.s * c.rho)
		checkNear(t, "MSE*", r.MSEOpt, c.k/(c.k-1)*A*tau*tau+c.r2*c.r2/c.s, 1e-10)
	}
}

// TestClippedMonteCarlo runs the oracle on heavy-tailed data (Student t, 5
// degrees of freedom, shifted) and checks the empirical bias and MSE are
// below Lemma 6's bounds.
func TestClippedMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const nu = 5.0
	const mean = 0.5
	student := func() float64 {
		var c float64
		for i := 0; i < 5; i++ {
			g := rng.NormFloat64()
			c += g * g
		}
		return rng.NormFloat64() / math.Sqrt(c/nu)
	}
	// E|Z|^4 for Z = μ + T: μ⁴ + 6μ²E T² + E T⁴, E T² = ν/(ν−2), E T⁴ = 3ν²/((ν−2)(ν−4)).
	et2, et4 := nu/(nu-2), 3*nu*nu/((nu-2)*(nu-4))
	r4 := math.Pow(math.Pow(mean, 4)+6*mean*mean*et2+et4, 0.25)
	r2 := math.Sqrt(mean*mean + et2)
	s, rho := 20.0, 1.0
	trials := 20000
	if testing.Short() {
		trials = 4000
	}
	for _, tau := range []float64{0.5, 1.5, 4} {
		res, err := ClippedMean(4, r4, r2, tau, s, rho, 1)
		if err != nil {
			t.Fatal(err)
		}
		var sum, sq float64
		for i := 0; i < trials; i++ {
			var m float64
			for j := 0; j < int(s); j++ {
				z := mean + student()
				m += math.Max(-tau, math.Min(tau, z))
			}
			est := m/s + res.Sigma*rng.NormFloat64()
			sum += est - mean
			sq += (est - mean) * (est - mean)
		}
		bias, mse := math.Abs(sum/float64(trials)), sq/float64(trials)
		// Allow Monte Carlo error: 4 standard errors on the bias.
		se := math.Sqrt(mse / float64(trials))
		if bias > res.Bias+4*se || mse > res.MSE*1.05 {
			t.Errorf("τ = %v: bias %v (bound %v), MSE %v (bound %v)", tau, bias, res.Bias, mse, res.MSE)
		}
	}
}
