package clipped

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/zcdp"
)

// Neighbours is the neighbouring relation every certificate of the package
// is for.
const Neighbours = "replace-one: data sets of the same size n that differ in one record"

// Privacy is the certificate of a run.
type Privacy struct {
	Neighbours string `json:"neighbours"`
	// Composition is "parallel" (one pass: disjoint batches, each record in
	// one step) or "sequential" (multi-pass: T steps on every record).
	Composition string `json:"composition"`
	// StepRho is zcdp.Gaussian(Δ, σ) of one step; Rho the run's ρ-zCDP.
	StepRho dp.Loss `json:"step_rho"`
	Rho     dp.Loss `json:"rho"`
	dp.Guarantee
	// Epsilon is ρ converted by the improved RDP conversion (zcdp.RDP);
	// EpsilonBunSteinke by ρ + 2√(ρ ln(1/δ)) (Prop. 3).
	EpsilonBunSteinke dp.Loss `json:"epsilon_bun_steinke"`
	// RhoSource says where the budget came from (given, or ρ*(ε, δ)).
	RhoSource string `json:"rho_source"`
}

// Budget resolves the ρ a run is calibrated to: rho if > 0, else ρ*(ε, δ) =
// zcdp.RhoFor(target ε, δ, zcdp.RDP), the largest ρ whose conversion is ≤ ε
// (it errs low). Errors are *field.Error values naming rho, target_epsilon or
// delta.
func Budget(rho, targetEpsilon, delta float64) (float64, string, error) {
	if err := field.OpenUnit("delta", delta); err != nil {
		return 0, "", err
	}
	if rho != 0 || targetEpsilon == 0 {
		if err := positiveFinite("rho", rho); err != nil {
			return 0, "", err
		}
		if targetEpsilon != 0 {
			return 0, "", field.New("target_epsilon", targetEpsilon, "sets ρ from (ε, δ): give rho or target_epsilon, not both")
		}
		return rho, "given", nil
	}
	if err := positiveFinite("target_epsilon", targetEpsilon); err != nil {
		return 0, "", err
	}
	r, err := zcdp.RhoFor(targetEpsilon, delta, zcdp.RDP)
	if err != nil || !(r > 0) {
		return 0, "", field.New("target_epsilon", targetEpsilon, "cannot be met at δ = %g", delta)
	}
	return r, "ρ*(ε, δ) by zcdp.RhoFor (improved RDP conversion, errs low)", nil
}

// certify fills a certificate from the per-step noise: steps Gaussian
// mechanisms of sensitivity sens and noise sigma, composed in parallel
// (onePass) or sequentially.
func certify(sens, sigma float64, steps int, onePass bool, delta float64, rhoSource string) Privacy {
	p := Privacy{Guarantee: dp.Guarantee{Delta: dp.Loss(delta)}, Neighbours: Neighbours, RhoSource: rhoSource}
	step := zcdp.Gaussian(sens, sigma)
	p.StepRho = dp.Loss(step)
	if onePass {
		p.Composition = "parallel"
		p.Rho = dp.Loss(step)
		p.Source = "Gaussian mechanism per step (Prop. 23), disjoint batches: parallel composition and post-processing (P5, P7)"
	} else {
		p.Composition = "sequential"
		rhos := make([]float64, steps)
		for i := range rhos {
			rhos[i] = step
		}
		p.Rho = dp.Loss(zcdp.Compose(rhos...))
		p.Source = "Gaussian mechanism per step (Prop. 23), T steps on every record: zCDP composition (Lemma 24)"
	}
	e, err := zcdp.Epsilon(float64(p.Rho), delta, zcdp.RDP)
	if err != nil {
		e = math.Inf(1)
	}
	p.Epsilon = dp.Loss(e)
	if e, err = zcdp.Epsilon(float64(p.Rho), delta, zcdp.BunSteinke); err != nil {
		e = math.Inf(1)
	}
	p.EpsilonBunSteinke = dp.Loss(e)
	return p
}
