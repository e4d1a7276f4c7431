package bst14

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// LocalizeGaussParams are the parameters of the (ε, δ) localization of
// Appendix B (Thms B.1–B.2).
type LocalizeGaussParams struct {
	Common
	TargetEpsilon float64 `json:"target_epsilon" param:"target_epsilon" doc:"total ε: ε/2 for Gaussian output perturbation, ε/2 for noisy SGD on C₀ (default 1)"`
	Delta         float64 `json:"delta" param:"delta" doc:"total δ in (0, 1): δ/2 for each stage"`
	Steps         int64   `json:"steps" param:"steps" doc:"updates T of the second stage (default n², Algorithm 1); a cap for large n, accounted as run"`
	Tolerance     float64 `json:"tolerance" param:"tolerance" doc:"distance to the exact minimiser the solver certifies for every data set (added twice to the sensitivity; default 1e-9·R)"`
	StepRule      string  `json:"step_rule" param:"step_rule" doc:"step sizes of the second stage (Theorem 2.4): lipschitz (uses C₀'s diameter, as Thm B.2) or strongly-convex (1/(Δnt), the default as for bst14-sgd with l2 > 0)"`
}

// LocalizeGaussResult is the result of the (ε, δ) localization.
type LocalizeGaussResult struct {
	Algorithm   string             `json:"algorithm"`
	Description string             `json:"data_description"`
	Declared    optimizer.Declared `json:"declared"`
	N           int                `json:"n"`
	Dimension   int                `json:"dimension"`
	// Epsilon and Delta are the certified total: the stages' sum (Thm B.1).
	Epsilon dp.Loss `json:"epsilon"`
	Delta   float64 `json:"delta"`
	// Stage1 is Gaussian output perturbation at (ε/2, δ/2).
	Stage1 *OutputResult `json:"stage1"`
	// Rho is C₀'s radius σ(√p + √(6 ln n)) + the solver's distance: ‖b‖
	// exceeds σ(√p + √(2t)) with probability ≤ e^{−t} (Gaussian norm
	// concentration), t = 3 ln n.
	Rho float64 `json:"rho"`
	// Stage2 is noisy SGD (Algorithm 1, Lipschitz steps) on C₀ ∩ C at
	// (ε/2, δ/2), started at θ₀.
	Stage2 *SGDResult `json:"stage2"`
	// Contained says whether the exact minimiser lies in C₀ (measured;
	// Pr ≥ 1 − n⁻³).
	Contained bool `json:"measured_contained"`
	// Bound is Lemma 4.2's tally with stage 2's Shamir–Zhang bound on C₀ ∩
	// C: F·(1 − n⁻³) + nL‖C‖₂·n⁻³ (sum scale).
	Bound float64 `json:"bound"`
	// PaperRate is Thm B.2's rate, the Lipschitz rate of Thm 2.4 at ‖C₀‖₂ =
	// L√(p ln(1/δ) ln n)/(Δεn), with O(·) constant 1.
	PaperRate float64 `json:"paper_rate"`
	Trivial   float64 `json:"trivial"`
	Outcome
}

// LocalizeGaussSource cites Appendix B.
const LocalizeGaussSource = "seed 001 (Bassily–Smith–Thakurta 2014), Appendix B, Thms B.1–B.2: Gaussian output perturbation at (ε/2, δ/2) localises C₀ (radius from the Gaussian norm tail at n⁻³, as Lemma 4.2), then noisy SGD (Algorithm 1) at (ε/2, δ/2) on C₀ ∩ C; basic composition gives (ε, δ)"

// RunLocalizeGauss runs the (ε, δ) localization of Appendix B on the
// problem of s: any dimension, Δ = l2 > 0.
func RunLocalizeGauss(s Spec, p LocalizeGaussParams) (*LocalizeGaussResult, error) {
	if err := (SGDParams{TargetEpsilon: 1, Delta: 0.5, StepRule: p.StepRule}).validate(); err != nil {
		return nil, err
	}
	if err := field.First(field.Positive("target_epsilon", p.TargetEpsilon), field.OpenUnit("delta", p.Delta),
		field.NonNegative("tolerance", p.Tolerance), field.Count("steps", p.Steps, 0, maxSGDSteps)); err != nil {
		return nil, err
	}
	pr, err := build(s, p.Common, p.Delta)
	if err != nil {
		return nil, err
	}
	if err := strongConvexityNeeded("localization (Appendix B)", pr); err != nil {
		return nil, err
	}
	return runLocalizeGaussProblem(pr, p)
}

