package plan

import (
	"math"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/zcdp"
)

// TestRhoStar: RhoStar inverts rdp.LinearEpsilon (the converted ε never
// exceeds the target and is within 1e-10 of it), agrees with zcdp.RhoFor
// where that golden-section search converges, and is never below it.
func TestRhoStar(t *testing.T) {
	for _, eps := range []float64{1e-4, 0.01, 0.1, 0.5, 1, 2, 4, 10, 50} {
		for _, delta := range []float64{1e-12, 1e-9, 1e-6, 1e-3, 0.1} {
			for _, conv := range []rdp.Conversion{rdp.Improved, rdp.Classic} {
				rho := RhoStar(eps, delta, conv)
				e, _ := rdp.LinearEpsilon(rho, delta, conv)
				if e > eps || !relClose(e, eps, 1e-10) {
					t.Errorf("ε=%g δ=%g %v: ρ* = %v converts to %v", eps, delta, conv, rho, e)
				}
				m := zcdp.RDP
				if conv == rdp.Classic {
					m = zcdp.BunSteinke
				}
				ref, _ := zcdp.RhoFor(eps, delta, m)
				if rho < ref*(1-1e-12) || !relClose(rho, ref, 1e-9) {
					t.Errorf("ε=%g δ=%g %v: ρ* = %.15g, zcdp.RhoFor %.15g", eps, delta, conv, rho, ref)
				}
				// Larger ρ breaks the target: ρ* is the largest.
				if e2, _ := rdp.LinearEpsilon(rho*(1+1e-9), delta, conv); e2 <= eps {
					t.Errorf("ε=%g δ=%g %v: (1 + 1e−9)ρ* still meets ε", eps, delta, conv)
				}
			}
		}
	}
	if !math.IsNaN(RhoStar(-1, 1e-6, rdp.Improved)) || !math.IsNaN(RhoStar(1, 1, rdp.Improved)) || RhoStar(0, 1e-6, rdp.Improved) != 0 {
		t.Error("out-of-range inputs")
	}
}
