package composition

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// docs/seeds.md#seed-003-test-vectors: ε0_exact = √2(√(L+ε) − √L)/√k, ε0_paper = ε/(2√(2kL)),
// and ε_total at ε0_paper.
func TestFilterVectors(t *testing.T) {
	for _, c := range []struct {
		eps                 float64
		k                   int
		delta               float64
		exact, paper, total float64
	}{
		{1, 100, 1e-5, 0.0204059, 0.0104199, 0.505429},
		{1, 2000, 1e-6, 0.00417958, 0.00212695, 0.504524},
		{0.5, 10000, 1e-5, 0.00103091, 0.000520993, 0.251357},
		{8, 50, 1e-3, 0.246559, 0.152192, 4.57906},
	} {
		ex, err := FilterMaxStep(c.eps, c.k, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		pa, err := Cor36Step(c.eps, c.k, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		tot, _ := FilterEpsilon(pa, c.k, c.delta)
		for _, v := range []struct {
			name      string
			got, want float64
		}{{"ε0_exact", ex, c.exact}, {"ε0_paper", pa, c.paper}, {"ε_total(ε0_paper)", tot, c.total}} {
			if !relClose(v.got, v.want, 1e-4) {
				t.Errorf("%+v: %s = %.7g, want %.6g", c, v.name, v.got, v.want)
			}
		}
		// The exact inverse is exact: FilterEpsilon(ε0_max) = ε, never above.
		back, _ := FilterEpsilon(ex, c.k, c.delta)
		if back > c.eps || !relClose(back, c.eps, 1e-13) {
			t.Errorf("%+v: FilterEpsilon(FilterMaxStep) = %.17g", c, back)
		}
		// Cor. 3.6 is conservative: between 1× (at ε = 8 ln(1/δ)) and 2×
		// (ε ≪ ln(1/δ)); the composed ε at its step is about ε/2.
		ratio := ex / pa
		L := -math.Log(c.delta)
		if ratio < 1 || ratio > 2 {
			t.Errorf("%+v: exact/Cor3.6 = %v, want in [1, 2]", c, ratio)
		}
		if c.eps <= L/10 && (ratio < 1.95 || tot > 0.51*c.eps) {
			t.Errorf("%+v: Cor 3.6 not ≈2× conservative: ratio %v, ε_total %v", c, ratio, tot)
		}
	}
}

func TestCor36Range(t *testing.T) {
	L := -math.Log(1e-5)
	if _, err := Cor36Step(8*L, 10, 1e-5); err != nil {
		t.Errorf("ε = 8 ln(1/δ) is inside the range: %v", err)
	}
	if _, err := Cor36Step(8*L*1.0001, 10, 1e-5); err == nil {
		t.Error("ε > 8 ln(1/δ) accepted")
	}
	for _, e := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := Cor36Step(e, 10, 1e-5); err == nil {
			t.Errorf("ε = %v accepted", e)
		}
	}
}

// The filter's zCDP equivalence: at δ the closed form equals
// ρ + 2√(ρ ln(1/δ)) with ρ = kε0²/2 (Bun–Steinke 2016, Prop. 1.3).
func TestFilterEqualsZCDP(t *testing.T) {
	for _, c := range []struct {
		e0    float64
		k     int
		delta float64
	}{{0.1, 100, 1e-5}, {0.01, 1e5, 1e-8}, {1, 3, 0.1}} {
		got, _ := FilterEpsilon(c.e0, c.k, c.delta)
		rho := float64(c.k) * c.e0 * c.e0 / 2
		want := rho + 2*math.Sqrt(rho*math.Log(1/c.delta))
		if !relClose(got, want, 1e-14) {
			t.Errorf("%+v: %v, zCDP %v", c, got, want)
		}
	}
}

func TestFilterStopsLikeClosedForm(t *testing.T) {
	const eps, dp, dpp, e0 = 1.0, 1e-6, 1e-7, 0.01
	f, err := NewFilter(eps, dp, dpp)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		ok, err := f.Add(e0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		n++
	}
	// The largest k with ε0√(2k ln(1/δ')) + kε0²/2 ≤ ε.
	kmax := 0
	for filterClosed(e0, float64(kmax+1), dp) <= eps {
		kmax++
	}
	if n != kmax || f.Count() != kmax || !f.Halted() {
		t.Errorf("filter allowed %d (Count %d), closed form %d", n, f.Count(), kmax)
	}
	if f.Spent() > eps {
		t.Errorf("spent %v > target", f.Spent())
	}
	// Halted for good, even for a free mechanism.
	if ok, _ := f.Add(0, 0); ok || f.Allows(0, 0) {
		t.Error("halted filter allowed a mechanism")
	}
}

func TestFilterDeltaBudget(t *testing.T) {
	f, _ := NewFilter(10, 1e-6, 1.05e-5)
	n := 0
	for {
		ok, _ := f.Add(1e-3, 1e-6)
		if !ok {
			break
		}
		n++
	}
	if n != 10 {
		t.Errorf("δ'' = 1.05e-5 with δ_m = 1e-6 allowed %d, want 10", n)
	}
	if math.Abs(f.SumDelta()-1e-5) > 1e-20 || math.Abs(f.SumSquares()-1e-5) > 1e-20 {
		t.Errorf("sums %v %v", f.SumDelta(), f.SumSquares())
	}
	if g := f.Target(); g.Epsilon != 10 || g.Delta != 1e-6+1.05e-5 {
		t.Errorf("target %+v", g)
	}
}

// An adaptive analyst that picks each ε_m from the past: whatever it does,
// the recorded mechanisms never exceed the budget, and Allows never changes
// the state.
func TestFilterAdaptive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		f, _ := NewFilter(0.1+rng.Float64()*5, math.Pow(10, -1-8*rng.Float64()), 1e-4)
		for step := 0; step < 10000 && !f.Halted(); step++ {
			e := rng.ExpFloat64() * 0.05 * (1 + f.Spent())
			d := rng.Float64() * 1e-6
			before := f.Count()
			allowed := f.Allows(e, d)
			if f.Count() != before {
				t.Fatal("Allows changed the state")
			}
			ok, err := f.Add(e, d)
			if err != nil || ok != allowed {
				t.Fatalf("Add = %v, %v; Allows said %v", ok, err, allowed)
			}
			if f.Spent() > f.eps || f.SumDelta() > f.deltaDoublePrime {
				t.Fatalf("budget exceeded: spent %v of %v, Σδ %v", f.Spent(), f.eps, f.SumDelta())
			}
		}
	}
}

