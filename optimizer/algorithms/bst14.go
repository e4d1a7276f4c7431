package algorithms

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer/bst14"
)

func init() {
	Register(Algorithm{
		Name:    "bst14-sgd",
		Source:  "seed 001: Bassily–Smith–Thakurta 2014, Algorithm 1, Thm 2.4; σ from the PLD accountant (replace-one, one record per step)",
		Summary: "noisy SGD with n² one-record steps θ ← Π_C(θ − η(t)(n∇ℓ(θ; d) + N(0, σ²I))), σ calibrated by privamp (the paper's σ rule shown beside it)",
		Params:  func() any { return &bst14.SGDParams{Delta: 1e-5, Common: bst14.Common{Seed: 1}} },
		Run:     runBST14SGD,
	})
	Register(Algorithm{
		Name:    "output-perturbation",
		Source:  "seed 001: Bassily–Smith–Thakurta 2014, Algorithm 3 (ε-DP) and Appendix B ((ε, δ))",
		Summary: "release Π_C(θ̂ + b), θ̂ the minimiser of a strongly convex loss (certified distance), b Gamma-norm (ε-DP) or Gaussian ((ε, δ))",
		Params: func() any {
			return &bst14.OutputParams{TargetEpsilon: 1, Delta: 1e-5, Noise: bst14.NoiseGamma, Common: bst14.Common{Seed: 1}}
		},
		Run: runBST14Output,
	})
	Register(Algorithm{
		Name:    "bst14-expmech",
		Source:  "seed 001: Bassily–Smith–Thakurta 2014, Algorithm 2, Thms 3.1–3.2 (exact sampler, dimension 1 or 2)",
		Summary: "exponential mechanism θ ∝ exp(−εΣℓ(θ; dᵢ)/(2L‖C‖₂)) on C, sampled exactly in one or two dimensions",
		Params:  func() any { return &bst14.ExpMechParams{TargetEpsilon: 1, Common: bst14.Common{Seed: 1}} },
		Run:     runBST14ExpMech,
	})
	Register(Algorithm{
		Name:    "bst14-localize",
		Source:  "seed 001: Bassily–Smith–Thakurta 2014, Algorithm 4, Lemma 4.2, Thm 4.3 (ε-DP; dimension 1 or 2, l2 > 0)",
		Summary: "localization: output perturbation at ε/2 picks C₀ of radius 3 ln n·p·scale, then the exact exponential mechanism at ε/2 on C₀ ∩ C",
		Params:  func() any { return &bst14.LocalizeParams{TargetEpsilon: 1, Common: bst14.Common{Seed: 1}} },
		Run:     runBST14Localize,
	})
}

func bst14Spec(in Input) bst14.Spec {
	return bst14.Spec{Data: in.Data, Loss: in.Loss, Radius: in.Radius}
}

