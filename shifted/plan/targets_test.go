package plan

import (
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// TestEveryPersonMeetsTarget recomputes every position's ε with
// shifted.Epsilon (not the package's batch routine) for each variant, with a
// common and with per-person δ, and checks it against the target, the
// reported achieved value and the margin.
func TestEveryPersonMeetsTarget(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var settings []Options
	for _, v := range []Variant{PNSGD, Skip, Stop} {
		settings = append(settings, baseSetting(v))
	}
	s := baseSetting(PNSGD)
	s.Training.Batch, s.Training.Public = 7, 30
	settings = append(settings, s)
	s = baseSetting(PNSGD)
	s.Training.Epochs, s.Conversion = 3, rdp.Classic
	settings = append(settings, s)
	s = baseSetting(Stop)
	s.Training.Tasks = 3
	settings = append(settings, s)
	s = baseSetting(Skip)
	s.Training.Public = 100
	settings = append(settings, s)
	m := 600
	if testing.Short() {
		m = 150
	}
	for k, s := range settings {
		for _, perDelta := range []bool{false, true} {
			pp := randomPeople(r, m, perDelta)
			res, err := Make(s, Budgets{People: pp})
			if err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			pl := res.Plan
			g, _, err := s.Guarantee(int64(m), pl.Sigma)
			if err != nil {
				t.Fatal(err)
			}
			for pos := 1; pos <= m; pos++ {
				eps, del, _ := pl.Target(int64(pos))
				dp, err := shifted.Epsilon(g, int64(pos), del, s.Conversion)
				if err != nil {
					t.Fatal(err)
				}
				if dp.Epsilon > eps*(1-Margin/2) {
					t.Errorf("setting %d %s (per-person δ %v): position %d (%s) has ε = %.12g > target %.12g", k, s.Name(), perDelta, pos, pl.People.ID.At(int(pos-1)), dp.Epsilon, eps)
				}
				if !relClose(dp.Epsilon, res.Achieved[pos-1], 1e-6) && dp.Epsilon > 1e-12 {
					t.Errorf("setting %d: position %d: reported ε %.12g, recomputed %.12g", k, pos, res.Achieved[pos-1], dp.Epsilon)
				}
			}
			v, err := pl.Verify()
			if err != nil || !v.OK {
				t.Errorf("setting %d: Verify: %v %+v", k, err, v)
			}
			// σ is the least: 0.1% less noise breaks some target.
			if res.Optimal {
				g2, _, _ := s.Guarantee(int64(m), pl.Sigma*0.999)
				broken := false
				for pos := 1; pos <= m && !broken; pos++ {
					eps, del, _ := pl.Target(int64(pos))
					dp, _ := shifted.Epsilon(g2, int64(pos), del, s.Conversion)
					broken = dp.Epsilon > eps
				}
				if !broken {
					t.Errorf("setting %d %s: σ = %v is not the least: 0.999σ meets every target", k, s.Name(), pl.Sigma)
				}
			}
		}
	}
}

// TestTierPlanKeepsEveryone: a tier plan covers positions 1..n exactly, in
// budget order, with counts from largest-remainder rounding.
func TestTierPlanKeepsEveryone(t *testing.T) {
	specs := []TierSpec{{Size: 0.9, Epsilon: 4}, {Name: "strict", Size: 0.01, Epsilon: 0.1}, {Size: 0.09, Epsilon: 1}}
	tiers, notes, err := ResolveTiers(specs, 1001)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, tr := range tiers {
		total += tr.Count
	}
	if total != 1001 || len(notes) == 0 {
		t.Fatalf("counts %v sum to %d (want 1001), notes %v", tiers, total, notes)
	}
	res, err := Make(baseSetting(PNSGD), Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"strict", "tier3", "tier1"}
	pos := int64(1)
	for i, tr := range res.Plan.Tiers {
		if tr.Name != want[i] || tr.First != pos {
			t.Errorf("tier %d: %+v, want %s from position %d", i, tr, want[i], pos)
		}
		pos = tr.Last + 1
	}
	if pos != 1002 {
		t.Errorf("positions end at %d", pos-1)
	}
}
