package optimizer

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat/distuv"
)

// Canary is a worst-case pair of examples for an audit at one index: the
// data set S holds (XIn, YIn) there, its neighbour S' holds (XOut, YOut).
// Dir is the unit direction the test statistic ⟨w, Dir⟩ looks along.
type Canary struct {
	XIn, XOut []float64
	YIn, YOut float64
	Dir       []float64
}

// MakeCanary builds a canary of norm X along the feature axis with the
// smallest mean square in the data (where the other examples move the iterate
// least): for the linear loss x = ±X·e; for classification the same x with
// labels +1 and −1; for regression the same x with labels ±Y.
func MakeCanary(obj Objective, data *Dataset, X, Y float64) Canary {
	d := data.D
	best, bj := math.Inf(1), 0
	for j := 0; j < d; j++ {
		var s float64
		for i := 0; i < data.N(); i++ {
			v := data.X[i*d+j]
			s += v * v
		}
		if s < best {
			best, bj = s, j
		}
	}
	e := make([]float64, d)
	e[bj] = 1
	c := Canary{Dir: e, XIn: make([]float64, d), XOut: make([]float64, d)}
	c.XIn[bj] = X
	c.XOut[bj] = X
	switch {
	case isLinear(obj.Loss):
		c.XOut[bj] = -X
	case obj.Loss.Classification():
		c.YIn, c.YOut = 1, -1
	default:
		c.YIn, c.YOut = Y, -Y
	}
	return c
}

func isLinear(l Loss) bool { _, ok := l.(LinearLoss); return ok }

// Neighbours returns copies of data with the canary's two examples at index t
// (1-based).
func (c Canary) Neighbours(data *Dataset, t int) (S, Sp *Dataset) {
	S, Sp = data.Clone(), data.Clone()
	copy(S.Row(t-1), c.XIn)
	copy(Sp.Row(t-1), c.XOut)
	S.Y[t-1], Sp.Y[t-1] = c.YIn, c.YOut
	return
}

// AuditConfig controls an audit.
type AuditConfig struct {
	Trials     int     // runs on each of S and S' (split in halves: threshold choice, evaluation)
	Delta      float64 // δ of the (ε, δ) lower bound
	Confidence float64 // joint confidence of the Clopper–Pearson intervals (e.g. 0.95)
	Workers    int     // goroutines (0: runtime.NumCPU())
	Seed       uint64
	// Progress, if set, is called with the number of finished runs (out of
	// 2·Trials) from the worker goroutines.
	Progress func(done int)
}

// AuditResult is an empirical lower bound on ε.
type AuditResult struct {
	// Epsilon is the lower bound: with probability ≥ Confidence over the
	// runs, the algorithm is not (ε', δ)-DP at this index for any ε' < Epsilon.
	Epsilon   float64 `json:"-"`
	Threshold float64 `json:"threshold"` // threshold on the statistic chosen on the first half
	Greater   bool    `json:"greater"`   // the test says "S" when the statistic is > Threshold (else <)
	// TP, FP are counts on the evaluation half (EvalTrials runs each).
	TP         int `json:"tp"`
	FP         int `json:"fp"`
	EvalTrials int `json:"eval_trials"`
	// TPRLow and FPRHigh are the Clopper–Pearson bounds used.
	TPRLow  float64 `json:"tpr_low"`
	FPRHigh float64 `json:"fpr_high"`
	// MeanIn, MeanOut, SD: the statistic's means on S and S' and pooled sd.
	MeanIn  float64 `json:"mean_in"`
	MeanOut float64 `json:"mean_out"`
	SD      float64 `json:"sd"`
}

// Audit runs the algorithm Trials times on each of S and Sp (neighbours) with
// independent seeds, computes the statistic ⟨w, dir⟩ of every output, picks a
// threshold on the first half of the runs and turns the true- and
// false-positive counts of the second half into a lower bound on ε through
// Clopper–Pearson intervals: any (ε, δ)-DP algorithm has TPR ≤ e^ε·FPR + δ and
// TNR ≤ e^ε·FNR + δ, so ε ≥ ln((TPR_lo − δ)/FPR_hi) (and the same with the
// roles swapped). Run i on S uses seed TaskSeed(Seed, 2i), on S' TaskSeed(Seed,
// 2i+1), whichever worker runs it, so the result does not depend on the
// number of workers or on scheduling.
func Audit(cfg Config, obj Objective, S, Sp *Dataset, dir []float64, ac AuditConfig) (AuditResult, error) {
	if ac.Trials < 4 {
		return AuditResult{}, errors.New("need at least 4 trials")
	}
	if !(ac.Delta >= 0 && ac.Delta < 1) {
		return AuditResult{}, fmt.Errorf("δ must be in [0, 1), got %v", ac.Delta)
	}
	if !(ac.Confidence > 0 && ac.Confidence < 1) {
		return AuditResult{}, fmt.Errorf("confidence must be in (0, 1), got %v", ac.Confidence)
	}
	if len(dir) != S.D {
		return AuditResult{}, errors.New("direction has the wrong dimension")
	}
	workers := ac.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	stats := make([]float64, 2*ac.Trials) // even: S, odd: S'
	var next, done atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			rIn, err := NewRunner(cfg, obj, S)
			if err != nil {
				errs[k] = err
				return
			}
			rOut, err := NewRunner(cfg, obj, Sp)
			if err != nil {
				errs[k] = err
				return
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(stats) {
					return
				}
				r := rIn
				if i%2 == 1 {
					r = rOut
				}
				res := r.Run(TaskSeed(ac.Seed, i))
				stats[i] = dot(res.W, dir)
				nd := done.Add(1)
				if ac.Progress != nil {
					ac.Progress(int(nd))
				}
			}
		}(k)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return AuditResult{}, err
		}
	}
	return auditFromStats(stats, ac.Trials, ac.Delta, ac.Confidence), nil
}

