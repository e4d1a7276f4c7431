package langevin

import (
	"github.com/privamp/privamp/dp"
	"math"
)

// Rates are the paper's excess-empirical-risk rates for (ε, δ)-DP at the
// run's numbers, with the constant of each O(·) set to 1: GTU state them as
// rates without constants (Sec. 4.3–4.4, Table 2), so they show the order of
// magnitude the theory predicts, not a bound a run must meet. The exact
// bound privamp checks is the Gibbs law's p/β (Thm 2.4), in Derived.
type Rates struct {
	// Convex is L‖C‖√(p ln(1/δ))/(εn) (GTU Sec. 4.4, convex DP-ERM).
	Convex dp.Num `json:"convex"`
	// StronglyConvex is L²p ln(1/δ)/(mε²n²) (GTU Sec. 4.3; NaN when m = 0).
	StronglyConvex dp.Num `json:"strongly_convex"`
}

// PaperRates evaluates the rates at Lipschitz constant L, diameter ‖C‖,
// dimension p, n records, (ε, δ) and strong convexity m.
func PaperRates(lipschitz, diameter float64, p, n int, eps, delta, m float64) Rates {
	l := math.Log(1 / delta)
	r := Rates{Convex: dp.Num(lipschitz * diameter * math.Sqrt(float64(p)*l) / (eps * float64(n))), StronglyConvex: dp.Num(math.NaN())}
	if m > 0 {
		r.StronglyConvex = dp.Num(lipschitz * lipschitz * float64(p) * l / (m * eps * eps * float64(n) * float64(n)))
	}
	return r
}
