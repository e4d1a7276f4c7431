package audit

import (
	"github.com/privamp/privamp/dp"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/privamp/privamp/composition"
)

// Sources of the estimators.
const (
	ThresholdSource = "threshold attack with exact one-sided Clopper–Pearson bounds on TPR and FPR; (ε, δ)-DP implies TPR ≤ e^ε·FPR + δ and TNR ≤ e^ε·FNR + δ (Kairouz, Oh, Viswanath 2015, Thm 2.1); design of Jagielski, Ullman, Oprea 2020 and Nasr et al. 2021"
	GDPSource       = "Gaussian-DP estimate of Nasr, Hayes, Steinke, Balle, Tramèr, Jagielski, Carlini, Terzis 2023 (Tight Auditing of Differentially Private Machine Learning, USENIX Security): μ ≥ Φ⁻¹(1 − FPR) − Φ⁻¹(FNR) for μ-GDP (Dong, Roth, Su 2022, Def. 2.6), ε at δ by the exact Gaussian curve (Balle, Wang 2018, Thm 8)"
)

// Methods of the threshold attack.
const (
	MethodSplit = "split" // threshold chosen on the selection half, evaluated on the evaluation half
	MethodGrid  = "grid"  // union (Bonferroni) bound over a stated grid, on every canary
)

// ThresholdBound is the threshold attack's lower bound on ε: "member" when
// the score is ≥ Threshold (Greater) or ≤ Threshold (not Greater).
type ThresholdBound struct {
	dp.LowerBound
	Method string `json:"method"`
	// EpsilonLower: with probability ≥ Confidence the algorithm is not
	// (ε, Delta)-DP for any ε < EpsilonLower.
	Reason    string  `json:"reason,omitempty"`
	Threshold float64 `json:"threshold"`
	Greater   bool    `json:"greater"`
	// Members and NonMembers are the canaries the bound is evaluated on
	// (the evaluation half, or all with a grid); TP and FP are those on the
	// member side of the threshold.
	Members    int     `json:"members"`
	NonMembers int     `json:"non_members"`
	TP         int     `json:"tp"`
	FP         int     `json:"fp"`
	TPRLow     float64 `json:"tpr_low"`
	FPRHigh    float64 `json:"fpr_high"`
	// SelectionMembers and SelectionNonMembers are the canaries the
	// threshold was chosen on (0 with a grid); GridSize the grid's size.
	SelectionMembers    int `json:"selection_members"`
	SelectionNonMembers int `json:"selection_non_members"`
	GridSize            int `json:"grid_size,omitempty"`
}

// GDPBound is the Gaussian-DP estimate at the threshold chosen for it on
// the selection half (its own threshold, chosen to maximise μ).
//
// MuLower is a lower confidence bound on μ for a μ-GDP algorithm. MuUpper is
// an upper confidence bound on the μ of the Gaussian curve through this
// test's operating point (an estimate of the algorithm's μ if the attack is
// optimal and the algorithm's trade-off is Gaussian; not a privacy bound).
// Each end holds with probability ≥ Confidence; both jointly with
// ≥ IntervalConfidence = 1 − 2(1 − Confidence). EpsilonLower is the ε at δ
// of MuLower-GDP: a lower bound on ε only under Assumption.
type GDPBound struct {
	dp.LowerBound
	Assumption         string  `json:"assumption"`
	IntervalConfidence float64 `json:"interval_confidence"`
	MuLower            dp.Max  `json:"mu_lower"`
	MuUpper            dp.Loss `json:"mu_upper"`
	EpsilonUpper       dp.Loss `json:"epsilon_upper"`
	Reason             string  `json:"reason,omitempty"`
	Threshold          float64 `json:"threshold"`
	Greater            bool    `json:"greater"`
	Members            int     `json:"members"`
	NonMembers         int     `json:"non_members"`
	TP                 int     `json:"tp"`
	FP                 int     `json:"fp"`
	FPRHigh            float64 `json:"fpr_high"`
	FNRHigh            float64 `json:"fnr_high"`
	FPRLow             float64 `json:"fpr_low"`
	FNRLow             float64 `json:"fnr_low"`
}

// GDPAssumption is the condition under which GDPBound.EpsilonLower bounds ε.
const GDPAssumption = "the algorithm is μ-GDP for some μ (its trade-off curve is Gaussian, as for the Gaussian mechanism and, approximately, DP-SGD); without it only mu_lower is a bound (on any μ-GDP guarantee it meets)"

const noBoundReason = "TPR_lo ≤ δ + FPR_hi at the chosen threshold on the evaluation canaries: too few canaries, or too little leakage, for a non-trivial bound"

