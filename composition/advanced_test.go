package composition

import (
	"math"
	"testing"
)

func TestAdvancedVectors(t *testing.T) {
	// docs/seeds.md#seed-001-test-vectors (Lemma 2.3, pure mechanisms).
	for _, c := range []struct {
		eps    float64
		k      int
		dPrime float64
		want   float64
	}{
		{0.1, 100, 1e-5, 5.850235},
		{0.01, 10000, 1e-6, 6.261538},
		{1, 10, 1e-5, 32.357090},
	} {
		g, err := Advanced(c.eps, 0, c.k, c.dPrime)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(float64(g.Epsilon)-c.want) > 5e-7 {
			t.Errorf("Advanced(%v, k=%d, δ'=%v) = %.7f, want %.6f", c.eps, c.k, c.dPrime, g.Epsilon, c.want)
		}
		if float64(g.Delta) != c.dPrime {
			t.Errorf("pure: total δ = %v, want δ' = %v", g.Delta, c.dPrime)
		}
	}
	// (1, 10, 1e-5) is worse than basic composition (kε = 10): Best must not pick it.
	r, _ := Best(1, 0, 10, 1e-5)
	if r.Method == MethodAdvanced || r.Epsilon > 10 {
		t.Errorf("Best(1, 0, 10, 1e-5) = %v via %s", r.Epsilon, r.Method)
	}
}

func TestAdvancedDeltaAndSmallEps(t *testing.T) {
	g, _ := Advanced(0.05, 1e-7, 200, 1e-6)
	if math.Abs(float64(g.Delta)-(200*1e-7+1e-6)) > 1e-20 {
		t.Errorf("total δ = %v, want kδ + δ'", g.Delta)
	}
	// expm1: for ε = 1e-12 the second term is kε² to full precision.
	e := 1e-12
	g, _ = Advanced(e, 0, 4, 0.5)
	want := math.Sqrt(8*math.Ln2)*e + 4*e*e
	if math.Abs(float64(g.Epsilon)-want) > 1e-15*want {
		t.Errorf("tiny ε: %v, want %v", g.Epsilon, want)
	}
}

func TestAdvancedInvalid(t *testing.T) {
	for _, c := range []struct {
		e, d   float64
		k      int
		dPrime float64
	}{
		{1, 0, 10, 0}, {1, 0, 10, 1}, {1, 0, 10, math.NaN()}, {1, 0, 0, 1e-5},
		{-0.1, 0, 10, 1e-5}, {math.Inf(1), 0, 10, 1e-5}, {1, 1, 10, 1e-5}, {1, -1, 10, 1e-5},
	} {
		if _, err := Advanced(c.e, c.d, c.k, c.dPrime); err == nil {
			t.Errorf("Advanced(%v): no error", c)
		}
	}
}
