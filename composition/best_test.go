package composition

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

func TestBest(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		k          int
		target     float64
	}{
		{0.1, 0, 100, 1e-5}, {1, 0, 10, 1e-5}, {0.01, 1e-9, 10000, 1e-4}, {0.5, 1e-6, 20, 1e-4},
		{2, 0, 5, 1e-6}, {0, 0, 10, 1e-6}, {0.05, 0, 1, 1e-6},
	} {
		r, err := Best(c.eps, c.delta, c.k, c.target)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if len(r.Methods) != 4 {
			t.Fatalf("%+v: %d methods", c, len(r.Methods))
		}
		chosen := 0
		for _, m := range r.Methods {
			if m.Chosen {
				chosen++
				if m.Name != r.Method || m.Epsilon != r.Epsilon || m.Delta != r.Delta {
					t.Errorf("%+v: chosen %+v vs result %+v", c, m, r)
				}
			}
			if !m.Valid {
				if !math.IsNaN(float64(m.Epsilon)) || m.Reason == "" || m.Chosen {
					t.Errorf("%+v: invalid method reported a number: %+v", c, m)
				}
				continue
			}
			if m.Epsilon < r.Epsilon {
				t.Errorf("%+v: %s gives %v < chosen %v", c, m.Name, m.Epsilon, r.Epsilon)
			}
			if float64(m.Delta) > c.target*(1+1e-15) {
				t.Errorf("%+v: %s has δ %v above the target", c, m.Name, m.Delta)
			}
			if m.Source == "" {
				t.Errorf("%s has no source", m.Name)
			}
		}
		if chosen != 1 {
			t.Errorf("%+v: %d chosen", c, chosen)
		}
	}
	// The pure case is labelled as the zCDP route, the approximate one with δ''.
	r, _ := Best(0.1, 0, 100, 1e-5)
	if !strings.Contains(r.Methods[2].Source, "zCDP") {
		t.Errorf("pure filter source: %s", r.Methods[2].Source)
	}
	if r.Method != MethodOptimal {
		t.Errorf("pure, k=100: chose %s", r.Method)
	}
}

func TestBestValidity(t *testing.T) {
	// kδ = 1e-4 > target 1e-5: basic, advanced and filter do not apply;
	// optimal does (1 − (1−δ)^k ≈ 1e-4 > 1e-5 too): no method.
	if _, err := Best(0.1, 1e-5, 10, 1e-4*1.0001); err != nil {
		t.Errorf("kδ barely above: %v", err)
	}
	r, err := Best(0.1, 1e-5, 10, 5e-5)
	if !errors.Is(err, ErrNoMethod) {
		t.Errorf("target below 1 − (1−δ)^k: err %v, %+v", err, r)
	}
	for _, m := range r.Methods {
		if m.Valid {
			t.Errorf("%s valid with target below kδ", m.Name)
		}
	}
	// target exactly kδ: basic valid; advanced/filter need δ' > 0.
	r, _ = Best(0.1, 0.125, 4, 0.5)
	valid := map[string]bool{}
	for _, m := range r.Methods {
		valid[m.Name] = m.Valid
	}
	if !valid[MethodBasic] || valid[MethodAdvanced] || valid[MethodFilter] || !valid[MethodOptimal] {
		t.Errorf("target = kδ: validity %v", valid)
	}
	for _, c := range []struct {
		e, d, t float64
		k       int
	}{{-1, 0, 1e-5, 1}, {1, 1, 1e-5, 1}, {1, 0, 0, 1}, {1, 0, 1, 1}, {1, 0, 1e-5, 0}, {math.Inf(1), 0, 1e-5, 1}} {
		if _, err := Best(c.e, c.d, c.k, c.t); err == nil || errors.Is(err, ErrNoMethod) {
			t.Errorf("Best(%+v): err %v", c, err)
		}
	}
}

func TestBestList(t *testing.T) {
	gs := []dp.Guarantee{gd(0.1, 0), gd(0.2, 1e-7), gd(0.05, 0), gd(0.3, 1e-7)}
	r, err := BestList(gs, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Methods) != 3 || r.Methods[0].Name != MethodBasic || r.Methods[1].Name != MethodPLD || r.Methods[2].Name != MethodFilter {
		t.Fatalf("methods %+v", r.Methods)
	}
	if r.Methods[0].Epsilon != 0.65 || math.Abs(float64(r.Methods[0].Delta)-2e-7) > 1e-22 {
		t.Errorf("basic %+v", r.Methods[0])
	}
	s := 0.01 + 0.04 + 0.0025 + 0.09
	want := math.Sqrt(2*math.Log(1/(1e-5-2e-7))*s) + s/2
	if !relClose(float64(r.Methods[2].Epsilon), want, 1e-14) {
		t.Errorf("filter %v, want %v", r.Methods[2].Epsilon, want)
	}
	// Many small guarantees: the filter bound beats basic, and the PLD beats both.
	var many []dp.Guarantee
	for i := 0; i < 1000; i++ {
		many = append(many, gd(0.01+0.01*float64(i%3), 0))
	}
	r, _ = BestList(many, 1e-6)
	if r.Method != MethodPLD || !(r.Methods[0].Epsilon > r.Methods[2].Epsilon && r.Methods[2].Epsilon > r.Methods[1].Epsilon) {
		t.Errorf("1000 small guarantees: chose %s (%v), methods %+v", r.Method, r.Epsilon, r.Methods)
	}
	// A homogeneous list is the same as Best.
	same := []dp.Guarantee{gd(0.1, 0), gd(0.1, 0), gd(0.1, 0)}
	a, _ := BestList(same, 1e-5)
	b, _ := Best(0.1, 0, 3, 1e-5)
	if a.Epsilon != b.Epsilon || a.Method != b.Method {
		t.Errorf("homogeneous list %+v vs Best %+v", a, b)
	}
	if _, err := BestList([]dp.Guarantee{gd(math.Inf(1), 0)}, 1e-5); err == nil {
		t.Error("infinite ε accepted")
	}
	if _, err := BestList(gs, 0); err == nil {
		t.Error("target 0 accepted")
	}
}

func ExampleBest() {
	r, _ := Best(0.1, 0, 100, 1e-5)
	for _, m := range r.Methods {
		fmt.Printf("%-8s %.4f %v\n", m.Name, m.Epsilon, m.Chosen)
	}
	// Output:
	// basic    10.0000 false
	// advanced 5.8502 false
	// filter   5.2985 false
	// optimal  4.3068 true
}

func ExampleAdvanced() {
	g, _ := Advanced(0.1, 0, 100, 1e-5)
	fmt.Printf("(%.6f, %g)\n", g.Epsilon, g.Delta)
	// Output: (5.850235, 1e-05)
}

func ExampleBestList() {
	gs := []dp.Guarantee{{Epsilon: 0.1}, {Epsilon: 0.2, Delta: 1e-7}, {Epsilon: 0.05}}
	r, _ := BestList(gs, 1e-5)
	fmt.Printf("%s: ε = %.4f, δ = %g\n", r.Method, r.Epsilon, r.Delta)
	// Output: pld: ε = 0.3499, δ = 1e-05
}
