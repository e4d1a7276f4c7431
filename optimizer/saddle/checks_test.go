package saddle

import (
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer"
)

// The games' and smd-sco's utility checks can fail only through the
// library: from the command line every record meets its declared bound by
// construction, and the bounds are theorems. Here a game's declared payoff
// bound a is 50× below its entries (records drawn at ±a = 0.01 while the
// population Ā has entries up to 0.5; n = 20000, 2 × 2 strategies, ε = 90,
// where the honest bounds are below the trivial 2a), and smd-sco's
// declared L0, L1, L2 are 1000× too small: each bound shrinks with the constant it is given
// while the measured gap or excess does not, so the check FAILs and the
// run's OK turns false. The honest instances pass (TestSMDAndBR,
// TestSCORun).
func TestGapChecksFail(t *testing.T) {
	status := func(cs []dp.Check, name string) dp.Status {
		for _, c := range cs {
			if c.Name == name {
				return c.Status
			}
		}
		return "missing"
	}
	ds := optimizer.DataSpec{Synthetic: "bilinear", N: 20000, Dimension: 2, Seed: 3}
	lie := func() *Game {
		g, err := SyntheticGame(20000, 2, 2, 0.5, 3)
		if err != nil {
			t.Fatal(err)
		}
		g.Bound = 0.01
		return g
	}
	p := SMDParams{Common: DefaultCommon(), Samples: 1}
	p.Repeats, p.TargetEpsilon = 5, 90 // ε large and n = 20000: bounds below the trivial 2a

	honestGame, err := SyntheticGame(20000, 2, 2, 0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := runSMDGame(honestGame, ds, p, nil); err != nil || !h.OK || status(h.Checks, "gap lower confidence limit ≤ derived bilinear bound") != dp.Pass {
		t.Fatalf("smd-vertex, honest game: %v %+v", err, h)
	}
	if h, err := runBRGame(honestGame, ds, BRParams{Common: Common{GameParams: p.GameParams, TargetEpsilon: 90, Delta: 1e-5, Seed: 1, Repeats: 5, Confidence: 0.95}, Truncation: -1}, nil); err != nil || !h.OK ||
		status(h.Checks, "E[gap − conditional bound] lower limit + mean bound ≤ mean bound") != dp.Pass {
		t.Fatalf("smd-bias-reduced, honest game: %v %+v", err, h)
	}
	res, err := runSMDGame(lie(), ds, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gap lower confidence limit ≤ Thm 3.1 bound", "gap lower confidence limit ≤ derived bilinear bound"} {
		if status(res.Checks, name) != dp.Fail || res.OK {
			t.Errorf("smd-vertex, payoff bound understated: %q is %s (ok %v): %+v", name, status(res.Checks, name), res.OK, res.Checks)
		}
	}
	bp := BRParams{Common: DefaultCommon(), Truncation: -1}
	bp.Repeats, bp.TargetEpsilon = 5, 90
	br, err := runBRGame(lie(), ds, bp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if name := "E[gap − conditional bound] lower limit + mean bound ≤ mean bound"; status(br.Checks, name) != dp.Fail || br.OK {
		t.Errorf("smd-bias-reduced, payoff bound understated: %q is %s: %+v", name, status(br.Checks, name), br.Checks)
	}
	sp := DefaultSCOParams()
	sp.Repeats = 30
	pr, err := LoadSCO(optimizer.DataSpec{Synthetic: "simplex-lsq", N: 500, Dimension: 5, Seed: 1}, sp)
	if err != nil {
		t.Fatal(err)
	}
	honest, err := runSCOProblem(pr, sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	name := "excess risk lower confidence limit ≤ derived bound"
	if status(honest.Checks, name) != dp.Pass {
		t.Fatalf("smd-sco, honest constants: %+v", honest.Checks)
	}
	pr.Consts.L0, pr.Consts.L1, pr.Consts.L2 = pr.Consts.L0/1000, pr.Consts.L1/1000, pr.Consts.L2/1000
	sco, err := runSCOProblem(pr, sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if status(sco.Checks, name) != dp.Fail || sco.OK {
		t.Errorf("smd-sco, constants understated: %q is %s: %+v", name, status(sco.Checks, name), sco.Checks)
	}
}
