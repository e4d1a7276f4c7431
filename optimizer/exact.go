package optimizer

import (
	"errors"
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/shifted"
)

// ExactRho is the exact Rényi divergence of the final iterate between
// neighbouring data sets for the linear loss −⟨w, x⟩ with an ℓ2 term of
// weight lambda (lambda = 1: the quadratic ½‖w − x‖²) and no projection
// (docs/amplification.md#exact-gaussian-cases). Every step is the affine map w ↦ c·w + (η/b)Σx_i with
// c = 1 − ηλ, plus N(0, η²σ²I), so the output is Gaussian with per-coordinate
// variance V = η²σ² Σ_{j<S} c^{2j}, and replacing example t by one at
// distance diff = ‖x_t − x'_t‖ moves its mean by (η/b)·diff·Σ_s c^{S−1−s}
// over the steps s that use t. Hence D_α = α·ρ with ρ = Δμ²/(2V) exactly
// (a ρ-zCDP curve that is attained). Only the Final variant (PNSGD or
// fixed-order multi-epoch) has a Gaussian output. t is 1-based.
func ExactRho(cfg Config, n int, lambda, diff float64, t int) (float64, error) {
	if cfg.Variant != shifted.VariantPNSGD {
		return 0, errors.New("the output of Skip/Stop is a mixture, not Gaussian")
	}
	if !math.IsInf(cfg.R, 1) {
		return 0, errors.New("exact only without projection (R = +Inf)")
	}
	if t < 1 || t > n {
		return 0, errors.New("index out of range")
	}
	if cfg.Sigma == 0 {
		return math.Inf(1), nil
	}
	eta, batch, epochs := cfg.Loss.Eta, int(cfg.BatchSize()), int(cfg.EpochCount())
	c := 1 - eta*lambda
	spe := (n + batch - 1) / batch
	S := epochs * spe
	step := (t - 1) / batch // step within an epoch that uses t
	// Work in log space relative to the largest term to avoid underflow.
	ac := math.Abs(c)
	var logV float64 // ln Σ_{j<S} c^{2j}
	switch {
	case ac == 1:
		logV = math.Log(float64(S))
	case ac == 0:
		logV = 0
	default:
		logV = math.Log(-math.Expm1(float64(S)*2*math.Log(ac))) - math.Log(-math.Expm1(2*math.Log(ac)))
	}
	// mean shift factor Σ_e c^{S−1−(e·spe+step)}
	var m float64
	for e := 0; e < epochs; e++ {
		p := S - 1 - (e*spe + step)
		if c == 0 {
			if p == 0 {
				m += 1
			}
			continue
		}
		m += math.Pow(c, float64(p))
	}
	size := batch // the sum is divided by the nominal batch, also in a smaller last batch
	dm := eta / float64(size) * diff * math.Abs(m)
	if dm == 0 {
		return 0, nil
	}
	logRho := 2*math.Log(dm) - math.Log(2) - 2*math.Log(eta*cfg.Sigma) - logV
	return math.Exp(logRho), nil
}

// GaussianShiftEpsilon is the exact (ε, δ) of the Gaussian shift experiment
// N(0, 1) vs N(mu, 1) (Balle–Wang 2018, Thm 8): the smallest ε with
// Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) ≤ δ, computed by the accountant's
// composition.GaussianEpsilon (within 10^−12 relative, never below the
// exact ε). For a ρ-zCDP Gaussian output μ = √(2ρ). It is the privacy
// profile of the exact cases, a floor for every upper bound and a ceiling
// for every audit. μ ≤ 0 gives 0; no finite ε (μ = +∞) gives +∞.
func GaussianShiftEpsilon(mu, delta float64) float64 {
	if mu <= 0 {
		return 0
	}
	e, err := composition.GaussianEpsilon(mu, delta)
	if err != nil {
		return math.Inf(1)
	}
	return e
}
