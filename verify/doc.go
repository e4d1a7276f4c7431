// Package verify reads a training run's stated privacy guarantee (a claim)
// and decides whether privamp can prove it: the library behind privamp
// verify.
//
// A claim describes one run of projected noisy SGD or a variant of it
// (FMTT18, Feldman, Mironov, Talwar, Thakurta 2018, "Privacy Amplification
// by Iteration", seed 002) and the ε it claims, worst case or per index; or
// a DP-SGD run and its claimed ε (see "DP-SGD claims" below).
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
// A bad claim is a *dp.Error naming the field (a path such as
// "per_index[2].epsilon"), the line, the value and the reason. The keys:
//
//	"algorithm"         "pnsgd" (Alg. 1; Alg. 2 with epochs > 1), "skip" or "stop"   required
//	"n"                 number of private examples (positions 1..n)             required
//	"batch", "epochs"   examples per step, fixed-order passes: the run has      default 1, 1
//	                    epochs·⌈(n + public)/batch⌉ steps
//	"order"             "fixed", or "shuffled" (one pass after a secret shuffle) default "fixed"
//	"eta", "sigma"      step size η and gradient noise σ: w ← Π_K(w − η(g + Z)),  required
//	                    Z ~ N(0, σ²I), g the sum of the batch's gradients
//	                    divided by the nominal batch b (the last, smaller
//	                    batch of a pass too)
//	"lipschitz"         L with every per-example gradient norm ≤ L             required
//	"smoothness"        β; η ≤ 2/β is checked (omitted: amplification unmet)
//	"strong_convexity"  m ≥ 0                                                    default 0
//	"radius"            R of K = {‖w‖ ≤ R}, every step projecting onto it:       default none
//	                    the bounded-domain bound (privacy that stops growing
//	                    with passes; docs/amplification.md); checked against
//	                    L, m and the dist_to_opt and loss columns
//	"public"            public examples after the n private ones in every        default 0
//	                    pass (Cor 31): a pass has n + public examples
//	"tasks"             k Stop-PNSGD tasks on the same data (Thm 32)            default 1
//	"delta"             δ ∈ (0, 1)                                               required
//	"epsilon"           claimed worst-case ε over the private indices
//	"per_index"         [{"index": t, "epsilon": e}, …] claimed ε of index t
//	                    (at least one of "epsilon" and "per_index"; ≤ 100000)
//	"trajectory"        CSV with columns step, grad_norm, step_size and
//	                    optionally loss, contraction, dist_to_opt, noise_sq
//	                    and noise_dof (as optimizer.WriteTrace and privamp
//	                    run --trace write them; ReadTrace; a path relative
//	                    to the claim file)
//	"description"       free text
//
// # DP-SGD claims
//
// A claim whose "algorithm" is "dpsgd" (a DPSGDClaim, in Claim.DPSGD) states
// the (ε, δ) of a DP-SGD run (Abadi et al. 2016) with the parameter names of
// Opacus (sample_rate, noise_multiplier, steps, epochs) or of TF-Privacy's
// compute_dp_sgd_privacy (n, batch_size, noise_multiplier, epochs), so a
// training configuration can be pasted. The same reading rules hold (exact,
// unique keys; whole numbers as 1e12). The keys:
//
//	"algorithm"         "dpsgd"                                                 required
//	"sampling"          "poisson", "fixed-size", "shuffle" or "balls-in-bins"    required
//	"sample_rate"       q ∈ (0, 1] (Opacus)                                     } one of the two
//	"n", "batch_size"   q = batch_size/n (TF-Privacy)                           }
//	"noise_multiplier"  z = σ/C > 0 (noise σ on the sum of gradients clipped to C) required
//	"steps"             number of steps T                                       } one of the two
//	"epochs"            T = ⌈epochs·n/batch_size⌉, or ⌈epochs/q⌉ with            }
//	                    sample_rate (TF-Privacy's convention)
//	"delta"             δ ∈ (0, 1)                                               required
//	"epsilon"           claimed ε ≥ 0                                            required
//	"neighbours"        "add-remove" or "replace-one"                           default "add-remove"
//	"description"       free text
//
// A claim that gives two ways to the same quantity ("steps" and "epochs";
// "sample_rate" and "batch_size" or "n") is refused naming both keys. For
// example, TF-Privacy's MNIST tutorial (examples/dpsgd-claim.json):
//
//	{"algorithm": "dpsgd", "sampling": "poisson", "n": 60000, "batch_size": 256,
//	 "noise_multiplier": 1.1, "epochs": 60, "delta": 1e-5, "epsilon": 2.6}
//
// and the same run as Opacus writes it:
//
//	{"algorithm": "dpsgd", "sampling": "poisson", "sample_rate": 0.004266666666666667,
//	 "noise_multiplier": 1.1, "steps": 14063, "delta": 1e-5, "epsilon": 2.6}
//
// VerifyDPSGD decides it with a dp.Accountant (Options; composition.Tightest,
// the smaller of RDP and the PLD, by default) on the run's dp.Event
// (DPSGDRun.Event): with Poisson sampling, dp.Valid when the claimed ε is at
// least the certified one (Verification.WorstEpsilon), else dp.Invalid with
// the noise multiplier that would make the claim true (NoiseMultiplierNeeded:
// dp.Calibrate over the accountant, verified with it). Replace-one
// neighbours are bounded by a pair proved to dominate (RDP's removal then
// addition, or the PLD's symmetrized sensitivity-2 pair, whichever is
// smaller): sound, but looser than dp_accounting's replace-one PLD, whose
// pair privamp cannot check. Fixed-size batches (sampling without
// replacement) under replace-one are decided the same way by the PLD's
// replace-one pair with γ = batch_size/n (package composition/pld,
// SubsampledGaussianReplaceOne); under add/remove they are dp.Unsupported (no
// dominating pair is implemented), and so are they with the RDP accountant
// alone. Shuffled batches are Unsupported: accounting them as Poisson is the
// common approximation, not a proof. The tightest accountant certifies
// 2.382 for the example above (the RDP accountant 2.597). A fixed-size
// claim (examples/dpsgd-fixed-size-claim.json):
//
//	{"algorithm": "dpsgd", "sampling": "fixed-size", "n": 60000,
//	 "batch_size": 256, "noise_multiplier": 1.1, "epochs": 60,
//	 "neighbours": "replace-one", "delta": 1e-5, "epsilon": 18.6}
//
// is VALID (certified 18.45: a fixed-size batch under replace-one is a far
// stronger adversary than Poisson sampling under add/remove).
//
// # Seed 001 noisy SGD claims
//
// A claim whose "algorithm" is "bst14-sgd" (BST14Claim) states the (ε, δ) of
// seed 001's Algorithm 1 as privamp run --algorithm bst14-sgd runs it: "n",
// "sigma" (the noise on n∇ℓ), "lipschitz" (every per-record gradient norm ≤
// it: the run's record_sensitivity), "steps" (default n²), "delta" and
// "epsilon". It is read into the DP-SGD claim it is (fixed-size batches of
// one record, γ = 1/n, replace-one neighbours, noise multiplier σ/(nL)) and
// decided by VerifyDPSGD, the accounting the run certified with:
//
//	{"algorithm": "bst14-sgd", "n": 569, "sigma": 3450.15, "lipschitz": 0.731059,
//	 "delta": 1e-5, "epsilon": 1}
//
// # Verification
//
// Verify cross-checks every declared value against everything the claim
// brings: the constants against each other (m ≤ β, L ≥ m·R) and against each
// trajectory column (gradient norms against L, step sizes against η, the
// number of steps against n, batch and epochs, the measured contraction
// against the c that β and m imply, loss changes against L, distances to the
// optimum against R, and σ against the noise the run drew: under the
// declared σ, Σ‖Z_t‖²/σ² over the noise_sq column is χ² with Σ noise_dof
// degrees of freedom, refuted outside a two-sided level of false-alarm
// probability NoiseFalseAlarm = 1e-6). Each dp.Check says how its value was established (Basis:
// checked against the trajectory, checked by arithmetic, or taken on trust),
// and Verification.CrossChecked and Trusted list the declared values of each
// kind. A check's status is one of:
//
//   - Pass: it holds;
//   - Fail: a declared value is contradicted by the claim's own inputs, or
//     the trajectory cannot be evidence. The verdict is dp.Unsupported via
//     ViaNone, never Valid: no argument is applied to constants that do not
//     hold;
//   - Unmet: the constants are consistent but an assumption of amplification
//     by iteration is not met (no β, η > 2/β, a reshuffle). Plain
//     composition, which needs only ‖∇f‖ ≤ L, then decides: dp.Valid via
//     ViaComposition if it supports the claim, else dp.Unsupported;
//   - Assumed: a declared value nothing the claim brings can check (σ with
//     a trajectory written without the noise columns, the sampling of a
//     DP-SGD claim): taken as declared, listed in Trusted, never PASS;
//   - NA: the check does not apply.
//
// With no failed or unmet check the verdict is dp.Valid when every claimed ε is
// at least the certified one (via ViaAmplification), else dp.Invalid with the
// certified worst-case ε and the σ that would make the claim true.
// Verification encodes to JSON with snake_case keys; its numbers are
// internal/quantity kinds, so a non-finite value is null.
//
// See examples/claim.json in the repository.
package verify
