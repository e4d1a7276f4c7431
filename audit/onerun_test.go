package audit

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestOneRunPaperValues reproduces the worked examples of Steinke, Nasr,
// Jagielski (2023), arXiv:2305.08846v1: Appendix D (m = 1000 canaries,
// r = 100 guesses, v = 75 right, δ = 10⁻⁴, 95%: ε ≥ 0.673) and Section 7
// (m = 10⁵, r = 1510, v = 1439, δ = 10⁻⁵, 95%: ε ≥ 2.675, printed
// truncated from 2.6758…).
func TestOneRunPaperValues(t *testing.T) {
	for _, c := range []struct {
		m, r, v     int
		delta, want float64
		tol         float64
	}{
		{1000, 100, 75, 1e-4, 0.673, 5e-4},
		{100000, 1510, 1439, 1e-5, 2.6755, 1e-3},
	} {
		b, err := OneRun(c.m, c.r, c.v, c.delta, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("m=%d r=%d v=%d δ=%g: ε ≥ %.5f (p %.4g)", c.m, c.r, c.v, c.delta, float64(b.EpsilonLower), b.PValue)
		if math.Abs(float64(b.EpsilonLower)-c.want) > c.tol {
			t.Errorf("m=%d r=%d v=%d: ε_lower %v, paper %v", c.m, c.r, c.v, float64(b.EpsilonLower), c.want)
		}
		if b.PValue > 0.05 {
			t.Errorf("p-value %v above 0.05 at the returned ε", b.PValue)
		}
	}
}

// bigPValue is the theorem's p-value in 200-bit arithmetic, term by term.
func bigPValue(m, r, v int, eps, delta float64) float64 {
	const prec = 200
	q := new(big.Float).SetPrec(prec).SetFloat64(1 / (1 + math.Exp(-eps)))
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	q1 := new(big.Float).SetPrec(prec).Sub(one, q)
	pmf := make([]*big.Float, r+1)
	for k := 0; k <= r; k++ {
		c := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Binomial(int64(r), int64(k)))
		for i := 0; i < k; i++ {
			c.Mul(c, q)
		}
		for i := 0; i < r-k; i++ {
			c.Mul(c, q1)
		}
		pmf[k] = c
	}
	beta := new(big.Float).SetPrec(prec)
	for k := v; k <= r; k++ {
		beta.Add(beta, pmf[k])
	}
	alpha := new(big.Float).SetPrec(prec)
	s := new(big.Float).SetPrec(prec)
	for i := 1; i <= v; i++ {
		s.Add(s, pmf[v-i])
		a := new(big.Float).SetPrec(prec).Quo(s, new(big.Float).SetInt64(int64(i)))
		if a.Cmp(alpha) > 0 {
			alpha = a
		}
	}
	f, _ := beta.Float64()
	a, _ := alpha.Float64()
	return math.Min(1, f+2*float64(m)*delta*a)
}

func TestOneRunPValueExact(t *testing.T) {
	for _, c := range []struct {
		m, r, v    int
		eps, delta float64
	}{
		{1000, 100, 75, 0.5, 1e-4}, {1000, 100, 75, 0.7, 0}, {1000, 300, 290, 2, 1e-5},
		{500, 400, 210, 0.1, 1e-3}, {2000, 600, 598, 4, 1e-6}, {50, 50, 1, 0, 0.01}, {800, 800, 800, 3, 1e-5},
	} {
		got := OneRunPValue(c.m, c.r, c.v, c.eps, c.delta)
		want := bigPValue(c.m, c.r, c.v, c.eps, c.delta)
		if !(got >= want*(1-1e-9)) || got > want*(1+1e-7)+1e-300 {
			t.Errorf("%+v: p %v, exact %v", c, got, want)
		}
	}
}

// TestOneRunCoverage simulates the ε₀-DP randomized-response canary game:
// m = 400 canaries, each a member with probability 1/2, every one guessed,
// the guess right with probability e^ε₀/(1 + e^ε₀) (ε₀ = 1; the worst case
// of ε₀-DP for each guess, so V ~ Binomial(m, q₀)). At 95% and δ = 0 the
// bound exceeds ε₀ exactly when V ≥ 308, probability 4.3%. R = 1000 audits:
// the test allows 75 exceedances, a false alarm of
// P[Binomial(1000, 0.05) > 75] = 2.6·10⁻⁴. At a wrong level of 50% the
// exceedance rate is 45.5% and the test fails with probability ≈ 1 (P[≤ 75]
// < 10⁻⁴⁰); the test checks that too.
func TestOneRunCoverage(t *testing.T) {
	const m, R, allowed = 400, 1000, 75
	eps0 := 1.0
	q0 := 1 / (1 + math.Exp(-eps0))
	rng := rand.New(rand.NewPCG(11, 12))
	count := func(conf float64) int {
		n := 0
		for k := 0; k < R; k++ {
			v := 0
			for i := 0; i < m; i++ {
				if rng.Float64() < q0 {
					v++
				}
			}
			b, err := OneRun(m, m, v, 0, conf)
			if err != nil {
				t.Fatal(err)
			}
			if float64(b.EpsilonLower) > eps0 {
				n++
			}
		}
		return n
	}
	if n := count(0.95); n > allowed {
		t.Fatalf("95%%: bound above ε₀ in %d of %d audits (allowed %d)", n, R, allowed)
	} else {
		t.Logf("95%%: %d of %d above ε₀", n, R)
	}
	if n := count(0.5); n <= allowed {
		t.Fatalf("50%%: only %d of %d above ε₀: the test cannot tell a wrong level", n, R)
	} else {
		t.Logf("50%%: %d of %d above ε₀ (the test would fail)", n, R)
	}
	// with δ > 0 the bound only gets smaller
	b0, _ := OneRun(m, m, 250, 0, 0.95)
	b1, _ := OneRun(m, m, 250, 1e-5, 0.95)
	if b1.EpsilonLower > b0.EpsilonLower {
		t.Errorf("δ = 1e-5 gives %v > δ = 0's %v", b1.EpsilonLower, b0.EpsilonLower)
	}
}

func TestOneRunEdgeCases(t *testing.T) {
	b, err := OneRun(10, 0, 0, 1e-5, 0.95)
	if err != nil || b.EpsilonLower != 0 || b.Reason == "" {
		t.Fatalf("no guesses: %+v %v", b, err)
	}
	b, err = OneRun(10, 10, 10, 0, 0.95) // 10 of 10 right: P = q^10 ≤ 0.05 ⇔ q ≥ 0.05^{1/10}
	want := math.Log(math.Pow(0.05, 0.1) / (1 - math.Pow(0.05, 0.1)))
	if err != nil || math.Abs(float64(b.EpsilonLower)-want) > 1e-6 || float64(b.EpsilonLower) > want {
		t.Fatalf("10 of 10: %v, want %v (from below)", b.EpsilonLower, want)
	}
	for _, c := range [][3]int{{0, 0, 0}, {5, 6, 1}, {5, 3, 4}, {5, 3, -1}} {
		if _, err := OneRun(c[0], c[1], c[2], 0, 0.95); err == nil {
			t.Errorf("%v: no error", c)
		}
	}
	if _, err := OneRun(5, 3, 1, 1, 0.95); err == nil {
		t.Error("δ = 1: no error")
	}
}