func runBST14SGD(in Input, params any) (*Report, error) {
	p := *params.(*bst14.SGDParams)
	if !in.Set["sigma"] && !in.Set["target_epsilon"] {
		p.TargetEpsilon = 1
	}
	res, err := bst14.RunSGD(bst14Spec(in), p)
	if err != nil {
		return nil, err
	}
	pv, pp, b := res.Privacy, res.Paper, res.Bounds
	r := &Report{Title: fmt.Sprintf("privamp run: bst14-sgd on %s, %s loss", res.Description, res.Declared.Loss),
		Checks: res.Checks, OK: res.OK, Result: res, Assumptions: res.Assumptions, Notes: res.Notes}
	r.AddVerdict("checks of the run against the bound on its mean and the data-free output θ = 0")
	r.Add("records n, dimension p", fmt.Sprintf("%d, %d", res.N, res.Dimension), Given, res.Description)
	r.Add("domain radius R (‖C‖₂ = 2R)", dp.Num(res.Declared.Radius), Declared, "declared")
	r.Add("Lipschitz constant L", dp.Num(res.Lipschitz), Derived, "sup ‖∇ℓ‖ on C from the declared bounds")
	r.Add("record sensitivity Sens", dp.Num(res.RecordSensitivity), Derived, "X·sup|φ'| ≤ L (the ℓ2 term cancels between neighbours)")
	r.Add("updates T", pv.Steps, Given, map[bool]string{true: "n² (Algorithm 1)", false: "capped by steps: NOT n²"}[res.FullSteps])
	r.Add("step rule", res.StepRule, Given, "Thm 2.4")
	r.Add("noise σ", pv.Sigma, Derived, pv.SigmaSource)
	r.Add("noise multiplier z = σ/(n·Sens)", pv.NoiseMultiplier, Derived, "sampling rate γ = 1/n")
	r.Add(fmt.Sprintf("ε at δ = %g", pv.Delta), pv.Epsilon, Certified, "PLD accountant, replace-one, one record per step (pld.DPSGDReplaceOne)")
	r.Add("ε (PLD optimistic estimate)", pv.EpsilonOptimistic, Derived, "a lower estimate, never a guarantee")
	r.Add("paper's σ (Thm 2.1, 32·ln·ln rule)", pp.Sigma, Derived, fmt.Sprintf("at the stated ε = %g; %.3g× the calibrated σ", pp.Epsilon, pp.NoiseRatio))
	r.Add("ε privamp certifies for the paper's σ", pp.CertifiedEpsilon, Certified, "same accountant, sampler, T and δ")
	r.Add("ε of the paper's own proof chain for its σ", dp.Num(pp.ChainEpsilon), Derived, "Lemma 2.2 + Lemma 2.3 at δ′ = δ/2: above the stated ε, so never printed as a guarantee")
	r.Add("excess empirical risk (sum Σℓ)", dp.Num(res.Measured.Sum), Measured, "L(θ_T;D) − min_C L, the paper's scale")
	r.Add("excess empirical risk (average)", dp.Num(res.Measured.Average), Measured, "÷ n, privamp's (PNSGD's) scale")
	r.Add("Shamir–Zhang bound (sum)", dp.Num(b.ShamirZhang), Derived, b.Source)
	r.Add("paper's rate Thm 2.4 (sum, constant 1)", dp.Num(b.PaperRate), Derived, "seed 001 notes §3.1")
	r.Add("trivial bound nL‖C‖₂", dp.Num(b.Trivial), Derived, "every θ ∈ C")
	sayWorse(r, res.N, "the Shamir–Zhang bound with the paper's σ (Thm 2.1's rule, n² steps; average scale)", func(n int) float64 {
		return bst14.SGDPaperBoundAt(n, res.Dimension, res.Lipschitz, res.StrongConvexity, 2*res.Declared.Radius, pp.Epsilon, float64(pv.Delta), res.StepRule)
	}, baselineAverage(res.Checks, res.N), "")
	return r, nil
}

