package langevin

import (
	"math"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// Theorem23's schedule recomputed from its definition: t = (e/(2βm))·
// ln(4βL‖C‖₂/δ²) (Lemma B.5), η = 1/(2βM), T = ⌈t/η⌉; its path bound meets
// the target, and 0.01% more β does not (the largest β, to the bisection's
// tolerance). The Gaussian ε of the same path (the exact ε of a shift
// √(Tη)βΔ/√2 in units of its noise) is never above the certified one.
func TestTheorem23Schedule(t *testing.T) {
	for _, c := range []struct{ eps, sens, L, diam, m, M, delta float64 }{
		{1, 0.002, 1.1, 2, 0.1, 0.35, 1e-5},
		{0.3, 0.01, 2, 4, 0.5, 1, 1e-6},
		{4, 1e-4, 1, 2, 0.01, 0.26, 1e-5},
	} {
		s, err := Theorem23(c.eps, c.sens, c.L, c.diam, c.m, c.M, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		b := s.Beta
		tt := math.E / (2 * b * c.m) * math.Log(4*b*c.L*c.diam/(c.delta*c.delta))
		eta := 1 / (2 * b * c.M)
		T := int64(math.Ceil(tt / eta))
		if math.Abs(s.Horizon-tt) > 1e-12*tt || math.Abs(s.Eta-eta) > 1e-15*eta || s.Steps != T {
			t.Errorf("%+v: schedule %+v, want t = %v, η = %v, T = %d", c, s, tt, eta, T)
		}
		rho := float64(T) * eta * b * b * c.sens * c.sens / 4
		e, _ := rdp.LinearEpsilon(rho, c.delta, rdp.Improved)
		if e > c.eps {
			t.Errorf("%+v: ε = %v at Thm 2.3's β, above the target", c, e)
		}
		more := scheduleAt(b*1.0001, c.L, c.diam, c.m, c.M, c.delta)
		if e2, _ := rdp.LinearEpsilon(PathRho(b*1.0001, c.sens, more.Steps, more.Eta), c.delta, rdp.Improved); e2 <= c.eps {
			t.Errorf("%+v: 1.0001β still meets the target (ε = %v): not the largest β", c, e2)
		}
		exact, err := composition.GaussianEpsilon(math.Sqrt(2*rho), c.delta)
		if err != nil || exact > e {
			t.Errorf("%+v: exact Gaussian ε %v above the certified %v (%v)", c, exact, e, err)
		}
		t.Logf("ε = %g: β = %.6g, t = %.4g, T = %d, η = %.4g; certified ε %.6g, exact Gaussian ε %.6g", c.eps, b, tt, T, eta, e, exact)
	}
}

// Certified ≥ true on a run (principle 2): with the quadratic loss the
// drift difference of two neighbours is the same at every θ, so the path of
// a run with Thm 2.3's schedule is exactly a Gaussian mechanism of ρ =
// Tηβ²‖x̄ − x̄′‖²/4, largest at ‖x̄ − x̄′‖ = 2X/n = Δ; its exact ε is never
// above the run's certified ε, which meets the target.
func TestTheorem23RunCertifiesTrue(t *testing.T) {
	pr, err := optimizer.Build(optimizer.DataSpec{Synthetic: "quadratic", N: 50, Dimension: 2, Seed: 3}, optimizer.LossSpec{L2: 0.2},
		1, shifted.Training{Delta: 1e-5, Epochs: 1}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunProblem(pr, Params{Steps: 1, Eta: 1, TargetEpsilon: 1, Delta: 1e-5, Seed: 1, Horizon: HorizonGTU})
	if err != nil {
		t.Fatal(err)
	}
	dv := res.Derived
	if dv.Schedule == nil || dv.Steps != dv.Schedule.Steps || dv.Beta != dv.Schedule.Beta {
		t.Fatalf("no Thm 2.3 schedule in %+v", dv)
	}
	rho := float64(dv.Steps) * dv.Eta * dv.Beta * dv.Beta * dv.GradientSensitivity * dv.GradientSensitivity / 4
	exact, err := composition.GaussianEpsilon(math.Sqrt(2*rho), 1e-5)
	if cert := float64(res.Privacy.Epsilon); err != nil || exact > cert || cert > 1 {
		t.Errorf("certified ε %v, exact ε of the worst neighbours %v (%v): want exact ≤ certified ≤ 1", cert, exact, err)
	}
}

// Thm 2.3's schedule refuses what it cannot do, naming the field: no strong
// convexity, an unbounded domain, a β or ψ given with it, an unknown name.
func TestTheorem23Refuses(t *testing.T) {
	for _, c := range []struct {
		err  error
		name string
	}{
		{func() error { _, err := Theorem23(1, 0.01, 1, 2, 0, 0.25, 1e-5); return err }(), "l2"},
		{func() error { _, err := Theorem23(1, 0.01, 1, math.Inf(1), 0.1, 0.35, 1e-5); return err }(), "radius"},
		{Params{Steps: 1, Eta: 1, Beta: 3, Delta: 1e-5, Horizon: HorizonGTU}.validate(), "horizon"},
		{Params{Steps: 1, Eta: 1, TargetEpsilon: 1, Psi: 0.1, Delta: 1e-5, Horizon: HorizonGTU}.validate(), "horizon"},
		{Params{Steps: 1, Eta: 1, TargetEpsilon: 1, Delta: 1e-5, Horizon: "thm23"}.validate(), "horizon"},
	} {
		if fe, ok := field.As(c.err); !ok || fe.Field != c.name {
			t.Errorf("got %v, want a field error on %s", c.err, c.name)
		}
	}
}
