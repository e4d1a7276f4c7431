package bst14

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/optimizer"
)

// Step rules of Algorithm 1 (Theorem 2.4).
const (
	RuleLipschitz      = "lipschitz"       // η(t) = ‖C‖₂/√(t(n²L² + pσ²))
	RuleStronglyConvex = "strongly-convex" // η(t) = 1/(Δnt)
)

// maxSGDSteps and maxSGDWork bound a run (work, not soundness).
const (
	maxSGDSteps = 100_000_000
	maxSGDWork  = 2e10
)

// SGDParams are Algorithm 1's parameters.
type SGDParams struct {
	Common
	// TargetEpsilon is the ε that σ is calibrated to (0: Sigma given).
	TargetEpsilon float64 `json:"target_epsilon" param:"target_epsilon" doc:"target ε that σ is calibrated to by the PLD accountant (default 1)"`
	Delta         float64 `json:"delta" param:"delta" doc:"δ in (0, 1)"`
	// Sigma is the noise σ added to n∇ℓ (0: calibrated).
	Sigma float64 `json:"sigma" param:"sigma" doc:"noise σ added to n∇ℓ(θ; d) at each step (instead of calibrating it to the target ε)"`
	// Steps is the number of updates T; 0: n² (Algorithm 1). A smaller
	// value caps the run for large n; the accounting is for the steps run.
	Steps int64 `json:"steps" param:"steps" doc:"number of updates T (default n², Algorithm 1); a cap for large n, accounted as run"`
	// StepRule is RuleLipschitz or RuleStronglyConvex; "": strongly convex
	// when the objective has an ℓ2 weight, else Lipschitz.
	StepRule string `json:"step_rule" param:"step_rule" doc:"step sizes of Theorem 2.4: lipschitz (‖C‖/√(t(n²L²+pσ²))) or strongly-convex (1/(Δnt)); default by the ℓ2 weight"`
}

// SGDPaper is the paper's noise rule beside what privamp certifies for it.
type SGDPaper struct {
	// Sigma is Theorem 2.1's σ = √(32L²n² ln(n/δ) ln(1/δ))/ε at the target
	// ε (SGDPaperSigma).
	Sigma dp.Noise `json:"sigma"`
	// Epsilon is the ε the rule is stated for (the target, or the certified
	// ε when σ was given); it is NOT a guarantee.
	Epsilon float64 `json:"stated_epsilon"`
	// CertifiedEpsilon is what privamp's accountant certifies for Sigma
	// with the same sampler, steps and δ.
	CertifiedEpsilon dp.Loss `json:"certified_epsilon"`
	// ChainEpsilon is what the paper's own proof chain (Lemma 2.2, Lemma
	// 2.3 at δ′ = δ/2) gives for its σ (SGDPaperChain): shown to
	// document that the constant 32 does not close the proof; never a
	// guarantee.
	ChainEpsilon float64 `json:"chain_epsilon"`
	// NoiseRatio is Sigma over the calibrated σ.
	NoiseRatio float64 `json:"noise_ratio"`
}

// SGDPrivacy is the certified guarantee of a run.
type SGDPrivacy struct {
	dp.Guarantee
	// EpsilonOptimistic is the PLD's lower estimate (never a guarantee).
	EpsilonOptimistic dp.Max   `json:"epsilon_optimistic"`
	Target            float64  `json:"target_epsilon,omitempty"`
	Sigma             dp.Noise `json:"sigma"`
	SigmaSource       string   `json:"sigma_source"`
	// NoiseMultiplier z = σ/(n·Sens): noise over the largest per-record
	// contribution n‖∇ℓ‖ (the neighbours' contributions differ by ≤ 2n·Sens).
	NoiseMultiplier dp.Noise `json:"noise_multiplier"`
	// SamplingRate γ = 1/n: one record drawn uniformly at each step.
	SamplingRate float64 `json:"sampling_rate"`
	Steps        int64   `json:"steps"`
	Neighbours   string  `json:"neighbours"`
	Sampling     string  `json:"sampling"`
	Covers       string  `json:"covers"`
}

// SGDBounds are the utility bounds at the run's numbers (sum scale).
type SGDBounds struct {
	// ShamirZhang is the explicit bound of Lemma 2.5 (Lipschitz: (D²/c +
	// cG²)(2 + ln T)/√T at c = D/G) or Lemma 2.6 (strongly convex: 17G²(1 +
	// ln T)/(nΔT)) with G² = n²L² + pσ², D = ‖C‖₂, T the updates run.
	ShamirZhang float64 `json:"shamir_zhang"`
	// PaperRate is Theorem 2.4's rate with O(·) constant 1: L‖C‖₂
	// ln^{3/2}(n/δ)√(p ln(1/δ))/ε (Lipschitz) or L² ln²(n/δ) p ln(1/δ)/(nΔε²)
	// (strongly convex), at the target ε.
	PaperRate float64 `json:"paper_rate"`
	// Trivial is nL‖C‖₂: every point of C is within it.
	Trivial float64 `json:"trivial"`
	Source  string  `json:"source"`
}

