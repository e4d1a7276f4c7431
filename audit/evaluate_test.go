package audit

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

func TestEvaluateVerdict(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	c := gaussianCanaries(rng, 20000, 2) // μ = 2: ε(δ = 10⁻⁵) = 7.9
	o := DefaultOptions()
	o.Upper = UpperBound(1, o.Delta, "claim")
	ev, err := Evaluate(c, o)
	if err != nil {
		t.Fatal(err)
	}
	cmp := ev.Comparison
	if ev.Estimator != EstimatorThreshold || cmp.Verdict != dp.Violated || float64(cmp.Gap) != 1-float64(ev.EpsilonLower) || !strings.Contains(cmp.Statement, "false") {
		t.Fatalf("claim ε = 1 at μ = 2: %+v %+v", ev, cmp)
	}
	exact, _ := composition.GaussianEpsilon(2, o.Delta)
	o.Upper.Epsilon = dp.Loss(exact)
	ev, _ = Evaluate(c, o)
	if ev.Comparison.Verdict != dp.Consistent || !(ev.Comparison.Gap > 0) {
		t.Fatalf("exact ε: %+v", ev.Comparison)
	}
	if len(ev.Curve) == 0 || len(ev.Curve) > MaxCurvePoints || len(ev.ClaimedCurve) != 200 {
		t.Fatalf("curves: %d, %d points", len(ev.Curve), len(ev.ClaimedCurve))
	}
	// every empirical point lies above the exact (true) curve up to sampling noise,
	// and the claimed curve of the exact ε lies below the μ-GDP curve (it is its
	// (ε, δ) envelope): FNR_claimed ≤ Φ(Φ⁻¹(1 − FPR) − μ)
	for _, p := range ev.ClaimedCurve {
		if g := normalCDF(probit(1-p.FPR) - 2); p.FNR > g+1e-9 {
			t.Fatalf("claimed curve above the GDP curve at FPR %v: %v > %v", p.FPR, p.FNR, g)
		}
	}
	prev := -1.0
	for _, p := range ev.Curve {
		if p.FPR < prev || p.FPR < 0 || p.FPR > 1 || p.FNR < 0 || p.FNR > 1 {
			t.Fatalf("curve not by increasing FPR in [0, 1]: %+v", p)
		}
		prev = p.FPR
	}
	b, err := json.Marshal(ev)
	if err != nil || !strings.Contains(string(b), `"verdict":"CONSISTENT"`) || !strings.Contains(string(b), `"epsilon_lower":`) {
		t.Fatalf("json: %v %.300s", err, b)
	}
}

func TestEvaluateTooFewCanaries(t *testing.T) {
	c, err := NewScoreCanaries([]bool{true, false, true, false, true, false}, []float64{3, 0, 2, 1, 5, -1})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Evaluate(c, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if ev.EpsilonLower != 0 || ev.Reason == "" {
		t.Fatalf("6 canaries: ε %v, reason %q", ev.EpsilonLower, ev.Reason)
	}
	g := &Canaries{Kind: KindGuess, Rows: 10, Guesses: &GuessCounts{Canaries: 10, Members: 5, Guesses: 4, Correct: 3}}
	ev, err = Evaluate(g, DefaultOptions())
	if err != nil || ev.EpsilonLower != 0 || ev.Reason == "" || ev.Estimator != EstimatorOneRun {
		t.Fatalf("3 of 4 guesses: %+v %v", ev, err)
	}
}

func TestEvaluateOptionErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	c := gaussianCanaries(rng, 100, 1)
	for _, c2 := range []struct {
		o     Options
		field string
	}{
		{Options{Confidence: 1, Delta: 1e-5}, "confidence"},
		{Options{Confidence: 0.95, Delta: -1}, "delta"},
		{Options{Confidence: 0.95, Delta: 1e-5, Grid: []float64{0, math.NaN()}}, "grid[1]"},
		{Options{Confidence: 0.95, Delta: 1e-5, Upper: UpperBound(1, 1e-6, "")}, "upper.delta"},
		{Options{Confidence: 0.95, Delta: 1e-5, Upper: UpperBound(math.NaN(), 1e-5, "")}, "upper.epsilon"},
	} {
		_, err := Evaluate(c, c2.o)
		if fe, ok := field.As(err); !ok || fe.Field != c2.field {
			t.Errorf("%+v: %v, want field %q", c2.o, err, c2.field)
		}
	}
}

// TestEvaluateGrid: the union bound over a stated grid, checked against
// the Clopper–Pearson bound at level (1 − conf)/(2k) computed here, and
// covering like the split (R = 300 audits of 1000 canaries, 95%: the joint
// event at the best grid point may fail in at most 30, a false alarm of
// P[Binomial(300, 0.05) > 30] = 1.3·10⁻³).
func TestEvaluateGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	grid := []float64{-1, 0, 0.5, 1, 1.5, 2, 2.5, 3}
	o := DefaultOptions()
	o.Grid = grid
	c := gaussianCanaries(rng, 5000, 1.5)
	ev, err := Evaluate(c, o)
	if err != nil {
		t.Fatal(err)
	}
	tb := ev.Threshold
	if tb.Method != MethodGrid || tb.GridSize != len(grid) || tb.Members+tb.NonMembers != 5000 {
		t.Fatalf("grid: %+v", tb)
	}
	alpha := 0.05 / (2 * float64(len(grid)))
	want, _, _ := epsLowerBound(tb.TP, tb.Members, tb.FP, tb.NonMembers, o.Delta, alpha)
	if float64(tb.EpsilonLower) != want || want <= 0 {
		t.Fatalf("grid bound %v, recomputed %v", tb.EpsilonLower, want)
	}
	fails := 0
	for k := 0; k < 300; k++ {
		c := gaussianCanaries(rng, 1000, 1)
		ev, _ := Evaluate(c, o)
		tb := ev.Threshold
		if tpr, fpr := trueRates(tb.Threshold, true, 1); tb.TPRLow > tpr || tb.FPRHigh < fpr {
			fails++
		}
	}
	if fails > 30 {
		t.Fatalf("grid: joint event failed in %d of 300 audits", fails)
	}
}

