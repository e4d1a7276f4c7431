package optimizer_test

import (
	"fmt"
	"math"
	"strings"

	"github.com/privamp/privamp/shifted"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/rdp"
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

	g, _ := shifted.Training{Variant: shifted.VariantSkip, N: int64(data.N()), Sigma: 2, Delta: 1e-5,
		Loss: shifted.Loss{Lipschitz: c.Sens, Smoothness: c.Beta, Eta: 1}}.Guarantee()
	t := shifted.WorstIndex(g)
	dp, _ := rdp.EpsilonFor(g.Curve(t), 1e-5, rdp.Improved)
	eps := dp.Epsilon
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
	g, _ := shifted.Training{Variant: shifted.VariantPNSGD, N: int64(n), Sigma: 1, Delta: 1e-5,
		Loss: shifted.Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 1, Eta: 0.1}}.Guarantee()
	fmt.Printf("exact ρ = %.4f ≤ bound ρ = %.4f\n", exact, g.Curve(int64(n)).Epsilon(2)/2)
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
