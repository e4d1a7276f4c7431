package optimizer

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
)

func testObjectives() []Objective {
	return []Objective{
		{Loss: Logistic{}},
		{Loss: Logistic{}, L2: 0.3},
		{Loss: LeastSquares{}},
		{Loss: Huber{Delta: 0.5}},
		{Loss: SmoothHinge{Lambda: 0.2}},
		{Loss: SmoothHinge{Lambda: 0.05}, L2: 0.1},
		{Loss: LinearLoss{}, L2: 1},
		{Loss: LinearLoss{}},
	}
}

// randomPoint draws w uniformly-ish in the ball of radius R, x with ‖x‖ ≤ X
// and a label with |y| ≤ Y (±1 for classification).
func randomPoint(rng *rand.Rand, o Objective, d int, X, Y, R float64) (w, x []float64, y float64) {
	w, x = make([]float64, d), make([]float64, d)
	randomInBall(rng, w, R)
	randomInBall(rng, x, X)
	if rng.IntN(3) == 0 { // boundary points, where the maxima are
		copy(w, x)
		s := R / math.Max(norm(x), 1e-300)
		for j := range w {
			w[j] *= s * float64(1-2*rng.IntN(2))
		}
		s = X / math.Max(norm(x), 1e-300)
		for j := range x {
			x[j] *= s
		}
	}
	if o.Loss.Classification() {
		y = float64(1 - 2*rng.IntN(2))
	} else {
		y = Y * (2*rng.Float64() - 1)
		if rng.IntN(2) == 0 {
			y = math.Copysign(Y, y)
		}
	}
	return
}

func TestGradientFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const d = 5
	for _, o := range testObjectives() {
		for k := 0; k < 200; k++ {
			w, x, y := randomPoint(rng, o, d, 1.5, 2, 3)
			g := make([]float64, d)
			o.Grad(g, w, x, y)
			for j := 0; j < d; j++ {
				h := 1e-6
				wp := append([]float64(nil), w...)
				wm := append([]float64(nil), w...)
				wp[j] += h
				wm[j] -= h
				fd := (o.Value(wp, x, y) - o.Value(wm, x, y)) / (2 * h)
				if math.Abs(fd-g[j]) > 1e-5*math.Max(1, math.Abs(g[j])) {
					t.Fatalf("%s: ∂f/∂w_%d = %v, finite difference %v (w=%v x=%v y=%v)", o.Name(), j, g[j], fd, w, x, y)
				}
			}
			// second derivative of φ against a difference of φ'
			u := dot(w, x)
			h := 1e-6
			fd2 := (o.Loss.Deriv(u+h, y) - o.Loss.Deriv(u-h, y)) / (2 * h)
			if _, hub := o.Loss.(Huber); !hub && math.Abs(fd2-o.Loss.Deriv2(u, y)) > 1e-4*math.Max(1, fd2) {
				t.Fatalf("%s: ∂²φ(%v) = %v, finite difference %v", o.Name(), u, o.Loss.Deriv2(u, y), fd2)
			}
		}
	}
}

// TestConstantsBoundSampledMaxima checks that L, β and the sensitivity bound
// the sampled gradient norms, curvatures along random directions and gradient
// differences, and that they are nearly attained (within 15%).
func TestConstantsBoundSampledMaxima(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const d = 4
	X, Y, R := 1.2, 1.5, 2.5
	for _, o := range testObjectives() {
		c := o.Constants(X, Y, R)
		var maxG, maxB, maxS float64
		g1, g2 := make([]float64, d), make([]float64, d)
		for k := 0; k < 20000; k++ {
			w, x, y := randomPoint(rng, o, d, X, Y, R)
			o.Grad(g1, w, x, y)
			maxG = math.Max(maxG, norm(g1))
			// curvature: ‖∇f(w) − ∇f(w')‖/‖w − w'‖ for a nearby w' in K
			w2 := append([]float64(nil), w...)
			if rng.IntN(2) == 0 {
				copy(w2, x) // along x, where ∂²φ acts
			} else {
				for j := range w2 {
					w2[j] = rng.NormFloat64()
				}
			}
			nv := norm(w2)
			for j := range w2 {
				w2[j] = w[j] + 1e-4*w2[j]/nv
			}
			if norm(w2) <= R {
				o.Grad(g2, w2, x, y)
				var num, den float64
				for j := range g1 {
					num += (g1[j] - g2[j]) * (g1[j] - g2[j])
					den += (w[j] - w2[j]) * (w[j] - w2[j])
				}
				maxB = math.Max(maxB, math.Sqrt(num/den))
			}
			// neighbour: another example at the same w
			_, x2, y2 := randomPoint(rng, o, d, X, Y, R)
			o.Grad(g2, w, x2, y2)
			var s float64
			for j := range g1 {
				s += (g1[j] - g2[j]) * (g1[j] - g2[j])
			}
			maxS = math.Max(maxS, math.Sqrt(s)/2)
		}
		tol := 1 + 1e-9
		if maxG > c.L*tol || maxB > c.Beta*(1+1e-3) || maxS > c.Sens*tol {
			t.Errorf("%s: sampled max grad %v (L %v), curvature %v (β %v), half-difference %v (Sens %v)", o.Name(), maxG, c.L, maxB, c.Beta, maxS, c.Sens)
		}
		if maxG < 0.85*c.L || (c.Beta > 0 && maxB < 0.85*c.Beta) {
			t.Errorf("%s: constants not attained: max grad %v vs L %v, curvature %v vs β %v", o.Name(), maxG, c.L, maxB, c.Beta)
		}
		if c.Sens > c.L*tol {
			t.Errorf("%s: Sens %v > L %v", o.Name(), c.Sens, c.L)
		}
	}
}

