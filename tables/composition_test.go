package tables

import (
	"math"
	"testing"

	"github.com/privamp/privamp/composition"
)

// docs/seeds.md#seed-001-test-vectors.
func TestStrongComposition(t *testing.T) {
	for _, c := range []struct{ eps, T, delta, want float64 }{
		{0.1, 100, 1e-5, 5.850235}, {0.01, 1e4, 1e-6, 6.261538}, {1, 10, 1e-5, 32.357090},
	} {
		r, err := StrongComposition(c.eps, c.T, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, "strong", r.Strong, c.want, 1e-6)
		checkNear(t, "basic", r.Basic, c.eps*c.T, 1e-15)
		checkNear(t, "best", r.Best, math.Min(r.Strong, r.Basic), 0)
		if r.BestIsBasic != (r.Basic <= r.Strong) {
			t.Error("BestIsBasic wrong")
		}
		if !(r.RDP <= r.Best*(1+1e-12)) {
			t.Errorf("RDP reference %v above the best closed form %v", r.RDP, r.Best)
		}
	}
	// The unexported closed form used by BST14Chain agrees with composition.Advanced.
	for _, c := range []struct{ eps, T, delta float64 }{{0.1, 100, 1e-5}, {0.003, 1e6, 1e-7}} {
		g, _ := composition.Advanced(c.eps, 0, int(c.T), c.delta)
		checkNear(t, "AdvancedEpsilon", composition.AdvancedEpsilon(c.eps, c.T, c.delta), float64(g.Epsilon), 1e-14)
	}
	r, _ := StrongComposition(1, 10, 1e-5)
	if !r.BestIsBasic || r.Best != 10 {
		t.Errorf("(1, 10, 1e-5): basic 10 should win, got %+v", r)
	}
	// Inverse: the step meets the target and is maximal.
	for _, c := range []struct{ target, T, delta float64 }{{1, 100, 1e-5}, {5, 1e4, 1e-6}, {10, 10, 1e-5}} {
		e, err := StrongCompositionStep(c.target, c.T, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		f := func(e float64) float64 { return math.Min(c.T*e, composition.AdvancedEpsilon(e, c.T, c.delta)) }
		if !(f(e) <= c.target && f(e*(1+1e-9)) > c.target) {
			t.Errorf("step %v for %+v: f = %v", e, c, f(e))
		}
	}
}

// docs/seeds.md#seed-003-test-vectors, composition table.
func TestFullyAdaptive(t *testing.T) {
	for _, c := range []struct{ eps, k, delta, exact, paper, total float64 }{
		{1, 100, 1e-5, 0.0204059, 0.0104199, 0.505429},
		{1, 2000, 1e-6, 0.00417958, 0.00212695, 0.504524},
		{0.5, 10000, 1e-5, 0.00103091, 0.000520993, 0.251357},
		{8, 50, 1e-3, 0.246559, 0.152192, 4.57906},
	} {
		r, err := FullyAdaptiveStep(c.eps, c.k, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, "ε₀ exact", r.StepExact, c.exact, 1e-5)
		checkNear(t, "ε₀ paper", r.StepPaper, c.paper, 1e-5)
		checkNear(t, "ε at paper step", r.TotalAtPaperStep, c.total, 1e-5)
		checkNear(t, "forward at exact step", r.TotalAtExactStep, c.eps, 1e-12)
		if !(r.TotalAtExactStep <= c.eps) {
			t.Errorf("exact step overspends: %v", r.TotalAtExactStep)
		}
		if !(r.ZCDP <= c.eps) {
			t.Errorf("zCDP route %v above target", r.ZCDP)
		}
	}
	if _, err := FullyAdaptiveStep(8*math.Log(1e3), 10, 1e-3); err == nil {
		t.Error("ε = 8 ln(1/δ) accepted")
	}
}