func runBST14Output(in Input, params any) (*Report, error) {
	p := *params.(*bst14.OutputParams)
	if in.Set["delta"] && p.Noise != bst14.NoiseGaussian {
		return nil, field.New("delta", p.Delta, "applies to noise %s only (the %s version is pure ε-DP)", bst14.NoiseGaussian, p.Noise)
	}
	in, notes := withL2(in)
	res, err := bst14.RunOutput(bst14Spec(in), p)
	if err != nil {
		return nil, err
	}
	pv, sv := res.Privacy, res.Solver
	r := &Report{Title: fmt.Sprintf("privamp run: output-perturbation (%s) on %s, %s loss", pv.Noise, res.Description, res.Declared.Loss),
		Checks: res.Checks, OK: res.OK, Result: res, Assumptions: res.Assumptions, Notes: append(notes, res.Notes...)}
	r.AddVerdict("checks of the run against the bound on its mean and the data-free output θ = 0")
	r.Add("records n, dimension p", fmt.Sprintf("%d, %d", res.N, res.Dimension), Given, res.Description)
	r.Add("strong convexity Δ", dp.Num(res.StrongConvexity), Declared, "l2")
	r.Add("Lipschitz L, smoothness β", fmt.Sprintf("%.6g, %.6g", res.Lipschitz, res.Smoothness), Derived, "from the declared bounds")
	r.Add("solver", fmt.Sprintf("%d projected-gradient steps, contraction %.6g", sv.Iterations, sv.Contraction), Derived, sv.Source)
	r.Add("certified distance to the exact minimiser", dp.Num(sv.Distance), Derived, fmt.Sprintf("c^k·2R + rounding allowance %.3g", sv.Rounding))
	r.Add("sensitivity of the exact minimiser", dp.Num(pv.ExactSensitivity), Derived, "2·Sens/(nΔ) (Alg. 3, [CMS11])")
	r.Add("sensitivity used", dp.Num(pv.Sensitivity), Derived, "2·Sens/(nΔ) + 2·distance")
	scale := "Gamma scale s/ε (‖b‖ ~ Gamma(p, s/ε))"
	if pv.Noise == bst14.NoiseGaussian {
		scale = "Gaussian σ (analytic, Balle–Wang 2018)"
	}
	r.Add(scale, pv.Scale, Derived, "")
	eps := "ε (pure)"
	if pv.Noise == bst14.NoiseGaussian {
		eps = fmt.Sprintf("ε at δ = %g", pv.Delta)
	}
	r.Add(eps, pv.Epsilon, Certified, pv.Source)
	r.Add("paper's noise scale", dp.Num(pv.PaperScale), Derived, "2L/(nΔε) or σ₀ = 2L√ln(1/δ)/(Δεn), with the paper's L")
	r.Add("‖b‖ drawn (mean)", fmt.Sprintf("%.6g (%.6g)", res.NoiseNorm, res.MeanNoiseNorm), Measured, "")
	r.Add("excess empirical risk (sum Σℓ)", dp.Num(res.Measured.Sum), Measured, "L(θ;D) − min_C L")
	r.Add("excess empirical risk (average)", dp.Num(res.Measured.Average), Measured, "÷ n")
	r.Add("Lipschitz bound nL(E‖b‖ + distance)", dp.Num(res.LipschitzBound), Derived, "bound on the mean (sum scale)")
	sens := pv.ExactSensitivity * float64(res.N) * res.StrongConvexity / 2
	sayWorse(r, res.N, "the Lipschitz bound L(E‖b‖ + distance) (average scale)", func(n int) float64 {
		return bst14.OutputLipschitzAt(n, res.Dimension, res.Lipschitz, sens, res.StrongConvexity, sv.Distance, float64(pv.Epsilon), float64(pv.Delta), pv.Noise)
	}, baselineAverage(res.Checks, res.N), "")
	return r, nil
}

func runBST14ExpMech(in Input, params any) (*Report, error) {
	in, notes := withExactDimension(in)
	res, err := bst14.RunExpMech(bst14Spec(in), *params.(*bst14.ExpMechParams))
	if err != nil {
		return nil, err
	}
	pv := res.Privacy
	r := &Report{Title: fmt.Sprintf("privamp run: bst14-expmech on %s, %s loss", res.Description, res.Declared.Loss),
		Checks: res.Checks, OK: res.OK, Result: res, Assumptions: res.Assumptions, Notes: append(notes, res.Notes...)}
	r.AddVerdict("checks of the run against the bound on its mean and the data-free output θ = 0")
	r.Add("records n, dimension p", fmt.Sprintf("%d, %d", res.N, res.Dimension), Given, res.Description)
	r.Add("Lipschitz constant L", dp.Num(res.Lipschitz), Derived, "from the declared bounds")
	r.Add("diameter ‖C‖₂", dp.Num(pv.Diameter), Declared, "2R")
	r.Add("temperature ε/(2L‖C‖₂)", dp.Num(pv.Temperature), Derived, "Algorithm 2 (on the sum loss)")
	r.Add("ε (pure)", pv.Epsilon, Certified, pv.Source)
	r.Add("sampler", fmt.Sprintf("%d cells", res.Cells), Derived, pv.Sampler+"; the grid from n, L, R and ε only")
	r.Add("excess empirical risk (sum Σℓ)", dp.Num(res.Measured.Sum), Measured, "")
	r.Add("excess empirical risk (average)", dp.Num(res.Measured.Average), Measured, "")
	r.Add("Thm 3.2 mean bound (sum)", dp.Num(res.Bound.MeanBST), Derived, "(8L‖C‖₂/ε)((p+1) ln 3 + 1)")
	r.Add("Gibbs mean bound 2pL‖C‖₂/ε (sum)", dp.Num(res.Bound.MeanGibbs), Derived, "seed 000 Thm 2.4 on the sum scale")
	r.Add("paper's rate pL‖C‖₂/ε (constant 1)", dp.Num(res.PaperRate), Derived, "Table 1")
	sayWorse(r, res.N, "Thm 3.2's mean bound (average scale)", func(n int) float64 {
		return bst14.ExpMechMeanAt(n, res.Dimension, res.Lipschitz, pv.Diameter, float64(pv.Epsilon))
	}, baselineAverage(res.Checks, res.N), "")
	return r, nil
}

