// Package shifted computes per-person privacy guarantees by amplification by
// iteration (Feldman, Mironov, Talwar, Thakurta 2018, "Privacy Amplification
// by Iteration", cited below as FMTT18): the shifted-Rényi-divergence analysis
// of noisy gradient methods that keep their intermediate iterates secret.
//
// # The engine
//
// Solve computes the smallest bound that FMTT18 Theorem 22 certifies for a
// contractive noisy iteration X_t = ψ_t(X_{t−1}) + Z_t with Gaussian noise
// Z_t ~ N(0, v_t I), c_t-Lipschitz maps ψ_t (c_t ≤ 1; the c_t < 1 extension of
// Lemma 21 is derived in docs/amplification.md#contraction-factor-below-one) and sensitivities
// s_t = sup_x ‖ψ_t(x) − ψ'_t(x)‖ between the two neighbouring runs. The bound
// is D_α(X_T ‖ X'_T) ≤ α·K for every α > 1 (a K-zCDP guarantee), with
//
//	K = min Σ_t a_t²/(2 v_t)  over a_t ≥ 0 with z_t = c_t z_{t−1} + s_t − a_t ≥ 0, z_0 = z_T = 0.
//
// After rescaling by the contraction still to come, the optimum is the
// greatest convex minorant of the cumulative-sensitivity points in
// cumulative-variance time (docs/amplification.md#optimal-shift-allocation); Solve finds it with a monotone stack
// (pool-adjacent-violators) in log space, so contraction products that
// underflow a float64 (c = 0.99 over 10⁷ steps) cost no accuracy. A run of
// identical steps enters the stack as a single block (its points form a
// concave chain that the minorant never touches inside), so a schedule of
// 10⁷ steps written as a few runs is solved in microseconds.
//
// # Schedule files
//
// privamp cni --schedule FILE.json reads a Schedule in this JSON format
// (ParseSchedule, Schedule.MarshalJSON):
//
//	{
//	  "variance": 0.01,        optional default v_t for entries that omit it
//	  "contraction": 1,        optional default c_t (default 1)
//	  "steps": [               the steps in time order
//	    {"count": 4999},                          4999 steps with the defaults and s_t = 0
//	    {"sensitivity": 0.2},                     one step (count defaults to 1)
//	    {"variance": 0.02, "contraction": 0.99, "sensitivity": 0, "count": 5000},
//	    {"repeat": 3, "steps": [{"count": 9}, {"sensitivity": 0.2}]}
//	  ]
//	}
//
// An entry is either a run of identical steps — "variance" (v_t > 0),
// "contraction" (0 ≤ c_t ≤ 1), "sensitivity" (s_t ≥ 0, default 0) and
// "count" (≥ 1, default 1) — or a group {"repeat": k, "steps": [...]} whose
// entries are repeated k times (groups nest up to 8 deep). Unknown keys are
// refused. A schedule may hold up to MaxSteps steps and, once groups are
// expanded, MaxRuns runs. A contraction above 1 is refused: such a step does
// not contract and Theorem 22 does not apply.
//
// # Variants of noisy SGD
//
// SGD covers projected noisy SGD in a fixed order (FMTT18 Alg. 1 and 2):
// PNSGD (Thm 23), minibatches, several passes (Thm 35), public records at the
// end of the pass (Cor 31) and strongly convex losses (contraction c < 1),
// with closed forms derived from the engine and checked against it. Skip and
// Stop are the randomised variants (Thm 24, Thm 26) with the exact mixtures of
// docs/amplification.md#skip-and-stop-mixtures; Tasks composes k Stop-PNSGD runs (Thm 32); Local is the
// local-DP guarantee of Lemma 27. FMTT18 Thm 26's final bound
// 4αL² ln n/(nσ²) is not sound (its last step uses H_{n−t+1} ≤ ln(n−t+1),
// but H_m > ln m); privamp never uses it as a guarantee.
//
// Domain is the same fixed-order run on a convex set inside a ball of radius
// R (Training.Radius): Thm 22 started late, from an initial distance 2R, on
// the windows after the record's uses, so ε stops growing with the number
// of passes (docs/amplification.md#bounded-domain-privacy-that-stops-growing);
// EpsilonByEpochs draws ε against the passes with the burn-in.
//
// Every type exposes Check (the assumptions the theorem needs, with a
// descriptive error when they fail), Assumptions and Source.
//
// # Per-person curves
//
// Epsilon, Epsilons, EpsilonsAll and Summarize turn a PerPerson into
// (ε_t, δ)-DP for each index t with the conversions of package rdp. Curves
// linear in α (zCDP) convert in O(1) per index; the mixtures are optimised
// over α with warm starts. Compare sets amplification by iteration against
// amplification by sampling and plain composition (FMTT18 Table 1).
package shifted
