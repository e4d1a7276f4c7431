package plan

import (
	"math"
	"testing"
)

func exampleTiers(t *testing.T, n int64) []Tier {
	t.Helper()
	tiers, _, err := ResolveTiers([]TierSpec{{Size: 0.01, Epsilon: 0.1}, {Size: 0.09, Epsilon: 1}, {Size: 0.9, Epsilon: 4}}, n)
	if err != nil {
		t.Fatal(err)
	}
	return tiers
}

// checkUnreachable recomputes, at σ = cap, every position of the planned
// order with package shifted: the unreachable ones are exactly those above
// their target, and Achievable is their ε there.
func checkUnreachable(t *testing.T, s Options, res *Result, order []float64) {
	t.Helper()
	inf := res.Infeasible
	n := int64(len(order))
	in := map[int64]*Unreachable{}
	for i := range inf.Unreachable {
		u := &inf.Unreachable[i]
		for p := u.First; p <= u.Last; p++ {
			in[p] = u
		}
	}
	var count int64
	for pos := int64(1); pos <= n; pos++ {
		e := epsDirect(t, s, n, float64(inf.Cap), pos, s.Training.Delta)
		target := order[pos-1]
		u, listed := in[pos]
		if e > target*(1-Margin/2) {
			count++
			if !listed {
				t.Errorf("position %d: ε = %v at the cap exceeds %v but is not listed", pos, e, target)
			} else if e > float64(u.Achievable)*(1+1e-9) {
				t.Errorf("position %d: ε = %v at the cap above the listed achievable %v", pos, e, float64(u.Achievable))
			}
		} else if listed {
			t.Errorf("position %d listed as unreachable, but ε = %v ≤ %v at the cap", pos, e, target)
		}
	}
	if count != inf.UnreachableCount {
		t.Errorf("UnreachableCount %d, recomputed %d", inf.UnreachableCount, count)
	}
}

// positionsTargets returns the target ε by position for a tier population
// planned in ascending order.
func positionsTargets(res *Result, tiers []Tier) []float64 {
	var out []float64
	sorted := append([]Tier(nil), tiers...)
	// ascending ε, stable (as the plan orders them)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j].Epsilon < sorted[j-1].Epsilon; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	for _, tr := range sorted {
		for k := int64(0); k < tr.Count; k++ {
			out = append(out, tr.Epsilon)
		}
	}
	return out
}

