package composition

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// Formulas shared by the accountants here and by the algorithms and tables
// that cite them, so that each is written once.

// AdvancedEpsilon is the ε′ of advanced ("strong") composition of k
// (ε, δ)-DP mechanisms at slack δ′ (Dwork–Rothblum–Vadhan 2010, Thm III.3;
// seed 001, Lemma 2.3): √(2k ln(1/δ′))·ε + kε(e^ε − 1), with ln(1/δ′)
// rounded up. It checks nothing and takes any real k, for the papers' own
// proof chains (seed 001's Thm 2.1 composes n² steps, which may exceed
// MaxK); Advanced is the checked accountant.
func AdvancedEpsilon(eps, k, deltaPrime float64) float64 {
	return math.Sqrt(2*k*numeric.NegLogUp(deltaPrime))*eps + k*eps*math.Expm1(eps)
}

// GaussianSigma returns the smallest σ for which k compositions of the
// Gaussian mechanism with ℓ2 sensitivity s are (ε, δ)-DP: σ = √k·s/μ with μ
// from CalibrateGaussian (Balle–Wang 2018, Thm 8), nudged up until the exact
// profile recomputed at σ meets ε, so rounding never makes it optimistic.
// The error is CalibrateGaussian's.
func GaussianSigma(s, k, eps, delta float64) (float64, error) {
	mu, err := CalibrateGaussian(eps, delta)
	if err != nil {
		return 0, err
	}
	sigma := math.Sqrt(k) * s / mu
	for i := 0; i < 100; i++ {
		if e, _ := GaussianEpsilon(math.Sqrt(k)*s/sigma, delta); e <= eps {
			break
		}
		sigma *= 1 + 1e-12
	}
	return sigma, nil
}
