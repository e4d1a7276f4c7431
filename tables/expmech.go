package tables

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/optimizer/bst14"
)

// The exponential mechanism: over finitely many candidates (seed 003, Thm 3.4
// = Dwork–Roth Thm 3.10, utility Thm 3.24 = Dwork–Roth Thm 3.11) and over a
// convex set (seed 001, Algorithm 2, Thms 3.1–3.2; seed 000, Thm 2.1 and
// Thm 2.4); and output perturbation (seed 001, Algorithm 3 and App. B).

// ExpMechSource cites the finite exponential mechanism.
var ExpMechSource = Source{
	Paper:   paperGGP,
	Seed:    "003",
	Theorem: "Thm 3.4 (= Dwork–Roth Thm 3.10), Thm 3.24 (= Dwork–Roth Thm 3.11)",
	Assumptions: []string{
		"score s(S, e) over J candidates with sensitivity Δs = max_e max_{S~S′} |s(S, e) − s(S′, e)| (neighbours differ in one element)",
		"sampling P(e) ∝ exp(ε s(S, e)/(2Δs)) is ε-DP; sampling ∝ exp(s) is 2Δs-DP",
	},
	Validity: "ε > 0, Δs > 0, J ≥ 1 integer, α ∈ (0, 1)",
}

// ExpMechResult is the finite exponential mechanism at privacy ε.
type ExpMechResult struct {
	Epsilon, Sensitivity, Candidates, Alpha float64
	// Temperature is the factor ε/(2Δs) on the score.
	Temperature float64
	// UnitTemperatureEpsilon = 2Δs: the privacy of sampling ∝ exp(s).
	UnitTemperatureEpsilon float64
	// Gap is the utility loss exceeded with probability ≤ α:
	// P[s(j*) ≤ max_j s(j) − 2Δs(ln J + ln(1/α))/ε] ≤ α.
	Gap float64
	// ExpectedGap = 2Δs(ln J + 1)/ε ≥ E[max_j s(j) − s(j*)] (integrating the
	// tail bound over α = e^{−t}).
	ExpectedGap float64
	Source      Source
}

// ExpMech returns the finite exponential mechanism's temperature and utility
// tail bound (seed 003 Thms 3.4 and 3.24).
func ExpMech(eps, sensitivity, candidates, alpha float64) (ExpMechResult, error) {
	if err := firstError(positiveFinite("epsilon", eps), positiveFinite("sensitivity", sensitivity), integerAtLeast("candidates", candidates, 1), openUnit("alpha", alpha)); err != nil {
		return ExpMechResult{}, err
	}
	lj := math.Log(candidates)
	return ExpMechResult{
		Epsilon: eps, Sensitivity: sensitivity, Candidates: candidates, Alpha: alpha,
		Temperature:            eps / (2 * sensitivity),
		UnitTemperatureEpsilon: 2 * sensitivity,
		Gap:                    2 * sensitivity * (lj + math.Log(1/alpha)) / eps,
		ExpectedGap:            2 * sensitivity * (lj + 1) / eps,
		Source:                 ExpMechSource,
	}, nil
}

// ExpMechConvexSource cites the exponential mechanism on a convex set.
var ExpMechConvexSource = Source{
	Paper:   paperBST,
	Seed:    "001",
	Theorem: "Algorithm 2, Thm 3.1 (privacy), Thm 3.2 (utility tail); seed 000 Thm 2.1 / Alg. 2 and Thm 2.4 (E[L] − min ≤ p/β)",
	Assumptions: []string{
		"ℓ(·; d) convex and L-Lipschitz on a convex set C of diameter ‖C‖₂ (privacy needs only Lipschitz: ℓ(·;d) − ℓ(·;d′) is 2L-Lipschitz, so its range is ≤ 2L‖C‖₂)",
		"density ∝ exp(−ε·Σᵢ ℓ(θ; dᵢ)/(2L‖C‖₂)) on C, sampled exactly; neighbours replace one record",
		"risk of the SUM loss Σᵢ ℓ (seed 001's scale); divide by n for the average loss (seed 000's scale, β = εn/(2L‖C‖₂))",
	},
	Validity: "ε > 0, L > 0, ‖C‖₂ > 0, p ≥ 1 integer, n ≥ 1 integer, failure probability ∈ (0, 1)",
	Notes: []string{
		"seed 001's proof writes the exponent as ε/(L‖C‖₂) and calls the sensitivity L‖C‖₂; Algorithm 2's ε/(2L‖C‖₂) is the correct choice and is used here (see docs/errata.md §BST14 exponential mechanism constant)",
	},
}

// ExpMechConvexResult is the exponential mechanism on a convex set.
type ExpMechConvexResult struct {
	Epsilon, Lipschitz, Diameter, Dim, N, Failure float64
	// Temperature ε/(2L‖C‖₂) on the sum loss; BetaAverage = εn/(2L‖C‖₂) on the
	// average loss (seed 000's inverse temperature).
	Temperature, BetaAverage float64
	// TailBound: Pr[R ≥ TailBound] ≤ Failure, R the sum-loss excess risk:
	// (8L‖C‖₂/ε)((p+1) ln 3 + ln(1/Failure)) (seed 001 Thm 3.2).
	TailBound float64
	// MeanBST = (8L‖C‖₂/ε)((p+1) ln 3 + 1): the tail integrated.
	MeanBST float64
	// MeanGibbs = 2pL‖C‖₂/ε: seed 000 Thm 2.4 (E f − min f ≤ p/β for a
	// log-concave Gibbs law) on the sum scale; Mean is the smaller of the two.
	MeanGibbs, Mean float64
	Source          Source
}

