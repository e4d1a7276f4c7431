package bst14

import (
	"math"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer"
)

// Thm 4.2's k and the rounds' constants recomputed by hand: k = 1 +
// ⌈log₂ log₂(εn/(p + ln n))⌉, εᵢ = ε/2^(k−i+1), Σεᵢ = ε(1 − 2^(−k)), the
// temperature εᵢ/(2L‖Cᵢ₋₁‖₂) and both radius rules; at n = 3000 with c = 2
// the sets shrink (‖Cᵢ‖₂ = min(2R, 2rᵢ)).
func TestIteratedRoundsByHand(t *testing.T) {
	for _, c := range []struct {
		eps  float64
		n, p int
		want int
	}{{1, 1000, 1, 4}, {1, 10, 1, 2}, {0.1, 100, 2, 1}, {2, 100000, 2, 5}} {
		if got := IteratedRoundsThm42(c.eps, c.n, c.p); got != c.want {
			t.Errorf("k(ε = %g, n = %d, p = %d) = %d, want %d", c.eps, c.n, c.p, got, c.want)
		}
	}
	const n = 3000
	for _, cc := range []float64{0, 2} {
		pr := problem(t, synth(n, 1, 0.5))
		res, err := runIteratedProblem(pr, IteratedParams{TargetEpsilon: 1, C: cc, Common: Common{Seed: 2}})
		if err != nil {
			t.Fatal(err)
		}
		k := len(res.Rounds)
		L, m := pr.Constants.L, 0.5
		if k != IteratedRoundsThm42(1, n, 1) || math.Abs(float64(res.Epsilon)-(1-math.Ldexp(1, -k))) > 1e-15 {
			t.Errorf("c = %g: k = %d, ε = %v, want Σεᵢ = 1 − 2^−k", cc, k, res.Epsilon)
		}
		diam := 2.0
		for i, r := range res.Rounds {
			ei := math.Ldexp(1, -(k - i))
			lnn := math.Log(n)
			want := math.Sqrt(16 * L * diam * (2*math.Log(3) + 3*lnn) / (m * ei * n))
			if cc > 0 {
				want = math.Sqrt(cc * L * (1 + 3*lnn) * diam / (m * ei * n))
			}
			if r.Epsilon != ei || math.Abs(r.Diameter-diam) > 1e-15 || math.Abs(r.Temperature-ei/(2*L*diam)) > 1e-15*r.Temperature || math.Abs(r.Radius-want) > 1e-12*want {
				t.Errorf("c = %g, round %d: %+v, want ε %g, diameter %g, radius %g", cc, i+1, r, ei, diam, want)
			}
			diam = math.Min(2, 2*r.Radius)
		}
		if cc > 0 && res.Rounds[k-1].Diameter >= 2 {
			t.Errorf("c = %g: at n = %d the last set did not shrink: %+v", cc, n, res.Rounds)
		}
		t.Logf("c = %g: k = %d, last diameter %.4g, excess (average) %.3g, θ* in every set: %v", cc, k, res.Rounds[k-1].Diameter, res.Measured.Average, res.Rounds[k-1].Contained)
	}
}

