package bst14_test

import (
	"fmt"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/bst14"
)

var shipped = optimizer.DataSpec{Path: "../../testdata/breast_cancer.csv", Label: "malignant", Standardize: true, Normalize: true}

// Noisy SGD on the shipped data with σ calibrated to ε = 1 at δ = 1e-5, a
// thousand steps instead of n² to keep the example short.
func ExampleRunSGD() {
	res, err := bst14.RunSGD(bst14.Spec{Data: shipped, Radius: 1},
		bst14.SGDParams{TargetEpsilon: 1, Delta: 1e-5, Steps: 1000, Common: bst14.Common{Seed: 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("certified ε ≤ 1: %v; paper's σ / calibrated σ > 1: %v\n", float64(res.Privacy.Epsilon) <= 1, res.Paper.NoiseRatio > 1)
	// Output: certified ε ≤ 1: true; paper's σ / calibrated σ > 1: true
}

// Output perturbation needs a strongly convex loss; without an ℓ2 weight it
// refuses and says why.
func ExampleRunOutput() {
	_, err := bst14.RunOutput(bst14.Spec{Data: shipped, Radius: 1}, bst14.OutputParams{TargetEpsilon: 1, Noise: bst14.NoiseGamma})
	fmt.Println(err != nil)
	res, _ := bst14.RunOutput(bst14.Spec{Data: shipped, Radius: 1, Loss: optimizer.LossSpec{L2: 0.01}}, bst14.OutputParams{TargetEpsilon: 1, Noise: bst14.NoiseGamma})
	fmt.Printf("sensitivity %.4f\n", res.Privacy.Sensitivity)
	// Output:
	// true
	// sensitivity 0.2570
}

// The exponential mechanism on two of the shipped features.
func ExampleRunExpMech() {
	res, err := bst14.RunExpMech(bst14.Spec{Data: shipped, Radius: 1},
		bst14.ExpMechParams{TargetEpsilon: 1, Common: bst14.Common{Features: "mean_radius,mean_texture", Seed: 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("p = %d, ε = %v, Thm 3.2 mean bound %.2f\n", res.Dimension, res.Privacy.Epsilon, res.Bound.MeanBST)
	// Output: p = 2, ε = 1, Thm 3.2 mean bound 50.25
}
