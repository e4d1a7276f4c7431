package langevin

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// Source cites the path guarantee.
const Source = "Ganesh, Thakurta, Upadhyay (seed 000): Lemma 3.1 (noisy GD / SGLD, per-step Gaussian RDP αηβ²Δ²/4 by Lemma A.7, composed over T steps by Fact A.8), the discrete form of Lemma 2.2 (path RDP αβ²Δ²t/4, t = Tη); converted by the improved conversion (Canonne, Kamath, Steinke 2020, Prop. 12)"

// NotCertified says why the exponential mechanism of seed 000 (sampled by
// Langevin diffusion) is not offered as a runnable certified algorithm.
const NotCertified = "the exponential mechanism (GTU Alg. 2, Thm 2.1) is pure ε-DP only for an exact Gibbs sample, which Langevin diffusion reaches only as t → ∞ (a finite chain is not pure ε-DP); run bst14-expmech (the same mechanism, sampled exactly in one or two dimensions), iterated-expmech (GTU Alg. 1, Thm 4.2) or langevin for a finite-time (ε, δ) guarantee instead"

// Privacy is the certified guarantee of a Langevin run: the RDP curve of the
// whole path θ_1..θ_T and its (ε, δ). Every input is declared or a
// parameter; nothing is measured on the records.
type Privacy struct {
	// Rho is the slope of the path's RDP curve R_α ≤ α·Rho = αTηβ²Δ²/4.
	Rho dp.Loss `json:"rho"`
	// Epsilon at Delta by the improved conversion, at the order Order.
	dp.Guarantee
	Order dp.Num `json:"order"`
	// EpsilonClassic is ρ + 2√(ρ ln(1/δ)), GTU Fact A.4 optimised over α.
	EpsilonClassic dp.Loss `json:"epsilon_classic"`
	// Target is the ε β was calibrated to (0: β given).
	Target float64 `json:"target_epsilon,omitempty"`
	// Horizon is t = Tη, the time of the diffusion the run discretises.
	Horizon float64 `json:"horizon"`
	// NoiseMultiplier z = √(2/η)/(βΔ): each step is the Gaussian mechanism
	// with noise multiplier z (per-step ρ = 1/(2z²)).
	NoiseMultiplier dp.Noise `json:"noise_multiplier"`
	Neighbours      string   `json:"neighbours"`
	Covers          string   `json:"covers"`
}

// PathRho is the slope of the RDP curve of T steps of size η at inverse
// temperature β with gradient sensitivity Δ: HorizonRho at t = Tη, Tηβ²Δ²/4
// (GTU Lemma 3.1),
// computed so that it is never below the exact value by more than rounding
// of a few operations (a relative 1e-15 is added).
func PathRho(beta, sensitivity float64, steps int64, eta float64) float64 {
	return HorizonRho(beta, sensitivity, float64(steps)*eta) * (1 + 1e-15)
}

// PathPrivacy returns the guarantee of T steps of size η at β with gradient
// sensitivity Δ (replace-one neighbours) at δ.
func PathPrivacy(beta, sensitivity float64, steps int64, eta, delta float64) (Privacy, error) {
	if err := field.First(field.Positive("beta", beta), field.Positive("sensitivity", sensitivity),
		field.Count("steps", steps, 1, maxSteps), field.Positive("eta", eta), field.OpenUnit("delta", delta)); err != nil {
		return Privacy{}, err
	}
	rho := PathRho(beta, sensitivity, steps, eta)
	p := Privacy{Guarantee: dp.Guarantee{Delta: dp.Loss(delta), Source: Source}, Rho: dp.Loss(rho), Horizon: float64(steps) * eta,
		NoiseMultiplier: dp.Noise(StepNoiseMultiplier(eta, beta, sensitivity)),
		Neighbours:      "replace-one (one record replaced; Δ = 2·Sens/n)",
		Covers:          "the whole path θ_1..θ_T: every iterate may be released, and any stopping time, prefix or average of iterates is covered (post-processing)"}
	e, a := rdp.LinearEpsilon(rho, delta, rdp.Improved)
	p.Epsilon, p.Order = dp.Loss(e), dp.Num(a)
	ec, _ := rdp.LinearEpsilon(rho, delta, rdp.Classic)
	p.EpsilonClassic = dp.Loss(ec)
	return p, nil
}

// CalibrateBeta returns the largest β (to a relative 1e-12) whose path
// guarantee at δ has ε ≤ target, by bisection on the bound, which increases
// with β. The answer's ε is recomputed and meets the target.
func CalibrateBeta(target, sensitivity float64, steps int64, eta, delta float64) (float64, error) {
	if err := field.First(field.Positive("target_epsilon", target), field.Positive("sensitivity", sensitivity),
		field.Count("steps", steps, 1, maxSteps), field.Positive("eta", eta), field.OpenUnit("delta", delta)); err != nil {
		return 0, err
	}
	eps := func(beta float64) float64 {
		e, _ := rdp.LinearEpsilon(PathRho(beta, sensitivity, steps, eta), delta, rdp.Improved)
		return e
	}
	// ρ* ≥ ε²/(4 ln(1/δ) + 4ε) suffices for the classic conversion, so start
	// there and widen.
	lo, hi := 0.0, 1.0/(sensitivity*math.Sqrt(float64(steps)*eta))
	for eps(hi) <= target {
		lo, hi = hi, hi*2
		if math.IsInf(hi, 1) {
			return 0, field.New("target_epsilon", target, "is not reached by any finite β")
		}
	}
	// The one bisection (numeric.Bisect, on ln β): ok holds below the
	// boundary, and the answer is a β at which it holds.
	ok := func(beta float64) bool { return eps(beta) <= target }
	beta, err := numeric.Bisect(ok, math.Max(lo, math.SmallestNonzeroFloat64), hi, 1e-12, false)
	if err != nil || !(beta > 0) || !ok(beta) {
		return 0, field.New("target_epsilon", target, "is too small: no β > 0 in floating point meets it")
	}
	return beta, nil
}
