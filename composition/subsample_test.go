package composition

import (
	"fmt"
	"math"
	"testing"
)

func TestPoissonSubsample(t *testing.T) {
	for _, c := range []struct{ eps, delta, q float64 }{
		{1, 1e-5, 0.01}, {0.1, 0, 0.5}, {2, 1e-6, 1}, {5, 0, 1e-4}, {0.9, 0, 0.3},
	} {
		g, err := PoissonSubsample(gd(c.eps, c.delta), c.q)
		if err != nil {
			t.Fatal(err)
		}
		want := math.Log(1 + c.q*(math.Exp(c.eps)-1))
		if !relClose(float64(g.Epsilon), want, 1e-13) || float64(g.Delta) != c.q*c.delta {
			t.Errorf("%+v: %+v, want (%v, %v)", c, g, want, c.q*c.delta)
		}
		if float64(g.Epsilon) > c.eps*(1+1e-15) {
			t.Errorf("%+v: amplified ε %v > ε", c, g.Epsilon)
		}
	}
	// Small ε: ≈ qε to full precision (log1p/expm1).
	g, _ := PoissonSubsample(gd(1e-12, 0), 0.5)
	if !relClose(float64(g.Epsilon), 5e-13, 1e-9) {
		t.Errorf("ε = 1e-12, q = 0.5: %v", g.Epsilon)
	}
	// Large ε: ε + ln q, no overflow.
	g, _ = PoissonSubsample(gd(1000, 0), 0.5)
	if !relClose(float64(g.Epsilon), 1000+math.Log(0.5), 1e-15) {
		t.Errorf("ε = 1000, q = 0.5: %v", g.Epsilon)
	}
	if g, _ := PoissonSubsample(gd(math.Inf(1), 0), 0.5); !math.IsInf(float64(g.Epsilon), 1) {
		t.Errorf("ε = Inf: %v", g.Epsilon)
	}
	// Monotone in q and ε, across the switch at ε = 1.
	prev := 0.0
	for i := 1; i <= 400; i++ {
		e := float64(i) / 100
		g, _ := PoissonSubsample(gd(e, 0), 0.1)
		if float64(g.Epsilon) < prev {
			t.Errorf("not monotone in ε at %v", e)
		}
		prev = float64(g.Epsilon)
	}
	for _, bad := range []float64{0, -0.1, 1.1, math.NaN()} {
		if _, err := PoissonSubsample(gd(1, 0), bad); err == nil {
			t.Errorf("q = %v accepted", bad)
		}
	}
	if _, err := PoissonSubsample(gd(1, 1), 0.5); err == nil {
		t.Error("δ = 1 accepted")
	}
}

func TestSubsetSample(t *testing.T) {
	// docs/seeds.md#seed-001-test-vectors: ε' = 0.5, γ = 0.01 → 0.01.
	if e, err := SubsetSample(0.5, 0.01); err != nil || !relClose(e, 0.01, 1e-15) {
		t.Errorf("SubsetSample(0.5, 0.01) = %v, %v", e, err)
	}
	if e, err := SubsetSample(1, 0.1); err != nil || e != 0.2 {
		t.Errorf("ε' = 1 is in range: %v, %v", e, err)
	}
	for _, c := range [][2]float64{{1.0001, 0.1}, {2, 0.1}, {-0.1, 0.1}, {math.NaN(), 0.1}, {0.5, 0}, {0.5, 1.5}} {
		if _, err := SubsetSample(c[0], c[1]); err == nil {
			t.Errorf("SubsetSample(%v) accepted", c)
		}
	}
}

func ExamplePoissonSubsample() {
	g, _ := PoissonSubsample(gd(1, 1e-5), 0.01)
	fmt.Printf("(%.6f, %.0e)\n", g.Epsilon, g.Delta)
	// Output: (0.017037, 1e-07)
}

func ExampleSubsetSample() {
	e, _ := SubsetSample(0.5, 0.01)
	_, err := SubsetSample(2, 0.01)
	fmt.Println(e)
	fmt.Println(err)
	// Output:
	// 0.01
	// seed 001 Lemma 2.2 (Beimel et al.) holds only for epsilon' in [0, 1], got 2
}
