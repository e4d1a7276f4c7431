package rdp

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// SampledGaussianFixedSize bounds one step of DP-SGD whose batch is Gamma·n
// records drawn uniformly without replacement (Gamma = b/n; a fixed-size
// batch), under replace-one neighbours, with noise multiplier Z (clip norm
// C = 1, so the batch's sum moves by at most 2 when one record is replaced).
//
// The bound is the Rényi divergence of the symmetrized pair S of
// docs/accounting.md ("Replace-one and fixed-size batches"), which is proved
// there to dominate one step in hockey-stick divergence at every order
// γ = e^ε ≥ 1 in both directions (Balle–Barthe–Gaboardi 2018, Thm 2, on the
// coupling of batches with and without the replaced record). For α > 1,
// E_V[(dU/dV)^α] − 1 = α(α−1)[∫_1^∞ γ^{α−2}H_γ(U‖V)dγ +
// ∫_0^1 γ^{α−1}H_{1/γ}(V‖U)dγ] (the integral representation of an
// f-divergence, f(x) = x^α − 1, by Taylor's formula with integral
// remainder; derived in docs/accounting.md): it is increasing in the
// hockey-stick divergences of orders ≥ 1 of both directions, so a pair that
// dominates them also bounds the Rényi divergence, and so the RDP of one
// step, which composes adaptively (Mironov 2017, Prop. 1).
//
// S's two profiles for ε ≥ 0 are both that of R = ((1−γ)N(0,z²) +
// γN(2,z²), N(0,z²)), the Poisson-subsampled Gaussian at rate γ and noise
// multiplier z/2; splitting the representation into its two integrals,
// E_S − 1 ≤ (E_R − 1) + (E_R′ − 1), E_R and E_R′ the moments of R's two
// directions, both at most A_α = e^{(α−1)ε_R(α)} (Mironov–Talwar–Zhang
// 2019, §3.1; ε_R is SampledGaussian{Gamma, Z/2}). Hence
//
//	ε(α) ≤ ε_R(α) + ln(2 − e^{−(α−1)ε_R(α)})/(α − 1),
//
// at most ε_R(α) + ln 2/(α−1). At Gamma = 1 the step is the Gaussian with
// sensitivity 2, and the exact 2α/Z² is used.
type SampledGaussianFixedSize struct {
	Gamma, Z float64
}

// Epsilon returns the bound at α, rounded up.
func (s SampledGaussianFixedSize) Epsilon(alpha float64) float64 {
	if s.Gamma == 1 {
		return numeric.DivUp(2*alpha, mulDown(s.Z, s.Z))
	}
	r := SampledGaussian{Q: s.Gamma, Z: s.Z / 2}.Epsilon(alpha) // Z/2 is exact
	if math.IsInf(r, 1) || math.IsNaN(r) || !(alpha > 1) || math.IsInf(alpha, 1) {
		return math.Inf(1)
	}
	am1 := alpha - 1
	// ln(2 − e^{−x}) = log1p(−expm1(−x)) ∈ [0, ln 2]: each step is within a
	// few ulps, so a relative 1e-12 (and an absolute 1e-300) covers them.
	extra := math.Log1p(-math.Expm1(-am1*r)) / am1
	return (r+extra)*(1+1e-12) + 1e-300
}

// SourceFixedSize names the bound of SampledGaussianFixedSize.
const SourceFixedSize = "fixed-size batches, replace-one: Rényi divergence of the symmetrized dominating pair (Balle–Barthe–Gaboardi 2018, Thm 2; docs/accounting.md, \"Replace-one and fixed-size batches\"), bounded by the Poisson pair's A_α at noise z/2 (Mironov–Talwar–Zhang 2019, §3)"