func runLocalizeGaussProblem(pr *optimizer.Problem, p LocalizeGaussParams) (*LocalizeGaussResult, error) {
	c := pr.Constants
	n, d := pr.Data.N(), pr.Data.D
	R, eps, delta := pr.Declared.Radius, p.TargetEpsilon, p.Delta
	op := OutputParams{Common: Common{Seed: p.Seed}, TargetEpsilon: eps / 2, Delta: delta / 2, Noise: NoiseGaussian, Tolerance: p.Tolerance}
	st1, err := runOutputProblem(pr, op, nil)
	if err != nil {
		return nil, err
	}
	sigma := float64(st1.Privacy.Scale)
	res := &LocalizeGaussResult{Algorithm: "bst14-localize-gaussian", Description: pr.Description, Declared: pr.Declared, N: n, Dimension: d,
		Delta: delta, Stage1: st1, Trivial: float64(n) * c.L * 2 * R,
		Rho: sigma*(math.Sqrt(float64(d))+math.Sqrt(6*math.Log(float64(n)))) + st1.Solver.Distance,
		Outcome: newOutcome(p.Seed, pr,
			"neighbours replace one record (fixed n); ℓ convex and L-Lipschitz on C plus (Δ/2)‖θ‖², Δ = l2 > 0",
			"stage 1 (Gaussian output perturbation) is (ε/2, δ/2)-DP; stage 2 (noisy SGD projected onto C₀ ∩ C, a set chosen from stage 1's output only) is (ε/2, δ/2)-DP for every C₀; adaptive basic composition gives (ε, δ) (Thm B.1)",
			SGDSampling,
		)}
	// C₀ = B(θ₀, ρ) with θ₀ = Π_C(θ̂ + b) ∈ C (as bst14-localize: the
	// region is never empty, and ‖θ₀ − θ*‖ ≤ ‖b‖ + distance since θ* ∈ C).
	centre := st1.W
	reg := region{R: R, Centre: centre, Rho: res.Rho}
	sp := SGDParams{Common: Common{Seed: p.Seed ^ 0x10ca2}, TargetEpsilon: eps / 2, Delta: delta / 2, Steps: p.Steps, StepRule: p.StepRule}
	st2, err := runSGDOn(pr, sp, reg, centre, nil)
	if err != nil {
		return nil, err
	}
	res.Stage2 = st2
	res.Epsilon = st1.Privacy.Epsilon + st2.Privacy.Epsilon
	res.W = st2.W
	opt := optimizer.Minimize(pr.Objective, pr.Data, R)
	res.Measured = measure(pr, res.W, opt)
	res.Contained = dist(opt.W, centre) <= res.Rho
	fail := math.Pow(float64(n), -3)
	res.Bound = st2.Bounds.ShamirZhang*(1-fail) + res.Trivial*fail
	nf := float64(n)
	diam0 := c.L * math.Sqrt(float64(d)*math.Log(1/delta)*math.Log(nf)) / (c.M * eps * nf)
	res.PaperRate = c.L * diam0 * math.Pow(math.Log(nf/delta), 1.5) * math.Sqrt(float64(d)*math.Log(1/delta)) / eps
	res.Checks = []dp.Check{
		st1.Checks[0], // the solver's certified distance, which stage 1's sensitivity uses
		check("certified ε ≤ target ε", float64(res.Epsilon) <= eps, float64(res.Epsilon), eps, "stage 1's analytic Gaussian ε plus stage 2's PLD ε, each calibrated to ε/2"),
		boundCheck("excess risk (sum) ≤ Lemma 4.2 + Shamir–Zhang on C₀ ∩ C", res.Measured.Sum, res.Bound, res.Trivial,
			fmt.Sprintf("%s with D = ‖C₀ ∩ C‖₂ = %.6g, times (1 − n⁻³), plus nL‖C‖₂n⁻³", st2.Bounds.Source, reg.Diameter())),
		baselineCheck(pr, res.Measured, opt),
	}
	res.Assumptions = append(res.Assumptions, "the output lies in C₀ ∩ C: every iterate is projected onto it exactly (by construction, not a check)", optimizer.GradientByConstruction)
	res.OK = dp.AllPass(res.Checks)
	if res.Rho >= 2*R {
		res.Notes = append(res.Notes, fmt.Sprintf("C₀'s radius ρ = %.4g is at least ‖C‖₂ = %g: C₀ ⊇ C, so localization gains nothing at these numbers and costs half the budget (ρ ∝ √(p ln(1/δ) ln n)/(nΔε) shrinks with n and Δ)", res.Rho, 2*R))
	}
	if !res.Contained {
		res.Notes = append(res.Notes, "the exact minimiser is outside C₀ in this run (probability ≤ n⁻³): the utility bound's failure term")
	}
	return res, nil
}

// LocalizeGaussPaperBound is the bound of Thm B.2 with every constant the
// paper gives, at n records (average scale, for asking at which n it falls
// below a given excess risk): stage 2's Shamir–Zhang bound (sgdBounds,
// T = n² steps, the rule's steps) at the paper's σ for (ε/2, δ/2) (Thm
// 2.1's rule, SGDPaperSigma: larger than the σ privamp calibrates, so this
// bound is above the run's), on C₀ ∩ C of diameter min(2R, 2ρ) with ρ =
// σ₁(√p + √(6 ln n)), σ₁ the analytic Gaussian σ of stage 1 for the
// minimiser's sensitivity 2·Sens/(nΔ), times (1 − n⁻³), plus the trivial
// nL·2R·n⁻³; divided by n. +Inf where a σ cannot be computed.
func LocalizeGaussPaperBound(n, d int, L, sens, m, R, eps, delta float64, rule string) float64 {
	nf := float64(n)
	s1, err := composition.GaussianSigma(2*sens/(nf*m), 1, eps/2, delta/2)
	if err != nil {
		return math.Inf(1)
	}
	rho := s1 * (math.Sqrt(float64(d)) + math.Sqrt(6*math.Log(nf)))
	diam := math.Min(2*R, 2*rho)
	sigma := SGDPaperSigma(nf, eps/2, delta/2, L)
	b := sgdBounds(n, d, int64(n)*int64(n), L, m, diam, sigma, eps/2, delta/2, rule)
	fail := math.Pow(nf, -3)
	return (b.ShamirZhang*(1-fail) + nf*L*2*R*fail) / nf
}
