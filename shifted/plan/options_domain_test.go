package plan

import (
	"testing"

	"github.com/privamp/privamp/shifted"
)

// A plan's run carries its radius, so the bounded-domain bound lowers the
// noise a many-pass plan needs (it never raises it), and the plan file's
// Training carries it too, so verify recomputes with the same bound.
func TestPlanUsesDomain(t *testing.T) {
	base := Options{Training: shifted.Training{Variant: shifted.VariantPNSGD, Epochs: 100, Delta: 1e-5,
		Loss: shifted.Loss{Lipschitz: 1, Eta: 0.05}}, Radius: 1, Dimension: 10}
	b, _, err := ParseTiers([]string{"0.5:2", "0.5:4"}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	with, err := Make(base, Budgets{Tiers: b})
	if err != nil {
		t.Fatal(err)
	}
	far := base
	far.Radius = 1e9 // a domain too large to help: FMTT18's bound
	without, err := Make(far, Budgets{Tiers: b})
	if err != nil {
		t.Fatal(err)
	}
	if !(with.Plan.Sigma < without.Plan.Sigma) || with.Plan.Training().Radius != 1 {
		t.Errorf("σ with the domain %v, without %v; radius %v", with.Plan.Sigma, without.Plan.Sigma, with.Plan.Training().Radius)
	}
	if v, err := with.Plan.Verify(); err != nil || !v.OK {
		t.Errorf("verify: %+v %v", v, err)
	}
}