// ExpMechConvex returns the privacy temperature and utility of the
// exponential mechanism on a convex set (seed 001 Alg. 2, Thms 3.1–3.2;
// seed 000 Thm 2.4).
func ExpMechConvex(eps, lipschitz, diameter, dim, n, failure float64) (ExpMechConvexResult, error) {
	if err := firstError(positiveFinite("epsilon", eps), positiveFinite("lipschitz", lipschitz), positiveFinite("diameter", diameter),
		integerAtLeast("dimension", dim, 1), integerAtLeast("n", n, 1), openUnit("failure", failure)); err != nil {
		return ExpMechConvexResult{}, err
	}
	u, err := bst14.ExpMechBound(eps, lipschitz, diameter, dim, n, failure)
	if err != nil {
		return ExpMechConvexResult{}, err
	}
	return ExpMechConvexResult{Epsilon: eps, Lipschitz: lipschitz, Diameter: diameter, Dim: dim, N: n, Failure: failure,
		Temperature: u.Temperature, BetaAverage: u.BetaAverage, TailBound: u.TailBound, MeanBST: u.MeanBST, MeanGibbs: u.MeanGibbs, Mean: u.Mean,
		Source: ExpMechConvexSource}, nil
}

// OutputPerturbationSource cites output perturbation.
var OutputPerturbationSource = Source{
	Paper:   paperBST,
	Seed:    "001",
	Theorem: "Algorithm 3 (ε-DP), Appendix B ((ε, δ)-DP), sensitivity from [CMS11]",
	Assumptions: []string{
		"each ℓ(·; d) L-Lipschitz and Δ-strongly convex, so the SUM loss is nΔ-strongly convex and its minimiser moves by ≤ 2L/(nΔ) when one record is replaced",
		"θ* computed exactly (the sensitivity bound needs the exact minimiser)",
	},
	Validity: "ε > 0, δ ∈ (0, 1), L > 0, Δ > 0, n ≥ 1 integer, p ≥ 1 integer",
}

// OutputPerturbationResult is the noise for releasing θ* + b.
type OutputPerturbationResult struct {
	Epsilon, Delta, Lipschitz, StrongConvexity, N, Dim float64
	Sensitivity                                        float64 // 2L/(nΔ)
	// ε-DP: density ∝ exp(−‖b‖₂/GammaScale), ‖b‖₂ ~ Gamma(p, GammaScale),
	// GammaScale = 2L/(nΔε); MeanNorm = p·GammaScale.
	GammaScale, MeanNorm float64
	// (ε, δ): the paper's σ₀ = 2L√(ln(1/δ))/(Δεn) (σ₀² = 4L² ln(1/δ)/(Δ²ε²n²)),
	// optimistic; PaperSigmaEpsilon is the ε it really gives at δ (exact
	// Gaussian profile).
	PaperSigma, PaperSigmaEpsilon float64
	// ClassicSigma = √(2 ln(1.25/δ))·2L/(nΔε) (Dwork–Roth Thm A.1), valid
	// only for ε < 1 (NaN otherwise); AnalyticSigma is the exact smallest σ
	// (Balle–Wang 2018, composition.GaussianSigma), valid for every ε.
	ClassicSigma, AnalyticSigma float64
	Source                      Source
}

// OutputPerturbation returns the sensitivity and noise of output
// perturbation (seed 001 Alg. 3 and App. B). The paper's Gaussian constant
// σ₀² = 4L² ln(1/δ)/(Δ²ε²n²) is about half the standard Gaussian mechanism's
// 8L² ln(1.25/δ)/(Δ²ε²n²) (docs/errata.md#bst14-output-perturbation-constant): privamp reports the ε the
// paper's σ₀ really gives and recommends the standard or the analytic σ.
func OutputPerturbation(eps, delta, lipschitz, strongConvexity, n, dim float64) (OutputPerturbationResult, error) {
	if err := firstError(positiveFinite("epsilon", eps), openUnit("delta", delta), positiveFinite("lipschitz", lipschitz),
		positiveFinite("strong_convexity", strongConvexity), integerAtLeast("n", n, 1), integerAtLeast("dimension", dim, 1)); err != nil {
		return OutputPerturbationResult{}, err
	}
	s := bst14.OutputSensitivity(lipschitz, strongConvexity, n)
	r := OutputPerturbationResult{Epsilon: eps, Delta: delta, Lipschitz: lipschitz, StrongConvexity: strongConvexity, N: n, Dim: dim,
		Sensitivity: s, GammaScale: s / eps, Source: OutputPerturbationSource}
	r.MeanNorm = dim * r.GammaScale
	r.PaperSigma = bst14.OutputPaperSigma(lipschitz, strongConvexity, n, eps, delta)
	var err error
	if r.PaperSigmaEpsilon, err = composition.GaussianEpsilon(s/r.PaperSigma, delta); err != nil {
		r.PaperSigmaEpsilon = math.Inf(1)
	}
	r.ClassicSigma = math.NaN()
	if eps < 1 {
		r.ClassicSigma = s * math.Sqrt(2*math.Log(1.25/delta)) / eps
	}
	if r.AnalyticSigma, err = composition.GaussianSigma(s, 1, eps, delta); err != nil {
		return r, rangeErr("epsilon", "%v", err)
	}
	r.Source.Notes = []string{
		fmt.Sprintf("the paper's (ε, δ) noise σ₀² = 4L² ln(1/δ)/(Δ²ε²n²) is optimistic (about half the standard Gaussian mechanism's variance); at these inputs it gives ε = %.6g, not %.6g (exact Gaussian profile, Balle–Wang 2018)", r.PaperSigmaEpsilon, eps),
		"the standard Gaussian mechanism σ = √(2 ln(1.25/δ))·Δ₂/ε (Dwork–Roth Thm A.1) needs ε < 1; the analytic σ is exact for every ε",
	}
	return r, nil
}
