package audit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/composition"
)

func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// gaussianCanaries simulates n canaries, each a member with probability
// 1/2, non-members scoring N(0, 1) and members N(μ, 1): the trade-off curve
// of μ-GDP exactly (Dong, Roth, Su 2022, Def. 2.6).
func gaussianCanaries(rng *rand.Rand, n int, mu float64) *Canaries {
	c := &Canaries{Kind: KindScore}
	for i := 0; i < n; i++ {
		in := rng.IntN(2) == 1
		s := rng.NormFloat64()
		if in {
			s += mu
		}
		c.add(in, s)
	}
	return c
}

// trueRates are the exact TPR and FPR of the test at (τ, greater) when
// members score N(μ, 1) and non-members N(0, 1).
func trueRates(tau float64, greater bool, mu float64) (tpr, fpr float64) {
	if greater {
		return normalCDF(mu - tau), normalCDF(-tau)
	}
	return normalCDF(tau - mu), normalCDF(tau)
}

type coverage struct{ jointThr, jointGDP, epsTau, epsExact, mu int }

// simulate runs R audits of n Gaussian canaries at confidence conf and
// counts how often each bound exceeds its true value: the threshold
// bound vs the ε implied by the true (TPR, FPR) of the threshold it chose
// (ε_τ ≤ the exact ε: the sharper check), vs the exact ε of μ-GDP, and the
// GDP estimate's μ_lower vs μ.
func simulate(t *testing.T, R, n int, mu, delta, conf float64, seed uint64) coverage {
	t.Helper()
	exact, err := composition.GaussianEpsilon(mu, delta)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var cv coverage
	for k := 0; k < R; k++ {
		c := gaussianCanaries(rng, n, mu)
		tb, gb := thresholdSplit(c.Members[0], c.NonMembers[0], c.Members[1], c.NonMembers[1], delta, conf)
		tpr, fpr := trueRates(tb.Threshold, tb.Greater, mu)
		if tb.TPRLow > tpr || tb.FPRHigh < fpr {
			cv.jointThr++
		}
		gt, gf := trueRates(gb.Threshold, gb.Greater, mu)
		if gb.FNRHigh < 1-gt || gb.FPRHigh < gf {
			cv.jointGDP++
		}
		if float64(tb.EpsilonLower) > epsFromRates(tpr, fpr, delta) {
			cv.epsTau++
		}
		if float64(tb.EpsilonLower) > exact {
			cv.epsExact++
		}
		if float64(gb.MuLower) > mu {
			cv.mu++
		}
	}
	return cv
}

// TestThresholdAndGDPCoverage: R = 1000 simulated audits of n = 1000
// Gaussian canaries (μ = 1, δ = 10⁻⁵), each split into halves by Half.
//
// What the confidence controls is the joint event of the two one-sided
// Clopper–Pearson intervals at the threshold chosen on the selection half
// (TPR ≥ TPR_lo and FPR ≤ FPR_hi for the threshold attack, FNR ≤ FNR_hi and
// FPR ≤ FPR_hi for the GDP estimate), evaluated at the chosen threshold's
// exact rates. The ε bound can exceed the ε of the threshold's true
// operating point (ε_τ ≤ the exact ε of μ-GDP), and μ_lower can exceed μ,
// only when that event fails, so their rates are smaller still.
//
// At 95% every count may be at most 75 of 1000: with a true rate of 5% the
// false-alarm probability is P[Binomial(1000, 0.05) > 75] = 2.6·10⁻⁴. The
// same simulation at a wrong level of 50% (each interval at 25%) must break
// the allowance for the joint events (it fails 25–30% of audits, so it does
// with probability ≈ 1): the test checks that it does.
func TestThresholdAndGDPCoverage(t *testing.T) {
	const R, n, allowed = 1000, 1000, 75
	const mu, delta = 1.0, 1e-5
	cv := simulate(t, R, n, mu, delta, 0.95, 1)
	t.Logf("95%%: %+v of %d", cv, R)
	if cv.jointThr > allowed || cv.jointGDP > allowed || cv.epsTau > allowed || cv.epsExact > allowed || cv.mu > allowed {
		t.Fatalf("95%% coverage fails: %+v of %d (allowed %d)", cv, R, allowed)
	}
	bad := simulate(t, R, n, mu, delta, 0.5, 2)
	t.Logf("50%%: %+v of %d", bad, R)
	if bad.jointThr <= allowed || bad.jointGDP <= allowed {
		t.Fatalf("a 50%% level passes the coverage test (%+v): the test cannot tell", bad)
	}
}

