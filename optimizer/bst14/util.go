package bst14

import (
	"math/rand/v2"

	"github.com/privamp/privamp/internal/numeric"
)

// projectBall projects w onto {‖w‖ ≤ R} in place.
func projectBall(w []float64, R float64) {
	if n := numeric.Norm(w); n > R {
		for j := range w {
			w[j] *= R / n
		}
	}
}

// gaussianVector fills dst with N(0, σ²) draws.
func gaussianVector(rng *rand.Rand, dst []float64, sigma float64) {
	for j := range dst {
		dst[j] = sigma * rng.NormFloat64()
	}
}

// gammaNormVector fills dst with a draw of density ∝ exp(−‖b‖/scale) on
// R^p: a uniform direction (a normalised standard Gaussian) times a radius
// ~ Gamma(p, scale), the sum of p exponentials of mean scale (seed 001
// Algorithm 3: the density in polar coordinates is ∝ r^{p−1} e^{−r/scale}).
func gammaNormVector(rng *rand.Rand, dst []float64, scale float64) float64 {
	var n float64
	for n == 0 {
		gaussianVector(rng, dst, 1)
		n = numeric.Norm(dst)
	}
	r := 0.0
	for range dst {
		r += rng.ExpFloat64()
	}
	r *= scale
	for j := range dst {
		dst[j] *= r / n
	}
	return r
}
