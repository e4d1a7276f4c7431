package optimizer

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/shifted"
)

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
	if testing.Short() { // the same two verdicts on a quarter of the data (2.4 s → 0.6 s of CPU)
		spec.Data.N, spec.Repeats = 500, 8
	}
	byName := func(res *TrainResult) map[string]dp.Check {
		m := map[string]dp.Check{}
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
	if !res.OK || ok["measured contraction ≤ c"].Status != dp.Pass || ok["mean excess population risk ≤ utility bound"].Status != dp.Pass {
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
	if res.OK || bad["measured contraction ≤ c"].Status != dp.Fail || bad["mean excess population risk ≤ utility bound"].Status != dp.Fail ||
		!strings.HasPrefix(res.Verdict, "a check FAILED") {
		t.Fatalf("a loss steeper than declared: ok %v, %+v", res.OK, res.Checks)
	}
}
