package langevin_test

import (
	"fmt"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/langevin"
)

// Example runs noisy gradient descent as discretised Langevin diffusion on
// synthetic logistic data with an ℓ2 term, β calibrated to (1, 10⁻⁵) for
// the whole path, and the coupled-trajectory check.
func Example() {
	res, err := langevin.Run(langevin.Spec{
		Data:   optimizer.DataSpec{Synthetic: "logistic", N: 1000, Dimension: 5, Seed: 1},
		Loss:   optimizer.LossSpec{L2: 0.1},
		Radius: 5,
		Params: langevin.Params{Steps: 1000, Eta: 0.05, TargetEpsilon: 1, Delta: 1e-5, Coupling: true, Seed: 2},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	d, p := res.Derived, res.Privacy
	fmt.Printf("Δ = %.4g, β = %.4f, t = Tη = %g\n", d.GradientSensitivity, d.Beta, p.Horizon)
	fmt.Printf("path: ρ = %.4f, ε = %.4f at δ = %g (classic %.4f)\n", float64(p.Rho), float64(p.Epsilon), p.Delta, float64(p.EpsilonClassic))
	fmt.Printf("excess empirical risk %.4f (exact-Gibbs bound on its mean p/β = %.4f)\n", res.Measured.ExcessRisk, float64(d.GibbsExcessBound))
	fmt.Println(res.Coupling.Check.Name, res.Coupling.Check.Status, res.OK)
	// Output:
	// Δ = 0.001987, β = 24.8877, t = Tη = 50
	// path: ρ = 0.0306, ε = 1.0000 at δ = 1e-05 (classic 1.2168)
	// excess empirical risk 0.2067 (exact-Gibbs bound on its mean p/β = 0.2009)
	// coupled paths ‖θ_k − θ′_k‖ ≤ hΔ(1 − c^k)/(1 − c) ≤ Δ/m PASS true
}

// ExamplePathPrivacy is seed 000's notes §5 vector 1: β = 100, Δ = 0.01,
// t = 1.
func ExamplePathPrivacy() {
	p, _ := langevin.PathPrivacy(100, 0.01, 100, 0.01, 1e-5)
	fmt.Printf("ρ = %.4f, ε = %.5f (classic %.5f), per-step z = %.4f\n", float64(p.Rho), float64(p.Epsilon), float64(p.EpsilonClassic), float64(p.NoiseMultiplier))
	// Output:
	// ρ = 0.2500, ε = 3.18897 (classic 3.64307), per-step z = 14.1421
}
