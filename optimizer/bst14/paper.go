package bst14

import (
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/internal/field"
)

// Seed 001's formulas (Bassily, Smith, Thakurta 2014) that the algorithms
// of this package use: the noise rule of Theorem 2.1 and its proof chain,
// output perturbation's sensitivity and Appendix B noise, and the utility of
// the exponential mechanism on a convex set (Thm 3.2, with seed 000's Thm
// 2.4). Package tables presents them with their sources (`privamp calc`);
// they are written once, here.

// SGDPaperSigma returns Theorem 2.1's σ = √(32L²n² ln(n/δ) ln(1/δ))/ε.
func SGDPaperSigma(n, eps, delta, lipschitz float64) float64 {
	return math.Sqrt(32 * lipschitz * lipschitz * n * n * math.Log(n/delta) * math.Log(1/delta) / (eps * eps))
}

// SGDPaperChain returns the ε that the paper's proof of Theorem 2.1
// delivers for its own σ: ε₁ = 2ε/(2n√ln(1/δ)) per step after amplification
// (Lemma 2.2), then Lemma 2.3 (advanced composition,
// composition.AdvancedEpsilon) over T = n² steps at δ′ = δ/2.
func SGDPaperChain(n, eps, delta float64) float64 {
	e1 := 2 * (eps / (2 * math.Sqrt(math.Log(1/delta)))) / n
	return composition.AdvancedEpsilon(e1, n*n, delta/2)
}

// OutputSensitivity is the ℓ2 sensitivity 2L/(nΔ) of the exact minimiser
// of a sum of n L-Lipschitz, Δ-strongly convex losses when one record is
// replaced (seed 001, Algorithm 3, from [CMS11]): the sum is nΔ-strongly
// convex and the replaced loss's difference is 2L-Lipschitz.
func OutputSensitivity(lipschitz, strongConvexity, n float64) float64 {
	return 2 * lipschitz / (n * strongConvexity)
}

// OutputPaperSigma is seed 001's Appendix B noise σ₀ = 2L√(ln(1/δ))/(Δεn)
// (σ₀² = 4L² ln(1/δ)/(Δ²ε²n²)), optimistic: about half the standard
// Gaussian mechanism's variance, so never a guarantee
// (docs/errata.md#bst14-output-perturbation-constant).
func OutputPaperSigma(lipschitz, strongConvexity, n, eps, delta float64) float64 {
	return 2 * lipschitz * math.Sqrt(math.Log(1/delta)) / (strongConvexity * eps * n)
}

// ExpMechUtility is the exponential mechanism on a convex set C of
// diameter ‖C‖₂ for n L-Lipschitz losses (seed 001 Alg. 2, Thms 3.1–3.2;
// seed 000 Thm 2.4), on the scale of the SUM loss.
type ExpMechUtility struct {
	// Temperature ε/(2L‖C‖₂) on the sum loss; BetaAverage = εn/(2L‖C‖₂) on
	// the average loss (seed 000's inverse temperature).
	Temperature, BetaAverage float64
	// TailBound: Pr[R ≥ TailBound] ≤ failure, R the sum-loss excess risk:
	// (8L‖C‖₂/ε)((p+1) ln 3 + ln(1/failure)) (seed 001 Thm 3.2).
	TailBound float64
	// MeanBST = (8L‖C‖₂/ε)((p+1) ln 3 + 1): the tail integrated.
	MeanBST float64
	// MeanGibbs = 2pL‖C‖₂/ε: seed 000 Thm 2.4 (E f − min f ≤ p/β for a
	// log-concave Gibbs law) on the sum scale; Mean is the smaller of the two.
	MeanGibbs, Mean float64
}

