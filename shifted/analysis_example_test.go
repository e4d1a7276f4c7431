package shifted_test

import (
	"fmt"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// One Training, analysed for its final iterate and, beside it, for every
// iterate released.
func ExampleAnalyze() {
	run := shifted.Training{Variant: shifted.VariantPNSGD, N: 100_000, Sigma: 4, Delta: 1e-5, Loss: shifted.Loss{Lipschitz: 1}}
	a, err := shifted.Analyze(run, shifted.Options{Conversion: rdp.Improved, Target: 0.01})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: worst ε = %.4f, median ε = %.4f\n", a.Name, a.Summary.Worst.Epsilon, a.Summary.Median().Epsilon)
	fmt.Printf("%.1f%% of the records have ε ≤ 0.01; every iterate released: ε = %s\n", 100*a.Summary.ShareUnder, a.AllIteratesEpsilon)
	// Output:
	// single-pass PNSGD: worst ε = 2.1657, median ε = 0.0058
	// 80.9% of the records have ε ≤ 0.01; every iterate released: ε = 2.16572
}

// The main job: DP-SGD's MNIST run as fixed-order noisy SGD, against
// sampling (whose replace-one bound is loose, by up to the ratio shown).
func ExampleCompareTraining() {
	run := shifted.Training{Variant: shifted.VariantPNSGD, N: 60000, Batch: 256, Epochs: 60, Sigma: 1.1 / 256, Delta: 1e-5, Loss: shifted.Loss{Lipschitz: 1}}
	c, err := shifted.CompareTraining(run, shifted.Options{Conversion: rdp.Improved})
	if err != nil {
		panic(err)
	}
	fmt.Printf("iteration: worst ε = %.4f; sampling (replace-one) ε = %s, up to %s× loose\n", c.Iteration.Worst.Epsilon, c.SamplingReplaceOneEpsilon, c.SamplingLooseness)
	fmt.Printf("iteration wins for %d of %d records\n", c.IterationWins, c.N)
	// Output:
	// iteration: worst ε = 10.9457; sampling (replace-one) ε = 5.78826, up to 2.42673× loose
	// iteration wins for 58880 of 60000 records
}