func TestSmoothHingeApprox(t *testing.T) {
	s := SmoothHinge{Lambda: 0.3}
	var worst float64
	for u := -5.0; u <= 5; u += 0.001 {
		h := math.Max(0, 1-u)
		diff := s.Phi(u, 1) - h
		if diff < -1e-12 {
			t.Fatalf("smoothed hinge below hinge at u=%v", u)
		}
		worst = math.Max(worst, diff)
	}
	if math.Abs(worst-s.ApproxError()) > 1e-6 {
		t.Fatalf("max |φ − hinge| = %v, want λ/√(2π) = %v", worst, s.ApproxError())
	}
	// Thm 33's general bound Lλ√d (d = 1) is looser.
	if s.ApproxError() > s.Lambda {
		t.Fatal("exact error above Theorem 33's bound")
	}
}

func TestContraction(t *testing.T) {
	c := Constants{Beta: 4, M: 0}
	if got := c.Contraction(0.5); got != 1 {
		t.Fatalf("η = 2/β: c = %v, want 1", got)
	}
	if got := c.Contraction(0.6); !(got > 1) {
		t.Fatalf("η > 2/β: c = %v, want > 1", got)
	}
	c.M = 1
	if got := c.Contraction(0.1); math.Abs(got-0.9) > 1e-15 {
		t.Fatalf("strongly convex: c = %v, want 0.9", got)
	}
}

func TestParseLoss(t *testing.T) {
	for _, name := range LossNames {
		if _, _, err := ParseLoss(name, 0.5); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, _, err := ParseLoss("huber", 0); err == nil {
		t.Error("huber with Δ = 0 accepted")
	}
	if _, _, err := ParseLoss("nope", 1); err == nil {
		t.Error("unknown loss accepted")
	}
	if l, m, _ := ParseLoss("quadratic", 0); m != 1 || l.Name() != "linear" {
		t.Error("quadratic is not linear + ℓ2 weight 1")
	}
}

// Each synthetic kind names the loss of its label model, and ParseLoss turns
// the name into the objective the generator used to return itself
// (Synthetic.Objective, before the data sets moved to package dataset).
func TestSyntheticLossName(t *testing.T) {
	want := map[string]Objective{
		"logistic":  {Loss: Logistic{}},
		"linear":    {Loss: LeastSquares{}},
		"quadratic": {Loss: LinearLoss{}, L2: 1},
	}
	for _, kind := range dataset.SyntheticKinds() {
		g, err := dataset.NewSynthetic(kind, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := objectiveOf(g); got != want[kind] {
			t.Errorf("%s: objective %+v, want %+v", kind, got, want[kind])
		}
	}
	if len(want) != len(dataset.SyntheticKinds()) {
		t.Errorf("kinds %v, want %d", dataset.SyntheticKinds(), len(want))
	}
}

// NewCheck passes exactly when its condition holds, and only a FAIL fails
// a run (AllPass): N/A, VACUOUS and WORSE report without failing.
func TestNewCheckAndAllPass(t *testing.T) {
	if c := dp.NewCheck("c", true, 1, 2, "d"); c.Status != dp.Pass || float64(c.Value) != 1 || float64(c.Bound) != 2 {
		t.Errorf("passing check %+v", c)
	}
	fail := dp.NewCheck("c", false, 3, 2, "d")
	if fail.Status != dp.Fail {
		t.Errorf("failing check %+v", fail)
	}
	others := []dp.Check{{Status: dp.NA}, {Status: dp.Vacuous}, {Status: dp.Worse}, dp.NewCheck("ok", true, 0, 0, "")}
	if !dp.AllPass(others) || dp.AllPass(append(others, fail)) || !dp.AllPass(nil) {
		t.Error("AllPass must fail exactly when a check FAILED")
	}
}