// ExpMechBound returns the temperature and utility of the exponential
// mechanism on a convex set at ε, L, ‖C‖₂, dimension p, n records and tail
// probability failure. Errors are *field.Error values.
func ExpMechBound(eps, lipschitz, diameter, dim, n, failure float64) (ExpMechUtility, error) {
	if err := field.First(field.Positive("epsilon", eps), field.Positive("lipschitz", lipschitz), field.Positive("diameter", diameter),
		field.Positive("dimension", dim), field.Positive("n", n), field.OpenUnit("failure", failure)); err != nil {
		return ExpMechUtility{}, err
	}
	lc := lipschitz * diameter
	u := ExpMechUtility{Temperature: eps / (2 * lc), BetaAverage: eps * n / (2 * lc)}
	u.TailBound = 8 * lc / eps * ((dim+1)*math.Log(3) + math.Log(1/failure))
	u.MeanBST = 8 * lc / eps * ((dim+1)*math.Log(3) + 1)
	u.MeanGibbs = 2 * dim * lc / eps
	u.Mean = math.Min(u.MeanBST, u.MeanGibbs)
	return u, nil
}

// The bounds of the package's algorithms at n records, on the average
// scale (the sum-scale bound ÷ n), from declared constants only: for asking
// at which n a bound would fall below a given excess risk (a WORSE run's
// note). +Inf where a noise level cannot be computed.

// ExpMechMeanAt is Thm 3.2's mean (8L‖C‖₂/ε)((p+1) ln 3 + 1) ÷ n.
func ExpMechMeanAt(n, d int, L, diam, eps float64) float64 {
	u, err := ExpMechBound(eps, L, diam, float64(d), float64(n), 0.5)
	if err != nil {
		return math.Inf(1)
	}
	return u.MeanBST / float64(n)
}

// OutputLipschitzAt is output perturbation's bound L(E‖b‖ + distance) at
// n: the noise for the sensitivity 2·Sens/(nm) + 2·distance, Gamma (E‖b‖ =
// p·s/ε) or the analytic Gaussian (E‖b‖ ≤ σ√p).
func OutputLipschitzAt(n, d int, L, sens, m, distance, eps, delta float64, noise string) float64 {
	s := OutputSensitivity(sens, m, float64(n)) + 2*distance
	mean := float64(d) * s / eps
	if noise == NoiseGaussian {
		sigma, err := composition.GaussianSigma(s, 1, eps, delta)
		if err != nil {
			return math.Inf(1)
		}
		mean = sigma * math.Sqrt(float64(d))
	}
	return L * (mean + distance)
}

// SGDPaperBoundAt is Algorithm 1's Shamir–Zhang bound (sgdBounds) at n with
// T = n² steps and the paper's σ (Thm 2.1's rule, SGDPaperSigma: above the
// σ privamp calibrates, so this bound is above the run's) ÷ n.
func SGDPaperBoundAt(n, d int, L, m, diam, eps, delta float64, rule string) float64 {
	b := sgdBounds(n, d, int64(n)*int64(n), L, m, diam, SGDPaperSigma(float64(n), eps, delta, L), eps, delta, rule)
	return b.ShamirZhang / float64(n)
}

// LocalizeBoundAt is Algorithm 4's Lemma 4.2 + Thm 3.2 bound at n: C₀'s
// radius ρ = 3 ln n·p·s/(ε/2) for stage 1's sensitivity s = 2·Sens/(nm) +
// 2·distance, Thm 3.2's mean at ε/2 on a set of diameter min(2R, 2ρ), times
// (1 − n⁻³), plus nL·2R·n⁻³; ÷ n.
func LocalizeBoundAt(n, d int, L, sens, m, R, distance, eps float64) float64 {
	s := OutputSensitivity(sens, m, float64(n)) + 2*distance
	_, _, rho := localizeRadius(n, d, s, eps)
	u, err := ExpMechBound(eps/2, L, math.Min(2*R, 2*rho), float64(d), float64(n), 0.5)
	if err != nil {
		return math.Inf(1)
	}
	nf := float64(n)
	fail := math.Pow(nf, -3)
	return (u.MeanBST*(1-fail) + nf*L*2*R*fail) / nf
}
