package composition_test

import (
	"fmt"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
)

// The ε of DP-SGD on MNIST (60,000 examples, batches of 256 by Poisson
// sampling, noise multiplier 1.1, 60 epochs = 14,063 steps) at δ = 1e-5 by
// the tightest sound accountant: the smaller of the PLD and the RDP bound,
// the number `privamp dpsgd` prints (the README's library example).
func ExampleTightest() {
	run := dp.DPSGD(256.0/60000, 1.1, 14063, dp.Poisson)
	g, err := composition.Tightest().Epsilon(run, dp.AddRemove, 1e-5)
	fmt.Println(g.Epsilon, g.Accountant, err)
	// Output: 2.38178 pld <nil>
}
