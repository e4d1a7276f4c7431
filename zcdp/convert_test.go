package zcdp

import (
	"fmt"
	"math"
	"testing"
)

func TestConversions(t *testing.T) {
	// ρ* of (1, 1e-6) and its noise multiplier (dp_accounting: 4.530877117).
	m, err := ToRho(1, 1e-6)
	if err != nil || math.Abs(float64(m.NoiseMultiplier)-4.530877117)/4.530877117 > 1e-6 {
		t.Fatalf("ρ*: %+v %v", m, err)
	}
	if float64(m.NoiseMultiplier) != 1/math.Sqrt(2*float64(m.Rho)) || m.BunSteinkeRho > m.Rho {
		t.Errorf("ρ* fields: %+v", m)
	}
	// Bun–Steinke's closed form, written out.
	L := math.Log(1e6)
	if bs := math.Pow(math.Sqrt(L+1)-math.Sqrt(L), 2); math.Abs(float64(m.BunSteinkeRho)-bs) > 1e-12*bs {
		t.Errorf("Bun–Steinke ρ* %v, closed form %v", m.BunSteinkeRho, bs)
	}
	e, _ := ToEpsilon(float64(m.Rho), 1e-6)
	if e.Epsilon > 1 || e.Epsilon < 1-1e-6 || e.BunSteinkeEpsilon < e.Epsilon {
		t.Errorf("round trip ε: %+v", e)
	}
	d, _ := ToDelta(float64(m.Rho), 1)
	if d.Delta > 1e-6*(1+1e-9) || d.ClassicDelta < d.Delta {
		t.Errorf("round trip δ: %+v", d)
	}
	if _, err := ToEpsilon(-1, 0.1); err == nil {
		t.Error("ρ < 0 accepted")
	}
}

func ExampleToRho() {
	m, _ := ToRho(1, 1e-6)
	fmt.Println(m.Rho, m.NoiseMultiplier)
	// Output: 0.0243559 4.53088
}
