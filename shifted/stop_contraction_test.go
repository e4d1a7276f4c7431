package shifted

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// stopFDirect is F_j = 1/Σ_{k=0}^{j−1} c^{−2k}, the single-pass strongly
// convex factor written independently of stopF's closed form.
func stopFDirect(j int64, c float64) float64 {
	var s float64
	for k := j - 1; k >= 0; k-- {
		s += math.Pow(c, -2*float64(k))
	}
	return 1 / s
}

// stopContractedDirect is the Stop mixture with contraction c summed term by
// term over the stopping times T = t..n, given F_j = fs[j−1]: for moderate x
// as log1p(Σ_j expm1(x·F_j)/n)/(α−1) (smallest first), for large x by
// log-sum-exp over every term.
func stopContractedDirect(n, t int64, rho1 float64, fs []float64, a float64) float64 {
	x := (a - 1) * a * rho1
	m := n - t + 1
	if x < 500 {
		var s float64
		for j := m; j >= 1; j-- {
			s += math.Expm1(x * fs[j-1])
		}
		return math.Log1p(s/float64(n)) / (a - 1)
	}
	terms := []float64{}
	if t > 1 {
		terms = append(terms, math.Log(float64(t-1)))
	}
	for j := int64(1); j <= m; j++ {
		terms = append(terms, x*fs[j-1])
	}
	mx := math.Inf(-1)
	for _, x := range terms {
		mx = math.Max(mx, x)
	}
	var s float64
	for _, x := range terms {
		s += math.Exp(x - mx)
	}
	return (mx + math.Log(s) - math.Log(float64(n))) / (a - 1)
}

// stronglyConvexLoss has c = 1 − ηm (ηβ ≤ 1).
func stronglyConvexLoss(c float64) Loss {
	return Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 1 - c, Eta: 1}
}

// TestStopContractionTerm: one stopping time's term is the engine's value
// for single-pass strongly convex PNSGD of length T (Solve on its schedule).
func TestStopContractionTerm(t *testing.T) {
	loss := stronglyConvexLoss(0.97)
	c := loss.Contraction()
	for _, T := range []int64{1, 2, 7, 60} {
		for _, idx := range []int64{1, T / 2, T} {
			if idx < 1 {
				continue
			}
			g := SGD{N: T, Sigma: 2, Loss: loss}
			sol, err := Solve(g.Schedule(idx))
			if err != nil {
				t.Fatal(err)
			}
			rho1 := 2.0 / 4
			want := rho1 * stopFDirect(T-idx+1, c)
			if !relClose(sol.K, want, 1e-12) || !relClose(stopF(float64(T-idx+1), 2*math.Log(c)), stopFDirect(T-idx+1, c), 1e-13) {
				t.Errorf("T = %d, t = %d: engine %.16g, F_j·ρ₁ %.16g, stopF %.16g", T, idx, sol.K, want, rho1*stopF(float64(T-idx+1), 2*math.Log(c)))
			}
		}
	}
}

func TestStopContractionMixture(t *testing.T) {
	// The reference F_j costs O(n²); under -short n = 1000 still passes the
	// 512 directly summed terms of lnSumExpm1C (its tail bound is used).
	ns := []int64{1, 3, 200, 3000}
	if testing.Short() {
		ns[3] = 1000
	}
	for _, c := range []float64{0.999, 0.99, 0.9, 0.5} {
		for _, n := range ns {
			s := Stop{N: n, Sigma: 3, Loss: stronglyConvexLoss(c)}
			old := Stop{N: n, Sigma: 3, Loss: Loss{Lipschitz: 1}}
			if !s.Contracted() || old.Contracted() {
				t.Fatal("Contracted")
			}
			fs := make([]float64, n)
			for j := range fs {
				fs[j] = stopFDirect(int64(j+1), s.Loss.Contraction())
			}
			for _, idx := range []int64{1, 2, n / 3, n - 64, n} {
				if idx < 1 || idx > n {
					continue
				}
				cc := s.Curve(idx)
				for _, a := range []float64{1.001, 1.5, 3, 10, 40, 200, 1500} {
					got := cc.Epsilon(a)
					want := stopContractedDirect(n, idx, s.rho1(), fs, a)
					if got < want*(1-1e-13) || !relClose(got, want, 1e-9) {
						t.Errorf("c = %g, n = %d, t = %d, α = %g: %.16g, direct %.16g", c, n, idx, a, got, want)
					}
					if o := old.Curve(idx).Epsilon(a); got > o {
						t.Errorf("c = %g, n = %d, t = %d, α = %g: %.16g above the c = 1 value %.16g", c, n, idx, a, got, o)
					}
				}
			}
		}
	}
}

