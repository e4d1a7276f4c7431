package audit_test

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/audit"
	"github.com/privamp/privamp/optimizer/dataset"
	"github.com/privamp/privamp/shifted"
)

// Audit unprojected PNSGD on the linear loss −⟨w, x⟩, whose final iterate is
// Gaussian, so that the empirical lower bound can be set beside the exact ε.
func ExampleRun() {
	const n, d = 10, 2
	data := &dataset.Dataset{D: d, X: make([]float64, n*d), Y: make([]float64, n)}
	for i := 0; i < n; i++ {
		data.X[i*d+1] = 0.5
	}
	obj := optimizer.Objective{Loss: optimizer.LinearLoss{}}
	cfg := optimizer.Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 1 / math.Sqrt(10),
		Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.1}}, R: math.Inf(1)}

	c := audit.NewCanary(obj, data, 1, 0) // x = ±e_1 at index 1, ‖x‖ = 1
	S, Sp := c.Neighbours(data, 1)
	const delta = 0.05
	res, err := audit.Run(cfg, obj, S, Sp, c.Dir, audit.Config{Trials: 4000, Delta: delta, Confidence: 0.95, Seed: 1, Workers: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	rho, _ := optimizer.ExactRho(cfg, n, 0, 2, 1)
	exact := optimizer.GaussianShiftEpsilon(math.Sqrt(2*rho), delta)
	fmt.Printf("exact ε = %.2f; audit lower bound %.1f ≤ exact: %v\n", exact, res.Epsilon, res.Epsilon <= exact)
	// Output:
	// exact ε = 4.57; audit lower bound 3.8 ≤ exact: true
}