// Certified ≥ true, round by round (principle 2): on a 1-D instance the
// density of a round on any set (C, or C ∩ B(w, r)) is integrated on a
// fine grid for two neighbours (the linear loss, one record's feature 1
// replaced by −1: the worst case of the Lipschitz bound), and the largest |ln p_D(θ) − ln p_D′(θ)| over the set
// is never above the round's εᵢ; the rounds compose to Σεᵢ. The same
// computation at 8× the temperature exceeds εᵢ (it can fail).
func TestIteratedRoundPrivacyExact(t *testing.T) {
	s := synth(12, 1, 0.5)
	s.Loss.Name = "linear" // ℓ(θ; x) = −θx: ℓ(·; 1) − ℓ(·; −1) = −2θ spans 2L‖C‖₂ on C, the bound's worst case
	pr, nb := problem(t, s), problem(t, s)
	pr.Data.Row(0)[0], nb.Data.Row(0)[0] = 1, -1
	L := pr.Constants.L
	for _, reg := range []region{{R: 1}, {R: 1, Centre: []float64{0.3}, Rho: 0.4}, {R: 1, Centre: []float64{-0.9}, Rho: 0.25}} {
		for _, ei := range []float64{0.125, 1} {
			temp := ei / (2 * L * reg.Diameter())
			worst := func(temp float64) float64 {
				lo, hi := -reg.R, reg.R
				if reg.Centre != nil {
					lo, hi = math.Max(lo, reg.Centre[0]-reg.Rho), math.Min(hi, reg.Centre[0]+reg.Rho)
				}
				const k = 4000
				la, lb := make([]float64, k+1), make([]float64, k+1)
				var za, zb float64
				for i := range la {
					th := []float64{lo + (hi-lo)*float64(i)/k}
					la[i] = -temp * 12 * optimizer.EmpiricalRisk(pr.Objective, pr.Data, th)
					lb[i] = -temp * 12 * optimizer.EmpiricalRisk(nb.Objective, nb.Data, th)
				}
				for i := 1; i <= k; i++ {
					za += (math.Exp(la[i-1]) + math.Exp(la[i])) / 2
					zb += (math.Exp(lb[i-1]) + math.Exp(lb[i])) / 2
				}
				w := 0.0
				for i := range la {
					w = math.Max(w, math.Abs(la[i]-math.Log(za)-lb[i]+math.Log(zb)))
				}
				return w
			}
			if w := worst(temp); w > ei*(1+1e-6) {
				t.Errorf("set %+v, εᵢ = %g: largest log density ratio %v > εᵢ", reg, ei, w)
			} else if w2 := worst(8 * temp); w2 <= ei {
				t.Errorf("set %+v, εᵢ = %g: 8× the temperature still within εᵢ (%v): the computation cannot fail", reg, ei, w2)
			} else {
				t.Logf("set %+v, εᵢ = %g: true ε of the round %.4g (8× temperature: %.4g)", reg, ei, w, w2)
			}
		}
	}
}

// The checks of a run: the Thm 3.2 check passes at n = 2000 and is N/A
// when a round's set misses the minimiser (a tiny c: the radius shrinks
// around the first draw); at a tiny ε the output loses to θ = 0 and says
// WORSE. Refusals name their field.
func TestIteratedChecksAndRefusals(t *testing.T) {
	pr := problem(t, synth(2000, 1, 0.5))
	res, err := runIteratedProblem(pr, IteratedParams{TargetEpsilon: 1, Common: Common{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := statusOf(res.Checks, "excess risk (sum) ≤ Thm 3.2 mean of the last round"); got != dp.Pass || !res.OK {
		t.Errorf("n = 2000: Thm 3.2 check %s, ok %v: %+v", got, res.OK, res.Checks)
	}
	res, err = runIteratedProblem(pr, IteratedParams{TargetEpsilon: 1, C: 1e-12, Rounds: 3, Common: Common{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := statusOf(res.Checks, "excess risk (sum) ≤ Thm 3.2 mean of the last round"); got != dp.NA {
		t.Errorf("c = 1e-12: Thm 3.2 check %s, want N/A (θ* outside the last set): %+v", got, res.Rounds)
	}
	small := problem(t, synth(30, 1, 0.5))
	res, err = runIteratedProblem(small, IteratedParams{TargetEpsilon: 0.01, Common: Common{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := statusOf(res.Checks, "excess risk (sum) ≤ that of θ = 0"); got != dp.Worse || !res.OK {
		t.Errorf("n = 30, ε = 0.01: baseline check %s (ok %v), want WORSE and ok", got, res.OK)
	}
	_, err = RunIterated(synth(100, 1, 0), IteratedParams{TargetEpsilon: 1})
	wantField(t, err, "l2")
	_, err = RunIterated(synth(100, 3, 0.1), IteratedParams{TargetEpsilon: 1})
	wantField(t, err, "dimension")
	_, err = RunIterated(synth(100, 1, 0.1), IteratedParams{TargetEpsilon: 1, Rounds: -1})
	wantField(t, err, "rounds")
	_, err = RunIterated(synth(100, 1, 0.1), IteratedParams{TargetEpsilon: 1, C: -1})
	wantField(t, err, "c")
	_, err = RunIterated(synth(100, 1, 0.1), IteratedParams{})
	wantField(t, err, "target_epsilon")
}
