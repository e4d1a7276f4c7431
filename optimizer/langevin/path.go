package langevin

import "github.com/privamp/privamp/dp"

import "math"

// Seed 000's (Ganesh, Thakurta, Upadhyay) path privacy, written once: the
// run's certificate (PathRho, PathPrivacy) and package tables' calculator
// (`privamp calc langevin`) both use these.

// GradientSensitivity returns Δ = sup_θ ‖∇L(θ;D) − ∇L(θ;D′)‖₂ for the
// average of n losses whose gradients differ by at most sens between two
// records (sens = 2·X·sup|φ'| for a GLM; for L-Lipschitz losses the bound
// on one record's gradient is L): 2·sens/n when neighbours replace one
// record, sens/n when they add or remove one
// (docs/seeds.md#seed-000-gradient-sensitivity: Thm 2.5's proof uses 2L/n,
// Thm 2.3's L/n, which is right only for add/remove accounting).
func GradientSensitivity(sens, n float64, rel dp.Relation) float64 {
	return rel.Sensitivity() * sens / n
}

// HorizonRho is the slope ρ of the RDP curve R_α ≤ αρ of the whole
// trajectory {θ_s}, s ∈ [0, t], of Langevin diffusion dθ = −β∇L(θ;D)dt +
// √2 dW (projected or not) run on neighbouring data sets from the same
// initial distribution: ρ = β²Δ²t/4 (seed 000, Lemma 2.2), so the path is
// ρ-zCDP. Noisy gradient descent θ_{k+1} = θ_k − ηβ∇L(θ_k) + N(0, 2ηI) for
// T steps has the same curve with t = Tη (Lemma 3.1), and one step has
// ρ = ηβ²Δ²/4. No convexity or smoothness is needed.
func HorizonRho(beta, sensitivity, horizon float64) float64 {
	return horizon * beta * beta * sensitivity * sensitivity / 4
}

// StepNoiseMultiplier is z = √(2/η)/(βΔ): one step θ ← θ − ηβ∇L + N(0, 2ηI)
// is the Gaussian mechanism θ ← θ − h(∇L + N(0, (zΔ)²I)) with h = ηβ, and
// its ρ = 1/(2z²) = ηβ²Δ²/4.
func StepNoiseMultiplier(eta, beta, sensitivity float64) float64 {
	return math.Sqrt(2/eta) / (beta * sensitivity)
}
