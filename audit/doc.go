// Package audit measures empirical lower bounds on ε, to set beside the
// upper bound a proof gives: a lower bound above the upper one shows, at the
// stated confidence, that the proof, its assumptions or the implementation
// is wrong.
//
// # Canary scores of any training run
//
// ReadCanaries reads a CSV file of canaries, streaming (up to MaxRows =
// 10⁷ rows, 8 bytes of memory a row, about 40 more with ids, plus slice
// growth). The header names the columns, in any
// order, exactly (case-sensitive):
//
//	member,score   1 if the canary was in the training set, 0 if not; a finite
//	               score, higher meaning "more likely a member"
//	member,guess   for one-run auditing: guess is 1, 0 or abstain
//
// with an optional id column (an id on two lines is refused: a canary is
// one independent trial once; without ids, Evaluate reports rows equal to
// an earlier row and keeps, for each estimator, the smaller bound of the
// rows as given and each distinct row once). Bad input is a *field.Error naming
// the line and column ("line 17: score must be a finite number"); a file
// with no members or no non-members is refused.
//
// Evaluate runs every estimator that applies and returns an Evaluation: the
// largest lower bound (EpsilonLower, and which Estimator gave it), each
// estimator's result with its source and confidence, the empirical
// trade-off curve and, given an Upper bound at the same δ, a Comparison
// whose Verdict is VIOLATED (lower > upper: the upper bound is false with
// the stated confidence) or CONSISTENT, with the gap upper − lower. Too few
// canaries for a non-trivial bound is not an error: EpsilonLower is 0 and
// Reason says why.
//
// # Estimators
//
// Threshold attack (ThresholdBound). "Member" when the score is ≥ τ (or
// ≤ τ); any (ε, δ)-DP algorithm has TPR ≤ e^ε·FPR + δ and
// TNR ≤ e^ε·FNR + δ (Kairouz, Oh, Viswanath 2015, Thm 2.1), so with
// one-sided Clopper–Pearson bounds TPR_lo and FPR_hi, each at level
// (1 − confidence)/2, ε ≥ max(ln((TPR_lo − δ)/FPR_hi),
// ln((1 − FPR_hi − δ)/(1 − TPR_lo))) with probability ≥ the confidence.
// The threshold and its side are chosen on one half of the canaries and
// evaluated on the other: a row goes to half Half(row), the low bit of a
// SplitMix64 hash of its row number and a constant fixed in the code (the
// scores are never looked at; a user cannot try seeds; a file sorted by
// score is still split into two independent random halves). The choice
// maximises the bound on the selection half with Wilson score bounds (a
// fast stand-in; any rule is valid there). Alternatively (Options.Grid) a
// union bound over thresholds stated in advance uses every canary, each
// interval at level (1 − confidence)/(2k) for k thresholds; ThresholdBound.Method
// says which was used.
//
// Gaussian-DP estimate (GDPBound), Nasr, Hayes, Steinke, Balle, Tramèr,
// Jagielski, Carlini, Terzis 2023 (Tight Auditing of Differentially Private
// Machine Learning): a μ-GDP algorithm has FNR ≥ Φ(Φ⁻¹(1 − FPR) − μ) for
// every test (Dong, Roth, Su 2022), so μ ≥ Φ⁻¹(1 − FPR_hi) − Φ⁻¹(FNR_hi),
// at a threshold chosen on the selection half to maximise it. MuUpper, from
// the lower bounds FPR_lo and FNR_lo, bounds the μ of the Gaussian curve
// through the test's operating point. Each end holds at the confidence, both
// at 1 − 2(1 − confidence). ε follows from μ by the exact Gaussian curve
// (composition.GaussianEpsilon, Balle–Wang 2018). That ε bounds the
// algorithm's ε only if it is μ-GDP for some μ (GDPAssumption), so it enters
// EpsilonLower and the verdict only with Options.GDPInMax, and then both
// estimators run at 1 − (1 − confidence)/2 so that the maximum keeps the
// confidence.
//
// One-run auditing (OneRunBound), Steinke, Nasr, Jagielski 2023 (Privacy
// Auditing with One (1) Training Run), for m canaries each included
// independently with probability 1/2 and r guesses of which v are right:
// by their Theorem 3.1, under (ε, δ)-DP, P[V ≥ v] ≤ f(v) + 2mδ·max_i
// (f(v − i) − f(v))/i with f(v) = P[Binomial(r, e^ε/(1 + e^ε)) ≥ v], and
// EpsilonLower is the largest ε at which this p-value is ≤ 1 − confidence
// (their Appendix D algorithm, with exact binomial sums). Scores are not
// turned into guesses here: that needs the canaries' inclusion to be a fair
// coin, which a score file does not state.
//
// # Example file
//
// examples/canary-scores.csv holds 4000 canaries simulated from 1-GDP
// (non-members N(0, 1), members N(1, 1), membership a fair coin) with
// math/rand/v2's PCG seeded (2026, 11): see exampleCanaryCSV in
// examplefile_test.go, which checks the file. At 95% and δ = 10⁻⁵ it gives
// ε ≥ 1.11209 (the threshold attack: 62 of 983 members and 9 of 1063
// non-members above 2.40836 on the evaluation half) and μ ≥ 0.6715; the
// exact ε of 1-GDP at δ = 10⁻⁵ is 4.38.
//
// # Audits of privamp's own runs
//
// Run trains on two neighbouring data sets S and S' many times with
// independent seeds and audits the statistic ⟨w, dir⟩ of every output with
// the same threshold attack (the first half of the runs selects, the second
// evaluates). A Canary (NewCanary) is the worst-case pair of records for
// the declared bounds: the neighbours differ in one record at one index,
// along the feature axis the other records move least. Training audits the
// run an optimizer.Spec describes at one index (by default the worst-case
// one) and reports the bound beside the certified ε and, where the final
// iterate is Gaussian, the exact ε. Runs use per-index seeds, so the
// result does not depend on the number of workers.
package audit
