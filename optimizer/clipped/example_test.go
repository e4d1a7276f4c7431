package clipped_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/optimizer/clipped"
)

// The clipped mean of three gradients, one of them an outlier, at ρ = 1.
func ExampleMeanOracle1() {
	samples := [][]float64{{1, 0}, {0, 1}, {300, 400}}
	dst := make([]float64, 2)
	o, err := clipped.MeanOracle1(dst, samples, 5, 1, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Δ = 2τ/s = %.4f, σ = %.4f, clipped %d\n", o.Sensitivity, o.Sigma, o.Clipped)
	// Output:
	// Δ = 2τ/s = 3.3333, σ = 2.3570, clipped 1
}

// Thm 31's choices for Algorithm 2 (the notes' vector: n = 10⁶, d = 100,
// ρ = 1, k = 4, r_4 = 204^{1/4}, β = 1, D = 1).
func ExamplePlanACSA() {
	m := clipped.Moments{K: 4, RK: math.Pow(204, 0.25), R2: 2}
	p, err := clipped.PlanACSA(1_000_000, 100, m, 1, 0.5, 1, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("T = %d, s = %d, τ = %.3f, σ = %.4e\n", p.Steps, p.Batch, p.Tau, p.Sigma)
	// Output:
	// T = 22, s = 45454, τ = 45.667, σ = 1.4208e-03
}

// A target (ε, δ) = (1, 1e-5) gives the largest ρ whose conversion is ≤ 1.
func ExampleBudget() {
	rho, _, err := clipped.Budget(0, 1, 1e-5)
	fmt.Printf("ρ = %.5f %v\n", rho, err)
	// Output:
	// ρ = 0.03056 <nil>
}

// Algorithm 2 against PNSGD with the worst-case Lipschitz constant on
// heavy-tailed data at ε = 1.
func ExampleCompare() {
	s := clipped.DefaultCompareSpec()
	s.N, s.Repeats, s.Epsilons, s.Methods = 5000, 5, []float64{1}, []string{clipped.ACSA, clipped.PNSGD}
	c, err := clipped.Compare(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range c.Rows {
		fmt.Printf("%s: certified ε ≤ 1: %v, below ½‖μ‖² = 0.5: %v\n", r.Method, r.CertifiedEpsilon <= 1, r.Mean < 0.3)
	}
	// Output:
	// clipped-acsa: certified ε ≤ 1: true, below ½‖μ‖² = 0.5: true
	// pnsgd-worst-case: certified ε ≤ 1: true, below ½‖μ‖² = 0.5: false
}