// TestStopContractionLongSum: for m far beyond the directly summed terms
// the tail bound keeps the value an upper bound on the mixture and close
// to it.
func TestStopContractionLongSum(t *testing.T) {
	for _, c := range []float64{0.9999, 0.99999} {
		lq := 2 * math.Log(c)
		const m = 60_000
		for _, x := range []float64{0.01, 0.3, 1, 5, 30, 700} {
			var s float64
			terms := make([]float64, 0, m)
			for j := int64(m); j >= 1; j-- {
				terms = append(terms, math.Expm1(x*stopFDirectQ(j, c)))
			}
			for _, v := range terms {
				s += v
			}
			want := math.Log(s)
			got := lnSumExpm1C(x, m, lq)
			if got < want-1e-13*math.Abs(want) || got-want > 1e-10*math.Max(1, math.Abs(want)) {
				t.Errorf("c = %g, x = %g: %.16g, direct %.16g", c, x, got, want)
			}
		}
	}
}

// stopFDirectQ is F_j by the closed form in a different arrangement,
// 1/Σ_{k<j} c^{−2k} = c^{2(j−1)}(1 − c²)/(1 − c^{2j}) with powers by Pow.
func stopFDirectQ(j int64, c float64) float64 {
	q := c * c
	return math.Pow(q, float64(j-1)) * (1 - q) / (1 - math.Pow(q, float64(j)))
}

// TestStopContractionGain: (ε, δ) per index with the contraction is never
// above the c = 1 value, equal at c = 1, strictly smaller where c < 1
// matters; the all-index path agrees with the per-index one.
func TestStopContractionGain(t *testing.T) {
	const delta = 1e-5
	const n = 5000
	old := Stop{N: n, Sigma: 8, Loss: Loss{Lipschitz: 1}}
	same := Stop{N: n, Sigma: 8, Loss: Loss{Lipschitz: 1, Smoothness: 1, Eta: 1}}
	s := Stop{N: n, Sigma: 8, Loss: stronglyConvexLoss(0.9)}
	oldAll, _ := EpsilonsAll(old, delta, rdp.Improved)
	sameAll, _ := EpsilonsAll(same, delta, rdp.Improved)
	newAll, _ := EpsilonsAll(s, delta, rdp.Improved)
	maxGain := 0.0
	for i := range oldAll {
		if sameAll[i] != oldAll[i] {
			t.Fatalf("c = 1: t = %d: %g ≠ %g", i+1, sameAll[i], oldAll[i])
		}
		if newAll[i] > oldAll[i] {
			t.Errorf("t = %d: %g above the c = 1 value %g", i+1, newAll[i], oldAll[i])
		}
		maxGain = math.Max(maxGain, 1-newAll[i]/oldAll[i])
	}
	for _, idx := range []int64{1, n / 2, n} {
		e, _ := Epsilon(s, idx, delta, rdp.Improved)
		if !relClose(e.Epsilon, newAll[idx-1], 1e-6) {
			t.Errorf("t = %d: per index %g, all-index %g", idx, e.Epsilon, newAll[idx-1])
		}
	}
	t.Logf("c = 0.9, n = %d, σ = 8: ε_1 %.6g → %.6g, ε_n %.6g → %.6g, largest gain %.3g%%", n, oldAll[0], newAll[0], oldAll[n-1], newAll[n-1], 100*maxGain)
	if !(maxGain > 1e-3) {
		t.Errorf("largest gain %g: the contraction should matter here", maxGain)
	}
}