func runBST14Localize(in Input, params any) (*Report, error) {
	in, notes := withExactDimension(in)
	in, n2 := withL2(in)
	res, err := bst14.RunLocalize(bst14Spec(in), *params.(*bst14.LocalizeParams))
	if err != nil {
		return nil, err
	}
	s1 := res.Stage1
	r := &Report{Title: fmt.Sprintf("privamp run: bst14-localize on %s, %s loss", res.Description, res.Declared.Loss),
		Checks: append(append([]dp.Check(nil), s1.Checks[:1]...), res.Checks...), OK: res.OK && s1.OK, Result: res, Assumptions: res.Assumptions,
		Notes: append(append(notes, n2...), res.Notes...)}
	r.AddVerdict("checks of the run against the bound on its mean and the data-free output θ = 0")
	r.Add("records n, dimension p", fmt.Sprintf("%d, %d", res.N, res.Dimension), Given, res.Description)
	r.Add("stage 1: output perturbation at ε/2", fmt.Sprintf("Gamma scale %.6g, sensitivity %.6g", float64(s1.Privacy.Scale), s1.Privacy.Sensitivity), Derived, bst14.OutputSource)
	r.Add("ζ = 3 ln n, C₀ radius ρ = ζ·p·scale", fmt.Sprintf("%.6g, %.6g", res.Zeta, res.Rho), Derived, "Lemma 4.2: θ* ∈ C₀ w.p. ≥ 1 − n⁻³")
	r.Add("stage 2: exponential mechanism at ε/2 on C₀ ∩ C", fmt.Sprintf("diameter %.6g, temperature %.6g", res.Stage2.Diameter, res.Stage2.Temperature), Derived, res.Stage2.Source)
	r.Add("ε (pure)", res.Epsilon, Certified, bst14.LocalizeSource)
	r.Add("θ* ∈ C₀", fmt.Sprint(res.Contained), Measured, "")
	r.Add("excess empirical risk (sum Σℓ)", dp.Num(res.Measured.Sum), Measured, "")
	r.Add("excess empirical risk (average)", dp.Num(res.Measured.Average), Measured, "")
	r.Add("Lemma 4.2 + Thm 3.2 bound (sum)", dp.Num(res.Bound), Derived, "")
	r.Add("paper's rate Thm 4.3 p²L² ln n/(nΔε²) (constant 1)", dp.Num(res.PaperRate), Derived, "")
	sens := s1.Privacy.ExactSensitivity * float64(res.N) * s1.StrongConvexity / 2
	sayWorse(r, res.N, "Lemma 4.2 + Thm 3.2's bound (average scale)", func(n int) float64 {
		return bst14.LocalizeBoundAt(n, res.Dimension, s1.Lipschitz, sens, s1.StrongConvexity, res.Declared.Radius, s1.Solver.Distance, float64(res.Epsilon))
	}, baselineAverage(r.Checks, res.N), "")
	return r, nil
}

// ObjectivePerturbationRefused says why seed 001's Appendix E is not run.
const ObjectivePerturbationRefused = "seed 001 Appendix E (objective perturbation, eq. 14) states its noise (Gamma kernel exp(−ε‖b‖/(2L)), or N(0, 8L² ln(1/δ)/ε²)) and the condition Δ ≥ β/(2ε) but proves neither: it cites CMS11 and KST12, whose theorems add conditions the seed's summary drops (twice-differentiable losses with rank-one Hessians, the exact minimiser over C; seed 001 notes §1.9), so privamp has no proof in the seeds to certify it against; run output-perturbation or bst14-localize-gaussian for a strongly convex loss instead"