// countSide counts sorted scores on the member side of a threshold.
func countSide(sorted []float64, tau float64, greater bool) int {
	if greater {
		return len(sorted) - sort.SearchFloat64s(sorted, tau) // # ≥ τ
	}
	i := sort.Search(len(sorted), func(i int) bool { return sorted[i] > tau })
	return i // # ≤ τ
}

// sweep calls visit at every distinct value τ of in ∪ out (both sorted
// ascending) with the counts on the member side of τ.
func sweep(in, out []float64, greater bool, visit func(tau float64, tp, fp int)) {
	if greater {
		i, j := len(in), len(out)
		for i > 0 || j > 0 {
			tau := math.Inf(-1)
			if i > 0 {
				tau = in[i-1]
			}
			if j > 0 && out[j-1] > tau {
				tau = out[j-1]
			}
			for i > 0 && in[i-1] >= tau {
				i--
			}
			for j > 0 && out[j-1] >= tau {
				j--
			}
			visit(tau, len(in)-i, len(out)-j)
		}
		return
	}
	i, j := 0, 0
	for i < len(in) || j < len(out) {
		tau := math.Inf(1)
		if i < len(in) {
			tau = in[i]
		}
		if j < len(out) && out[j] < tau {
			tau = out[j]
		}
		for i < len(in) && in[i] <= tau {
			i++
		}
		for j < len(out) && out[j] <= tau {
			j++
		}
		visit(tau, i, j)
	}
}

type choice struct {
	tau     float64
	greater bool
	score   float64
}

// choose picks on the selection half the threshold (and side) maximising
// the ε bound and, separately, the one maximising μ, both with Wilson
// bounds at level alpha each (a fast stand-in for Clopper–Pearson: the
// selection half may be used in any way).
func choose(in, out []float64, delta, alpha float64) (eps, mu choice) {
	eps.score, mu.score = math.Inf(-1), math.Inf(-1)
	eps.greater, mu.greater = true, true
	if len(in) == 0 || len(out) == 0 {
		return
	}
	z := probit(1 - alpha)
	for _, g := range []bool{true, false} {
		sweep(in, out, g, func(tau float64, tp, fp int) {
			tprLo, _ := wilson(tp, len(in), z)
			_, fprHi := wilson(fp, len(out), z)
			if e := epsFromRates(tprLo, fprHi, delta); e > eps.score {
				eps = choice{tau, g, e}
			}
			if m := probit(1-fprHi) - probit(1-tprLo); m > mu.score {
				mu = choice{tau, g, m}
			}
		})
	}
	return
}

func sortAll(xs ...[]float64) {
	var wg sync.WaitGroup
	for _, x := range xs {
		if slices.IsSorted(x) {
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); slices.Sort(x) }()
	}
	wg.Wait()
}

// thresholdSplit is the threshold attack and the GDP estimate with the
// threshold chosen on (aIn, aOut) and evaluated on (bIn, bOut). It sorts
// the four slices in place. Each estimate uses two one-sided
// Clopper–Pearson intervals at level (1 − conf)/2, so it holds with
// probability ≥ conf.
func thresholdSplit(aIn, aOut, bIn, bOut []float64, delta, conf float64) (ThresholdBound, GDPBound) {
	sortAll(aIn, aOut, bIn, bOut)
	alpha := (1 - conf) / 2
	ce, cm := choose(aIn, aOut, delta, alpha)
	tb := ThresholdBound{LowerBound: dp.LowerBound{Source: ThresholdSource, Confidence: conf, Delta: delta}, Method: MethodSplit,
		Threshold: ce.tau, Greater: ce.greater, Members: len(bIn), NonMembers: len(bOut),
		SelectionMembers: len(aIn), SelectionNonMembers: len(aOut)}
	if len(aIn) == 0 || len(aOut) == 0 || len(bIn) == 0 || len(bOut) == 0 {
		tb.Reason = "each half needs members and non-members: too few canaries for a bound"
		gb := GDPBound{LowerBound: dp.LowerBound{Source: GDPSource, Confidence: conf, Delta: delta}, Assumption: GDPAssumption, IntervalConfidence: 1 - 2*(1-conf), Reason: tb.Reason, EpsilonUpper: dp.Loss(math.Inf(1)), MuUpper: dp.Loss(math.Inf(1))}
		return tb, gb
	}
	tb.TP, tb.FP = countSide(bIn, ce.tau, ce.greater), countSide(bOut, ce.tau, ce.greater)
	e, tprLo, fprHi := epsLowerBound(tb.TP, len(bIn), tb.FP, len(bOut), delta, alpha)
	tb.EpsilonLower, tb.TPRLow, tb.FPRHigh = dp.Max(e), tprLo, fprHi
	if e <= 0 {
		tb.Reason = noBoundReason
	}
	gb := gdpAt(bIn, bOut, cm.tau, cm.greater, delta, conf, alpha)
	return tb, gb
}

