package bst14

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// LocalizeParams are Algorithm 4's parameters.
type LocalizeParams struct {
	Common
	TargetEpsilon float64 `json:"target_epsilon" param:"target_epsilon" doc:"total ε: ε/2 for output perturbation, ε/2 for the exponential mechanism on C₀ (default 1)"`
	Tolerance     float64 `json:"tolerance" param:"tolerance" doc:"distance to the exact minimiser the solver certifies for every data set (added twice to the sensitivity; default 1e-9·R)"`
}

// LocalizeResult is the result of Algorithm 4 (ε-DP version).
type LocalizeResult struct {
	Algorithm   string             `json:"algorithm"`
	Description string             `json:"data_description"`
	Declared    optimizer.Declared `json:"declared"`
	N           int                `json:"n"`
	Dimension   int                `json:"dimension"`
	Epsilon     dp.Loss            `json:"epsilon"`
	// Stage1 is output perturbation at ε/2 (Gamma-norm noise).
	Stage1 *OutputResult `json:"stage1"`
	// Zeta = 3 ln n and Rho = ζ·p·scale, C₀'s radius around θ₀ (Lemma 4.2).
	Zeta float64 `json:"zeta"`
	Rho  float64 `json:"rho"`
	// Stage2 is the exponential mechanism at ε/2 on C₀ ∩ C.
	Stage2 ExpMechPrivacy `json:"stage2"`
	// Contained says whether the exact minimiser lies in C₀ (measured;
	// Pr ≥ 1 − e^{−ζ} = 1 − n⁻³).
	Contained bool `json:"contained"`
	// Bound is Lemma 4.2 with Thm 3.2's mean on C₀ ∩ C at ε/2:
	// F·(1 − n⁻³) + nL‖C‖₂·n⁻³.
	Bound float64 `json:"bound"`
	// PaperRate is Thm 4.3's p²L² ln n/(nΔε²) with O(·) constant 1.
	PaperRate float64 `json:"paper_rate"`
	Trivial   float64 `json:"trivial"`
	Outcome
}

// LocalizeSource cites Algorithm 4.
const LocalizeSource = "seed 001 (Bassily–Smith–Thakurta 2014), Algorithm 4 and Lemma 4.2 / Thm 4.3: output perturbation at ε/2 (ζ = 3 ln n) localises C₀, then Algorithm 2 at ε/2 on C₀; ε/2 + ε/2 = ε by basic composition (Thm 4.1)"

