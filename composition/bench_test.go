package composition

import "testing"

var sink float64

func BenchmarkOptimalDeltaK1e5(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink, _ = OptimalDelta(0.01, 1e-9, 100_000, 3)
	}
}

func BenchmarkOptimalDeltaK1e7(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink, _ = OptimalDelta(0.001, 0, 10_000_000, 6)
	}
}

func BenchmarkOptimalEpsilonK1e5(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink, _ = OptimalEpsilon(0.01, 1e-11, 100_000, 1e-5)
	}
}

func BenchmarkBestK1e5(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r, _ := Best(0.01, 0, 100_000, 1e-6)
		sink = float64(r.Epsilon)
	}
}

func BenchmarkAdvanced(b *testing.B) {
	for i := 0; i < b.N; i++ {
		g, _ := Advanced(0.01, 1e-9, 100_000, 1e-6)
		sink = float64(g.Epsilon)
	}
}

func BenchmarkGaussianDelta(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = GaussianDelta(0.8, 2.5)
	}
}

func BenchmarkGaussianEpsilon(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink, _ = GaussianEpsilon(0.8, 1e-6)
	}
}

func BenchmarkCalibrateGaussian(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink, _ = CalibrateGaussian(1, 1e-5)
	}
}
