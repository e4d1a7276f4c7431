// Package langevin runs noisy gradient descent as the discretised Langevin
// diffusion of Ganesh, Thakurta, Upadhyay, "Differentially Private Sampling
// from Rashomon Sets, and the Universality of Langevin Diffusion for Convex
// Optimization" (GTU, seed 000), on the problems of package optimizer, with
// the path privacy the paper proves and a coupled-trajectory check of its
// stability bound.
//
// # Algorithm
//
// Run (the call behind privamp run --algorithm langevin) builds an
// optimizer.Problem (the generalised linear objective L(θ;D) = (1/n)Σ f(θ; x_i,
// y_i) on the ball C = {‖θ‖ ≤ R}, with its constants derived from the declared
// feature and label bounds only) and iterates, from the data-independent
// θ₀ = 0,
//
//	θ_{k+1} = Π_C(θ_k − ηβ∇L(θ_k;D) + ξ_k),  ξ_k ~ N(0, 2η I_p),
//
// for k = 0..T−1: the Euler–Maruyama scheme of dθ = −β∇L dt + √2 dW (GTU eq. 1
// and 2; SGLD with exact gradients, GTU §3.1). Its stationary law approaches the
// Gibbs law ∝ exp(−βL) on C as η → 0.
//
// # Privacy
//
// With Δ = sup_θ ‖∇L(θ;D) − ∇L(θ;D′)‖ for neighbours that replace one record,
// each step is a Gaussian mechanism with mean shift ηβΔ and variance 2η, so
// R_α ≤ αηβ²Δ²/4 per step (GTU Lemma A.7) and R_α ≤ αTηβ²Δ²/4 for the whole
// path θ_1..θ_T by adaptive composition (Fact A.8): GTU Lemma 3.1, the discrete
// form of Lemma 2.2 with t = Tη. No convexity or smoothness is needed, the
// projection is post-processing, and every iterate may be released. Δ =
// 2·Sens/n, with Sens = X·sup|φ'| from the declared bounds (the ℓ2 term
// cancels between neighbours; Sens ≤ L). The curve is converted to (ε, δ) by
// package rdp (rdp.Linear, improved conversion, CKS20 Prop. 12).
//
// β may be given or calibrated to a target (ε, δ) by bisection on the
// monotone bound (the answer meets the target). Lemma 3.1's printed
// sufficient condition β ≤ 2ε/(Δ√(Tη ln(1/δ))) is about 2× loose (it gives
// ε_out = 2ε + ε²/ln(1/δ) by the paper's own Fact A.4; implementation notes
// of seed 000 §1.2 and docs/errata.md#langevin-gtu-lemma-31): it is never used.
//
// # Coupling check
//
// With Coupling set, the same run is repeated on a neighbour D′ (record 1
// replaced by the worst-case record of optimizer.WorstCasePair, the audit's
// canary) with the same noise draws, and ‖θ_k − θ′_k‖ is recorded at every step. For an
// m-strongly convex, M-smooth loss and h = ηβ, the gradient step contracts by
// c = max(|1 − hm|, |1 − hM|) and the neighbours' gradients differ by ≤ Δ, so
// d_{k+1} ≤ c·d_k + hΔ and d_k ≤ hΔ(1 − c^k)/(1 − c) ≤ Δ/m when h ≤ 2/(m+M):
// the discrete form of the bound 2L/(mn) in the proof of GTU Thm 2.5 (eq. 3;
// implementation notes §2 A4). The check fails when a measured distance
// exceeds the bound, as it does when the loss is not in fact convex.
//
// # Rashomon sampler and regularised reductions
//
// With ψ > 0 the drift is the gradient of the thresholded loss L̃ = max{L,
// min L + ψ} (GTU §2, Thm 2.3), the minimum computed inside without
// privacy, and the certificate uses the thresholded drift's sensitivity
// Δ + √(2Mψ′) derived in Rashomon's documentation (no projection, m > 0).
// The share of iterates in the Rashomon set is reported beside Thm B.6's
// hit bound for an exact Gibbs sample. Regularize adds the ℓ2 term of GTU
// §4.4 (ERM or SCO weight) to apply the strongly convex results to a convex
// loss; the ℓ2 term cancels in Δ, so the certificate does not change.
//
// # Not runnable as certified algorithms
//
// The exponential mechanism (GTU Alg. 2, Thm 2.1) is ε-DP only for an exact
// sample of the Gibbs law, reached by Langevin diffusion only as t → ∞: see
// NotCertified. The iterated exponential mechanism (Alg. 1, Thm 4.2) runs
// with the exact sampler of package bst14 as iterated-expmech (its constant
// c is a utility parameter: the privacy Σεᵢ does not depend on it).
package langevin
