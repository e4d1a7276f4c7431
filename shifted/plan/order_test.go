package plan

import (
	"math"
	"math/rand/v2"
	"testing"
)

// closedOrder is σ for an order by the closed form of the package
// documentation, σ² = max_t 2L²/((n + m − t + 1)·ρ*), with ρ* from RhoStar.
func closedOrder(s Options, eps, del []float64, perm []int) float64 {
	n := float64(len(perm))
	var best float64
	for pos, i := range perm {
		rho := RhoStar(eps[i]*(1-Margin), del[i], s.Conversion)
		v := 2 * s.Training.Loss.Lipschitz * s.Training.Loss.Lipschitz / ((n + float64(s.Training.Public) - float64(pos)) * rho)
		best = math.Max(best, v)
	}
	return math.Sqrt(best)
}

func deltas(p *People, def float64) []float64 {
	out := make([]float64, p.Len())
	for i := range out {
		out[i] = p.delta(i, def)
	}
	return out
}

// TestOrderOptimalBruteForcePNSGD: no order of up to 7 people needs less
// noise than the planned one (exchange argument), with a common δ and with
// per-person δ, with and without public records.
func TestOrderOptimalBruteForcePNSGD(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	trials := 30
	if testing.Short() {
		trials = 6
	}
	for trial := 0; trial < trials; trial++ {
		m := 2 + trial%6 // 2..7 people
		perDelta := trial%2 == 1
		s := baseSetting(PNSGD)
		s.Training.Public = int64(trial % 3 * 2)
		pp := randomPeople(r, m, perDelta)
		res, err := Make(s, Budgets{People: pp})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Optimal {
			t.Errorf("trial %d: PNSGD order not marked optimal", trial)
		}
		del := deltas(pp, s.Training.Delta)
		best, bestPerm := math.Inf(1), []int(nil)
		permutations(m, func(p []int) {
			if v := closedOrder(s, pp.Epsilon, del, p); v < best {
				best, bestPerm = v, append([]int(nil), p...)
			}
		})
		if got := res.Plan.Sigma; got > best*(1+1e-9) {
			t.Errorf("trial %d: planned σ = %.12g > brute-force best %.12g (order %v)", trial, got, best, bestPerm)
		} else if got < best*(1-1e-9) {
			t.Errorf("trial %d: planned σ = %.12g below every order's closed form %.12g", trial, got, best)
		}
	}
}

// TestOrderOptimalBruteForceShifted repeats the brute force with σ for every
// order found by bisection on package shifted's per-position ε (no closed
// form), for PNSGD, Skip (ascending) and Stop (descending), common δ.
func TestOrderOptimalBruteForceShifted(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		v Variant
		m int
	}{{PNSGD, 6}, {PNSGD, 5}, {Skip, 5}, {Skip, 4}, {Stop, 5}, {Stop, 4}}
	if testing.Short() {
		cases = cases[1:2]
		cases = append(cases, struct {
			v Variant
			m int
		}{Skip, 4}, struct {
			v Variant
			m int
		}{Stop, 4})
	}
	for _, c := range cases {
		s := baseSetting(c.v)
		pp := randomPeople(r, c.m, false)
		res, err := Make(s, Budgets{People: pp})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Optimal {
			t.Errorf("%s: order with one δ not marked optimal", c.v)
		}
		del := deltas(pp, s.Training.Delta)
		best, worst := math.Inf(1), 0.0
		permutations(c.m, func(p []int) {
			v := bisectOrder(t, s, pp.Epsilon, del, p)
			best, worst = math.Min(best, v), math.Max(worst, v)
		})
		// The test discriminates: some order needs clearly more noise.
		if !(worst > best*(1+1e-6)) {
			t.Errorf("%s: every order needs the same σ (%v): the case does not test the order", c.v, best)
		}
		t.Logf("%s, %d people: best σ %.8g, worst order %.8g", c.v, c.m, best, worst)
		got := res.Plan.Sigma
		if got > best*(1+1e-8) || got < best*(1-1e-8) {
			t.Errorf("%s, %d people: planned σ = %.12g, best over all orders %.12g", c.v, c.m, got, best)
		}
		// The order really is ascending (descending for Stop).
		ids := res.Plan.People
		for i := 1; i < ids.Len(); i++ {
			a, b := ids.Epsilon[i-1], ids.Epsilon[i]
			if (c.v == Stop && a < b) || (c.v != Stop && a > b) {
				t.Errorf("%s: position %d has ε %v after %v", c.v, i+1, b, a)
			}
		}
	}
}

// TestClosedFormMatchesBisection: the closed-form σ of PNSGD variants equals
// the σ found by bisection with package shifted for the same order.
func TestClosedFormMatchesBisection(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	settings := []Options{baseSetting(PNSGD)}
	s := baseSetting(PNSGD)
	s.Training.Public = 5
	settings = append(settings, s)
	s = baseSetting(PNSGD)
	s.Training.Batch, s.Training.Epochs = 3, 2
	settings = append(settings, s)
	s = baseSetting(PNSGD)
	s.Training.Loss.Smoothness, s.Training.Loss.StrongConvexity, s.Training.Loss.Eta = 1, 0.05, 0.5
	settings = append(settings, s)
	for k, s := range settings {
		pp := randomPeople(r, 40, k%2 == 0)
		res, err := Make(s, Budgets{People: pp})
		if err != nil {
			t.Fatal(err)
		}
		order := make([]int, pp.Len())
		index := map[string]int{}
		for i, id := range pp.ID.Strings() {
			index[id] = i
		}
		for pos, id := range res.Plan.People.ID.Strings() {
			order[pos] = index[id]
		}
		want := bisectOrder(t, s, pp.Epsilon, deltas(pp, s.Training.Delta), order)
		t.Logf("%s: σ = %.14g (closed form), %.14g (bisection)", s.Name(), res.Plan.Sigma, want)
		if !relClose(res.Plan.Sigma, want, 1e-9) {
			t.Errorf("setting %d (%s): closed form σ = %.14g, bisection %.14g", k, s.Name(), res.Plan.Sigma, want)
		}
	}
}

// TestPerPersonDeltaMixtureHeuristic: with per-person δ and the Skip
// mixture the order is flagged as a heuristic, and its σ is never below the
// best order's (it may be above).
func TestPerPersonDeltaMixtureHeuristic(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	s := baseSetting(Skip)
	pp := randomPeople(r, 4, true)
	res, err := Make(s, Budgets{People: pp})
	if err != nil {
		t.Fatal(err)
	}
	if res.Optimal {
		t.Error("Skip with per-person δ marked optimal")
	}
	best := math.Inf(1)
	permutations(4, func(p []int) { best = math.Min(best, bisectOrder(t, s, pp.Epsilon, deltas(pp, s.Training.Delta), p)) })
	if res.Plan.Sigma < best*(1-1e-8) {
		t.Errorf("σ = %v below the best order's %v", res.Plan.Sigma, best)
	}
	t.Logf("heuristic σ = %.10g, best over all orders %.10g (ratio %.6g)", res.Plan.Sigma, best, res.Plan.Sigma/best)
}
