package tables

import (
	"fmt"
	"math"
	"testing"

	"github.com/privamp/privamp/internal/field"
)

func ptrf(x float64) *float64 { return &x }

func TestCalculators(t *testing.T) {
	cs := Calculators()
	if len(cs) != 9 {
		t.Fatalf("%d calculators", len(cs))
	}
	// With nothing given, every calculator refuses with a field error.
	for _, c := range cs {
		_, err := c.New().Answer()
		if fe, ok := field.As(err); !ok || fe.Field == "" {
			t.Errorf("%s with no input: %v", c.Name, err)
		}
	}
	// Langevin, Lemma 2.2 written out: ρ = β²Δ²t/4.
	a, err := (&LangevinQuery{Beta: ptrf(100), Sensitivity: ptrf(0.01), Horizon: ptrf(1), Delta: ptrf(1e-5)}).Answer()
	if err != nil {
		t.Fatal(err)
	}
	if rho := float64(*a.Result.(*LangevinAnswer).Rho); math.Abs(rho-0.25) > 1e-15 {
		t.Errorf("ρ = %v, want 0.25", rho)
	}
	// Steps and eta give t = Tη; Lipschitz and n give Δ = 2L/n.
	a, _ = (&LangevinQuery{Beta: ptrf(10), Lipschitz: ptrf(1), N: ptrf(100), Adjacency: "replace-one", Steps: ptrf(10), Eta: ptrf(0.1), Delta: ptrf(1e-5)}).Answer()
	if r := a.Result.(*LangevinAnswer); r.Sensitivity != 0.02 || math.Abs(float64(r.Horizon)-1) > 1e-15 {
		t.Errorf("Δ = %v, t = %v", r.Sensitivity, r.Horizon)
	}
	for _, b := range []struct {
		q     Query
		field string
	}{
		{&LangevinQuery{Sensitivity: ptrf(1), Horizon: ptrf(1), Delta: ptrf(0.1)}, "beta"},
		{&LangevinQuery{Beta: ptrf(1), Sensitivity: ptrf(1), Steps: ptrf(10), Delta: ptrf(0.1)}, "eta"},
		{&LangevinQuery{TargetEpsilon: ptrf(-1), Sensitivity: ptrf(1), Horizon: ptrf(1), Delta: ptrf(0.1)}, "target_epsilon"},
		{&StrongCompositionQuery{StepEpsilon: ptrf(1), TargetEpsilon: ptrf(1), Steps: ptrf(10), Delta: ptrf(0.1)}, "step_epsilon"},
		{&FullyAdaptiveQuery{TargetEpsilon: ptrf(60), Steps: ptrf(10), Delta: ptrf(1e-3)}, "target_epsilon"},
		{&ClippedMeanQuery{MomentOrder: ptrf(2), MomentBound: ptrf(1), Batch: ptrf(10), Rho: ptrf(1), Tau: ptrf(0)}, "tau"},
		{&BST14Query{N: ptrf(1e8), Epsilon: ptrf(1), Delta: ptrf(1e-9)}, "n"},
	} {
		_, err := b.q.Answer()
		if fe, ok := field.As(err); !ok || fe.Field != b.field {
			t.Errorf("%+v: %v, want a field error on %s", b.q, err, b.field)
		}
	}
}

// The defaults a table reports are the ones it uses: Params names its
// defaults as its fields (strong_convexity), and so do the tables' Uses.
func TestRelevantDefaultsNames(t *testing.T) {
	ev, err := tableBST14().EvaluateGiven(Params{N: 1e4, D: 10, Epsilon: 1, Delta: 1e-6}, map[string]bool{"n": true, "dimension": true, "epsilon": true, "delta": true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range tableBST14().Describe(ev).Defaults {
		found = found || len(d) > 16 && d[:16] == "strong_convexity"
	}
	if !found {
		t.Errorf("bst14's defaults lack strong_convexity: %v", tableBST14().Describe(ev).Defaults)
	}
	_, err = tableBST14().EvaluateGiven(Params{N: 1e4, Epsilon: 1, Delta: 1e-6}, map[string]bool{"n": true, "epsilon": true, "delta": true})
	if fe, ok := field.As(err); !ok || fe.Field != "dimension" {
		t.Errorf("missing dimension: %v", err)
	}
	_, err = tableBST14().EvaluateGiven(Params{N: 1e4, D: 10, Epsilon: 1, Delta: 1e-6}, map[string]bool{"n": true, "dimension": true, "epsilon": true, "delta": true, "lipschitz": true})
	if fe, ok := field.As(err); !ok || fe.Field != "lipschitz" {
		t.Errorf("lipschitz given as 0: %v", err)
	}
}

func ExampleFullyAdaptiveQuery_Answer() {
	eps, k, delta := 1.0, 100.0, 1e-5
	a, _ := (&FullyAdaptiveQuery{TargetEpsilon: &eps, Steps: &k, Delta: &delta}).Answer()
	for _, l := range a.Lines {
		fmt.Println(l.Quantity, l.Value)
	}
	// Output:
	// ε₀ (exact) 0.0204058
	// ε₀ (Cor. 3.6) 0.0104198
	// ε at ε₀ (exact), zCDP route 0.811821
}
