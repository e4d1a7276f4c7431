package algorithms_test

import (
	"fmt"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/algorithms"
)

// Run a catalogued algorithm by name with one parameter set, as privamp run
// --algorithm langevin --steps 500 does.
func Example() {
	a, err := algorithms.Lookup("langevin")
	if err != nil {
		panic(err)
	}
	params := a.Params()
	if err := algorithms.Set(params, "steps", "500"); err != nil {
		panic(err)
	}
	rep, err := a.Run(algorithms.Input{
		Data:   optimizer.DataSpec{Synthetic: "logistic", N: 500, Dimension: 5, Seed: 1},
		Loss:   optimizer.LossSpec{L2: 0.1},
		Radius: 1,
	}, params)
	if err != nil {
		panic(err)
	}
	for _, l := range rep.Lines {
		if l.Kind == algorithms.Certified {
			fmt.Printf("%s: %v\n", l.Quantity, l.Value)
		}
	}
	fmt.Println(rep.OK)
	// Output:
	// ρ (path zCDP): 0.0305566
	// ε at δ = 1e-05: 1
	// ε (GTU Fact A.4): 1.21681
	// true
}
