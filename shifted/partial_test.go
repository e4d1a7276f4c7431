package shifted

import (
	"math"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// partialRef is Theorem 22 on the per-step schedule built here, independently
// of SGD.Schedule: c at the full steps, c′ = max(|1 − ηm b′/b|, |1 − ηβ b′/b|)
// at the last step of each pass (b′ records, sum divided by b).
func partialRef(g SGD, t int64) float64 {
	b := g.batch()
	P := g.N + g.Public
	M := (P + b - 1) / b
	bp := P - (M-1)*b
	eta, m, beta := g.Loss.Eta, g.Loss.StrongConvexity, g.Loss.Smoothness
	c := math.Max(math.Abs(1-eta*m), math.Abs(1-eta*beta))
	cp := math.Max(math.Abs(1-eta*m*float64(bp)/float64(b)), math.Abs(1-eta*beta*float64(bp)/float64(b)))
	j := (t-1)/b + 1
	var steps []Step
	for e := int64(0); e < g.epochs(); e++ {
		for k := int64(1); k <= M; k++ {
			st := Step{Variance: eta * eta * g.Sigma * g.Sigma, Contraction: c}
			if k == M {
				st.Contraction = cp
			}
			if k == j {
				st.Sensitivity = 2 * eta * g.Loss.Lipschitz / float64(b)
			}
			steps = append(steps, st)
		}
	}
	sol, err := Solve(FromSteps(steps))
	if err != nil {
		panic(err)
	}
	return sol.K
}

// Issue 22 hole 1: `pnsgd --n 10 --batch 3 --sigma 1 --lipschitz 6 --eta 1
// --smoothness 1 --strong-convexity 1 --index 9` printed ε = 0 (ρ = 0, c = 0),
// but the last step (one record, divided by 3) contracts by 2/3 only: the
// record in step 3 keeps ρ = κ·c′²/(1 + c′²) = 8·4/13.
func TestPartialBatchForgetsNothing(t *testing.T) {
	g := SGD{N: 10, Batch: 3, Sigma: 1, Loss: Loss{Lipschitz: 6, Smoothness: 1, StrongConvexity: 1, Eta: 1}}
	want := 8.0 * 4 / 13
	if got := g.Rho(9); !(got >= want*(1-1e-12)) {
		t.Fatalf("ρ_9 = %g, want ≥ %g (Thm 22 with c′ = 2/3 at the last step)", got, want)
	}
	if ref := partialRef(g, 9); !relClose(ref, want, 1e-12) {
		t.Fatalf("reference %g, want %g", ref, want)
	}
	e, err := Epsilon(g, 9, 1e-5, rdp.Improved)
	if err != nil || !(e.Epsilon > 12) {
		t.Fatalf("ε_9 = %v (%v), want about 12.18", e.Epsilon, err)
	}
}

// Issue 22 hole 1: the n = 34 run printed ε_1 = 0.598 (δ = 1e−6, with and
// without the radius); Theorem 22 with c′ at the partial step gives 1.728.
func TestPartialBatchN34(t *testing.T) {
	g := SGD{N: 34, Batch: 28, Epochs: 27, Sigma: 0.4003,
		Loss: Loss{Lipschitz: 2.4543, Eta: 0.0519, Smoothness: 21.4641, StrongConvexity: 13.5431}}
	ref := partialRef(g, 1)
	for _, gg := range []ZCDP{g, Domain{SGD: g, Radius: 0.3367}} {
		if lr := gg.LogRho(1); lr < math.Log(ref)-1e-9 {
			t.Errorf("%T: ρ_1 = %g below Thm 22 with c′ %g", gg, math.Exp(lr), ref)
		}
		e, err := Epsilon(gg.(PerPerson), 1, 1e-6, rdp.Improved)
		if err != nil || !(e.Epsilon > 1.72) {
			t.Errorf("%T: ε_1 = %v (%v), want ≥ 1.728", gg, e.Epsilon, err)
		}
	}
}

// Runs where b divides n + public, or m = 0, keep c: the closed forms are
// unchanged there (c_eff = c), and with a partial batch c_eff = max(c, c′).
func TestPartialBatchContraction(t *testing.T) {
	l := Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 0.5, Eta: 1}
	if g := (SGD{N: 12, Batch: 3, Sigma: 1, Loss: l}); g.LogContraction() != l.LogContraction() {
		t.Errorf("b | n: c_eff %g, c %g", g.Contraction(), l.Contraction())
	}
	if g := (SGD{N: 10, Batch: 3, Sigma: 1, Loss: Loss{Lipschitz: 1}}); g.LogContraction() != 0 {
		t.Errorf("m = 0: c_eff %g", g.Contraction())
	}
	g := SGD{N: 10, Public: 1, Batch: 3, Sigma: 1, Loss: l} // b′ = 2: c′ = 1 − 1/3
	if !relClose(g.Contraction(), 2.0/3, 1e-15) {
		t.Errorf("c_eff %g, want 2/3", g.Contraction())
	}
	// The per-step schedule has c′ at the last step of every pass only.
	for _, r := range g.Schedule(10) {
		if r.Contraction != 0.5 && !relClose(r.Contraction, 2.0/3, 1e-15) {
			t.Errorf("schedule contraction %g", r.Contraction)
		}
	}
}

// exactPartial runs: EpsilonsAll equals Epsilon index by index (up to the
// warm-started conversion's last bits), and ρ_t is
// non-decreasing in t (Monotone = +1) with the per-step solve.
func TestPartialBatchAllIndices(t *testing.T) {
	for _, g := range []SGD{
		{N: 34, Batch: 28, Epochs: 27, Sigma: 0.4003, Loss: Loss{Lipschitz: 2.4543, Eta: 0.0519, Smoothness: 21.4641, StrongConvexity: 13.5431}},
		{N: 1001, Batch: 10, Epochs: 3, Public: 5, Sigma: 0.7, Loss: Loss{Lipschitz: 1, Eta: 0.3, Smoothness: 2, StrongConvexity: 0.4}},
		{N: 10, Batch: 3, Sigma: 1, Loss: Loss{Lipschitz: 6, Smoothness: 1, StrongConvexity: 1, Eta: 1}},
	} {
		if !g.exactPartial() {
			t.Fatalf("%+v: not an exactPartial run", g)
		}
		all, err := EpsilonsAll(g, 1e-5, rdp.Improved)
		if err != nil {
			t.Fatal(err)
		}
		for i := int64(1); i <= g.N; i++ {
			e, _ := Epsilon(g, i, 1e-5, rdp.Improved)
			if !relClose(all[i-1], e.Epsilon, 1e-12) {
				t.Fatalf("%+v index %d: EpsilonsAll %v, Epsilon %v", g, i, all[i-1], e.Epsilon)
			}
			if i > 1 && g.LogRho(i) < g.LogRho(i-1)-1e-12*math.Abs(g.LogRho(i-1)) {
				t.Fatalf("%+v: ρ decreases at %d", g, i)
			}
		}
	}
}
