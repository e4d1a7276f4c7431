// Package optimizer runs the noisy gradient methods that package shifted
// analyses — projected noisy SGD and its variants from Feldman, Mironov,
// Talwar, Thakurta (2018), "Privacy Amplification by Iteration" (FMTT18,
// seed 002) — on real or synthetic data, and checks what it measures against
// what privamp proves.
//
// # Problems
//
// Losses are generalised linear models f(w; x, y) = φ(⟨w, x⟩, y) + (m/2)‖w‖²
// on the ball K = {‖w‖ ≤ R} (Objective): Logistic, LeastSquares (bounded
// labels), Huber, SmoothHinge (the hinge convolved with a 1-D Gaussian,
// FMTT18 §5.5 and Thm 33) and LinearLoss (with m = 1 the quadratic
// ½‖w − x‖², the exactly solvable case). Objective.Constants gives the
// Lipschitz constant L, the smoothness β and the strong convexity m on K from
// the data's feature and label bounds, and the sensitivity Sens ≤ L that the
// privacy analysis needs (the ℓ2 term cancels between neighbours).
//
// The records are a dataset.Dataset (package dataset): a CSV file
// or a seeded generator with a known population (dataset.Synthetic), so that
// excess population risk can be measured (MeasureUtility). Build turns a
// DataSpec and a LossSpec into a Problem: it reads or draws the records,
// clips them to the declared feature and label bounds one record at a time,
// and derives the constants from the declared bounds only, never from the
// records. A generator names the loss of its label model (a name of
// LossNames) and Build makes the objective from it, so the data package
// does not depend on this one.
//
// # Algorithms
//
// Runner executes Config: PNSGD (Alg. 1), fixed-order multi-epoch PNMSGD
// (Alg. 2, Epochs > 1), minibatches, Skip-PNSGD and Stop-PNSGD (shifted.Variant),
// public examples at the end (Cor 31: Config.Public, an accounting matter),
// and k tasks (RunTasks, Thm 32). Runs are deterministic for a seed (PCG from
// math/rand/v2) and allocate nothing per step. Parameters are given or
// derived from a target (ε, δ) by the paper's formulas (Derive: Thm 29, 30,
// Cor 31 with its σ corrected by √2, Thm 32) or by calibrating σ against the
// sound bound (CalibrateTarget).
//
// A Tracer records a decimated trajectory: loss, the largest per-example
// gradient norm since the previous point (so no maximum is lost), the
// measured contraction of the step map on random pairs of points, and the
// distance to the non-private optimum (Minimize, a Newton–CG solver with the
// ball constraint handled through its Lagrange multiplier).
//
// # Training
//
// Train is the one call behind privamp run: it builds the Problem from a
// Spec (whose shifted.Training is the one description of the run), sets σ
// and η (given, from a privacy plan, a paper's rule or calibrated against
// the sound bound), certifies the run, trains it with a trajectory, measures
// the optimum and (with Repeats) the utility, and checks what it measured
// against what is declared and proven (TrainResult.Checks; OK is false when
// a check failed). Certify does everything but the training, for callers
// that need the certificate of a run without its measurements.
//
// # Privacy
//
// Every bound comes from package shifted (shifted.Training.Guarantee and
// Composition): per-index ε, the worst index, sources and assumptions, in
// TrainResult.Privacy. This package adds only the exact divergence of the
// Gaussian cases (ExactRho, GaussianShiftEpsilon) beside the bound. The
// empirical lower bound of an audit is package audit, which
// imports this package. Claims about a training run and their verification
// (privamp verify) are package verify.
package optimizer
