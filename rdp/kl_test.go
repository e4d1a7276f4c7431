package rdp

import (
	"math"
	"testing"
)

// Issue 10: EpsilonFor lacked the total-variation branch that DeltaFor uses,
// so for tiny ε it printed a positive ε (9.6e-3 here) where dp_accounting's
// RDP accountant (compute_epsilon: ε = 0 when δ² + expm1(−ε(α)) > 0) and the
// PLD give 0. Fails on the old code.
func TestEpsilonForTotalVariation(t *testing.T) {
	const q, z, delta = 2736.0 / 1e7, 3.684200246134407, 0.0001984887157074372
	d := DPSGD{N: 1e7, Batch: 2736, Steps: 2, Noise: z, Delta: delta}
	r, err := d.Account()
	if err != nil || r.Epsilon != 0 {
		t.Fatalf("issue 10 configuration: ε = %v (%v), want 0", r.Epsilon, err)
	}
	// Independent proof that 0 is true: δ(0) is the total variation of the
	// two runs, at most the sum over the 2 steps (a coupling argument), and
	// one step's is TV((1−q)P + qQ, P) = q·TV(Q, P) = q·erf(1/(2√2 z)) for
	// P = N(0, z²), Q = N(1, z²), in either direction.
	tv := 2 * q * math.Erf(1/(2*math.Sqrt2*z))
	if !(tv <= delta) {
		t.Fatalf("independent TV bound %v > δ %v: the test's premise is wrong", tv, delta)
	}
	// The branch fires only when the KL bound certifies δ: at a δ below
	// √(1 − e^{−ε(α)}) the conversion decides, and its ε is positive.
	c := Repeat(SampledGaussian{Q: q, Z: z}, 2)
	klDelta := math.Sqrt(-math.Expm1(-c.Epsilon(1.0001)))
	if klDelta > delta {
		t.Fatalf("KL bound %v does not certify δ %v", klDelta, delta)
	}
	dp, _ := EpsilonFor(c, klDelta/2, Improved)
	if !(dp.Epsilon > 0) || dp.TotalVariation {
		t.Errorf("δ = %v below the KL bound %v: %+v, want ε > 0 by conversion", klDelta/2, klDelta, dp)
	}
	// And EpsilonFor agrees with DeltaFor at ε = 0, which had the branch.
	dd, _ := DeltaFor(c, 0, Improved)
	if dd.Delta > delta {
		t.Errorf("DeltaFor(0) = %v > δ %v while EpsilonFor gives 0", dd.Delta, delta)
	}
	// Classic keeps Mironov's formula alone.
	if cl, _ := EpsilonFor(c, delta, Classic); !(cl.Epsilon > 0) {
		t.Errorf("classic ε = %v, want the plain conversion (> 0)", cl.Epsilon)
	}
	// Linear (zCDP) curves take the same branch: ρ = 1e-10 is the Gaussian with
	// μ = √(2ρ), whose exact δ(0) = erf(μ/(2√2)) ≈ 5.6e-6 is below 1e-4.
	if dp, _ := EpsilonFor(Linear(1e-10), 1e-4, Improved); dp.Epsilon != 0 || math.Erf(math.Sqrt(2e-10)/(2*math.Sqrt2)) > 1e-4 {
		t.Errorf("ρ = 1e-10, δ = 1e-4: %+v, want ε = 0", dp)
	}
	// Gridded curves use their smallest order.
	tab := NewTable([]float64{1.5, 2, 4}, []float64{1e-9, 2e-9, 4e-9})
	if a, ok := KLZero(tab, 1e-4); !ok || a != 1.5 {
		t.Errorf("table: KLZero = %v, %v, want order 1.5, true", a, ok)
	}
	if _, ok := KLZero(tab, 1e-5); ok { // √(1 − e^{−1e-9}) ≈ 3.2e-5 > 1e-5
		t.Error("table: KLZero certified δ = 1e-5 below the bound 3.2e-5")
	}
}