// gdpAt evaluates the GDP estimate at one threshold on (in, out), with
// one-sided intervals at level alpha each.
func gdpAt(in, out []float64, tau float64, greater bool, delta, conf, alpha float64) GDPBound {
	gb := GDPBound{LowerBound: dp.LowerBound{Source: GDPSource, Confidence: conf, Delta: delta}, Assumption: GDPAssumption, IntervalConfidence: 1 - 2*(1-conf),
		Threshold: tau, Greater: greater, Members: len(in), NonMembers: len(out)}
	gb.TP, gb.FP = countSide(in, tau, greater), countSide(out, tau, greater)
	fn := len(in) - gb.TP
	gb.FPRHigh = ClopperPearsonUpper(gb.FP, len(out), alpha)
	gb.FNRHigh = ClopperPearsonUpper(fn, len(in), alpha)
	gb.FPRLow = ClopperPearsonLower(gb.FP, len(out), alpha)
	gb.FNRLow = ClopperPearsonLower(fn, len(in), alpha)
	lo := math.Max(0, probit(1-gb.FPRHigh)-probit(gb.FNRHigh)-epsMargin)
	hi := math.Max(0, probit(1-gb.FPRLow)-probit(gb.FNRLow))
	gb.MuLower, gb.MuUpper = dp.Max(lo), dp.Loss(hi)
	gb.EpsilonLower = dp.Max(gaussianEpsLower(lo, delta))
	gb.EpsilonUpper = dp.Loss(gaussianEpsUpper(hi, delta))
	if lo <= 0 {
		gb.Reason = "Φ⁻¹(1 − FPR_hi) ≤ Φ⁻¹(FNR_hi) at the chosen threshold: too few canaries, or too little leakage, for μ > 0"
	}
	return gb
}

// gaussianEpsLower is the exact ε at δ of μ-GDP, rounded down:
// composition.GaussianEpsilon is within 10⁻¹² (relative) above the exact
// value, so a relative 10⁻⁹ below it is below the exact ε.
func gaussianEpsLower(mu, delta float64) float64 {
	if mu <= 0 {
		return 0
	}
	if delta <= 0 {
		return math.Inf(1) // μ-GDP with μ > 0 is not ε-DP for any finite ε
	}
	e, err := composition.GaussianEpsilon(mu, delta)
	if err != nil || math.IsNaN(e) {
		return 0
	}
	return e * (1 - 1e-9)
}

func gaussianEpsUpper(mu, delta float64) float64 {
	if mu <= 0 {
		return 0
	}
	if delta <= 0 || math.IsInf(mu, 1) {
		return math.Inf(1)
	}
	e, err := composition.GaussianEpsilon(mu, delta)
	if err != nil {
		return math.Inf(1)
	}
	return e
}

// thresholdGrid is the union-bound variant: every threshold of grid
// ("member" when score ≥ τ) is evaluated on all canaries, each
// Clopper–Pearson interval at level (1 − conf)/(2·len(grid)), and the best
// bound is kept; by the union bound it holds with probability ≥ conf.
func thresholdGrid(in, out []float64, grid []float64, delta, conf float64) (ThresholdBound, GDPBound) {
	sortAll(in, out)
	k := float64(len(grid))
	alpha := (1 - conf) / (2 * k)
	tb := ThresholdBound{LowerBound: dp.LowerBound{Source: ThresholdSource, Confidence: conf, Delta: delta, EpsilonLower: -1}, Method: MethodGrid, Greater: true,
		Members: len(in), NonMembers: len(out), GridSize: len(grid)}
	bestMu, muTau := math.Inf(-1), grid[0]
	for _, tau := range grid {
		tp, fp := countSide(in, tau, true), countSide(out, tau, true)
		e, tprLo, fprHi := epsLowerBound(tp, len(in), fp, len(out), delta, alpha)
		if dp.Max(e) > tb.EpsilonLower {
			tb.EpsilonLower, tb.Threshold, tb.TP, tb.FP, tb.TPRLow, tb.FPRHigh = dp.Max(e), tau, tp, fp, tprLo, fprHi
		}
		fnHi := ClopperPearsonUpper(len(in)-tp, len(in), alpha)
		if m := probit(1-fprHi) - probit(fnHi); m > bestMu {
			bestMu, muTau = m, tau
		}
	}
	if tb.EpsilonLower <= 0 {
		tb.Reason = noBoundReason
	}
	return tb, gdpAt(in, out, muTau, true, delta, conf, alpha)
}
