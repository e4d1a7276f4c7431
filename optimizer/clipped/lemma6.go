package clipped

import "math"

// Lemma 6 of seed 004 (Lowy–Razaviyayn, from [BD14]): the bias and mean
// squared error of the clipped mean oracle MeanOracle1 on s samples with
// E‖Z‖^k ≤ r_k^k and E‖Z‖² ≤ r_2², at threshold τ and budget ρ (noise σ² =
// 2τ²/(s²ρ)), and the τ that minimises the MSE bound. The derivation is in
// docs/seeds.md §Seed 004 clipped mean; package tables presents them
// (tables.ClippedMean, `privamp calc clipped-mean`).

// BiasBound returns Lemma 6's bias bound r_k^k/((k−1)τ^{k−1}), in log space
// (r_k^k may overflow for large k).
func BiasBound(k, rk, tau float64) float64 {
	return math.Exp(k*math.Log(rk) - math.Log(k-1) - (k-1)*math.Log(tau))
}

// MSEBound returns Lemma 6's MSE bound dσ² + r_2²/s + bias² with σ² =
// 2τ²/(s²ρ).
func MSEBound(k, rk, r2, tau, s, rho, d float64) float64 {
	b := BiasBound(k, rk, tau)
	return d*2*tau*tau/(s*s*rho) + r2*r2/s + b*b
}

// OptimalClip returns the τ minimising the MSE bound of Lemma 6 in closed
// form. Writing the bound as Aτ² + Bτ^{−(2k−2)} + const with A = 2d/(s²ρ),
// B = r_k^{2k}/(k−1)², its derivative vanishes at τ^{2k} = (k−1)B/A, so
// τ* = r_k·(s²ρ/(2d(k−1)))^{1/(2k)}; the bound there is
// (k/(k−1))·Aτ*² + r_2²/s.
func OptimalClip(k, rk, s, rho, d float64) float64 {
	return rk * math.Pow(s*s*rho/(2*d*(k-1)), 1/(2*k))
}
