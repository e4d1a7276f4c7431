package rdp

import (
	"math"
	"testing"
)

// DP-SGD accounting: 10^5 steps, every order of DefaultOrders plus continuous
// refinement, then conversion (issue target: < 10 ms).
func BenchmarkDPSGD1e5Steps(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c := Repeat(SampledGaussian{Q: 0.001, Z: 1.1}, 1e5)
		if _, err := EpsilonFor(c, 1e-5, Improved); err != nil {
			b.Fatal(err)
		}
	}
}

// One calibration of the DP-SGD noise multiplier (target: < 200 ms).
func BenchmarkCalibrateDPSGD(b *testing.B) {
	q, steps := 256.0/60000, math.Ceil(60*60000/256.0)
	for i := 0; i < b.N; i++ {
		_, _, err := Calibrate(func(z float64) Curve { return Repeat(SampledGaussian{Q: q, Z: z}, steps) }, 3, 1e-5, Improved)
		if err != nil {
			b.Fatal(err)
		}
	}
}

// A single Gaussian / zCDP conversion (target: < 10 µs).
func BenchmarkLinearEpsilon(b *testing.B) {
	var s float64
	for i := 0; i < b.N; i++ {
		e, _ := LinearEpsilon(0.05+float64(i%100)*1e-4, 1e-5, Improved)
		s += e
	}
	_ = s
}

func BenchmarkSampledGaussianFractional(b *testing.B) {
	s := SampledGaussian{Q: 0.004, Z: 1.1}
	for i := 0; i < b.N; i++ {
		s.Epsilon(1.5)
	}
}

func BenchmarkSampledGaussianInteger256(b *testing.B) {
	s := SampledGaussian{Q: 0.004, Z: 1.1}
	for i := 0; i < b.N; i++ {
		s.Epsilon(256)
	}
}
