package tables

import (
	"math"

	"github.com/privamp/privamp/optimizer/clipped"
	"github.com/privamp/privamp/rdp"
)

// Seed 004's clipped mean oracle (MeanOracle1, Algorithm 1; Lemma 6 from
// [BD14]) and its zCDP budgets in one-pass and multi-pass algorithms (docs/seeds.md#seed-004-zcdp-budgets).

// ClippedMeanSource cites Lemma 6.
var ClippedMeanSource = Source{
	Paper:   paperLR,
	Seed:    "004",
	Theorem: "Algorithm 1 (MeanOracle1), Lemma 6 ([BD14]), Prop. 23 (Gaussian mechanism in zCDP)",
	Assumptions: []string{
		"Z₁ … Z_s i.i.d. in ℝ^d with E Z = ν, E‖Z‖^k ≤ r_k^k (k ≥ 2) and E‖Z‖² ≤ r_2² (r_2 ≤ r_k by Jensen)",
		"each Z clipped to the ℓ2-ball of radius τ, averaged, plus N(0, σ²I) with σ² = 2τ²/(s²ρ): ρ-zCDP for replace-one neighbours (sensitivity 2τ/s)",
		"bias ‖E ν̃ − ν‖ ≤ E(‖Z‖ − τ)₊ = ∫_τ^∞ P(‖Z‖ > t) dt ≤ r_k^k/((k−1)τ^{k−1}) (Markov); MSE ≤ dσ² + r_2²/s + bias²",
	},
	Validity: "k ≥ 2, r_k > 0, 0 < r_2 ≤ r_k, τ > 0, s ≥ 1 integer, ρ > 0, d ≥ 1 integer",
	Notes: []string{
		"the dump lost Lemma 6's display; the bias and MSE bounds are re-derived (docs/seeds.md §Seed 004 clipped mean: the form is exact from Markov's inequality and the bias–variance split)",
	},
}

// ClippedMeanResult is the clipped mean oracle at a threshold τ.
type ClippedMeanResult struct {
	K, RK, R2, Tau, S, Rho, D float64
	Sigma                     float64 // √(2τ²/(s²ρ))
	Bias                      float64 // r_k^k/((k−1)τ^{k−1})
	NoiseTerm                 float64 // dσ²
	SamplingTerm              float64 // r_2²/s
	MSE                       float64 // dσ² + r_2²/s + Bias²
	// TauOpt minimises the MSE bound: τ* = r_k·(s²ρ/(2d(k−1)))^{1/(2k)};
	// MSEOpt and BiasOpt are the bounds there.
	TauOpt, MSEOpt, BiasOpt float64
	Source                  Source
}

// ClippedMean evaluates Lemma 6 at τ, and at the MSE-optimal τ*. If tau is
// 0, τ* is used.
func ClippedMean(k, rk, r2, tau, s, rho, d float64) (ClippedMeanResult, error) {
	if !(k >= 2) || math.IsInf(k, 0) {
		return ClippedMeanResult{}, rangeErr("moment_order", "must be a finite number ≥ 2, got %v", k)
	}
	if err := firstError(positiveFinite("moment_bound", rk), positiveFinite("second_moment", r2), integerAtLeast("batch", s, 1), positiveFinite("rho", rho), integerAtLeast("dimension", d, 1)); err != nil {
		return ClippedMeanResult{}, err
	}
	if r2 > rk*(1+1e-12) {
		return ClippedMeanResult{}, rangeErr("second_moment", "must be ≤ r_k = %v (r_2 ≤ r_k by Jensen), got %v", rk, r2)
	}
	r := ClippedMeanResult{K: k, RK: rk, R2: r2, S: s, Rho: rho, D: d, Source: ClippedMeanSource}
	r.TauOpt = clipped.OptimalClip(k, rk, s, rho, d)
	if tau == 0 {
		tau = r.TauOpt
	} else if err := positiveFinite("tau", tau); err != nil {
		return ClippedMeanResult{}, err
	}
	r.Tau = tau
	r.Sigma = math.Sqrt(2 * tau * tau / (s * s * rho))
	r.Bias = clipped.BiasBound(k, rk, tau)
	r.NoiseTerm = d * r.Sigma * r.Sigma
	r.SamplingTerm = r2 * r2 / s
	r.MSE = r.NoiseTerm + r.SamplingTerm + r.Bias*r.Bias
	r.BiasOpt = clipped.BiasBound(k, rk, r.TauOpt)
	r.MSEOpt = clipped.MSEBound(k, rk, r2, r.TauOpt, s, rho, d)
	return r, nil
}

