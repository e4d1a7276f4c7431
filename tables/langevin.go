package tables

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/optimizer/langevin"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/zcdp"
)

// Seed 000: the path privacy of (projected) Langevin diffusion, Lemma 2.2,
// and of its discretisation, noisy gradient descent / SGLD, Lemma 3.1. The
// formulas are package langevin's (GradientSensitivity, HorizonRho,
// StepNoiseMultiplier), which certifies runs with them; this file checks
// the calculator's inputs and adds the conversions and the sources.

// GradientSensitivity returns Δ = sup_θ ‖∇L(θ;D) − ∇L(θ;D′)‖₂ for the
// average of n L-Lipschitz losses: 2L/n when neighbours replace one record,
// L/n when they add or remove one (docs/seeds.md#seed-000-gradient-sensitivity: Thm 2.5's proof uses 2L/n,
// Thm 2.3's L/n, which is right only for add/remove accounting).
func GradientSensitivity(lipschitz, n float64, rel dp.Relation) (float64, error) {
	if err := positiveFinite("lipschitz", lipschitz); err != nil {
		return 0, err
	}
	if err := integerAtLeast("n", n, 1); err != nil {
		return 0, err
	}
	return langevin.GradientSensitivity(lipschitz, n, rel), nil
}

// LangevinPath returns the RDP curve of the whole trajectory {θ_s}, s ∈
// [0, t], of Langevin diffusion dθ = −β∇L(θ;D)dt + √2 dW (projected or not)
// run on neighbouring data sets from the same initial distribution:
// R_α ≤ αβ²Δ²t/4 for all α ≥ 1 (seed 000, Lemma 2.2), that is ρ-zCDP with
// ρ = β²Δ²t/4. Noisy gradient descent θ_{k+1} = θ_k − ηβ∇L(θ_k) + N(0, 2ηI)
// for T steps has the same curve with t = Tη (Lemma 3.1). No convexity or
// smoothness is needed.
func LangevinPath(beta, sensitivity, horizon float64) (rdp.Linear, error) {
	if err := firstError(positiveFinite("beta", beta), positiveFinite("sensitivity", sensitivity), positiveFinite("horizon", horizon)); err != nil {
		return 0, err
	}
	return rdp.Linear(langevin.HorizonRho(beta, sensitivity, horizon)), nil
}

// LangevinSource is the citation of the Langevin calculators.
var LangevinSource = Source{
	Paper:   paperGTU,
	Seed:    "000",
	Theorem: "Lemma 2.2 (Langevin diffusion path RDP), Lemma 3.1 (noisy GD / SGLD)",
	Assumptions: []string{
		"θ₀ and θ′₀ have the same distribution (data-independent initialisation)",
		"‖∇L(θ;D) − ∇L(θ;D′)‖₂ ≤ Δ for ALL θ (Δ = 2L/n for L-Lipschitz losses averaged over n records, replace-one)",
		"no convexity and no smoothness needed; projection onto C is post-processing",
		"the whole path on [0, t] is covered: any stopping time ≤ t, any average of iterates, any prefix",
	},
	Validity: "β > 0, Δ > 0, t > 0 (t = Tη for T steps of size η), δ ∈ (0, 1), ε > 0",
}

// LangevinResult is the privacy of a Langevin path.
type LangevinResult struct {
	Beta, Sensitivity, Horizon, Delta float64
	Curve                             rdp.Linear // αβ²Δ²t/4
	Rho                               float64    // β²Δ²t/4
	Epsilon, Order                    float64    // improved conversion (CKS20 Prop. 12), optimal α
	EpsilonClassic, OrderClassic      float64    // Mironov Prop. 3 = seed 000 Fact A.4: ρ + 2√(ρ ln(1/δ))
	// NoiseMultiplier is z = √2/(βΔ√t): the Gaussian mechanism with noise
	// multiplier z has the same curve (ρ = 1/(2z²)).
	NoiseMultiplier float64
	Source          Source
}

// Langevin returns the (ε, δ) guarantee of the Langevin path up to horizon t
// (Lemma 2.2; t = Tη for noisy GD, Lemma 3.1).
func Langevin(beta, sensitivity, horizon, delta float64) (LangevinResult, error) {
	c, err := LangevinPath(beta, sensitivity, horizon)
	if err != nil {
		return LangevinResult{}, err
	}
	if err := openUnit("delta", delta); err != nil {
		return LangevinResult{}, err
	}
	r := LangevinResult{Beta: beta, Sensitivity: sensitivity, Horizon: horizon, Delta: delta, Curve: c, Rho: c.Rho(), Source: LangevinSource}
	r.Epsilon, r.Order = rdp.LinearEpsilon(r.Rho, delta, rdp.Improved)
	r.EpsilonClassic, r.OrderClassic = rdp.LinearEpsilon(r.Rho, delta, rdp.Classic)
	r.NoiseMultiplier = math.Sqrt2 / (beta * sensitivity * math.Sqrt(horizon))
	return r, nil
}

