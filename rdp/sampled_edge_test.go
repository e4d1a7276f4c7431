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
