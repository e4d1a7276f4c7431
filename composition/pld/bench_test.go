package pld

import "testing"

// Measured on the 2-core development VM (shared), 2026-11-22, against
// dp_accounting's PLD (commit b5b0286, Python 3.11, NumPy 1.24) on the same
// machine:
//
//	MNIST end to end      37–42 ms (80 ms on one core); dp_accounting 0.37–0.43 s
//	MNIST, sound PLD only 24–27 ms
//	10⁶ steps             0.21–0.25 s (0.77 s on one core)
//	one calibration       0.14–0.15 s
//
// Allocation: 24 MB for MNIST, 172 MB for 10⁶ steps, 64 MB per calibration.

// The MNIST DP-SGD example end to end (sound and optimistic PLDs, both
// directions, 14063 steps, h = 1e-4). Goal: ≤ 20 ms.
func BenchmarkMNIST(b *testing.B) {
	for b.Loop() {
		if _, err := DPSGD(256.0/60000, 1.1, 14063, 1e-5, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// The sound PLD alone for the MNIST example.
func BenchmarkMNISTSoundOnly(b *testing.B) {
	for b.Loop() {
		p, err := SubsampledGaussian(256.0/60000, 1.1, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if p, err = p.SelfCompose(14063); err != nil {
			b.Fatal(err)
		}
		if _, err = p.Epsilon(1e-5); err != nil {
			b.Fatal(err)
		}
	}
}

// 10⁶ steps (q = 256/60000, z = 1.1 → ε ≈ 24). Goal: ≤ 100 ms.
func BenchmarkMillionSteps(b *testing.B) {
	for b.Loop() {
		if _, err := DPSGD(256.0/60000, 1.1, 1_000_000, 1e-5, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// One calibration of the noise for the MNIST setting at ε = 2.5. Goal:
// ≤ 0.2 s.
func BenchmarkCalibrateMNIST(b *testing.B) {
	for b.Loop() {
		if _, err := CalibrateDPSGD(256.0/60000, 14063, 1e-5, 2.5, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