func TestCapPublicRemedy(t *testing.T) {
	s := baseSetting(PNSGD)
	tiers := exampleTiers(t, 20000)
	free, err := Make(s, Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	capSigma := free.Plan.Sigma / 2.5
	res, err := Make(withCaps(s, capSigma, 0), Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	if res.Plan != nil || res.Infeasible == nil {
		t.Fatal("a cap below the needed σ gave a plan")
	}
	inf := res.Infeasible
	if !relClose(float64(inf.SigmaNeeded), free.Plan.Sigma, 1e-6) || float64(inf.Cap) != capSigma {
		t.Errorf("needed %v (free plan %v), cap %v", float64(inf.SigmaNeeded), free.Plan.Sigma, float64(inf.Cap))
	}
	checkUnreachable(t, s, res, positionsTargets(res, tiers))
	if inf.UnreachableCount == 0 {
		t.Fatal("no one unreachable")
	}
	// The public remedy: exactly enough.
	rm := inf.Public
	if !rm.Found || !rm.Verified {
		t.Fatalf("public remedy %+v", rm)
	}
	for _, k := range []int64{rm.Count, rm.Count - 1} {
		s2 := s
		s2.Training.Public += k
		r2, err := Make(withCaps(s2, capSigma, 0), Budgets{Tiers: tiers})
		if err != nil {
			t.Fatal(err)
		}
		feasible := r2.Plan != nil
		if feasible != (k == rm.Count) {
			t.Errorf("with %d public records (remedy %d) feasible = %v", k, rm.Count, feasible)
		}
		if feasible {
			if v, err := r2.Plan.Verify(); err != nil || !v.OK || r2.Plan.Sigma > capSigma {
				t.Errorf("remedied plan: σ %v, verify %+v %v", r2.Plan.Sigma, v, err)
			}
		}
	}
	// More people cannot help: the last one has the local guarantee 2L²/σ².
	if inf.People.Found || inf.People.Reason == "" {
		t.Errorf("people remedy %+v", inf.People)
	}
}

func TestCapPeopleRemedy(t *testing.T) {
	s := baseSetting(PNSGD)
	// The loosest budget is loose enough for the last position, so only the
	// strict people bind: more people after them help.
	tiers := []Tier{{Name: "strict", Count: 50, Epsilon: 0.2}, {Name: "loose", Count: 450, Epsilon: 30}}
	free, err := Make(s, Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	capSigma := free.Plan.Sigma / 1.7
	res, err := Make(withCaps(s, capSigma, 0), Budgets{Tiers: tiers})
	if err != nil || res.Infeasible == nil {
		t.Fatalf("%v %+v", err, res)
	}
	checkUnreachable(t, s, res, positionsTargets(res, tiers))
	for _, u := range res.Infeasible.Unreachable {
		if u.Tier != "strict" {
			t.Errorf("unreachable %+v", u)
		}
	}
	rm := res.Infeasible.People
	if !rm.Found || !rm.Verified {
		t.Fatalf("people remedy %+v", rm)
	}
	for _, k := range []int64{rm.Count, rm.Count - 1} {
		t2 := append([]Tier(nil), tiers...)
		t2[1].Count += k
		r2, err := Make(withCaps(s, capSigma, 0), Budgets{Tiers: t2})
		if err != nil {
			t.Fatal(err)
		}
		if (r2.Plan != nil) != (k == rm.Count) {
			t.Errorf("with %d more people (remedy %d) feasible = %v", k, rm.Count, r2.Plan != nil)
		}
	}
	// The people remedy for a people list: extra records after them.
	pp := &People{}
	for i := 0; i < 50; i++ {
		pp.ID.Append("s" + itoa(i))
		pp.Epsilon = append(pp.Epsilon, 0.2)
	}
	for i := 0; i < 450; i++ {
		pp.ID.Append("l" + itoa(i))
		pp.Epsilon = append(pp.Epsilon, 30)
	}
	r3, err := Make(withCaps(s, capSigma, 0), Budgets{People: pp})
	if err != nil || r3.Infeasible == nil {
		t.Fatal(err)
	}
	if r3.Infeasible.People.Count != rm.Count || r3.Infeasible.UnreachableCount != res.Infeasible.UnreachableCount {
		t.Errorf("people list: remedy %d, unreachable %d; tiers: %d, %d", r3.Infeasible.People.Count, r3.Infeasible.UnreachableCount, rm.Count, res.Infeasible.UnreachableCount)
	}
	for _, u := range r3.Infeasible.Unreachable {
		if u.ID == "" || u.ID[0] != 's' || u.First != u.Last {
			t.Errorf("unreachable entry %+v", u)
		}
	}
}

func TestUtilityTarget(t *testing.T) {
	s := baseSetting(PNSGD)
	n := int64(20000)
	if testing.Short() {
		n = 2000 // the same three tiers, a tenth of the people
	}
	tiers := exampleTiers(t, n)
	free, err := Make(s, Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	// A target the free plan meets: same plan.
	loose, err := Make(withCaps(s, 0, float64(free.Utility.Bound)*1.01), Budgets{Tiers: tiers})
	if err != nil || loose.Plan == nil || loose.Plan.Sigma != free.Plan.Sigma {
		t.Fatalf("a met utility target changed the plan: %v %+v", err, loose)
	}
	// A tighter one: infeasible, and the public remedy meets both.
	target := float64(free.Utility.Bound) * 0.6
	res, err := Make(withCaps(s, 0, target), Budgets{Tiers: tiers})
	if err != nil || res.Infeasible == nil {
		t.Fatal(err)
	}
	if got := float64(s.Utility(n, float64(res.Infeasible.Cap)).Bound); !relClose(got, target, 1e-9) {
		t.Errorf("the cap's utility bound is %v, target %v", got, target)
	}
	rm := res.Infeasible.Public
	if !rm.Found || !rm.Verified || float64(rm.Utility.Bound) > target {
		t.Fatalf("remedy %+v", rm)
	}
	s2 := s
	s2.Training.Public += rm.Count
	r2, err := Make(withCaps(s2, 0, target), Budgets{Tiers: tiers})
	if err != nil || r2.Plan == nil || float64(r2.Utility.Bound) > target {
		t.Fatalf("remedied: %v %+v", err, r2)
	}
	// Unreachable without any noise: every person is listed.
	imp := float64(s.Utility(n, 0).Bound) * 0.5
	r3, err := Make(withCaps(s, 0, imp), Budgets{Tiers: tiers})
	if err != nil || r3.Infeasible == nil {
		t.Fatal(err)
	}
	if r3.Infeasible.Cap != 0 || r3.Infeasible.UnreachableCount != n || !math.IsInf(float64(r3.Infeasible.Floor), 1) {
		t.Errorf("%+v", r3.Infeasible)
	}
	if !r3.Infeasible.Public.Found || !r3.Infeasible.Public.Verified {
		t.Errorf("no remedy for a utility target: %+v", r3.Infeasible.Public)
	}
}

// TestStopGainsLittle documents a property of Stop-PNSGD: its per-person
// curve is nearly flat, so a schedule gains almost nothing over the uniform
// plan (the gain is for PNSGD and Skip).
func TestStopGainsLittle(t *testing.T) {
	tiers := exampleTiers(t, 20000)
	res, err := Make(baseSetting(Stop), Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Plan.Sigma / float64(res.Uniform.Sigma); r > 1 || r < 0.99 {
		t.Errorf("Stop: σ/σ_uniform = %v", r)
	}
	res2, err := Make(baseSetting(PNSGD), Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	if r := res2.Plan.Sigma / float64(res2.Uniform.Sigma); r > 0.1 {
		t.Errorf("PNSGD: σ/σ_uniform = %v", r)
	}
}
