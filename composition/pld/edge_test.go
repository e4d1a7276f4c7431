package pld

import (
	"math"
	"testing"

	"github.com/privamp/privamp/internal/field"
)

// Extreme but valid inputs give a finite or +Inf sound ε that is never
// below the optimistic estimate, and never NaN; oversized grids are
// refused as field errors, not panics.
func TestExtremeInputs(t *testing.T) {
	for _, c := range []struct {
		q, z  float64
		k     int
		delta float64
	}{
		{1e-9, 1, 10, 1e-5}, {1, 0.3, 1, 1e-5}, {0.5, 0.2, 3, 1e-3}, {0.01, 50, 100, 1e-5},
		{0.3, 1, 1, 0.5}, {1e-4, 0.5, 100000, 1e-6}, {1, 20, 1, 0.999},
	} {
		r, err := DPSGD(c.q, c.z, c.k, c.delta, Options{Interval: 1e-3})
		if err != nil {
			if _, ok := field.As(err); !ok {
				t.Errorf("%+v: %v is not a field error", c, err)
			}
			continue
		}
		e, o := float64(r.Epsilon), float64(r.EpsilonOptimistic)
		t.Logf("%+v: sound %v, optimistic %v, %d points", c, e, o, r.Points)
		if math.IsNaN(e) || math.IsNaN(o) || o > e || e < 0 {
			t.Errorf("%+v: sound %v, optimistic %v", c, e, o)
		}
		if c.q == 1 && c.k == 1 { // the Gaussian mechanism: exact oracle
			exact, _ := exactGaussianEpsilon(1/c.z, c.delta)
			if e < exact-1e-12 || e > exact+2e-3 || o > exact+1e-12 {
				t.Errorf("%+v: sound %v, optimistic %v, exact %v", c, e, o, exact)
			}
		}
	}
}
