package pld

import "testing"

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
