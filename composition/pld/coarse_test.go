package pld

import (
	"math"
	"strings"
	"testing"
)

// TestCoarseReplaceOneTinyDelta is the issue-23 fuzz case: replace-one
// DP-SGD (γ = 4.37377e-4, z = 1.399, 134 steps) at δ = 3.43295e-287 on a
// user-set coarse interval printed ε = 0 (RDP: 45.6; the changed record is
// used with probability ≈ 0.057 ≫ δ). The symmetrized one-step grid has
// zero masses at its top; logMGF summed relative to them underflowed to
// ln 0 = −∞, tiltFor took t = 10⁴ with centre −∞, the tilted composition
// was all NaN, and the ε walk (every comparison with NaN false) returned 0.
// Sound now: ε > 0 (here +∞, the one-step truncation exceeding δ, so callers
// fall back to RDP) and the optimistic estimate is at most ε.
func TestCoarseReplaceOneTinyDelta(t *testing.T) {
	q, z, steps := 4.37377e-4, 1.399, 134
	hs := []float64{0.003, 0.01, 0.1}
	deltas := []float64{3.43295e-287, 1e-200, 1e-100, 1e-30}
	if testing.Short() {
		hs, deltas = []float64{0.01, 0.1}, []float64{3.43295e-287, 1e-100}
	}
	for _, delta := range deltas {
		for _, h := range hs {
			for _, ro := range []bool{true, false} {
				opt := Options{Interval: h}
				var r Result
				var err error
				if ro {
					r, err = DPSGDReplaceOne(q, z, steps, delta, opt)
				} else {
					r, err = DPSGD(q, z, steps, delta, opt)
				}
				if err != nil {
					continue // a refusal is sound
				}
				e, eo := float64(r.Epsilon), float64(r.EpsilonOptimistic)
				// Far below every positive ε: one step alone has
				// δ(0) ≥ TV > 1e-6 at this γ, so ε(δ) > 0.
				if !(e > 0) || math.IsNaN(eo) || eo > e || (delta < 1e-250 && eo < 1) {
					t.Errorf("replace-one %v δ %g h %g: ε %v, optimistic %v", ro, delta, h, e, eo)
				}
			}
		}
	}
}

// TestLogMGFZeroEnds: zero masses at the ends of the grid do not change the
// log-MGF (they made it −∞ at large |t| through underflow).
func TestLogMGFZeroEnds(t *testing.T) {
	body := []float64{0.5, 0.3, 1e-250}
	zeros := make([]float64, 20)
	f := &pmf{h: 0.01, lo: -3, p: append(append([]float64{}, body...), zeros...)}
	g := &pmf{h: 0.01, lo: -3, p: body}
	h := &pmf{h: 0.01, lo: -23, p: append(append([]float64{}, zeros...), body...)}
	for _, tt := range []float64{1e-4, 1, 100, 1e4, -1e4} {
		a, b, c := f.logMGF(tt), g.logMGF(tt), h.logMGF(tt)
		if math.IsInf(a, 0) || math.IsNaN(a) || math.Abs(a-b) > 1e-12*math.Abs(b)+1e-12 || math.Abs(c-b) > 1e-12*math.Abs(b)+1e-12 {
			t.Errorf("t %g: logMGF %v, without the zeros %v, leading zeros %v", tt, a, b, c)
		}
	}
}

// TestEpsilonOfNaNPmf: a pmf with a NaN mass or error term has no ε (+∞)
// and δ = 1; before, the walk's comparisons with NaN all failed and ε = 0.
func TestEpsilonOfNaNPmf(t *testing.T) {
	for i, f := range []*pmf{
		{h: 0.1, lo: 0, p: []float64{math.NaN(), 0.5}},
		{h: 0.1, lo: 0, p: []float64{0.5, 0.5}, errL2: math.NaN()},
		{h: 0.1, lo: 0, p: []float64{0.5, 0.5}, tiltT: 1, tiltS: math.Inf(-1), errL2: 1e-20},
	} {
		for _, sound := range []bool{true, false} {
			pr := f.profile(sound)
			if e := pr.epsilon(1e-5); !math.IsInf(e, 1) {
				t.Errorf("%d sound %v: ε %v, want +Inf", i, sound, e)
			}
			if d := pr.delta(1); d != 1 {
				t.Errorf("%d sound %v: δ(1) %v, want 1", i, sound, d)
			}
		}
	}
}

// oneStepReplaceOneDelta is the exact δ(ε) of one step of the pair R =
// ((1−γ)N(0,z²)+γN(2,z²), N(0,z²)) of SubsampledGaussianReplaceOne: the
// loss ln(1−γ+γe^{(2x−2)/z²}) exceeds ε for x > 1 + (z²/2)·ln((e^ε−1+γ)/γ).
// k steps have δ_k(ε) ≥ δ_1(ε) (marginalizing to one step), so the ε at δ
// of one step is a lower bound on the composed one.
func oneStepReplaceOneDelta(gamma, z, eps float64) float64 {
	x := 1 + z*z/2*math.Log((math.Expm1(eps)+gamma)/gamma)
	sf := func(m float64) float64 { return 0.5 * math.Erfc((x-m)/(z*math.Sqrt2)) }
	return (1-gamma)*sf(0) + gamma*sf(2) - math.Exp(eps)*sf(0)
}

// TestCoarsenedReplaceOne: a default-interval replace-one grid over the
// cap is coarsened (as add/remove's), says so in its source, and its ε is at
// least the exact one-step ε and its optimistic estimate.
func TestCoarsenedReplaceOne(t *testing.T) {
	if testing.Short() { // the same coarsening at a 16× smaller grid (not parallel: no other test runs meanwhile)
		p, w := autoPoints, autoWindow
		autoPoints, autoWindow = 1<<17, 1<<18
		defer func() { autoPoints, autoWindow = p, w }()
	}
	cases := []struct {
		q, z  float64
		k     int
		delta float64
	}{{0.1, 0.3, 30, 1e-30}, {0.1, 0.3, 100, 1e-30}}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		r, err := DPSGDReplaceOne(c.q, c.z, c.k, c.delta, Options{})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		e := float64(r.Epsilon)
		// One step's exact ε at δ, by bisection on δ_1(ε) (decreasing).
		lo, hi := 0.0, e
		for i := 0; i < 200; i++ {
			if m := (lo + hi) / 2; oneStepReplaceOneDelta(c.q, c.z, m) > c.delta {
				lo = m
			} else {
				hi = m
			}
		}
		t.Logf("%+v: ε %v (optimistic %v, interval %v), exact one-step ε %v", c, e, r.EpsilonOptimistic, r.Discretization, lo)
		if !strings.Contains(r.Source, "coarsened") || float64(r.Discretization) <= DefaultInterval ||
			!(e >= lo) || lo <= 0 || float64(r.EpsilonOptimistic) > e {
			t.Errorf("%+v: %+v, exact one-step ε %v", c, r, lo)
		}
	}
}