func init() {
	Refuse("bst14-objective-perturbation", ObjectivePerturbationRefused)
	Register(Algorithm{
		Name:    "bst14-localize-gaussian",
		Source:  "seed 001: Bassily–Smith–Thakurta 2014, Appendix B, Thms B.1–B.2 ((ε, δ); any dimension, l2 > 0)",
		Summary: "(ε, δ) localization: Gaussian output perturbation at (ε/2, δ/2) picks C₀ of radius σ(√p + √(6 ln n)), then noisy SGD (Algorithm 1) at (ε/2, δ/2) on C₀ ∩ C",
		Params: func() any {
			return &bst14.LocalizeGaussParams{TargetEpsilon: 1, Delta: 1e-5, Common: bst14.Common{Seed: 1}}
		},
		Run: runBST14LocalizeGauss,
	})
}

func runBST14LocalizeGauss(in Input, params any) (*Report, error) {
	in, notes := withL2(in)
	res, err := bst14.RunLocalizeGauss(bst14Spec(in), *params.(*bst14.LocalizeGaussParams))
	if err != nil {
		return nil, err
	}
	s1, s2 := res.Stage1, res.Stage2
	r := &Report{Title: fmt.Sprintf("privamp run: bst14-localize-gaussian on %s, %s loss", res.Description, res.Declared.Loss),
		Checks: res.Checks, OK: res.OK, Result: res, Assumptions: res.Assumptions, Notes: append(notes, res.Notes...)}
	r.AddVerdict("checks of the run against the bound on its mean and the data-free output θ = 0")
	r.Add("records n, dimension p", fmt.Sprintf("%d, %d", res.N, res.Dimension), Given, res.Description)
	r.Add("strong convexity Δ", dp.Num(s1.StrongConvexity), Declared, "l2")
	r.Add("stage 1: Gaussian output perturbation at (ε/2, δ/2)", fmt.Sprintf("σ %.6g, sensitivity %.6g", float64(s1.Privacy.Scale), s1.Privacy.Sensitivity), Derived, "analytic Gaussian (Balle–Wang 2018), seed 001 Appendix B")
	r.Add("C₀ radius ρ = σ(√p + √(6 ln n)) + distance", dp.Num(res.Rho), Derived, "Gaussian norm tail: θ* ∈ C₀ w.p. ≥ 1 − n⁻³ (Lemma 4.2's argument)")
	r.Add("stage 2: noisy SGD on C₀ ∩ C at (ε/2, δ/2)", fmt.Sprintf("T = %d, σ %.6g", s2.Privacy.Steps, float64(s2.Privacy.Sigma)), Derived, s2.Privacy.SigmaSource)
	r.Add(fmt.Sprintf("ε at δ = %g", res.Delta), res.Epsilon, Certified, bst14.LocalizeGaussSource)
	r.Add("θ* ∈ C₀", fmt.Sprint(res.Contained), Measured, "")
	r.Add("excess empirical risk (sum Σℓ)", dp.Num(res.Measured.Sum), Measured, "")
	r.Add("excess empirical risk (average)", dp.Num(res.Measured.Average), Measured, "")
	r.Add("Lemma 4.2 + Shamir–Zhang bound on C₀ ∩ C (sum)", dp.Num(res.Bound), Derived, s2.Bounds.Source)
	r.Add("paper's rate Thm B.2 (sum, constant 1)", dp.Num(res.PaperRate), Derived, "Thm 2.4's Lipschitz rate at ‖C₀‖₂ = L√(p ln(1/δ) ln n)/(Δεn)")
	r.Add("trivial bound nL‖C‖₂", dp.Num(res.Trivial), Derived, "every θ ∈ C")
	pp := *params.(*bst14.LocalizeGaussParams)
	sayWorse(r, res.N, "Thm B.2's bound with the paper's σ (average scale)", func(n int) float64 {
		return bst14.LocalizeGaussPaperBound(n, res.Dimension, s2.Lipschitz, s2.RecordSensitivity, s2.StrongConvexity, res.Declared.Radius, pp.TargetEpsilon, pp.Delta, s2.StepRule)
	}, baselineAverage(res.Checks, res.N), "")
	return r, nil
}

// baselineAverage is the data-free output's measured excess risk on the
// average scale, read from a bst14 run's baseline check (sum scale).
func baselineAverage(checks []dp.Check, n int) float64 {
	for _, c := range checks {
		if c.Name == "excess risk (sum) ≤ that of θ = 0" {
			return float64(c.Bound) / float64(n)
		}
	}
	return math.NaN()
}