func TestFilterInvalid(t *testing.T) {
	for _, c := range [][3]float64{{0, 1e-5, 1e-5}, {-1, 1e-5, 1e-5}, {math.Inf(1), 1e-5, 1e-5},
		{1, 0, 1e-5}, {1, 1e-5, 0}, {1, 0.6, 0.5}, {1, math.NaN(), 1e-5}} {
		if _, err := NewFilter(c[0], c[1], c[2]); err == nil {
			t.Errorf("NewFilter(%v): no error", c)
		}
	}
	f, _ := NewFilter(1, 1e-5, 1e-5)
	for _, c := range [][2]float64{{-1, 0}, {math.NaN(), 0}, {math.Inf(1), 0}, {0.1, 1}, {0.1, -1}} {
		if _, err := f.Add(c[0], c[1]); err == nil {
			t.Errorf("Add(%v): no error", c)
		}
		if f.Halted() || f.Count() != 0 {
			t.Errorf("invalid Add(%v) changed the filter", c)
		}
	}
	if _, err := FilterEpsilon(0.1, 0, 1e-5); err == nil {
		t.Error("k = 0 accepted")
	}
	if _, err := FilterMaxStep(1, 10, 0); err == nil {
		t.Error("δ = 0 accepted")
	}
}

func ExampleFilter() {
	// Target (1, 1e-5 + 1e-6): δ' = 1e-5 for the ε budget, δ'' = 1e-6 for Σδ_m.
	f, _ := NewFilter(1, 1e-5, 1e-6)
	n := 0
	for {
		if ok, _ := f.Add(0.02, 0); !ok {
			break
		}
		n++
	}
	fmt.Printf("%d mechanisms of 0.02-DP ran; bound %.4f\n", n, f.Spent())
	// Output: 104 mechanisms of 0.02-DP ran; bound 0.9995
}

func ExampleFilterMaxStep() {
	e0, _ := FilterMaxStep(1, 100, 1e-5)
	cor, _ := Cor36Step(1, 100, 1e-5)
	fmt.Printf("exact %.6f, Cor. 3.6 %.6f\n", e0, cor)
	// Output: exact 0.020406, Cor. 3.6 0.010420
}
