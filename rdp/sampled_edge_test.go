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

// Issue 23, item 6: past maxIntTerms the integer-order series is cut and
// its tail bounded (intTailLog); the result is never below the full
// series, and a huge order at huge noise (which used to sum 5·10⁸ terms)
// takes a fraction of a second.
func TestIntegerSeriesBudget(t *testing.T) {
	cases := []struct{ q, z, alpha float64 }{{0.01, 20, 5000}, {0.1, 5, 3000}, {0.001, 30, 2500}, {0.5, 3, 1200}}
	full := make([]float64, len(cases))
	for i, c := range cases {
		full[i] = SampledGaussian{Q: c.q, Z: c.z}.Epsilon(c.alpha)
	}
	defer func(m int) { maxIntTerms = m }(maxIntTerms)
	for _, m := range []int{10, 100, 1000} {
		maxIntTerms = m
		for i, c := range cases {
			capped := SampledGaussian{Q: c.q, Z: c.z}.Epsilon(c.alpha)
			if !(capped >= full[i]) || math.IsNaN(capped) {
				t.Errorf("cap %d, %+v: ε %v below the full series' %v", m, c, capped, full[i])
			}
		}
	}
	maxIntTerms = 1 << 20
	start := time.Now()
	e := SampledGaussian{Q: 0.001, Z: 1e4}.Epsilon(5e8)
	if d := time.Since(start); d > 2*time.Second || !(e > 0) || math.IsInf(e, 1) {
		t.Errorf("α = 5e8, z = 1e4: ε %v in %v", e, d)
	}
}
