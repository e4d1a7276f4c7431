// Package saddle runs the private stochastic mirror descent algorithms of
// González, Guzmán, Paquette, "Mirror Descent Algorithms with Nearly
// Dimension-Independent Rates for Differentially-Private Stochastic
// Saddle-Point Problems" (seed 003) on zero-sum matrix games in the ℓ1
// setting, with the privacy each run is certified for and the exact duality
// gap of its output.
//
// # Games
//
// A Game is a stochastic bilinear game on Δx × Δy: record z pays A_z with
// entries in [−a, a], a declared by construction (SyntheticGame: entries ±a;
// GroupGame: a robust-classification game on a labelled data set, the
// learner mixing over signed features, the adversary over groups = class ×
// bin of one feature, coordinates clipped to a declared bound). The duality
// gap of (x, y) is exact in closed form, max_j (Āᵀx)_j − min_i (Āy)_i (Gap);
// the game's value comes from a linear program (Solve, gonum's simplex), for
// reporting.
//
// # Algorithms
//
// RunSMD is Algorithm 1 (vertex sampling: K pairs per step, a fresh batch of
// ⌊n/T⌋ records per step, the output the mean of T released vertex pairs,
// hence T-sparse). RunBR is Algorithm 3 (the bias-reduced gradient of
// Algorithm 2 with N ~ TG(½, M), random length). The y-player ascends (the
// algorithm box's line 6 prints a descent step; see state.step and
// TestSignOfYUpdate).
//
// RunSCO is Algorithm 5 (DP-SCO by anytime online-to-batch on Δd: ŵ
// redrawn as the mean of K vertices of the running average at t ≤ q and
// every q steps, reused in between; the output the mean of K vertices,
// hence K-sparse) on an SCOProblem: ℓ1-constrained logistic regression on
// a labelled data set (LogisticSCO) or least squares with a known optimum
// (SyntheticSCO).
//
// # Privacy
//
// SMDPrivacy is Prop. 3.3's accounting (each released or gradient vertex is
// an exponential mechanism, 4L0τ/B-DP; k = 2T(K+1) of them composed by Thm
// 3.5 through composition.FilterEpsilon). BRPrivacy is Prop. 3.17 with the
// sensitivity recounted (the printed 9ταL0 per vertex is optimistic; the
// sound value is 2·max_N 2τL0(2w_N+1)/b(N), docs/saddle.md). SMDMaxStep and
// BRMaxStep invert them for a target (ε, δ). SCOPrivacy is Prop. 4.3
// (each vertex of P_{w^t} 4L0τ/B-DP by a mixture argument, k = K(q + ⌊T/q⌋)
// draws, the same composition); SCOMaxStep inverts it.
//
// # Bounds
//
// SMDBound is the explicit pre-optimisation bound of the proof of Thm 3.1
// for a bilinear game and the tighter bound derived in docs/saddle.md;
// BRBound the explicit form of Thm 3.14's proof conditional on the N_t.
// RunSMDSpec and RunBRSpec repeat a run, estimate E Gap with a Student-t
// interval and check its upper limit against the bound (a failed check makes
// Result.OK false). SCOBound is the explicit bound on Algorithm 5's
// expected excess risk proved in docs/saddle.md §8 (the reused sparse point
// handled by a ghost iterate); RunSCOSpec checks the measured risk's upper
// confidence limit against it.
package saddle
