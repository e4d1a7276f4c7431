package rdp_test

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/rdp"
)

// The ε of DP-SGD on MNIST-sized data: 60,000 examples, batches of 256,
// noise multiplier 1.1, 60 epochs, δ = 1e-5.
func Example_dpsgd() {
	q := 256.0 / 60000
	steps := math.Ceil(60 * 60000 / 256.0)
	curve := rdp.Repeat(rdp.SampledGaussian{Q: q, Z: 1.1}, steps)
	dp, _ := rdp.EpsilonFor(curve, 1e-5, rdp.Improved)
	fmt.Printf("ε = %.3f at order %.2f (%s)\n", dp.Epsilon, dp.Order, dp.Conversion.Source())
	// Output: ε = 2.597 at order 8.12 (Canonne–Kamath–Steinke 2020, Prop. 12)
}

// The Gaussian mechanism composed 100 times is ρ-zCDP with ρ = 100·Δ²/(2σ²).
func ExampleGaussian() {
	c := rdp.Repeat(rdp.Gaussian(1, 10), 100)
	eps, order := rdp.LinearEpsilon(float64(c.(rdp.Linear)), 1e-6, rdp.Improved)
	fmt.Printf("ρ = %.2f, ε = %.4f at α = %.2f\n", float64(c.(rdp.Linear)), eps, order)
	// Output: ρ = 0.50, ε = 5.2215 at α = 5.91
}

// Calibrate the noise multiplier of DP-SGD for ε = 1 at δ = 1e-5.
func ExampleCalibrate() {
	q, steps := 0.01, 1000.0
	z, dp, _ := rdp.Calibrate(func(z float64) rdp.Curve {
		return rdp.Repeat(rdp.SampledGaussian{Q: q, Z: z}, steps)
	}, 1, 1e-5, rdp.Improved)
	fmt.Printf("z = %.4f gives ε = %.4f\n", z, dp.Epsilon)
	// Output: z = 1.5131 gives ε = 1.0000
}

// Conversions: one RDP point to (ε, δ) by both theorems.
func ExamplePointEpsilon() {
	for _, c := range []rdp.Conversion{rdp.Classic, rdp.Improved} {
		fmt.Printf("%-8s ε = %.4f\n", c, rdp.PointEpsilon(10, 0.5, 1e-5, c))
	}
	// Output:
	// classic  ε = 1.7792
	// improved ε = 1.4180
}
