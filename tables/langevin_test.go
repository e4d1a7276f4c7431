package tables

import (
	"github.com/privamp/privamp/dp"
	"math"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// docs/seeds.md#seed-000-test-vectors, vectors 1, 2, 4 and 12.
func TestLangevinVectors(t *testing.T) {
	r, err := Langevin(100, 0.01, 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "ρ", r.Rho, 0.25, 1e-15)
	checkNear(t, "α* classic", r.OrderClassic, 7.7861, 1e-4)
	checkNear(t, "ε classic", r.EpsilonClassic, 3.64307, 1e-5)
	// Independent: ε = ρ + 2√(ρ ln(1/δ)).
	checkNear(t, "ε classic closed form", r.EpsilonClassic, 0.25+2*math.Sqrt(0.25*math.Log(1e5)), 1e-12)
	if !(r.Epsilon < r.EpsilonClassic) {
		t.Errorf("improved %v not below classic %v", r.Epsilon, r.EpsilonClassic)
	}
	// The improved ε must equal the curve's conversion by the generic path.
	dp, _ := rdp.EpsilonFor(rdp.Gaussian(1, r.NoiseMultiplier), 1e-5, rdp.Improved)
	checkNear(t, "same curve as Gaussian(z)", dp.Epsilon, r.Epsilon, 1e-9)

	inv, err := LangevinBetaFor(1, 1e-5, 0.01, 1000*0.01)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "β paper", inv.BetaPaper, 18.6396, 1e-5)
	checkNear(t, "ρ paper", inv.RhoPaper, 0.0868589, 1e-5)
	checkNear(t, "actual ε (classic)", inv.PaperEpsilonClassic, 2.08686, 1e-5)
	checkNear(t, "actual ε = 2ε + ε²/ln(1/δ)", inv.PaperEpsilonClassic, 2+1/math.Log(1e5), 1e-12)
	checkNear(t, "β_max", inv.BetaClassic, 9.12577, 1e-5)
	checkNear(t, "ρ*", inv.RhoClassic, 0.0208199, 1e-5)
	if !(inv.LooseFactor > 1.9 && inv.LooseFactor < 2.1) {
		t.Errorf("loose factor %v, want ≈ 2", inv.LooseFactor)
	}
	// Round trips: β_classic gives exactly ε classically; β_improved gives ≤ ε improved.
	back, _ := Langevin(inv.BetaClassic, 0.01, 10, 1e-5)
	checkNear(t, "round trip classic", back.EpsilonClassic, 1, 1e-9)
	back, _ = Langevin(inv.BetaImproved, 0.01, 10, 1e-5)
	if !(back.Epsilon <= 1 && back.Epsilon > 1-1e-6) {
		t.Errorf("round trip improved: ε = %v", back.Epsilon)
	}
	if !(inv.BetaImproved >= inv.BetaClassic) {
		t.Errorf("improved β %v below classic %v", inv.BetaImproved, inv.BetaClassic)
	}

	h, z, rho, err := SGLDStep(0.01, 100, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "h", h, 1, 1e-15)
	checkNear(t, "z", z, 14.1421, 1e-5)
	checkNear(t, "per-step ρ", rho, 0.0025, 1e-12)
	checkNear(t, "1/(2z²)", 1/(2*z*z), rho, 1e-12)
}

// TestLangevinEulerExact checks Lemma 2.2 against an exact computation: the
// Euler–Maruyama chain for a linear loss L(θ; D) = −⟨θ, g_D⟩ with
// ‖g_D − g_D′‖ = Δ is Gaussian; its path divergence is the sum of K
// Gaussian steps, each α(βΔt/K)²/(2·2t/K) = αβ²Δ²t/(4K): the bound is exact.
func TestLangevinEulerExact(t *testing.T) {
	beta, delta, horizon := 3.0, 0.2, 5.0
	c, err := LangevinPath(beta, delta, horizon)
	if err != nil {
		t.Fatal(err)
	}
	for _, K := range []float64{1, 10, 1000} {
		step := rdp.Gaussian(beta*delta*horizon/K, math.Sqrt(2*horizon/K))
		total := rdp.Repeat(step, K).Epsilon(7)
		checkNear(t, "Euler path", total, c.Epsilon(7), 1e-12)
	}
}

func TestLangevinRefusals(t *testing.T) {
	for _, f := range []func() error{
		func() error { _, err := Langevin(0, 1, 1, 0.1); return err },
		func() error { _, err := Langevin(1, 1, 1, 1); return err },
		func() error { _, err := Langevin(1, math.Inf(1), 1, 0.1); return err },
		func() error { _, err := LangevinBetaFor(1, 0, 1, 1); return err },
		func() error { _, err := GradientSensitivity(1, 0.5, dp.ReplaceOne); return err },
	} {
		if f() == nil {
			t.Error("bad input accepted")
		}
	}
	s, _ := GradientSensitivity(1, 100, dp.ReplaceOne)
	a, _ := GradientSensitivity(1, 100, dp.AddRemove)
	checkNear(t, "replace-one", s, 0.02, 1e-15)
	checkNear(t, "add/remove", a, 0.01, 1e-15)
}
