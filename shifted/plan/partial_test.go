package plan_test

import (
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
)

// Issue 22 hole 1: `plan --tier a=9:0.01 --tier b=1:5 --batch 3 --eta 1
// --smoothness 1 --strong-convexity 1 --radius 5 --dimension 1 --lipschitz
// 6`. Full steps contract by c = 0, the last (one-record) step of the pass
// by c′ = 2/3, so people 7–9 are not forgotten: the plan used to be
// "feasible" with ε = 0 for tier a at σ = 3.81; it must now spend noise on
// them (person 9's true δ(0.01) at σ = 3.81 is about 0.03).
func TestPlanPartialBatchContraction(t *testing.T) {
	o := plan.Options{
		Training: shifted.Training{Variant: shifted.VariantPNSGD, Batch: 3, Delta: 1e-5,
			Loss: shifted.Loss{Lipschitz: 6, Smoothness: 1, StrongConvexity: 1, Eta: 1}},
		Radius:     5,
		Dimension:  1,
		Conversion: rdp.Improved,
	}
	tiers, _, err := plan.ResolveTiers([]plan.TierSpec{{Name: "a", Size: 9, Epsilon: 0.01}, {Name: "b", Size: 1, Epsilon: 5}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := plan.Make(o, plan.Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Plan
	if p.Sigma < 100 {
		t.Errorf("σ = %g: the last batch's contraction c′ = 2/3 is ignored (main gave 3.81)", p.Sigma)
	}
	for _, g := range p.Summary.Groups {
		if g.Tier == "a" && !(g.AchievedMax > 0.005 && g.AchievedMax <= 0.01) {
			t.Errorf("tier a: achieved ≤ %g, want a positive ε meeting 0.01", g.AchievedMax)
		}
	}
}
