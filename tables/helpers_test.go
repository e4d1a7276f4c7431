package tables

import (
	"github.com/privamp/privamp/rdp"

	"math"
	"testing"
)

// near reports whether got is within relative tolerance tol of want.
func near(got, want, tol float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), 1e-300)
}

func checkNear(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if !near(got, want, tol) {
		t.Errorf("%s = %.10g, want %.10g (rel tol %g)", name, got, want, tol)
	}
}

func epsImproved(rho, delta float64) float64 {
	e, _ := rdp.LinearEpsilon(rho, delta, rdp.Improved)
	return e
}
