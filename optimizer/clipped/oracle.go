package clipped

import (
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/zcdp"
)

// Sensitivity returns the ℓ2-sensitivity 2τ/s of the mean of s gradients
// clipped to norm τ when one record is replaced (seed 004, P6).
func Sensitivity(tau float64, s int) float64 { return 2 * tau / float64(s) }

// NoiseFor returns the σ of the Gaussian mechanism that makes a query of
// ℓ2-sensitivity Δ ρ-zCDP: σ = Δ/√(2ρ) (seed 004 Prop. 23 = Bun–Steinke 2016
// Prop. 1.6), raised by ulps until zcdp.Gaussian(Δ, σ), privamp's rounded-up
// ρ of that mechanism, is ≤ ρ: the noise errs upward.
func NoiseFor(sens, rho float64) float64 {
	sigma := sens / math.Sqrt(2*rho)
	for i := 0; i < 64 && zcdp.Gaussian(sens, sigma) > rho; i++ {
		sigma = math.Nextafter(sigma*(1+math.Ldexp(1, i-53)), math.Inf(1))
	}
	return sigma
}

// Oracle is the outcome of one call of MeanOracle1.
type Oracle struct {
	Sensitivity float64 `json:"sensitivity"` // 2τ/s
	Sigma       float64 `json:"sigma"`       // noise standard deviation
	Rho         float64 `json:"rho"`         // zcdp.Gaussian(Δ, σ) ≤ the ρ asked for
	Clipped     int     `json:"clipped"`     // samples longer than τ
}

// MeanOracle1 is seed 004's Algorithm 1: it writes into dst the mean of the
// samples, each clipped to the ℓ2-ball of radius τ (Π_τ(z) = z·min(1,
// τ/‖z‖)), plus N(0, σ²I) with σ = NoiseFor(2τ/s, ρ), so that the output is
// ρ-zCDP for replace-one neighbours. Its bias and MSE are bounded by Lemma 6
// (BiasBound, MSEBound). Errors are *field.Error values
// naming tau, rho or samples.
func MeanOracle1(dst []float64, samples [][]float64, tau, rho float64, rng *rand.Rand) (Oracle, error) {
	if err := field.First(positiveFinite("tau", tau), positiveFinite("rho", rho)); err != nil {
		return Oracle{}, err
	}
	if len(samples) == 0 {
		return Oracle{}, field.New("samples", 0, "must not be empty")
	}
	for _, z := range samples {
		if len(z) != len(dst) {
			return Oracle{}, field.New("samples", len(z), "must all have the dimension %d of dst", len(dst))
		}
	}
	clear(dst)
	o := Oracle{Sensitivity: Sensitivity(tau, len(samples))}
	for _, z := range samples {
		if clipAdd(dst, z, 1, tau) {
			o.Clipped++
		}
	}
	o.Sigma = NoiseFor(o.Sensitivity, rho)
	o.Rho = zcdp.Gaussian(o.Sensitivity, o.Sigma)
	s := float64(len(samples))
	for i := range dst {
		dst[i] = dst[i]/s + o.Sigma*rng.NormFloat64()
	}
	return o, nil
}

// clipAdd adds c·Π_τ(z) to acc and reports whether z was clipped.
func clipAdd(acc, z []float64, c, tau float64) bool {
	nz := numeric.Norm(z)
	if nz > tau {
		c *= tau / nz
	}
	for i, v := range z {
		acc[i] += c * v
	}
	return nz > tau
}

func positiveFinite(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return field.New(name, v, "must be finite and > 0")
	}
	return nil
}
