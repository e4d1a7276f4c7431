package optimizer_test

import (
	"fmt"
	"github.com/privamp/privamp/shifted"
	"math"
	"strings"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/dataset"
)

// Run Skip-PNSGD on a tiny CSV data set and read off the constants the
// privacy analysis needs.
func Example() {
	csv := "x1,x2,y\n0.5,0.1,1\n-0.3,0.4,0\n0.2,-0.6,1\n-0.1,-0.2,0\n"
	data, err := dataset.ReadCSV(strings.NewReader(csv), dataset.CSVOptions{Label: "y"})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = data.MapBinaryLabels() // 0/1 → −1/+1
	obj := optimizer.Objective{Loss: optimizer.Logistic{}}
	c := obj.Constants(data.MaxNorm(), 1, 1)
	fmt.Printf("L = %.4f, β = %.4f, η ≤ 2/β = %.2f\n", c.L, c.Beta, 2/c.Beta)

	r, _ := optimizer.NewRunner(optimizer.Config{Training: shifted.Training{Variant: shifted.VariantSkip, Sigma: 2, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 1}}, R: 1}, obj, data)
	res := r.Run(42)
	fmt.Printf("‖w‖ ≤ R: %v; max gradient norm ≤ L: %v\n", math.Hypot(res.W[0], res.W[1]) <= 1, res.MaxGradNorm <= c.L)

	p, _ := optimizer.PrivacyOf(optimizer.Setting{Variant: optimizer.Skip, N: data.N(), Batch: 1, Epochs: 1, Tasks: 1,
		Eta: 1, Sigma: 2, L: c.Sens, Beta: c.Beta})
	t, eps, _ := p.Worst(1e-5)
	fmt.Printf("worst index %d: ε = %.3f at δ = 1e-5\n", t, eps)
	// Output:
	// L = 0.4130, β = 0.1000, η ≤ 2/β = 20.00
	// ‖w‖ ≤ R: true; max gradient norm ≤ L: true
	// worst index 4: ε = 1.753 at δ = 1e-5
}

// The exact Rényi divergence of the unprojected quadratic loss beside the
// bound of package shifted (docs/amplification.md#exact-gaussian-cases).
func ExampleExactRho() {
	cfg := optimizer.Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 1, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.1}}, R: math.Inf(1)}
	n := 100
	exact, _ := optimizer.ExactRho(cfg, n, 1, 2, n) // ½‖w − x‖², ‖x − x'‖ = 2, last index
	p, _ := optimizer.PrivacyOf(optimizer.Setting{Variant: optimizer.Final, N: n, Batch: 1, Epochs: 1, Tasks: 1,
		Eta: 0.1, Sigma: 1, L: 1, Beta: 1, M: 1})
	c, _ := p.Curve(n)
	fmt.Printf("exact ρ = %.4f ≤ bound ρ = %.4f\n", exact, c.Epsilon(2)/2)
	// Output:
	// exact ρ = 0.3800 ≤ bound ρ = 2.0000
}

// Parameters from Theorem 30 for a target (ε, δ).
func ExampleDerive() {
	p, _ := optimizer.Derive(optimizer.Thm30, optimizer.Target{Epsilon: 1, Delta: 1e-5, N: 10000, D: 10, L: 1, R: 1})
	fmt.Printf("σ = %.4f, η = %.6f, utility bound %.4f\n", p.Sigma, p.Eta, p.PaperUtility)
	// Output:
	// σ = 9.6896, η = 0.000923, utility bound 1.7343
}
