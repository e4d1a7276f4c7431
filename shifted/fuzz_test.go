package shifted

import (
	"math"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// stepsFromBytes decodes up to 8 steps, 3 bytes each.
func stepsFromBytes(data []byte) []Step {
	var steps []Step
	for i := 0; i+2 < len(data) && len(steps) < 8; i += 3 {
		st := Step{Variance: 0.02 + float64(data[i])/64, Contraction: 1}
		if c := data[i+1]; c < 128 {
			st.Contraction = float64(c) / 127
		}
		if s := data[i+2]; s%3 == 0 {
			st.Sensitivity = float64(s) / 32
		}
		steps = append(steps, st)
	}
	return steps
}

func FuzzSolve(f *testing.F) {
	f.Add([]byte{10, 200, 3, 50, 200, 1, 70, 10, 0})
	f.Add([]byte{0, 0, 255, 255, 127, 3, 1, 128, 6, 9, 9, 9})
	f.Add([]byte{64, 255, 0, 64, 255, 96, 64, 255, 0, 64, 255, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		steps := stepsFromBytes(data)
		if len(steps) == 0 {
			return
		}
		sol, err := Solve(FromSteps(steps))
		if err != nil {
			t.Fatal(err)
		}
		if !(sol.K >= 0) || math.IsInf(sol.K, 0) || math.IsNaN(sol.LogK) {
			t.Fatalf("K = %v, ln K = %v", sol.K, sol.LogK)
		}
		want, _ := bruteForce(steps)
		if !relClose(sol.K, want, 1e-9) && math.Abs(sol.K-want) > 1e-13 {
			t.Fatalf("K = %.15g, brute force %.15g, steps %+v", sol.K, want, steps)
		}
		if exact := exactRho(steps); sol.K < exact*(1-1e-12) {
			t.Fatalf("K = %.15g below the exact Gaussian divergence %.15g", sol.K, exact)
		}
		for _, delta := range []float64{1e-3, 1e-9} {
			if e, _ := sol.Epsilon(delta, rdp.Improved); !(e >= 0) || math.IsInf(e, 0) {
				t.Fatalf("ε = %v", e)
			}
		}
	})
}

// FuzzClosedForms checks that ε_t(α) is finite, monotone in t as declared,
// and non-increasing in σ, for every variant.
func FuzzClosedForms(f *testing.F) {
	f.Add(int64(100), int64(7), 1.5, 2.0, uint8(0))
	f.Add(int64(1), int64(1), 0.1, 1.01, uint8(3))
	f.Add(int64(1_000_000_000), int64(999_999_999), 30.0, 500.0, uint8(5))
	f.Fuzz(func(t *testing.T, n, idx int64, sigma, alpha float64, kind uint8) {
		if n < 2 || n > MaxN || idx < 1 || idx >= n || !(sigma > 1e-3 && sigma < 1e4) || !(alpha > 1.0001 && alpha < 1e4) {
			return
		}
		mk := func(sigma float64) PerPerson {
			loss := Loss{Lipschitz: 1}
			switch kind % 7 {
			case 0:
				return SGD{N: n, Sigma: sigma, Loss: loss}
			case 1:
				return SGD{N: n, Sigma: sigma, Batch: 1 + idx%5, Epochs: 1 + n%4, Loss: loss}
			case 2:
				return SGD{N: n, Sigma: sigma, Loss: Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 1 / (1 + float64(idx%1000)), Eta: 1}}
			case 3:
				return Skip{N: n, Sigma: sigma, Loss: loss}
			case 4:
				return Stop{N: n, Sigma: sigma, Loss: loss}
			case 5:
				return Tasks{Stop: Stop{N: n, Sigma: sigma, Loss: loss}, K: 3}
			}
			return Local{SGD: SGD{N: n, Sigma: sigma, Loss: loss}}
		}
		g := mk(sigma)
		if g.Check() != nil {
			return
		}
		e1 := g.Curve(idx).Epsilon(alpha)
		e2 := g.Curve(idx + 1).Epsilon(alpha)
		if math.IsNaN(e1) || math.IsNaN(e2) || e1 < 0 || e2 < 0 {
			t.Fatalf("ε = %v, %v", e1, e2)
		}
		tol := 1e-9 * math.Max(e1, e2)
		switch g.Monotone() {
		case 1:
			if e2 < e1-tol {
				t.Fatalf("%T: ε_%d(%g) = %g > ε_%d = %g", g, idx, alpha, e1, idx+1, e2)
			}
		case -1:
			if e2 > e1+tol {
				t.Fatalf("%T: ε_%d(%g) = %g < ε_%d = %g", g, idx, alpha, e1, idx+1, e2)
			}
		}
		e3 := mk(sigma * 1.5).Curve(idx).Epsilon(alpha)
		if e3 > e1*(1+1e-9) {
			t.Fatalf("%T: more noise, larger ε(%g): %g > %g", g, alpha, e3, e1)
		}
		if d, err := Epsilon(g, idx, 1e-6, rdp.Improved); err != nil || math.IsNaN(d.Epsilon) || d.Epsilon < 0 {
			t.Fatalf("ε = %v, %v", d.Epsilon, err)
		}
	})
}