// SGLDStep maps one SGLD step θ ← θ − ηβ∇L + N(0, 2ηI) to the DP-GD form
// θ ← θ − h(∇L + N(0, (zΔ)²I)): h = ηβ and z = √(2/η)/(βΔ); the per-step
// RDP is α/(2z²) = αηβ²Δ²/4 (docs/seeds.md#seed-000-langevin-path-and-noisy-gradient-descent).
func SGLDStep(eta, beta, sensitivity float64) (stepSize, noiseMultiplier, rhoPerStep float64, err error) {
	if err := firstError(positiveFinite("eta", eta), positiveFinite("beta", beta), positiveFinite("sensitivity", sensitivity)); err != nil {
		return 0, 0, 0, err
	}
	return eta * beta, langevin.StepNoiseMultiplier(eta, beta, sensitivity), langevin.HorizonRho(beta, sensitivity, eta), nil
}

// LangevinInverse is the largest inverse temperature β for a target (ε, δ).
type LangevinInverse struct {
	Epsilon, Delta, Sensitivity, Horizon float64

	// BetaClassic = 2(√(ln(1/δ)+ε) − √ln(1/δ))/(Δ√t): the exact inverse of
	// the classic conversion (Fact A.4 optimised over α).
	BetaClassic, RhoClassic float64
	// BetaImproved is the exact inverse under the improved conversion
	// (CKS20 Prop. 12), by bisection on ρ; never below BetaClassic.
	BetaImproved, RhoImproved float64
	// BetaPaper = 2ε/(Δ√(t ln(1/δ))): Lemma 3.1's sufficient condition.
	BetaPaper, RhoPaper float64
	// PaperEpsilon is the ε that β = BetaPaper actually gives (improved
	// conversion); PaperEpsilonClassic under the classic one, which equals
	// 2ε + ε²/ln(1/δ): the paper's condition is about 2× loose.
	PaperEpsilon, PaperEpsilonClassic float64
	// LooseFactor = BetaPaper/BetaClassic (≈ 2 for small ε).
	LooseFactor float64
	Source      Source
}

// LangevinBetaFor returns the β that makes the Langevin path up to horizon t
// (ε, δ)-DP, beside Lemma 3.1's sufficient condition and what that
// condition really gives. Lemma 3.1 claims β ≤ 2ε/(Δ√(Tη ln(1/δ))) suffices;
// it gives ρ = ε²/ln(1/δ) and so ε_out = 2ε + ε²/ln(1/δ) by the paper's own
// Fact A.4 (docs/errata.md#langevin-gtu-lemma-31): the condition is about 2× loose, and the
// exact inverse is BetaClassic.
func LangevinBetaFor(eps, delta, sensitivity, horizon float64) (LangevinInverse, error) {
	if err := firstError(positiveFinite("epsilon", eps), openUnit("delta", delta), positiveFinite("sensitivity", sensitivity), positiveFinite("horizon", horizon)); err != nil {
		return LangevinInverse{}, err
	}
	inv := LangevinInverse{Epsilon: eps, Delta: delta, Sensitivity: sensitivity, Horizon: horizon, Source: LangevinSource}
	betaOf := func(rho float64) float64 { return 2 * math.Sqrt(rho) / (sensitivity * math.Sqrt(horizon)) }
	l := -math.Log(delta)
	inv.RhoClassic = rhoFor(eps, delta, zcdp.BunSteinke)
	inv.BetaClassic = betaOf(inv.RhoClassic)
	inv.RhoImproved = rhoFor(eps, delta, zcdp.RDP)
	inv.BetaImproved = betaOf(inv.RhoImproved)
	inv.BetaPaper = 2 * eps / (sensitivity * math.Sqrt(horizon*l))
	inv.RhoPaper = inv.BetaPaper * inv.BetaPaper * sensitivity * sensitivity * horizon / 4
	inv.PaperEpsilon, _ = rdp.LinearEpsilon(inv.RhoPaper, delta, rdp.Improved)
	inv.PaperEpsilonClassic, _ = rdp.LinearEpsilon(inv.RhoPaper, delta, rdp.Classic)
	inv.LooseFactor = inv.BetaPaper / inv.BetaClassic
	inv.Source.Notes = []string{
		"Lemma 3.1's condition β ≤ 2ε/(Δ√(Tη ln(1/δ))) is about 2× loose: it gives ρ = ε²/ln(1/δ), hence ε_out = 2ε + ε²/ln(1/δ) > ε by the paper's Fact A.4; privamp uses the exact inverse (see docs/errata.md §Langevin GTU Lemma 3.1)",
	}
	return inv, nil
}

func firstError(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
