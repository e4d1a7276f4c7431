package tables

import "github.com/privamp/privamp/zcdp"

// rhoFor is zcdp.RhoFor for inputs the callers have already validated.
func rhoFor(eps, delta float64, m zcdp.Method) float64 {
	r, _ := zcdp.RhoFor(eps, delta, m)
	return r
}
