package zcdp

import "testing"

// A single zCDP → (ε, δ) conversion (issue target: < 10 µs).
func BenchmarkEpsilon(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Epsilon(0.05+float64(i%100)*1e-4, 1e-5, RDP)
	}
}

// The exact inverse ρ*(ε, δ), verified.
func BenchmarkRhoFor(b *testing.B) {
	for i := 0; i < b.N; i++ {
		RhoFor(0.5+float64(i%100)*1e-3, 1e-6, RDP)
	}
}
