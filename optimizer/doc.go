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
// The records are a dataset.Dataset (package optimizer/dataset): a CSV file
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
// empirical lower bound of an audit is package optimizer/audit, which
// imports this package.
//
// # Claims (privamp verify)
//
// ParseClaim reads a JSON object describing a training run and the privacy
// it claims; Verify recomputes the bound and checks the assumptions. Fields
// (unknown keys are refused; a bad value is a *ClaimError naming the field):
//
//	"algorithm"         "pnsgd" (Alg. 1; Alg. 2 with epochs > 1), "skip" or "stop"   required
//	"n"                 number of examples, private and public                  required
//	"batch", "epochs"   examples per step, fixed-order passes                   default 1, 1
//	"order"             "fixed", or "shuffled" (one pass after a secret shuffle) default "fixed"
//	"eta", "sigma"      step size η and gradient noise σ: w ← Π_K(w − η(g + Z)),  required
//	                    Z ~ N(0, σ²I), g the batch's average gradient
//	"lipschitz"         L with every per-example gradient norm ≤ L             required
//	"smoothness"        β; η ≤ 2/β is checked (omitted: amplification unsupported)
//	"strong_convexity"  m ≥ 0                                                    default 0
//	"radius"            R of K (informational)                                   default none
//	"public"            the last m examples are public (Cor 31)                 default 0
//	"tasks"             k Stop-PNSGD tasks on the same data (Thm 32)            default 1
//	"delta"             δ ∈ (0, 1)                                               required
//	"epsilon"           claimed worst-case ε over the private indices
//	"per_index"         [{"index": t, "epsilon": e}, …] claimed ε of index t
//	                    (at least one of "epsilon" and "per_index")
//	"trajectory"        CSV with columns step, grad_norm, step_size (as Tracer
//	                    and WriteTrace produce; relative to the claim file)
//	"description"       free text
//
// The verdict is Valid (every claimed ε is at least the certified one),
// Invalid (assumptions hold, some claim is below the bound: the smallest
// certifiable ε and the σ that would make the claim true are reported) or
// Unsupported (an assumption fails — η > 2/β, no β, gradients above L in the
// trajectory, step sizes that differ from η, a reshuffled multi-epoch order —
// and plain composition, reported instead, does not support the claim
// either). See examples/claim.json in the repository.
package optimizer