// TestThresholdNeverChosenOnEvaluation: the chosen threshold depends on the
// selection half only — replacing every evaluation-half score leaves it
// unchanged. And with no leakage (μ = 0, R = 1000 audits of 1000 canaries
// at 95%) the joint Clopper–Pearson event at the chosen threshold fails, and
// a positive bound (a false alarm) appears, in at most 75 audits (false
// alarm of the test P[Binomial(1000, 0.05) > 75] = 2.6·10⁻⁴), whereas
// choosing the threshold on the evaluated canaries makes the joint event
// fail in 10–16% of audits (≥ 100 expected; P[≤ 75] < 10⁻³): the test
// checks that it does.
func TestThresholdNeverChosenOnEvaluation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	c := gaussianCanaries(rng, 4000, 1.5)
	tb1, gb1 := thresholdSplit(c.Members[0], c.NonMembers[0], c.Members[1], c.NonMembers[1], 1e-5, 0.95)
	for i := range c.Members[1] {
		c.Members[1][i] = rng.NormFloat64() * 5
	}
	for i := range c.NonMembers[1] {
		c.NonMembers[1][i] = rng.NormFloat64()*5 + 3
	}
	tb2, gb2 := thresholdSplit(c.Members[0], c.NonMembers[0], c.Members[1], c.NonMembers[1], 1e-5, 0.95)
	if tb1.Threshold != tb2.Threshold || tb1.Greater != tb2.Greater || gb1.Threshold != gb2.Threshold {
		t.Fatalf("threshold moved with the evaluation half: %v/%v → %v/%v", tb1.Threshold, gb1.Threshold, tb2.Threshold, gb2.Threshold)
	}
	const R, allowed = 1000, 75
	pos, fail, cheat := 0, 0, 0
	for k := 0; k < R; k++ {
		c := gaussianCanaries(rng, 1000, 0)
		tb, _ := thresholdSplit(c.Members[0], c.NonMembers[0], c.Members[1], c.NonMembers[1], 0, 0.95)
		if tb.EpsilonLower > 0 {
			pos++
		}
		if tpr, fpr := trueRates(tb.Threshold, tb.Greater, 0); tb.TPRLow > tpr || tb.FPRHigh < fpr {
			fail++
		}
		// the mistake the split prevents: choose and evaluate on the same canaries
		tc, _ := thresholdSplit(c.Members[1], c.NonMembers[1], c.Members[1], c.NonMembers[1], 0, 0.95)
		if tpr, fpr := trueRates(tc.Threshold, tc.Greater, 0); tc.TPRLow > tpr || tc.FPRHigh < fpr {
			cheat++
		}
	}
	t.Logf("μ = 0: positive bound %d, joint event failed %d of %d audits (choosing on the evaluated canaries: failed %d)", pos, fail, R, cheat)
	if pos > allowed || fail > allowed {
		t.Fatalf("μ = 0: positive bound in %d, joint failure in %d of %d audits (allowed %d)", pos, fail, R, allowed)
	}
	if cheat <= allowed {
		t.Fatalf("choosing on the evaluated canaries passes too (%d): the test cannot tell", cheat)
	}
}

// TestConvergence measures how close the bounds get to the exact ε of
// μ-GDP (μ = 1, δ = 10⁻⁵: ε = 4.4) as canaries grow, and checks that none
// exceeds it. 10⁶ canaries only without -short.
func TestConvergence(t *testing.T) {
	const mu, delta = 1.0, 1e-5
	exact, _ := composition.GaussianEpsilon(mu, delta)
	sizes := []int{10_000, 100_000, 1_000_000}
	if testing.Short() {
		sizes = sizes[:2]
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range sizes {
		c := gaussianCanaries(rng, n, mu)
		ev, err := Evaluate(c, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		g := ev.GDP
		t.Logf("n = %d: threshold ε ≥ %.3f; GDP μ ∈ [%.3f, %.3f] (μ = %g), ε_GDP ≥ %.3f; exact ε = %.3f",
			n, float64(ev.Threshold.EpsilonLower), float64(g.MuLower), float64(g.MuUpper), mu, float64(g.EpsilonLower), exact)
		if float64(ev.EpsilonLower) > exact || float64(g.EpsilonLower) > exact || float64(g.MuLower) > mu {
			t.Fatalf("n = %d: a bound above the exact value", n)
		}
		if float64(g.MuUpper) < mu {
			t.Errorf("n = %d: μ_upper %v below μ", n, float64(g.MuUpper))
		}
		if n >= 100_000 && float64(g.MuLower) < 0.9*mu {
			t.Errorf("n = %d: μ_lower %v not within 10%% of μ", n, float64(g.MuLower))
		}
	}
}
