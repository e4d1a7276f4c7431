// Package claim reads a training run's stated privacy guarantee (a claim)
// and decides whether privamp can prove it: the library behind privamp
// verify.
//
// A claim describes one run of projected noisy SGD or a variant of it (FMTT18,
// Feldman, Mironov, Talwar, Thakurta 2018, "Privacy Amplification by
// Iteration", seed 002) and the ε it claims, worst case or per index.
// Claim.Training turns it into privamp's one description of a run,
// shifted.Training, whose Guarantee (amplification by iteration, Thm 22
// through Thm 23, 24, 26, 35 and Cor 31 as the run's fields say) and
// Composition (every iterate released, Lemma 27) Verify uses; when a claim
// is below the bound, shifted.Training.CalibrateSigma gives the σ that would
// make it true.
//
// # Claim format
//
// A claim is one JSON object (ParseClaim) read under the rules every privamp
// JSON input follows (package internal/jsonin):
//
//   - keys are exact and unique: "Epsilon" is refused naming the key it
//     resembles, and a key given twice is refused naming its first line
//     (neither is quietly read as "epsilon");
//   - an unknown key is refused by name;
//   - where a whole number is expected (n, batch, epochs, public, tasks,
//     per_index[i].index), any JSON number with a whole value is accepted
//     however it is written: 1e12, 500.0 and 5E2 are whole numbers, 1.5 is
//     refused naming the field;
//   - the file is at most MaxBytes (8 MiB) long; a longer one is refused as
//     too large (not as a truncated object).
//
// A bad claim is an *Error naming the field (a path such as
// "per_index[2].epsilon"), the line, the value and the reason. The keys:
//
//	"algorithm"         "pnsgd" (Alg. 1; Alg. 2 with epochs > 1), "skip" or "stop"   required
//	"n"                 number of examples, private and public                  required
//	"batch", "epochs"   examples per step, fixed-order passes                   default 1, 1
//	"order"             "fixed", or "shuffled" (one pass after a secret shuffle) default "fixed"
//	"eta", "sigma"      step size η and gradient noise σ: w ← Π_K(w − η(g + Z)),  required
//	                    Z ~ N(0, σ²I), g the batch's average gradient
//	"lipschitz"         L with every per-example gradient norm ≤ L             required
//	"smoothness"        β; η ≤ 2/β is checked (omitted: amplification unmet)
//	"strong_convexity"  m ≥ 0                                                    default 0
//	"radius"            R of K = {‖w‖ ≤ R}; checked against L, m and the         default none
//	                    dist_to_opt and loss columns
//	"public"            the last examples are public (Cor 31)                   default 0
//	"tasks"             k Stop-PNSGD tasks on the same data (Thm 32)            default 1
//	"delta"             δ ∈ (0, 1)                                               required
//	"epsilon"           claimed worst-case ε over the private indices
//	"per_index"         [{"index": t, "epsilon": e}, …] claimed ε of index t
//	                    (at least one of "epsilon" and "per_index"; ≤ 100000)
//	"trajectory"        CSV with columns step, grad_norm, step_size and
//	                    optionally loss, contraction, dist_to_opt (as
//	                    optimizer.WriteTrace and privamp run --trace write
//	                    them; ReadTrace; a path relative to the claim file)
//	"description"       free text
//
// # Verification
//
// Verify cross-checks every declared value against everything the claim
// brings: the constants against each other (m ≤ β, L ≥ m·R) and against each
// trajectory column (gradient norms against L, step sizes against η, the
// number of steps against n, batch and epochs, the measured contraction
// against the c that β and m imply, loss changes against L, distances to the
// optimum against R). Each Check says how its value was established (Basis:
// checked against the trajectory, checked by arithmetic, or taken on trust),
// and Verification.CrossChecked and Trusted list the declared values of each
// kind. A check's status is one of:
//
//   - Pass: it holds;
//   - Fail: a declared value is contradicted by the claim's own inputs, or
//     the trajectory cannot be evidence. The verdict is Unsupported via
//     ViaNone, never Valid: no argument is applied to constants that do not
//     hold;
//   - Unmet: the constants are consistent but an assumption of amplification
//     by iteration is not met (no β, η > 2/β, a reshuffle). Plain
//     composition, which needs only ‖∇f‖ ≤ L, then decides: Valid via
//     ViaComposition if it supports the claim, else Unsupported;
//   - NA: the check does not apply.
//
// With no failed or unmet check the verdict is Valid when every claimed ε is
// at least the certified one (via ViaAmplification), else Invalid with the
// certified worst-case ε and the σ that would make the claim true.
// Verification encodes to JSON with snake_case keys; its numbers are
// internal/quantity kinds, so a non-finite value is null.
//
// See examples/claim.json in the repository.
package claim
