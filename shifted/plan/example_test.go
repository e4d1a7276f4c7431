package plan_test

import (
	"fmt"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
)

// A run over 100 000 people: 1% need ε = 0.1, 9% ε = 1, 90% ε = 4.
func ExampleMake() {
	o := plan.Options{
		Training:   shifted.Training{Variant: shifted.VariantPNSGD, Loss: shifted.Loss{Lipschitz: 1}, Delta: 1e-6},
		Radius:     1,
		Dimension:  10,
		Conversion: rdp.Improved,
	}
	tiers, _, _ := plan.ResolveTiers([]plan.TierSpec{
		{Size: 0.01, Epsilon: 0.1}, {Size: 0.09, Epsilon: 1}, {Size: 0.9, Epsilon: 4},
	}, 100_000)
	res, err := plan.Make(o, plan.Budgets{Tiers: tiers})
	if err != nil {
		panic(err)
	}
	p := res.Plan
	fmt.Printf("σ = %.4g (uniform plan at ε = 0.1: %.4g)\n", p.Sigma, res.Uniform.Sigma)
	fmt.Printf("utility bound %.4g (uniform %.4g)\n", res.Utility.Bound, res.Uniform.Utility.Bound)
	for _, g := range p.Summary.Groups {
		fmt.Printf("%s: positions %d–%d, target %g, achieved ≤ %.4g\n", g.Tier, g.First, g.Last, g.Epsilon, g.AchievedMax)
	}
	// Output:
	// σ = 2.536 (uniform plan at ε = 0.1: 78.93)
	// utility bound 0.1445 (uniform 4.465)
	// tier1: positions 1–1000, target 0.1, achieved ≤ 0.008377
	// tier2: positions 1001–10000, target 1, achieved ≤ 0.00882
	// tier3: positions 10001–100000, target 4, achieved ≤ 4
}

// Under a cap on σ the last people of the loosest tier cannot be served;
// a few public records at the end (Cor 31) fix it.
func ExampleMake_cap() {
	o := plan.Options{
		Training:   shifted.Training{Variant: shifted.VariantPNSGD, Loss: shifted.Loss{Lipschitz: 1}, Delta: 1e-6},
		Radius:     1,
		Dimension:  10,
		Conversion: rdp.Improved,
	}
	tiers, _, _ := plan.ResolveTiers([]plan.TierSpec{
		{Size: 0.01, Epsilon: 0.1}, {Size: 0.09, Epsilon: 1}, {Size: 0.9, Epsilon: 4},
	}, 100_000)
	o.MaxSigma = 1
	res, _ := plan.Make(o, plan.Budgets{Tiers: tiers})
	inf := res.Infeasible
	for _, u := range inf.Unreachable {
		fmt.Printf("%s positions %d–%d: target %g, at best %.4g\n", u.Tier, u.First, u.Last, u.Epsilon, u.Achievable)
	}
	fmt.Printf("public records needed: %d (σ then %.4g)\n", inf.Public.Count, inf.Public.Sigma)
	// Output:
	// tier3 positions 99995–100000: target 4, at best 11.69
	// public records needed: 6 (σ then 0.9584)
}

// Profile gives the plan at log-spaced positions and at each budget
// group's ends, with the uniform plan's ε there: the points of a plot.
func ExampleResult_Profile() {
	o := plan.Options{
		Training:   shifted.Training{Variant: shifted.VariantPNSGD, Loss: shifted.Loss{Lipschitz: 1}, Delta: 1e-6},
		Radius:     1,
		Dimension:  10,
		Conversion: rdp.Improved,
	}
	res, err := plan.Make(o, plan.Budgets{Tiers: []plan.Tier{{Name: "strict", Count: 10, Epsilon: 0.5}, {Name: "rest", Count: 90, Epsilon: 3}}})
	if err != nil {
		panic(err)
	}
	pts, err := res.Profile(3)
	if err != nil {
		panic(err)
	}
	for _, pt := range pts {
		fmt.Printf("position %3d (%s): target %g, achieved %s, uniform plan %s\n", pt.Index, pt.Tier, pt.Epsilon, pt.Achieved, pt.Uniform)
	}
	// Output:
	// position   1 (strict): target 0.5, achieved 0.253599, uniform plan 0.0431838
	// position  10 (strict): target 0.5, achieved 0.266621, uniform plan 0.0454146
	// position  11 (rest): target 3, achieved 0.26819, uniform plan 0.0456833
	// position 100 (rest): target 3, achieved 3, uniform plan 0.5
}
