// Package plan schedules one training run so that it honours a different
// privacy budget for every person (privamp plan).
//
// Under amplification by iteration (Feldman, Mironov, Talwar, Thakurta 2018,
// "Privacy Amplification by Iteration", FMTT18) a person's privacy depends on
// when their record is used: in single-pass projected noisy SGD (PNSGD) the
// record at position t of n is ρ_t-zCDP with
//
//	ρ_t = 2L²/(σ²(n − t + 1))   (FMTT18 Thm 23; with m public records at the end, n + m − t + 1)
//
// so the people who need the strongest protection go first. Make takes the
// budgets — individual (ε_i, δ_i) targets (People, read by ReadCSV) or a
// summary by tiers (Tier) — and Options (a shifted.Training: variant, loss
// constants L, β, m, batch, epochs, public records, tasks, δ; and the
// radius R, dimension d, conversion and caps on σ), and
// returns the order of the people, the smallest noise σ that meets every
// budget, the step size η, every person's achieved ε recomputed with
// package shifted, the utility bound, and the comparison with the uniform
// plan that gives everyone the strictest budget, as one typed Result. Options cap σ directly or
// through a utility target; when a cap makes some budgets unreachable,
// Make names those people, the smallest ε each can be given under the cap,
// and the number of public records (Cor 31) or of extra people that would
// make the plan feasible — all recomputed, not estimated.
//
// # The optimal order (single-pass PNSGD)
//
// Theorem. Let person i demand (ε_i, δ_i)-DP and let ρ*_i = ρ*(ε_i, δ_i) be
// the largest ρ such that ρ-zCDP implies (ε_i, δ_i)-DP under the conversion
// in use (zcdp.RhoFor; the conversion ε(ρ) = min_α [ρα + c_δ(α)] is
// non-decreasing in ρ, so person i is satisfied at position t exactly when
// ρ_t ≤ ρ*_i). Among all orders of the people, the one that sorts them by
// ρ* ascending (strictest first; with a common δ, by ε ascending) needs the
// least noise, and that noise is
//
//	σ² = max_t 2L²/((n + m − t + 1)·ρ*_(t)),
//
// ρ*_(t) the value of the person at position t in that order.
//
// Proof (exchange argument). Fix σ. ρ_t = 2L²/(σ²(n + m − t + 1)) is
// increasing in t. Let π be an order feasible at σ (ρ_t ≤ ρ*_π(t) for every
// t) with an adjacent inversion ρ*_π(t) > ρ*_π(t+1). Swap the two people.
// The person moved earlier, π(t+1), now faces ρ_t ≤ ρ_{t+1} ≤ ρ*_π(t+1);
// the person moved later, π(t), faces ρ_{t+1} ≤ ρ*_π(t+1) < ρ*_π(t). Everyone
// else keeps their position, so the new order is feasible at σ and has one
// inversion less. Repeating (bubble sort) reaches the ascending order, still
// feasible at σ. Hence the ascending order is feasible at every σ at which
// some order is, and its smallest feasible σ is the smallest over all
// orders. For that order, feasibility at σ means σ² ≥ 2L²/((n + m − t + 1)ρ*_(t))
// for every t, which gives the closed form. Ties in ρ* may be broken
// arbitrarily (they are kept in input order). ∎
//
// Since every seed-002 utility bound (Thm 28–32) grows with σ, the same
// order also gives the best utility bound. The argument uses only that the
// positions' guarantees are ordered, so it holds verbatim for every
// shifted.PerPerson whose curve ε_t(α) is non-decreasing in t for every α
// (PerPerson.Monotone() = +1; reversed for −1): minibatches, several
// passes (ρ_t = 2L²/(b²σ²)·((E − 1)/M + 1/(M − j + 1)), non-decreasing in
// the step j), strongly convex losses, and Skip-PNSGD. For zCDP guarantees
// (every PNSGD variant) the key ρ*(ε, δ) makes it exact with per-person δ.
// For the mixture curves of Skip and Stop (not linear in α) it is exact when
// everyone shares δ: ε_t(δ) = min_α[ε_t(α) + c_δ(α)] is then monotone in t
// and the argument runs on ε itself. With different δ and a mixture curve
// no single key orders the people's feasible positions, and the order by
// ρ*(ε, δ) is a heuristic (Result.Optimal is false; σ is still exact for
// the order used). Stop-PNSGD is the reversed case: its early positions are
// seen by more of the random stopping times and are less private
// (Monotone() = −1), so the strictest budgets go last.
//
// The brute-force tests enumerate every order of up to 7 people (PNSGD, closed
// form per order) and of up to 6 (PNSGD) or 5 (Skip, Stop) people with σ found
// per order by bisection on package shifted's ε at every position, and confirm
// that no order needs less noise than the planned one.
//
// # Computing σ
//
// For the PNSGD variants ρ_t(σ) = ρ_t(1)/σ², so σ² = max_t ρ_t(1)/ρ*_t in
// closed form over the groups of equal budgets (ρ_t is largest at a group's
// last position). For Skip and Stop, σ is found by bisection; feasibility at
// a σ is checked with package shifted at each group's least private
// position, over a tree of groups that clears whole ranges with one
// conversion. Then every person's ε_t is recomputed with package shifted
// (EpsilonsAll, or Epsilons per δ) and σ is nudged up if rounding requires;
// a plan of more than EvaluateAllMax people sharing one δ is recomputed at
// each group's two ends instead (EpsilonsAllAt, the same values), which
// decides every person by the monotonicity of ε_t in t (proved at
// EvaluateAllMax); Result.AchievedAll computes the rest when asked.
// Every plan keeps a relative margin: each achieved ε_t ≤ (1 − Margin/2)·ε
// with Margin = 10⁻⁹, so any recomputation that agrees to nine digits
// confirms it.
//
// # Utility
//
// Options.Utility gives the excess-risk bound of FMTT18 Thm 30 (Skip),
// Cor 31 (public records), Thm 29 (Stop) and Thm 32 (tasks) at the plan's σ,
// with the theorems' step sizes η = c·R/√(S(L² + dσ²)); the formulas are
// package shifted's (UtilityTheorem, UtilityParams.Thm28), shared with
// package optimizer. A cap on the bound (Options.TargetExcessRisk) is a cap
// on σ. The last iterate of PNSGD has no
// bound in seed 002; privamp reports Thm 30's, which holds when the same plan
// is run as Skip-PNSGD (never less private, Thm 24).
//
// # People CSV
//
// A header line names the columns id, epsilon and optionally delta (any
// order, case-insensitive; other columns are ignored); each following line
// is one person. An empty delta means the setting's δ. ReadCSV reports every
// invalid line — missing columns, empty or repeated ids, ε that is not a
// finite number > 0, δ outside (0, 1), malformed CSV — by line number, all
// at once; nobody is ever dropped or silently reordered. It splits unquoted
// lines by hand and hands quoted ones to encoding/csv; with the repeat check
// done once (by sorting 32-bit id hashes) a file of 10⁷ people is read,
// planned and written as JSON in about 5 s (BenchmarkPlanFromCSV1e7).
//
// # Plan files
//
// Plan.WriteTo writes, and Load reads, a JSON object:
//
//	{
//	  "format": "privamp-plan",   always
//	  "version": 1,               format version (Load refuses newer ones)
//	  "variant": "pnsgd",         pnsgd (fixed order, final iterate; batch, epochs), skip or stop
//	  "n": 100000,                private people, positions 1..n
//	  "public": 0,                public records after position n (Cor 31)
//	  "batch": 1, "epochs": 1,    records per step, fixed-order passes (pnsgd)
//	  "tasks": 1,                 Stop-PNSGD tasks (Thm 32)
//	  "lipschitz": 1,             L: every per-record gradient norm ≤ L
//	  "smoothness": 0,            β (0: not given; η ≤ 2/β assumed)
//	  "strong_convexity": 0,      m
//	  "radius": 1, "dimension": 10,
//	  "delta": 1e-06,             δ of people without their own
//	  "conversion": "improved",   RDP → (ε, δ) conversion (improved or classic)
//	  "sigma": 2.53565,           noise: w ← Π_K(w − η(g + Z)), Z ~ N(0, σ²I)
//	  "eta": 0.00110689,          step size η
//	  "order": "ascending",       how the budgets run along the positions
//	  "summary": {...},           what privamp computed (informational; see Summary)
//	  "tiers": [                  a tier plan: tiers in position order
//	    {"name": "tier1", "count": 1000, "epsilon": 0.1, "delta": 1e-06, "first": 1, "last": 1000}, …
//	  ],
//	  "people": {                 or a people plan: columns in position order,
//	    "id": ["p17", …],         person at position t is element t − 1
//	    "epsilon": [0.1, …],
//	    "delta": [1e-06, …]       omitted when everyone has the default δ
//	  }
//	}
//
// Exactly one of "tiers" and "people" is present. Unknown keys are refused.
// For privamp run, Plan.Arrange maps the data set's records (by id, or by
// tier name for a tier plan) to positions — its error (a dp.Errors) lists every
// record without a place and every position without a record — and σ, η,
// Variant, Batch, Epochs and Public configure the optimizer. For privamp
// verify, Plan.Claims gives each run of positions its promised (ε, δ), and
// Plan.Verify recomputes every position with package shifted and lists the
// violations.
package plan
