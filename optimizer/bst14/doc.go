// Package bst14 runs the algorithms of Bassily, Smith, Thakurta 2014,
// "Differentially Private ERM: Efficient Algorithms and Tight Error Bounds"
// (BST14, seed 001) on the problems of package optimizer, each with a
// guarantee privamp certifies itself and the paper's bound beside the
// measured excess empirical risk. The paper's objective is the SUM
// L(θ;D) = Σᵢ ℓ(θ; dᵢ) over C = {‖θ‖ ≤ R} (‖C‖₂ = 2R); risks are reported on
// that scale and divided by n (privamp's and PNSGD's scale). Neighbours
// replace one record (the paper's relation). Constants come from the
// declared bounds only (optimizer.Build).
//
// # Algorithm 1: noisy SGD (RunSGD)
//
// T = n² updates θ_{t+1} = Π_C(θ_t − η(t)(n∇ℓ(θ_t; d) + b_t)), d drawn
// uniformly from the n records at each step (with replacement across steps),
// b_t ~ N(0, σ²I), from θ₁ = 0, with Theorem 2.4's step sizes; the output is
// the last iterate. The paper's σ² = 32L²n² ln(n/δ) ln(1/δ)/ε² does not close
// its own proof (seed 001 notes §1.1), so σ is calibrated instead by
// privamp's PLD accountant for exactly this sampler: each step is a
// fixed-size batch of one record drawn without replacement (γ = 1/n), whose
// replace-one pair is dominated by ((1−γ)N(0, z²) + γN(2, z²), N(0, z²)) with
// z = σ/(n·Sens) (Balle–Barthe–Gaboardi 2018 Thm 2, pld.DPSGDReplaceOne).
// This is not Poisson sampling, and is not accounted as such. The paper's σ,
// what the accountant certifies for it, and the ε of the paper's own proof
// chain are reported beside it; the paper's ε is never printed as a
// guarantee. A steps cap (for large n) is accounted as run and reported.
//
// # Algorithm 3: output perturbation (RunOutput)
//
// For an ℓ2 weight Δ = l2 > 0, θ̂ is the minimiser, released as Π_C(θ̂ + b),
// b of density ∝ exp(−ε‖b‖/s) (ε-DP; ‖b‖ ~ Gamma(p, s/ε)) or N(0, σ²I) with
// the exact analytic σ ((ε, δ)). The exact minimisers of neighbours are
// within 2·Sens/(nΔ) (OutputSensitivity; Sens ≤ L since the
// ℓ2 term cancels). The computed θ̂ is not exact, and a stationarity measured
// on D says nothing about the neighbour D′, so θ̂ is computed by k steps of
// projected gradient descent with step 1/β from any start in C: each step is
// a contraction by c = 1 − Δ/β towards θ*, so ‖θ̂ − θ*‖ ≤ c^k·2R for EVERY
// data set (plus a stated rounding allowance), k chosen for the tolerance.
// The sensitivity used is 2·Sens/(nΔ) + 2·that distance. The measured
// gradient mapping at θ̂ (which bounds the distance by 2‖G‖/Δ on D alone) is
// a check. The paper's optimistic Gaussian σ₀ is shown with the ε it gives.
//
// # Algorithm 2: exponential mechanism (RunExpMech)
//
// θ with density ∝ exp(−ε L(θ;D)/(2L‖C‖₂)) on C (ε-DP, Thm 3.1 with the
// constant of Algorithm 2). Lemma 6.6 needs a sample whose law is within a
// multiplicative (Dist∞) distance of that density; here the sample is exact
// (in real arithmetic): rejection from a piecewise-constant envelope on a grid
// of cells built from the nL-Lipschitz bound of the sum loss on C. The
// number of cells grows like (εn√p/2)^p, so dimension 1 and 2 only; higher
// dimensions are refused with the reason (a field error on "dimension"). To
// run on the shipped 30-feature data, Common.Features keeps one or two
// columns (before standardizing and clipping).
//
// # Algorithm 4: localization (RunLocalize)
//
// Output perturbation (Gamma noise) at ε/2 gives θ₀; C₀ is the ball of
// radius ρ = 3 ln n·p·s/(ε/2) around it (Lemma 4.2: θ* ∈ C₀ with probability
// ≥ 1 − n⁻³), and the exact exponential mechanism at ε/2 samples C₀ ∩ C. The
// two stages compose to ε (pure). It runs where both pieces do: Δ > 0 and
// dimension 1 or 2.
package bst14
