package bst14

import (
	"math"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer"
)

// region.project is the exact Euclidean projection onto C ∩ B(c, ρ): for
// random points in two and three dimensions the answer lies in the region
// and no random point of the region is nearer (4000 candidates each).
func TestRegionProjectExact(t *testing.T) {
	rng := dataset.NewRand(5)
	for trial := 0; trial < 300; trial++ {
		d := 2 + trial%2
		c := make([]float64, d)
		for j := range c {
			c[j] = 2*rng.Float64() - 1
		}
		projectBall(c, 1)
		reg := region{R: 1, Centre: c, Rho: 0.05 + 1.5*rng.Float64()}
		x := make([]float64, d)
		for j := range x {
			x[j] = 6*rng.Float64() - 3
		}
		p := append([]float64(nil), x...)
		reg.project(p)
		if numeric := dist(p, make([]float64, d)); numeric > 1+1e-9 || dist(p, c) > reg.Rho*(1+1e-9) {
			t.Fatalf("region %+v: projection %v of %v lies outside it", reg, p, x)
		}
		best := dist(x, p)
		q := make([]float64, d)
		for k := 0; k < 4000; k++ {
			for j := range q {
				q[j] = c[j] + reg.Rho*(2*rng.Float64()-1)
			}
			if reg.contains(q) && dist(x, q) < best-1e-9 {
				t.Fatalf("region %+v: %v is nearer to %v than the projection %v", reg, q, x, p)
			}
		}
	}
}

// The certificate recomputed independently: stage 1's exact Gaussian ε
// (composition.GaussianEpsilon at sensitivity/σ₁) plus stage 2's PLD ε
// (SGDPLD at its z, T and δ/2) is the certified ε, at most the target, at
// δ/2 + δ/2; C₀'s radius is σ₁(√p + √(6 ln n)) + the solver's distance;
// the checks include the solver's, and a loss steeper than declared makes
// it FAIL (the run's ok is false).
func TestLocalizeGaussCertificate(t *testing.T) {
	s := synth(60, 3, 0.2)
	pr := problem(t, s)
	res, err := runLocalizeGaussProblem(pr, LocalizeGaussParams{TargetEpsilon: 1, Delta: 1e-5, Common: Common{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := res.Stage1, res.Stage2
	e1, err := composition.GaussianEpsilon(s1.Privacy.Sensitivity/float64(s1.Privacy.Scale), 0.5e-5)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := SGDPLD(60, float64(s2.Privacy.NoiseMultiplier), s2.Privacy.Steps, 0.5e-5)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := float64(res.Epsilon), float64(s1.Privacy.Epsilon)+float64(acc.Epsilon); math.Abs(got-want) > 1e-12 || got > 1 || e1 > float64(s1.Privacy.Epsilon)*(1+1e-9) {
		t.Errorf("ε = %v, want stage 1's %v (exact %v) + stage 2's %v = %v ≤ 1", got, s1.Privacy.Epsilon, e1, acc.Epsilon, want)
	}
	if s1.Privacy.Delta != 0.5e-5 || s2.Privacy.Delta != 0.5e-5 || s2.Privacy.Steps != 3600 {
		t.Errorf("stages at δ = %v, %v and T = %d, want δ/2 each and n² steps", s1.Privacy.Delta, s2.Privacy.Delta, s2.Privacy.Steps)
	}
	rho := float64(s1.Privacy.Scale)*(math.Sqrt(3)+math.Sqrt(6*math.Log(60))) + s1.Solver.Distance
	if math.Abs(res.Rho-rho) > 1e-12*rho {
		t.Errorf("ρ = %v, want %v", res.Rho, rho)
	}
	if got := statusOf(res.Checks, "solver: measured distance bound ≤ certified distance"); got != dp.Pass || !res.OK {
		t.Errorf("solver check %s, ok %v", got, res.OK)
	}
	spec := Spec{Data: optimizer.DataSpec{Synthetic: "linear", N: 200, Dimension: 2, Seed: 1}, Loss: optimizer.LossSpec{Name: "squared", L2: 0.1}, Radius: 1}
	steepPr, err := build(spec, Common{Seed: 1}, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	steepPr.Objective.Loss = steep{K: 1e6}
	bad, err := runLocalizeGaussProblem(steepPr, LocalizeGaussParams{TargetEpsilon: 10, Delta: 1e-5, Steps: 1000, Common: Common{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := statusOf(bad.Checks, "solver: measured distance bound ≤ certified distance"); got != dp.Fail || bad.OK {
		t.Errorf("a loss 10⁶× steeper than declared: solver check %s, ok %v, want FAIL and not ok", got, bad.OK)
	}
}

// Refusals name their field; the paper's bound falls with n.
func TestLocalizeGaussRefusalsAndBound(t *testing.T) {
	_, err := RunLocalizeGauss(synth(50, 3, 0), LocalizeGaussParams{TargetEpsilon: 1, Delta: 1e-5})
	wantField(t, err, "l2")
	_, err = RunLocalizeGauss(synth(50, 3, 0.1), LocalizeGaussParams{TargetEpsilon: 1, Delta: 0})
	wantField(t, err, "delta")
	_, err = RunLocalizeGauss(synth(50, 3, 0.1), LocalizeGaussParams{TargetEpsilon: 1, Delta: 1e-5, StepRule: "adam"})
	wantField(t, err, "step_rule")
	prev := math.Inf(1)
	for _, n := range []int{1000, 10000, 100000} {
		b := LocalizeGaussPaperBound(n, 10, 0.83, 1, 0.1, 1, 1, 1e-5, RuleStronglyConvex)
		if !(b < prev) {
			t.Errorf("bound at n = %d is %v, not below %v", n, b, prev)
		}
		prev = b
	}
}
