package composition

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// exactSGDDelta is the exact δ(ε) of T ∈ {1, 2} steps of the
// Poisson-subsampled Gaussian (rate q, noise multiplier z, add/remove: the
// larger of the two directions), by a closed form in the last step and
// Simpson's rule over the first (its integrand is smooth).
// With X_t = 1 − q + q·e^{(2y_t−1)/(2z²)}, y_t ~ N(0, z²):
// removal is E[(X_1X_2 − e^ε)₊], addition E[(1 − e^ε X_1X_2)₊].
func exactSGDDelta(q, z float64, steps int, eps float64) float64 {
	bar := func(x float64) float64 { return 0.5 * math.Erfc(x/math.Sqrt2) }
	c := math.Exp(eps)
	// E over y_2 given x_1 = X_1.
	inner := func(x1 float64) (rem, add float64) {
		if r := (c/x1 - (1 - q)) / q; r <= 0 {
			rem = x1 - c
		} else {
			ys := z*z*math.Log(r) + 0.5
			rem = x1*((1-q)*bar(ys/z)+q*bar((ys-1)/z)) - c*bar(ys/z)
		}
		if r := (1/(c*x1) - (1 - q)) / q; r > 0 {
			ys := z*z*math.Log(r) + 0.5
			add = bar(-ys/z) - c*x1*((1-q)*bar(-ys/z)+q*bar(-(ys-1)/z))
		}
		return math.Max(rem, 0), math.Max(add, 0)
	}
	if steps == 1 {
		r, a := inner(1)
		return math.Max(r, a)
	}
	lo, hi, n := -16*z, 16*z+1, 40000
	h := (hi - lo) / float64(n)
	var sr, sa float64
	for i := 0; i <= n; i++ {
		y := lo + float64(i)*h
		w := 2.0
		switch {
		case i == 0 || i == n:
			w = 1
		case i%2 == 1:
			w = 4
		}
		pdf := math.Exp(-y*y/(2*z*z)) / (z * math.Sqrt(2*math.Pi))
		r, a := inner(1 - q + q*math.Exp((2*y-1)/(2*z*z)))
		sr += w * pdf * r
		sa += w * pdf * a
	}
	return math.Max(sr, sa) * h / 3
}

// Tiny ε (issue 23, item 5): ε is solved between grid points, so on
// configurations whose ε is far below the grid interval (10⁻⁴) the headline
// is at or above the exact value (exactSGDDelta at it is at most δ), at most
// 0.5% above dp_accounting's pessimistic PLD (testdata/dp_accounting_tiny.json,
// bench/dp_accounting_tiny.py), and exactly 0 where δ ≥ δ(0). 13 rows, δ
// from 0.5 to 1.01 times the exact δ(0), 1 or 2 steps.
func TestTinyEpsilon(t *testing.T) {
	f, err := os.ReadFile("testdata/dp_accounting_tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Rows []struct {
			Q, Z, Delta float64
			Steps       int
			What        string
			DPAcc       float64 `json:"dp_accounting_pld"`
		}
	}
	if err := json.Unmarshal(f, &g); err != nil || len(g.Rows) != 13 {
		t.Fatalf("%v, %d rows", err, len(g.Rows))
	}
	for _, r := range g.Rows {
		res, err := DPSGDWith(rdp.DPSGD{SamplingRate: r.Q, Noise: r.Z, Steps: float64(r.Steps), Delta: r.Delta}, AccountBest)
		if err != nil {
			t.Errorf("%+v: %v", r, err)
			continue
		}
		e := float64(res.Epsilon)
		exact := exactSGDDelta(r.Q, r.Z, r.Steps, e)
		zero := exactSGDDelta(r.Q, r.Z, r.Steps, 0) <= r.Delta
		switch {
		case !(exact <= r.Delta):
			t.Errorf("%+v: ε %v is below the exact value (exact δ there %v)", r, e, exact)
		case !(e <= 1.005*r.DPAcc):
			t.Errorf("%+v: ε %v more than 0.5%% above dp_accounting's %v", r, e, r.DPAcc)
		case zero != (e == 0):
			t.Errorf("%+v: ε %v, exact δ(0) ≤ δ: %v", r, e, zero)
		}
		t.Logf("q %g z %g T %d δ %.6g (%s): ε %.6g, dp_accounting %.6g", r.Q, r.Z, r.Steps, r.Delta, r.What, e, r.DPAcc)
	}
}