// ZCDPBudgetSource cites the zCDP budgets of seed 004
// (docs/seeds.md#seed-004-zcdp-budgets).
var ZCDPBudgetSource = Source{
	Paper:   paperLR,
	Seed:    "004",
	Theorem: "Prop. 23 (Gaussian mechanism), Lemma 24 (zCDP composition), parallel composition [McS09]; Algorithms 2/6/8 (one pass), Algorithm 3 / phases of Algorithm 4 (multi-pass)",
	Assumptions: []string{
		"each step releases a clipped mean of gradients (clip τ) plus Gaussian noise; replace-one neighbours: sensitivity 2τ/(batch size)",
		"one pass: T steps on DISJOINT batches of s = ⌊n/T⌋ records; each step ρ-zCDP, the whole run ρ-zCDP by parallel composition (no factor T); all iterates may be released",
		"multi-pass: T steps on the FULL batch of n records; each step ρ/T-zCDP, the run ρ-zCDP by sequential composition (Lemma 24); the regulariser is data-independent",
	},
	Validity: "n ≥ 1 integer, 1 ≤ T ≤ n integer, τ > 0, ρ > 0, d ≥ 1 integer, δ ∈ (0, 1)",
}

// ZCDPBudget compares the one-pass and multi-pass noise for a total ρ.
type ZCDPBudget struct {
	N, T, Tau, Rho, D, Delta float64
	// One pass: batch s = ⌊n/T⌋, per-step ρ, σ² = 2τ²/(s²ρ) (= 2τ²T²/(n²ρ)
	// when T divides n).
	OnePassBatch, OnePassStepRho, OnePassSigma float64
	// Multi-pass: batch n, per-step ρ/T, σ² = 2τ²T/(n²ρ).
	MultiPassBatch, MultiPassStepRho, MultiPassSigma float64
	// Per-step noise contribution dσ² to the oracle's MSE.
	OnePassNoiseMSE, MultiPassNoiseMSE float64
	// Total ρ (both ρ) and its (ε, δ) (improved conversion).
	TotalRho, Epsilon float64
	// NaiveSequentialSigma is the one-pass σ if the disjoint batches were
	// (wrongly) composed sequentially, each step ρ/T: √(2τ²T/(s²ρ)).
	NaiveSequentialSigma float64
	Source               Source
}

// ZCDPBudgets returns the per-step budgets and noise of one-pass and
// multi-pass clipped noisy gradient methods with total budget ρ-zCDP.
func ZCDPBudgets(n, T, tau, rho, d, delta float64) (ZCDPBudget, error) {
	if err := firstError(integerAtLeast("n", n, 1), integerAtLeast("steps", T, 1), positiveFinite("tau", tau), positiveFinite("rho", rho), integerAtLeast("dimension", d, 1), openUnit("delta", delta)); err != nil {
		return ZCDPBudget{}, err
	}
	if T > n {
		return ZCDPBudget{}, rangeErr("steps", "must be ≤ n = %v (one pass uses a fresh batch of ≥ 1 record per step), got %v", n, T)
	}
	b := ZCDPBudget{N: n, T: T, Tau: tau, Rho: rho, D: d, Delta: delta, Source: ZCDPBudgetSource}
	s := math.Floor(n / T)
	b.OnePassBatch, b.OnePassStepRho = s, rho
	b.OnePassSigma = math.Sqrt(2 * tau * tau / (s * s * rho))
	b.MultiPassBatch, b.MultiPassStepRho = n, rho/T
	b.MultiPassSigma = math.Sqrt(2 * tau * tau * T / (n * n * rho))
	b.OnePassNoiseMSE = d * b.OnePassSigma * b.OnePassSigma
	b.MultiPassNoiseMSE = d * b.MultiPassSigma * b.MultiPassSigma
	b.TotalRho = rho
	b.Epsilon, _ = rdp.LinearEpsilon(rho, delta, rdp.Improved)
	b.NaiveSequentialSigma = math.Sqrt(2 * tau * tau * T / (s * s * rho))
	return b, nil
}
