// Package clipped runs the noisy clipped gradient methods of Lowy and
// Razaviyayn, "Private Stochastic Optimization with Large Worst-Case
// Lipschitz Parameter" (arXiv 2209.07403, seed 004), which need only a
// declared k-th moment bound on the gradients, sup_w E‖∇f(w, x)‖^k ≤ r_k^k
// (Assumption 2, k ≥ 2), instead of a worst-case Lipschitz constant.
//
// # Oracle
//
// MeanOracle1 (Algorithm 1) clips each gradient to the ℓ2-ball of radius τ,
// averages the s clipped gradients and adds N(0, σ²I_d). Its bias and mean
// squared error are bounded by Lemma 6 ([BD14]): BiasBound, MSEBound and
// OptimalClip (lemma6.go), which package tables presents.
//
// # Algorithms
//
//   - ACSA: Algorithm 2, noisy clipped AC-SA (accelerated SGD; convex,
//     β-smooth), one pass over T disjoint batches, τ and T as in Thm 31.
//   - SGD: Algorithm 6, noisy clipped projected SGD (μ-strongly convex,
//     β-smooth), one pass, Stich's step sizes and weights (Lemma 33), τ as in
//     Thm 34 and T = Θ̃(κ).
//   - ERM: Algorithm 3, the multi-pass noisy clipped regularised subgradient
//     method on the full batch.
//
// # Privacy
//
// Neighbouring data sets replace one record (the paper's relation and
// PNSGD's, so the comparison is at the same guarantee). A clipped mean of s
// records then has ℓ2-sensitivity Δ = 2τ/s, and Gaussian noise σ = Δ/√(2ρ)
// makes a step ρ-zCDP (Prop. 23 = Bun–Steinke Prop. 1.6; ρ recomputed by
// zcdp.Gaussian). One pass: every record is in one batch, so the T steps are
// ρ-zCDP together by parallel composition and post-processing (P5, P7): no
// factor T. Multi-pass: every step touches every record, so each step gets
// ρ/T and the steps compose to ρ (Lemma 24, zcdp.Compose). ρ converts to
// (ε, δ) by zcdp.Epsilon (improved RDP conversion), and a target (ε, δ) to ρ
// by zcdp.RhoFor. Every iterate may be released.
//
// Add/remove neighbours with a fixed divisor s would give Δ = τ/s per batch,
// but not for the one-pass algorithms: inserting a record shifts every later
// batch boundary, so every later batch changes and parallel composition no
// longer applies. The package therefore certifies replace-one only.
//
// # Data
//
// HeavyTailed draws x = μ + c·t with t i.i.d. Student-t coordinates (ν
// degrees of freedom), a mean estimation problem f(w, x) = ½‖w − x‖² − ½‖x‖²
// (privamp's quadratic loss) whose population optimum is w* = μ and excess
// risk ½‖w − μ‖², both in closed form; its moment bound r_k comes from the
// Student-t absolute moments, never from the sample.
//
// Compare runs the clipped methods against PNSGD (FMTT18, package optimizer
// and shifted) at the same (ε, δ) and returns the excess population risk
// with confidence intervals, per method and ε.
package clipped