// SGDResult is the result of Algorithm 1.
type SGDResult struct {
	Algorithm   string             `json:"algorithm"`
	Description string             `json:"data_description"`
	Declared    optimizer.Declared `json:"declared"`
	N           int                `json:"n"`
	Dimension   int                `json:"dimension"`
	Lipschitz   float64            `json:"lipschitz"`
	// RecordSensitivity is Sens = X·sup|φ'| ≤ L.
	RecordSensitivity float64    `json:"record_sensitivity"`
	StrongConvexity   float64    `json:"strong_convexity"`
	StepRule          string     `json:"step_rule"`
	FullSteps         bool       `json:"full_steps"` // T = n²
	Privacy           SGDPrivacy `json:"privacy"`
	Paper             SGDPaper   `json:"paper"`
	Bounds            SGDBounds  `json:"bounds"`
	MaxGradNorm       float64    `json:"measured_max_grad_norm"`
	Outcome
}

// SGDSource cites Algorithm 1 and its accounting.
const SGDSource = "seed 001 (Bassily–Smith–Thakurta 2014), Algorithm 1 and Thm 2.4; privacy by privamp's PLD accountant, replace-one with one record drawn uniformly per step (pld.DPSGDReplaceOne, γ = 1/n)"

// SGDSampling and SGDNeighbours state what the accountant assumes; the run
// samples exactly so.
const (
	SGDSampling   = "each step draws ONE record uniformly from the n (independently across steps, i.e. with replacement across steps): a fixed-size batch of 1 drawn without replacement, γ = 1/n"
	SGDNeighbours = "replace-one (fixed n; the paper's relation): n∇ℓ(θ;d) and n∇ℓ(θ;d′) differ by ≤ 2n·Sens"
)

func (p SGDParams) validate() error {
	if err := field.First(field.OpenUnit("delta", p.Delta), field.Count("steps", p.Steps, 0, maxSGDSteps)); err != nil {
		return err
	}
	switch p.StepRule {
	case "", RuleLipschitz, RuleStronglyConvex:
	default:
		return field.New("step_rule", p.StepRule, "must be %s or %s", RuleLipschitz, RuleStronglyConvex)
	}
	switch {
	case p.Sigma != 0 && p.TargetEpsilon != 0:
		return field.New("sigma", p.Sigma, "is calibrated from target_epsilon: give one of them, not both")
	case p.Sigma != 0:
		return field.Positive("sigma", p.Sigma)
	case p.TargetEpsilon != 0:
		return field.Positive("target_epsilon", p.TargetEpsilon)
	}
	return field.New("sigma", p.Sigma, "must be > 0, or give target_epsilon to calibrate it")
}

// SGDPLD is the certified ε at δ of T steps of Algorithm 1 on n records
// with noise multiplier z = σ/(n·Sens): the replace-one PLD of the
// subsampled Gaussian with γ = 1/n (fixed-size batches of one record,
// Balle–Barthe–Gaboardi 2018 Thm 2 via pld.DPSGDReplaceOne).
func SGDPLD(n int, z float64, steps int64, delta float64) (pld.Result, error) {
	return pld.DPSGDReplaceOne(1/float64(n), z, int(steps), delta, pld.Options{})
}

// RunSGD runs Algorithm 1 (projected noisy SGD, one record per step) on the
// problem of s: σ calibrated to the target (or given), certified by the PLD
// accountant, and the paper's σ rule shown beside it.
func RunSGD(s Spec, p SGDParams) (*SGDResult, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	pr, err := build(s, p.Common, p.Delta)
	if err != nil {
		return nil, err
	}
	return runSGDProblem(pr, p, nil)
}

func runSGDProblem(pr *optimizer.Problem, p SGDParams, observe func(b []float64)) (*SGDResult, error) {
	return runSGDOn(pr, p, region{R: pr.Declared.Radius}, nil, observe)
}

