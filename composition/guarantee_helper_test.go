package composition

import "github.com/privamp/privamp/dp"

// gd is the guarantee (ε, δ) of a mechanism, as the tests write it.
func gd(eps, delta float64) dp.Guarantee {
	return dp.Guarantee{Epsilon: dp.Loss(eps), Delta: dp.Loss(delta)}
}