// RunLocalize runs Algorithm 4 (ε-DP) on the problem of s: dimension 1 or 2
// (the exponential sampler's), Δ = l2 > 0.
func RunLocalize(s Spec, p LocalizeParams) (*LocalizeResult, error) {
	if err := field.First(field.Positive("target_epsilon", p.TargetEpsilon), field.NonNegative("tolerance", p.Tolerance)); err != nil {
		return nil, err
	}
	pr, err := build(s, p.Common, 0)
	if err != nil {
		return nil, err
	}
	if err := strongConvexityNeeded("localization (Algorithm 4)", pr); err != nil {
		return nil, err
	}
	if d := pr.Data.D; d > MaxSamplerDimension {
		return nil, field.New("dimension", d, "must be 1 or 2: localization's second stage is the exact exponential sampler (give features to select one or two columns); %s", TooManyDimensions)
	}
	c := pr.Constants
	n, d := pr.Data.N(), pr.Data.D
	R := pr.Declared.Radius
	eps := p.TargetEpsilon
	// Stage 1: output perturbation at ε/2, the seed derived from the run's.
	op := OutputParams{Common: Common{Seed: p.Seed}, TargetEpsilon: eps / 2, Noise: NoiseGamma, Tolerance: p.Tolerance}
	st1, err := runOutputProblem(pr, op, nil)
	if err != nil {
		return nil, err
	}
	res := &LocalizeResult{Algorithm: "bst14-localize", Description: pr.Description, Declared: pr.Declared, N: n, Dimension: d,
		Epsilon: dp.Loss(eps), Stage1: st1, Zeta: 3 * math.Log(float64(n)),
		Outcome: newOutcome(p.Seed, pr,
			"neighbours replace one record; ℓ convex and L-Lipschitz on C plus (Δ/2)‖θ‖², Δ = l2 > 0",
			"stage 1 (output perturbation, Gamma-norm noise) is ε/2-DP; stage 2 (the exact exponential sampler on C₀ ∩ C, a set chosen from stage 1's output) is ε/2-DP for every C₀; adaptive basic composition gives ε",
		)}
	_, _, res.Rho = localizeRadius(n, d, st1.Privacy.Sensitivity, eps)
	// C₀ is centred at θ₀ = Π_C(θ̂ + b), as Algorithm 3 (step 3) writes it:
	// θ* ∈ C, so ‖θ₀ − θ*‖ ≤ ‖θ̂ + b − θ*‖ and Lemma 4.2's tail holds as
	// before, and θ₀ ∈ C₀ ∩ C, so the region stage 2 samples is never empty
	// (an unprojected centre could leave it empty and refuse on stage 1's
	// draw, a refusal that differs between neighbours for the same seed).
	centre := st1.W
	reg := region{R: R, Centre: centre, Rho: res.Rho}
	diam := reg.Diameter()
	temp := (eps / 2) / (2 * c.L * diam)
	smp, err := newSampler(pr, reg, temp)
	if err != nil {
		return nil, err
	}
	res.Stage2 = ExpMechPrivacy{Guarantee: dp.Guarantee{Epsilon: dp.Loss(eps / 2), Source: ExpMechSource}, Temperature: temp, Diameter: diam, Neighbours: "replace-one (fixed n)", Sampler: samplerDoc}
	rng := dataset.NewRand(p.Seed ^ 0x10ca1)
	w := smp.draw(rng)
	res.W = w
	opt := optimizer.Minimize(pr.Objective, pr.Data, R)
	res.Measured = measure(pr, w, opt)
	res.Contained = dist(opt.W, centre) <= res.Rho
	F, err := ExpMechBound(eps/2, c.L, diam, float64(d), float64(n), 0.5)
	if err != nil {
		return nil, err
	}
	nf := float64(n)
	res.Trivial = nf * c.L * 2 * R
	fail := math.Exp(-res.Zeta)
	res.Bound = F.MeanBST*(1-fail) + res.Trivial*fail
	res.PaperRate = float64(d*d) * c.L * c.L * math.Log(nf) / (nf * c.M * eps * eps)
	res.Checks = []dp.Check{
		boundCheck("excess risk (sum) ≤ Lemma 4.2 + Thm 3.2", res.Measured.Sum, res.Bound, res.Trivial, "(8L‖C₀‖/(ε/2))((p+1) ln 3 + 1)(1 − n⁻³) + nL‖C‖₂n⁻³"),
		baselineCheck(pr, res.Measured, opt),
	}
	res.Assumptions = append(res.Assumptions, "the sample lies in C₀ ∩ C: the sampler draws only from it (by construction, not a check)")
	res.OK = dp.AllPass(res.Checks)
	if res.Rho >= 2*R {
		res.Notes = append(res.Notes, fmt.Sprintf("C₀'s radius ρ = %.4g is at least ‖C‖₂ = %g: C₀ ⊇ C, so localization gains nothing at these numbers and costs half the budget (ρ ∝ p·ln n/(nΔε) shrinks with n and Δ)", res.Rho, 2*R))
	}
	if !res.Contained {
		res.Notes = append(res.Notes, "the exact minimiser is outside C₀ in this run (probability ≤ n⁻³ by Lemma 4.2): the utility bound's failure term")
	}
	return res, nil
}

// localizeRadius returns Algorithm 4's ζ = 3 ln n, the Gamma scale s/(ε/2)
// of its first stage (output perturbation at ε/2 with sensitivity s) and
// C₀'s radius ρ = ζ·p·scale (seed 001 §4: radius 3 ln n·4Lp/(Δεn) at s =
// 2L/(nΔ)): ‖b‖ ~ Gamma(p, scale) exceeds ζ·p·scale with probability ≤
// e^{−ζ} = n⁻³ for ζ ≥ 2 (Lemma 4.2).
func localizeRadius(n, p int, s, eps float64) (zeta, scale, rho float64) {
	zeta = 3 * math.Log(float64(n))
	scale = s / (eps / 2)
	return zeta, scale, zeta * float64(p) * scale
}