// runSGDOn is Algorithm 1 on the region reg (C, or C ∩ B(centre, ρ) for
// localization: the projection is onto it, its diameter enters the steps
// and the bounds) from start (nil: θ₁ = 0).
func runSGDOn(pr *optimizer.Problem, p SGDParams, reg region, start []float64, observe func(b []float64)) (*SGDResult, error) {
	c := pr.Constants
	n, d := pr.Data.N(), pr.Data.D
	T := p.Steps
	if T == 0 {
		T = int64(n) * int64(n)
		if T > maxSGDSteps {
			return nil, field.New("steps", T, "n² = %d exceeds 10^8: give steps to cap the run", T)
		}
	}
	if float64(T)*float64(d) > maxSGDWork {
		return nil, field.New("steps", T, "makes steps × dimension exceed 2·10^10")
	}
	if !(c.Sens > 0) {
		return nil, field.New("loss", pr.Objective.Name(), "has zero gradient sensitivity at these bounds: nothing to certify")
	}
	rule := p.StepRule
	if rule == "" {
		rule = RuleLipschitz
		if c.M > 0 {
			rule = RuleStronglyConvex
		}
	}
	if rule == RuleStronglyConvex && !(c.M > 0) {
		return nil, field.New("step_rule", rule, "needs a Δ-strongly convex loss (Thm 2.4, second part): give l2 > 0")
	}
	res := &SGDResult{Algorithm: "bst14-sgd", Description: pr.Description, Declared: pr.Declared, N: n, Dimension: d,
		Lipschitz: c.L, RecordSensitivity: c.Sens, StrongConvexity: c.M, StepRule: rule, FullSteps: T == int64(n)*int64(n),
		Outcome: newOutcome(p.Seed, pr,
			"θ₁ = 0, independent of the data; C = {‖θ‖ ≤ R}, ‖C‖₂ = 2R",
			SGDNeighbours,
			SGDSampling,
			"the noise is exactly N(0, σ²I) and all T iterates may be released (the PLD composes every step; releasing only the last is post-processing)",
		)}
	if !res.FullSteps {
		res.Notes = append(res.Notes, fmt.Sprintf("T = %d updates, not n² = %d (Algorithm 1): the certificate is for the %d steps run, and the utility bounds use this T", T, int64(n)*int64(n), T))
	}
	pv := &res.Privacy
	pv.Delta, pv.Target, pv.Steps, pv.SamplingRate = dp.Loss(p.Delta), p.TargetEpsilon, T, 1/float64(n)
	pv.Neighbours, pv.Sampling, pv.Source = SGDNeighbours, SGDSampling, SGDSource
	pv.Covers = "the whole path θ₁..θ_T (the output is the last iterate)"
	scale := float64(n) * c.Sens // per-record contribution bound C
	var z float64
	var err error
	if p.Sigma > 0 {
		z = p.Sigma / scale
		pv.SigmaSource = "given"
	} else {
		if z, err = pld.CalibrateDPSGDFor(dp.ReplaceOne, pv.SamplingRate, int(T), p.Delta, p.TargetEpsilon, pld.Options{}); err != nil {
			return nil, field.Prefix("target_epsilon", err)
		}
		pv.SigmaSource = fmt.Sprintf("calibrated: the PLD accountant's smallest z (to 10⁻³) with ε ≤ %g at δ = %g, σ = z·n·Sens", p.TargetEpsilon, p.Delta)
	}
	sigma := z * scale
	acc, err := SGDPLD(n, z, T, p.Delta)
	if err != nil {
		return nil, err
	}
	pv.Sigma, pv.NoiseMultiplier, pv.Epsilon, pv.EpsilonOptimistic = dp.Noise(sigma), dp.Noise(z), acc.Epsilon, acc.EpsilonOptimistic

	// The paper's rule at the stated ε (the target, or the certified ε when σ was given).
	pe := p.TargetEpsilon
	if pe == 0 {
		pe = float64(acc.Epsilon)
	}
	ps := SGDPaperSigma(float64(n), pe, p.Delta, c.L)
	res.Paper = SGDPaper{Sigma: dp.Noise(ps), Epsilon: pe, ChainEpsilon: SGDPaperChain(float64(n), pe, p.Delta), NoiseRatio: ps / sigma}
	if pa, err := SGDPLD(n, ps/scale, T, p.Delta); err == nil {
		res.Paper.CertifiedEpsilon = pa.Epsilon
	} else {
		res.Paper.CertifiedEpsilon = dp.Loss(math.NaN())
	}

	res.Bounds = sgdBounds(n, d, T, c.L, c.M, reg.Diameter(), sigma, pe, p.Delta, rule)
	res.Bounds.Trivial = float64(n) * c.L * 2 * pr.Declared.Radius
	rng := dataset.NewRand(p.Seed)
	w, maxg := sgdPath(pr, T, sigma, rule, reg, start, rng, observe)
	res.W, res.MaxGradNorm = w, maxg
	opt := optimizer.Minimize(pr.Objective, pr.Data, pr.Declared.Radius)
	res.Measured = measure(pr, w, opt)
	res.Checks = nil
	if p.TargetEpsilon > 0 {
		// The calibration's ε and the certificate's are two computations
		// (different discretisation tails): the check guards one by the
		// other. With σ given there is no target and no check.
		res.Checks = append(res.Checks, check("certified ε ≤ target", float64(acc.Epsilon) <= p.TargetEpsilon, float64(acc.Epsilon), p.TargetEpsilon,
			"the PLD accountant recomputed at the calibrated σ, against the target the calibration aimed at"))
	}
	res.Checks = append(res.Checks,
		boundCheck("excess risk (sum) ≤ Shamir–Zhang bound", res.Measured.Sum, res.Bounds.ShamirZhang, res.Bounds.Trivial, res.Bounds.Source),
		baselineCheck(pr, res.Measured, opt))
	res.Assumptions = append(res.Assumptions, optimizer.GradientByConstruction)
	res.OK = dp.AllPass(res.Checks)
	return res, nil
}

