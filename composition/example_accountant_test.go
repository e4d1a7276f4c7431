package composition_test

import (
	"fmt"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
)

// The ε of DP-SGD (sampling rate 0.01, noise multiplier 1.1, 10,000 steps)
// at δ = 1e-5 by the tightest sound accountant: the smaller of the PLD and
// the RDP bound.
func ExampleTightest() {
	acct := composition.Tightest()
	g, err := acct.Epsilon(dp.DPSGD(0.01, 1.1, 10000, dp.Poisson), dp.AddRemove, 1e-5)
	fmt.Println(g.Epsilon, g.Accountant, err)
	// Output: 5.19263 pld <nil>
}
