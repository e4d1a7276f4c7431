package rdp

import (
	"math"
	"testing"
	"time"
)

// A noise multiplier whose square underflows used to send the fractional
// series into an endless rescaling loop (σ = 1e-300 in privamp compare):
// the answer is +Inf, at once.
func TestSampledGaussianUnderflowingNoise(t *testing.T) {
	done := make(chan float64, 1)
	go func() { done <- (SampledGaussian{Q: 0.01, Z: 1e-300}).Epsilon(1.1) }()
	select {
	case e := <-done:
		if !math.IsInf(e, 1) {
			t.Errorf("ε(1.1) = %v, want +Inf", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("SampledGaussian.Epsilon did not return")
	}
	for _, a := range []float64{2, 2.5, 64} {
		if e := (SampledGaussian{Q: 0.01, Z: 1e-160}).Epsilon(a); !math.IsInf(e, 1) {
			t.Errorf("z = 1e-160, α = %v: ε = %v, want +Inf", a, e)
		}
	}
}

// exactLogA is ln A_α at integer α by the plain binomial sum: A_α − 1 =
// Σ_k w_k (e^{g_k} − 1), every term positive (weights from Lgamma, g_k =
// (k² − k)/(2z²)), summed in full with no early stop and no tail bound, and
// ln A_α = log1p(A_α − 1): an oracle independent of logAm1Int's shortcuts,
// accurate to ~1e-11 relative.
func exactLogA(q, z float64, alpha int) float64 {
	a := float64(alpha)
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	terms := make([]float64, 0, alpha)
	m := math.Inf(-1)
	for k := 2; k <= alpha; k++ {
		kf := float64(k)
		g := (kf*kf - kf) / (2 * z * z)
		t := lg(a+1) - lg(kf+1) - lg(a-kf+1) + kf*math.Log(q) + (a-kf)*math.Log1p(-q) + g + math.Log(-math.Expm1(-g))
		terms = append(terms, t)
		m = math.Max(m, t)
	}
	s := 0.0
	for _, t := range terms {
		s += math.Exp(t - m)
	}
	if l := m + math.Log(s); l > 0 {
		return l + math.Log1p(math.Exp(-l))
	} else {
		return math.Log1p(math.Exp(l))
	}
}

// Issue 23, item 6: the integer-order series stops early past its peak
// also where α > z² − 1 (the terms up to z² − 1 are log-concave; the rest
// are bounded by intTailLog), and past maxIntTerms it is cut and its tail
// bounded; the result is never below the exact sum, and a huge order at
// huge noise (which used to sum 5·10⁸ terms) takes a fraction of a second.
func TestIntegerSeriesBudget(t *testing.T) {
	cases := []struct {
		q, z  float64
		alpha int
	}{{0.01, 20, 5000}, {0.1, 5, 3000}, {0.001, 30, 2500}, {0.5, 3, 1200}, {0.01, 20, 300}, {1e-4, 10, 4000}, {0.3, 1, 50}, {1e-5, 30, 1500}, {1e-4, 50, 4000}, {1e-3, 40, 3000}}
	defer func(m int) { maxIntTerms = m }(maxIntTerms)
	for _, m := range []int{10, 100, 1000, 1 << 20} {
		maxIntTerms = m
		for _, c := range cases {
			got := SampledGaussian{Q: c.q, Z: c.z}.Epsilon(float64(c.alpha))
			exact := exactLogA(c.q, c.z, c.alpha) / float64(c.alpha-1)
			if !(got >= exact*(1-1e-9)) || math.IsNaN(got) {
				t.Errorf("cap %d, %+v: ε %v below the exact %v", m, c, got, exact)
			}
			if m == 1<<20 && got > exact*(1+1e-6)+1e-12 {
				t.Errorf("%+v: ε %v, exact %v: the early stop is loose", c, got, exact)
			}
		}
	}
	maxIntTerms = 1 << 15
	start := time.Now()
	e := SampledGaussian{Q: 0.001, Z: 1e4}.Epsilon(5e8)
	if d := time.Since(start); d > 2*time.Second || !(e > 0) || math.IsInf(e, 1) {
		t.Errorf("α = 5e8, z = 1e4: ε %v in %v", e, d)
	}
}

// Issue 23: a σ whose square underflows gave ρ = −∞ (the lower bound on σ²
// was negative); it is +∞.
func TestGaussianUnderflowingSigma(t *testing.T) {
	if r := float64(Gaussian(1.7, 1e-300)); !math.IsInf(r, 1) {
		t.Errorf("ρ = %v", r)
	}
	if r := float64(Gaussian(1, 2)); r != 0.125 {
		t.Errorf("ρ = %v", r)
	}
}