func auditFromStats(stats []float64, trials int, delta, conf float64) AuditResult {
	half := trials / 2
	var calIn, calOut, evIn, evOut []float64
	for i := 0; i < trials; i++ {
		a, b := stats[2*i], stats[2*i+1]
		if i < half {
			calIn, calOut = append(calIn, a), append(calOut, b)
		} else {
			evIn, evOut = append(evIn, a), append(evOut, b)
		}
	}
	res := AuditResult{EvalTrials: len(evIn)}
	res.MeanIn, res.MeanOut, res.SD = meanSD(stats, 0), meanSD(stats, 1), 0
	res.SD = math.Sqrt(0.5 * (variance(stats, 0, res.MeanIn) + variance(stats, 1, res.MeanOut)))
	res.Greater = mean(calIn) >= mean(calOut)
	// orient so that "in" is the larger side
	orient := func(xs []float64) []float64 {
		out := append([]float64(nil), xs...)
		if !res.Greater {
			for i := range out {
				out[i] = -out[i]
			}
		}
		sort.Float64s(out)
		return out
	}
	cin, cout := orient(calIn), orient(calOut)
	ein, eout := orient(evIn), orient(evOut)
	alpha := (1 - conf) / 2 // per interval; two intervals → joint conf
	// choose τ on the calibration half: maximise the bound there.
	bestTau, bestEps := math.Inf(1), math.Inf(-1)
	cands := append(append([]float64(nil), cin...), cout...)
	if len(cands) > 4000 { // thresholds at 4000 evenly spaced order statistics suffice
		sort.Float64s(cands)
		sub := make([]float64, 0, 4000)
		for i := 0; i < 4000; i++ {
			sub = append(sub, cands[i*len(cands)/4000])
		}
		cands = sub
	}
	for _, tau := range cands {
		tp := len(cin) - sort.SearchFloat64s(cin, tau)
		fp := len(cout) - sort.SearchFloat64s(cout, tau)
		e, _, _ := epsLowerBound(tp, fp, len(cin), delta, alpha)
		if e > bestEps {
			bestEps, bestTau = e, tau
		}
	}
	tp := len(ein) - sort.SearchFloat64s(ein, bestTau)
	fp := len(eout) - sort.SearchFloat64s(eout, bestTau)
	res.TP, res.FP = tp, fp
	res.Epsilon, res.TPRLow, res.FPRHigh = epsLowerBound(tp, fp, len(ein), delta, alpha)
	res.Threshold = bestTau
	if !res.Greater {
		res.Threshold = -bestTau
	}
	return res
}

// epsLowerBound turns counts (tp of n positives above τ, fp of n negatives
// above τ) into the ε lower bound at δ with one-sided Clopper–Pearson bounds
// at level alpha each.
func epsLowerBound(tp, fp, n int, delta, alpha float64) (eps, tprLo, fprHi float64) {
	tprLo = ClopperPearsonLower(tp, n, alpha)
	fprHi = ClopperPearsonUpper(fp, n, alpha)
	eps = 0
	if tprLo-delta > 0 && fprHi > 0 {
		eps = math.Max(eps, math.Log((tprLo-delta)/fprHi))
	}
	// swapped roles: TNR = 1 − FPR ≥ 1 − fprHi, FNR = 1 − TPR ≤ 1 − tprLo
	if tnr, fnr := 1-fprHi, 1-tprLo; tnr-delta > 0 && fnr > 0 {
		eps = math.Max(eps, math.Log((tnr-delta)/fnr))
	}
	return eps, tprLo, fprHi
}

// ClopperPearsonLower is the one-sided lower confidence bound at level
// 1 − alpha for a binomial proportion with k successes in n trials: the
// alpha-quantile of Beta(k, n − k + 1) (0 when k = 0).
func ClopperPearsonLower(k, n int, alpha float64) float64 {
	if k <= 0 {
		return 0
	}
	return distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(alpha)
}

// ClopperPearsonUpper is the one-sided upper confidence bound at level
// 1 − alpha: the (1 − alpha)-quantile of Beta(k + 1, n − k) (1 when k = n).
func ClopperPearsonUpper(k, n int, alpha float64) float64 {
	if k >= n {
		return 1
	}
	return distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - alpha)
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func meanSD(stats []float64, parity int) float64 {
	var s float64
	k := 0
	for i := parity; i < len(stats); i += 2 {
		s += stats[i]
		k++
	}
	return s / float64(k)
}

func variance(stats []float64, parity int, m float64) float64 {
	var s float64
	k := 0
	for i := parity; i < len(stats); i += 2 {
		d := stats[i] - m
		s += d * d
		k++
	}
	if k < 2 {
		return 0
	}
	return s / float64(k-1)
}