// TestGDPAtExactPoint: with exact (population) rates, Φ⁻¹(1 − FPR) −
// Φ⁻¹(FNR) = μ at every threshold of N(0, 1) vs N(μ, 1) (Nasr et al. 2023,
// §5: the μ-GDP trade-off FNR = Φ(Φ⁻¹(1 − FPR) − μ)); with 10⁶ canaries per
// class at one threshold the interval [μ_lower, μ_upper] is narrow around μ.
func TestGDPAtExactPoint(t *testing.T) {
	mu, tau := 1.3, 0.4
	tpr, fpr := trueRates(tau, true, mu)
	if got := probit(1-fpr) - probit(1-tpr); math.Abs(got-mu) > 1e-12 {
		t.Fatalf("μ from exact rates %v, want %v", got, mu)
	}
	// deterministic "scores" with the exact empirical rates
	n := 1_000_000
	in, out := make([]float64, n), make([]float64, n)
	tp, fp := int(math.Round(tpr*float64(n))), int(math.Round(fpr*float64(n)))
	for i := range in {
		in[i], out[i] = -1, -1
		if i < tp {
			in[i] = 1
		}
		if i < fp {
			out[i] = 1
		}
	}
	sortAll(in, out)
	gb := gdpAt(in, out, tau, true, 1e-5, 0.95, 0.025)
	if !(float64(gb.MuLower) < mu && float64(gb.MuUpper) > mu && float64(gb.MuUpper)-float64(gb.MuLower) < 0.02) {
		t.Fatalf("μ ∈ [%v, %v], want a narrow interval around %v", gb.MuLower, gb.MuUpper, mu)
	}
	e, _ := composition.GaussianEpsilon(float64(gb.MuLower), 1e-5)
	if !(float64(gb.EpsilonLower) <= e && float64(gb.EpsilonLower) > e*(1-1e-8)) {
		t.Fatalf("ε_GDP %v, GaussianEpsilon(μ_lower) %v", gb.EpsilonLower, e)
	}
}

func TestClaimedCurve(t *testing.T) {
	pts := ClaimedCurve(1, 1e-5, 1e-4, 50)
	for _, p := range pts {
		// an (ε, δ)-DP test meets TPR ≤ e^ε FPR + δ and TNR ≤ e^ε FNR + δ with equality on one of them
		a := (1 - p.FNR) - (math.E*p.FPR + 1e-5)
		b := (1 - p.FPR) - (math.E*p.FNR + 1e-5)
		if a > 1e-12 || b > 1e-12 || (p.FNR > 0 && math.Abs(a) > 1e-12 && math.Abs(b) > 1e-12) {
			t.Fatalf("point %+v not on the (1, 10⁻⁵)-DP curve (%v, %v)", p, a, b)
		}
	}
	if pts[0].FPR != 1e-4 || pts[len(pts)-1].FPR != 1 || pts[len(pts)-1].FNR != 0 {
		t.Fatalf("ends %+v %+v", pts[0], pts[len(pts)-1])
	}
}

// binomCDF is P[X ≤ k] for X ~ Binomial(n, p) by the pmf recurrence from
// (1 − p)^n (no lgamma, whose absolute error at n = 10⁶ is ~10⁻⁹): relative
// error ~k·10⁻¹⁶. For k near n it sums the other tail of n − X.
func binomCDF(k, n int, p float64) float64 {
	if k >= n {
		return 1
	}
	if k > n/2 {
		return 1 - binomCDF(n-k-1, n, 1-p)
	}
	t := math.Exp(float64(n) * math.Log1p(-p))
	s := t
	for j := 0; j < k; j++ {
		t *= float64(n-j) / float64(j+1) * p / (1 - p)
		s += t
	}
	return s
}

// TestClopperPearsonAccuracy checks gonum's Beta quantile, through which the
// bounds are computed, against the binomial tail it inverts: at the lower
// bound P[X ≥ k] = α and at the upper bound P[X ≤ k] = α, to 10⁻⁸
// (relative), for the counts an audit of up to 10⁶ canaries meets. The
// ε and μ lower bounds subtract epsMargin = 10⁻⁶ from the value these
// bounds give, far above the effect of this error.
func TestClopperPearsonAccuracy(t *testing.T) {
	for _, c := range [][2]int{{1, 10}, {3, 1000}, {50, 100}, {999, 1000}, {5, 1_000_000}, {40, 200_000}, {199_990, 200_000}} {
		k, n := c[0], c[1]
		for _, a := range []float64{0.025, 0.0025, 1e-5} {
			lo := ClopperPearsonLower(k, n, a)
			if got := 1 - binomCDF(k-1, n, lo); math.Abs(got-a) > 1e-8*a {
				t.Errorf("lower(%d, %d, %g) = %v: P[X ≥ k] = %v", k, n, a, lo, got)
			}
			hi := ClopperPearsonUpper(k, n, a)
			if got := binomCDF(k, n, hi); math.Abs(got-a) > 1e-8*a {
				t.Errorf("upper(%d, %d, %g) = %v: P[X ≤ k] = %v", k, n, a, hi, got)
			}
		}
	}
}
