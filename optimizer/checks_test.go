package optimizer

import (
	"math"
	"strings"
	"testing"

	"github.com/privamp/privamp/shifted"
)

// The rule's three helpers: VACUOUS at or above the trivial bound whatever
// the value, PASS/FAIL below it; WORSE above the data-free output's value;
// the verdict names a FAIL and a WORSE output; only FAIL fails a run.
func TestUtilityBaselineVerdict(t *testing.T) {
	cases := []struct {
		c    TrainCheck
		want string
	}{
		{UtilityCheck("u", 0.1, 2, 1, "d"), Vacuous},
		{UtilityCheck("u", 5, 1, 1, "d"), Vacuous},
		{UtilityCheck("u", 0.1, math.NaN(), 1, "d"), Vacuous},
		{UtilityCheck("u", 0.1, 0.5, 1, "d"), Pass},
		{UtilityCheck("u", 0.6, 0.5, 1, "d"), Fail},
		{BaselineCheck("b", 0.4, 0.5, "d"), Pass},
		{BaselineCheck("b", 0.6, 0.5, "d"), Worse},
	}
	for i, c := range cases {
		if c.c.Status != c.want {
			t.Errorf("case %d: %+v, want %s", i, c.c, c.want)
		}
	}
	if !strings.Contains(cases[0].c.Detail, "trivial bound 1") || !strings.Contains(cases[6].c.Detail, "WORSE") {
		t.Errorf("details do not say why: %q, %q", cases[0].c.Detail, cases[6].c.Detail)
	}
	pass, worse, fail := cases[3].c, cases[6].c, cases[4].c
	for _, v := range []struct {
		checks []TrainCheck
		ok     bool
		want   string
	}{
		{[]TrainCheck{pass, cases[0].c}, true, "every check passes"},
		{[]TrainCheck{pass, worse}, true, "every check passes; the output's risk is WORSE than the data-free output's"},
		{[]TrainCheck{fail, worse}, false, "a check FAILED (see the checks); the output's risk is WORSE than the data-free output's"},
	} {
		if AllPass(v.checks) != v.ok || Verdict(v.checks) != v.want {
			t.Errorf("%v: ok %v verdict %q, want %v %q", v.checks, AllPass(v.checks), Verdict(v.checks), v.ok, v.want)
		}
	}
}

// steep is least squares scaled by K whose Bounds still declare the
// unscaled constants: a loss implementation that understates its
// gradient and curvature, which no command-line loss can be.
type steep struct {
	LeastSquares
	K float64
}

func (s steep) Phi(u, y float64) float64   { return s.K * s.LeastSquares.Phi(u, y) }
func (s steep) Deriv(u, y float64) float64 { return s.K * s.LeastSquares.Deriv(u, y) }
func (s steep) Deriv2(u, y float64) float64 {
	return s.K * s.LeastSquares.Deriv2(u, y)
}

// PNSGD's checks that only the library can make fail: "measured
// contraction ≤ c" and the utility check need a loss whose curvature and
// gradient exceed the declared β and L (every command-line loss meets its
// declared constants, so from the CLI these can only PASS or be VACUOUS).
// The run is prepared with least squares, then trained with the same loss
// scaled by 500: the measured contraction |1 − 500ηβ| > 1 exceeds c, and the
// population excess risk exceeds Thm 28's bound for the declared L.
func TestChecksFailInTheLibrary(t *testing.T) {
	spec := Spec{Data: DataSpec{Synthetic: "linear", N: 2000, Dimension: 2, Seed: 1}, Loss: LossSpec{Name: "squared"}, Radius: 1,
		Training: shifted.Training{Variant: shifted.VariantStop, Epochs: 1, Batch: 1, Delta: 1e-5, Sigma: 0.05}, Seed: 1,
		Repeats: 8, Confidence: 0.95, MaxPoints: 200}
	byName := func(res *TrainResult) map[string]TrainCheck {
		m := map[string]TrainCheck{}
		for _, c := range res.Checks {
			m[c.Name] = c
		}
		return m
	}
	res, err := Train(spec)
	if err != nil {
		t.Fatal(err)
	}
	ok := byName(res)
	if !res.OK || ok["measured contraction ≤ c"].Status != Pass || ok["mean excess population risk ≤ utility bound"].Status != Pass {
		t.Fatalf("the honest loss must pass both checks: %+v", res.Checks)
	}
	res, _, err = prepare(spec)
	if err != nil {
		t.Fatal(err)
	}
	res.Problem.Objective.Loss = steep{K: 500}
	if err := res.train(spec); err != nil {
		t.Fatal(err)
	}
	res.check(spec, nil)
	bad := byName(res)
	if res.OK || bad["measured contraction ≤ c"].Status != Fail || bad["mean excess population risk ≤ utility bound"].Status != Fail ||
		!strings.HasPrefix(res.Verdict, "a check FAILED") {
		t.Fatalf("a loss steeper than declared: ok %v, %+v", res.OK, res.Checks)
	}
}