// TestStopContractionOrder: converting at the c = 1 curve's optimal order
// (stopContractedOrder) is within 1e−6 of optimising the c < 1 curve
// itself, and never above the c = 1 optimum.
func TestStopContractionOrder(t *testing.T) {
	for _, c := range []float64{0.99, 0.9, 0.5} {
		for _, n := range []int64{100, 5000} {
			for _, sigma := range []float64{0.5, 2, 8} {
				s := Stop{N: n, Sigma: sigma, Loss: stronglyConvexLoss(c)}
				for _, idx := range []int64{1, n / 2, n} {
					cc := s.Curve(idx).(stopCurve)
					got, _ := stopContractedOrder(cc, 1e-5, rdp.Improved, 0, true)
					full, _ := optimizeOrder(cc, 1e-5, rdp.Improved, linearGuess(cc, 1e-5, rdp.Improved), true)
					c1 := cc
					c1.lq = 0
					old, _ := optimizeOrder(c1, 1e-5, rdp.Improved, linearGuess(c1, 1e-5, rdp.Improved), true)
					if got > old || !relClose(got, full, 1e-6) {
						t.Errorf("c = %g, n = %d, σ = %g, t = %d: %.10g, optimised on the c < 1 curve %.10g, c = 1 %.10g", c, n, sigma, idx, got, full, old)
					}
				}
			}
		}
	}
}

func TestExpm1Rest3(t *testing.T) {
	for _, y := range []float64{1e-4, 0.01, 0.2, 0.49} {
		// Σ_{k≥3} y^k/k! in 200-bit arithmetic
		by := new(big.Float).SetPrec(200).SetFloat64(y)
		term := new(big.Float).SetPrec(200).Mul(by, by)
		term.Quo(term, big.NewFloat(2))
		sum := new(big.Float).SetPrec(200)
		for k := 3; k < 60; k++ {
			term.Mul(term, by)
			term.Quo(term, new(big.Float).SetInt64(int64(k)))
			sum.Add(sum, term)
		}
		want, _ := sum.Float64()
		if got := expm1Rest3(y); got < want || !relClose(got, want, 1e-13) {
			t.Errorf("y = %g: %g, want %g", y, got, want)
		}
	}
}

func TestStopContractionSource(t *testing.T) {
	s := Stop{N: 10, Sigma: 1, Loss: stronglyConvexLoss(0.9)}
	k := Tasks{Stop: s, K: 3}
	for _, src := range []string{s.Source(), k.Source()} {
		if !strings.Contains(src, "c = 0.9 < 1") {
			t.Errorf("source does not name the contraction: %s", src)
		}
	}
	if src := (Stop{N: 10, Sigma: 1, Loss: Loss{Lipschitz: 1}}).Source(); strings.Contains(src, "contraction") {
		t.Errorf("c = 1 source names a contraction: %s", src)
	}
}

// TestStopContractionExtreme: c within 1e−15 of 1, c = 0 and tiny n give
// finite values, never above the c = 1 ones.
func TestStopContractionExtreme(t *testing.T) {
	for _, m := range []float64{1e-15, 1e-9, 0.5, 1} {
		for _, n := range []int64{1, 2, 1000, 200_000} {
			s := Stop{N: n, Sigma: 1, Loss: Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: m, Eta: 1}}
			old := Stop{N: n, Sigma: 1, Loss: Loss{Lipschitz: 1}}
			for _, idx := range []int64{1, n} {
				for _, a := range []float64{1.0001, 2, 100, 1e5} {
					got, o := s.Curve(idx).Epsilon(a), old.Curve(idx).Epsilon(a)
					if math.IsNaN(got) || got > o {
						t.Errorf("m = %g, n = %d, t = %d, α = %g: %g, c = 1: %g", m, n, idx, a, got, o)
					}
				}
				e, _ := Epsilon(s, idx, 1e-6, rdp.Improved)
				e0, _ := Epsilon(old, idx, 1e-6, rdp.Improved)
				if math.IsNaN(e.Epsilon) || e.Epsilon > e0.Epsilon {
					t.Errorf("m = %g, n = %d, t = %d: ε %g, c = 1: %g", m, n, idx, e.Epsilon, e0.Epsilon)
				}
			}
		}
	}
}