// sgdBounds evaluates the utility bounds (sum scale).
func sgdBounds(n, d int, T int64, L, m, diam, sigma, eps, delta float64, rule string) SGDBounds {
	nf, p, Tf := float64(n), float64(d), float64(T)
	G2 := nf*nf*L*L + p*sigma*sigma
	b := SGDBounds{Trivial: nf * L * diam}
	ln := math.Log
	if rule == RuleStronglyConvex {
		b.ShamirZhang = 17 * G2 * (1 + ln(Tf)) / (nf * m * Tf)
		b.PaperRate = L * L * ln(nf/delta) * ln(nf/delta) * p * ln(1/delta) / (nf * m * eps * eps)
		b.Source = "Lemma 2.6 = Shamir–Zhang 2013 Thm 1 with λ = nΔ: 17G²(1 + ln T)/(λT), G² = n²L² + pσ² (seed 001 notes §2 A1)"
	} else {
		b.ShamirZhang = 2 * diam * math.Sqrt(G2) * (2 + ln(Tf)) / math.Sqrt(Tf)
		b.PaperRate = L * diam * math.Pow(ln(nf/delta), 1.5) * math.Sqrt(p*ln(1/delta)) / eps
		b.Source = "Lemma 2.5 = Shamir–Zhang 2013 Thm 2 with η_t = c/√t, c = D/G: 2DG(2 + ln T)/√T, D = ‖C‖₂, G² = n²L² + pσ² (seed 001 notes §2 A1)"
	}
	return b
}

// sgdStep is the step size η(t) of Theorem 2.4, t = 1, 2, ….
func sgdStep(rule string, t int64, n int, L, m, diam, sigma float64, d int) float64 {
	if rule == RuleStronglyConvex {
		return 1 / (m * float64(n) * float64(t))
	}
	G2 := float64(n)*float64(n)*L*L + float64(d)*sigma*sigma
	return diam / math.Sqrt(float64(t)*G2)
}

// sgdPath runs T updates θ_{t+1} = Π(θ_t − η(t)(n∇ℓ(θ_t; d_i) + b_t)), i
// uniform, b_t ~ N(0, σ²I), Π the projection onto reg (of diameter ‖C‖₂
// in the steps), from start (nil: θ₁ = 0), and returns the last iterate and the
// largest per-record gradient norm seen. observe, if not nil, sees each b_t.
func sgdPath(pr *optimizer.Problem, T int64, sigma float64, rule string, reg region, start []float64, rng *rand.Rand, observe func([]float64)) ([]float64, float64) {
	c := pr.Constants
	n, d := pr.Data.N(), pr.Data.D
	w, g, b := make([]float64, d), make([]float64, d), make([]float64, d)
	copy(w, start)
	diam := reg.Diameter()
	maxg := 0.0
	for t := int64(1); t <= T; t++ {
		i := rng.IntN(n)
		pr.Objective.Grad(g, w, pr.Data.Row(i), pr.Data.Y[i])
		maxg = math.Max(maxg, numeric.Norm(g))
		gaussianVector(rng, b, sigma)
		if observe != nil {
			observe(b)
		}
		eta := sgdStep(rule, t, n, c.L, c.M, diam, sigma, d)
		for j := range w {
			w[j] -= eta * (float64(n)*g[j] + b[j])
		}
		reg.project(w)
	}
	return w, maxg
}
