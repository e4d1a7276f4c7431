package langevin

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// RegularizerWeight is the strong convexity m of the ℓ2 term (m/2)‖θ − θ₀‖²
// that GTU §4.4 adds to an L-Lipschitz convex loss on a domain of diameter
// ‖C‖₂ to apply the strongly convex results at (ε, δ):
//
//	erm: m = L√(p ln(1/δ))/(‖C‖₂ εn)                (near-optimal empirical risk)
//	sco: m = (L/‖C‖₂)·max{√(p ln(1/δ))/(εn), 1/√n}  (population risk)
//
// θ₀ = 0 here. The weight does not enter the privacy guarantee (the ℓ2
// term is the same for neighbours and cancels in Δ).
func RegularizerWeight(kind string, lipschitz, diameter float64, p, n int, eps, delta float64) (float64, error) {
	if err := field.First(field.Positive("lipschitz", lipschitz), field.Positive("diameter", diameter),
		field.Positive("epsilon", eps), field.OpenUnit("delta", delta)); err != nil {
		return 0, err
	}
	a := math.Sqrt(float64(p)*math.Log(1/delta)) / (eps * float64(n))
	switch kind {
	case "erm":
	case "sco":
		a = math.Max(a, 1/math.Sqrt(float64(n)))
	default:
		return 0, field.New("regularize", kind, "must be erm or sco")
	}
	return lipschitz / diameter * a, nil
}

// regularize adds the ℓ2 term of GTU §4.4 to the problem, with ε the
// certificate's, and re-derives the constants from the declared bounds.
func (res *Result) regularize(pr *optimizer.Problem, kind string) error {
	c := pr.Constants
	R := pr.Declared.Radius
	if math.IsInf(R, 1) {
		return field.New("regularize", kind, "needs a bounded domain (a radius): its weight uses the diameter of C")
	}
	m, err := RegularizerWeight(kind, c.L, 2*R, pr.Data.D, pr.Data.N(), float64(res.Privacy.Epsilon), float64(res.Privacy.Delta))
	if err != nil {
		return err
	}
	pr.Objective.L2 += m
	pr.Declared.L2 = pr.Objective.L2
	nc := pr.Objective.Constants(c.X, c.Y, c.R)
	if nc.Sens != c.Sens {
		return fmt.Errorf("langevin: the regulariser changed the sensitivity (%g → %g)", c.Sens, nc.Sens)
	}
	pr.Constants = nc
	res.Declared = pr.Declared
	res.Derived.Regularizer = m
	res.Derived.RegularizerSource = map[string]string{
		"erm": "GTU §4.4 (ERM): m = L√(p ln(1/δ))/(‖C‖₂ εn), L of the unregularised loss, ‖C‖₂ = 2R, ε the certificate's",
		"sco": "GTU §4.4 (SCO): m = (L/‖C‖₂)·max{√(p ln(1/δ))/(εn), 1/√n}, L of the unregularised loss, ‖C‖₂ = 2R, ε the certificate's",
	}[kind]
	res.Notes = append(res.Notes, fmt.Sprintf("added the ℓ2 term (%.6g/2)‖θ‖² (%s): the output minimises the regularised loss, whose minimum differs from the unregularised one by at most (m/2)R²", m, kind))
	return nil
}
