// Package audit measures an empirical lower bound on the ε of a noisy
// gradient method of package optimizer, to set beside the upper bound that
// package shifted proves: a lower bound above the upper one means the proof
// or its assumptions are wrong.
//
// Run trains on two neighbouring data sets S and S' many times with
// independent seeds, thresholds the statistic ⟨w, dir⟩ of every output and
// turns the true- and false-positive counts into a lower bound through
// one-sided Clopper–Pearson intervals (ClopperPearsonLower/Upper, via
// gonum's Beta quantile): any (ε, δ)-DP algorithm has TPR ≤ e^ε·FPR + δ
// (Kairouz, Oh, Viswanath 2015, the hypothesis-testing view of DP; the
// audit design follows Jagielski, Ullman, Oprea 2020 and Nasr et al. 2021).
// The threshold is chosen on one half of the runs and evaluated on the other,
// so the interval's confidence is not spent on the choice. Runs use
// per-index seeds, so the result does not depend on the number of workers.
//
// A Canary (NewCanary) is the worst-case pair of records for the declared
// bounds: the neighbours differ in one record at one index, along the
// feature axis the other records move least. Training audits the run an
// optimizer.Spec describes at one index (by default the worst-case one) and
// reports the bound beside the certified ε and, where the final iterate is
// Gaussian, the exact ε.
package audit
