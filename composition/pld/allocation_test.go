package pld

import (
	"math"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/numeric"
)

// exactAllocation is the exact privacy profile of one epoch of random
// allocation over t ∈ {1, 2, 3} steps (the record's contribution 1 in the
// step it is allocated to, noise z), both directions: δ_remove(ε) =
// E_Q[(S − e^ε)_+], δ_add(ε) = E_Q[(1 − e^ε S)_+], S = (1/t)Σ e^{Y_i}. The
// last coordinate is integrated in closed form (a call or a put on a
// lognormal), the others by the trapezoid rule: an enumeration over the
// allocations independent of the PLD code (the oracle of
// rdp.TestAllocationNeverBelowExact, with the directions apart).
func exactAllocation(steps int, z, eps float64) (rem, add float64) {
	s := 1 / z
	tf := float64(steps)
	var r, a numeric.Kahan
	ey := func(x float64) float64 { return math.Exp(-s*s/2 + s*x) }
	inner := func(c, wt float64) {
		r.Add(wt * numeric.LogNormalCall(tf*(math.Exp(eps)-c), s) / tf)
		a.Add(wt * math.Exp(eps) / tf * numeric.LogNormalPut(tf*(math.Exp(-eps)-c), s))
	}
	const lim = 10.0
	switch steps {
	case 1:
		inner(0, 1)
	case 2:
		const h = 0.002
		for i := -int(lim / h); i <= int(lim/h); i++ {
			x := float64(i) * h
			inner(ey(x)/tf, math.Exp(-x*x/2)*h/math.Sqrt(2*math.Pi))
		}
	case 3:
		h := 0.025
		if testing.Short() {
			h = 0.05
		}
		m := int(lim / h)
		w := func(x float64) float64 { return math.Exp(-x*x/2) * h / math.Sqrt(2*math.Pi) }
		for i := -m; i <= m; i++ {
			x1 := float64(i) * h
			for j := -m; j <= m; j++ {
				x2 := float64(j) * h
				inner((ey(x1)+ey(x2))/tf, w(x1)*w(x2))
			}
		}
	default:
		panic("steps")
	}
	return r.Sum(), a.Sum()
}

// TestRandomAllocationPLDAgainstExact: for one epoch of t = 1, 2, 3 steps
// and several noise multipliers, each direction's δ(ε) of the sound PLD is
// at least the exact one (up to the oracle's own quadrature error, 1e-9
// relative) and the optimistic PLD's at most it; the sound one is close
// (within 1% + 1e-9). The check can fail: the sound PLD's δ at ε lies
// above the exact δ at ε + 0.01 where that is positive (t ≤ 2).
func TestRandomAllocationPLDAgainstExact(t *testing.T) {
	zs := []float64{0.6, 1, 2}
	if testing.Short() {
		zs = []float64{0.6, 2}
	}
	for _, steps := range []int{1, 2, 3} {
		for _, z := range zs {
			o := Options{}
			sound, err := RandomAllocation(int64(steps), z, o)
			if err != nil {
				t.Fatal(err)
			}
			// Both measures keep their mass: P = Σe^g·q + P-only, Q = Σq + Q-only.
			pm, qm := sound.remove.inf, sound.add.inf
			for _, x := range sound.remove.p {
				pm += x
			}
			for _, x := range sound.add.p {
				qm += x
			}
			if pm < 1-1e-12 || pm > 1+1e-9 || qm < 1-1e-12 || qm > 1+1e-9 {
				t.Errorf("t=%d z=%g: masses P %v, Q %v", steps, z, pm, qm)
			}
			o.Discretization = Optimistic
			optim, err := RandomAllocation(int64(steps), z, o)
			if err != nil {
				t.Fatal(err)
			}
			epss := []float64{0, 0.1, 0.5, 1, 2, 3}
			if steps == 3 && testing.Short() { // the 2-D quadrature is the cost
				epss = []float64{0.5, 2}
			}
			for _, eps := range epss {
				er, ea := exactAllocation(steps, z, eps)
				sr := sound.remove.profile(true).delta(eps)
				sa := sound.add.profile(true).delta(eps)
				or := optim.remove.profile(false).delta(eps)
				oa := optim.add.profile(false).delta(eps)
				tol := func(x float64) float64 { return x*1e-9 + 1e-13 }
				if sr < er-tol(er) || sa < ea-tol(ea) {
					t.Errorf("t=%d z=%g ε=%g: sound δ remove %g add %g below exact %g %g", steps, z, eps, sr, sa, er, ea)
				}
				if or > er+tol(er) || oa > ea+tol(ea) {
					t.Errorf("t=%d z=%g ε=%g: optimistic δ remove %g add %g above exact %g %g", steps, z, eps, or, oa, er, ea)
				}
				if sr > er*1.01+1e-9 || sa > ea*1.01+1e-9 {
					t.Errorf("t=%d z=%g ε=%g: sound δ remove %g add %g, exact %g %g: loose", steps, z, eps, sr, sa, er, ea)
				}
				if steps == 3 {
					continue
				}
				if er2, _ := exactAllocation(steps, z, eps+0.01); er2 > 1e-6 && !(sr > er2) {
					t.Errorf("t=%d z=%g ε=%g: the check cannot tell ε from ε + 0.01", steps, z, eps)
				}
			}
		}
	}
}

// TestRandomAllocationAgainstAuthorsCode: Feldman & Shenfeld's own PLD
// accountant (github.com/moshenfeld/PLD_accounting, run from source here
// with dp_accounting's source; its FFT method, loss discretization 1e-3 or
// 5e-4, tail truncation 1e-12, BoundType.DOMINATES, one value each) printed
// these upper bounds on ε at δ = 1e-5; ours must not be looser, and at
// t = 2 both sit on the exact value (3.69739, the oracle above).
func TestRandomAllocationAgainstAuthorsCode(t *testing.T) {
	cases := []struct {
		steps, epochs int64
		z, authors    float64
	}{
		{2, 1, 1, 3.697957},     // discretization 1e-3
		{240, 1, 1.1, 0.407113}, // 5e-4
		{240, 3, 1.1, 0.966323}, // 2e-3
	}
	if testing.Short() { // t = 240 is the cost
		cases = cases[:1]
	}
	a := Accountant{}
	for _, c := range cases {
		e := dp.SelfComposed{Event: dp.RandomAllocation{NumSteps: c.steps, Event: dp.Gaussian{NoiseMultiplier: c.z}}, Count: c.epochs}
		r, err := a.Account(e, dp.AddRemove, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		if !(float64(r.Epsilon) <= c.authors+1e-3) || !(float64(r.EpsilonOptimistic) <= float64(r.Epsilon)) {
			t.Errorf("t=%d, %d epochs, z=%g: ε %v (optimistic %v), the authors' code %v", c.steps, c.epochs, c.z, r.Epsilon, r.EpsilonOptimistic, c.authors)
		}
		t.Logf("t=%d, %d epochs, z=%g: ε %v (optimistic %v), the authors' code %v", c.steps, c.epochs, c.z, r.Epsilon, r.EpsilonOptimistic, c.authors)
	}
}
