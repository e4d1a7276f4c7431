package audit

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// Config controls an audit.
type Config struct {
	Trials     int     // runs on each of S and S' (split in halves: threshold choice, evaluation)
	Delta      float64 // δ of the (ε, δ) lower bound
	Confidence float64 // joint confidence of the Clopper–Pearson intervals (e.g. 0.95)
	Workers    int     // goroutines (0: runtime.NumCPU())
	Seed       uint64
	// Progress, if set, is told the number of finished runs out of
	// 2·Trials, from the worker goroutines.
	Progress dp.Progress
}

// Result is an empirical lower bound on ε.
type Result struct {
	// Epsilon is the lower bound: with probability ≥ Confidence over the
	// runs, the algorithm is not (ε', δ)-DP at this index for any ε' < Epsilon.
	Epsilon   float64 `json:"-"`
	Threshold float64 `json:"threshold"` // threshold on the statistic chosen on the first half
	Greater   bool    `json:"greater"`   // the test says "S" when the statistic is ≥ Threshold (else ≤)
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
	// GDP is the Gaussian-DP estimate of Evaluate on the same halves (an
	// estimate of μ; its ε bounds ε only if the run is μ-GDP).
	GDP GDPBound `json:"gdp"`
}

// Run runs the algorithm Trials times on each of S and Sp (neighbours) with
// independent seeds, computes the statistic ⟨w, dir⟩ of every output, picks a
// threshold on the first half of the runs and turns the true- and
// false-positive counts of the second half into a lower bound on ε through
// Clopper–Pearson intervals: any (ε, δ)-DP algorithm has TPR ≤ e^ε·FPR + δ and
// TNR ≤ e^ε·FNR + δ, so ε ≥ ln((TPR_lo − δ)/FPR_hi) (and the same with the
// roles swapped). Run i on S uses seed optimizer.TaskSeed(Seed, 2i), on S'
// optimizer.TaskSeed(Seed, 2i+1), whichever worker runs it, so the result
// does not depend on the number of workers or on scheduling. Errors are
// *field.Error values.
func Run(cfg optimizer.Config, obj optimizer.Objective, S, Sp *dataset.Dataset, dir []float64, ac Config) (Result, error) {
	if ac.Trials < 4 {
		return Result{}, field.New("trials", ac.Trials, "must be at least 4")
	}
	if !(ac.Delta >= 0 && ac.Delta < 1) {
		return Result{}, field.New("delta", ac.Delta, "must be in [0, 1)")
	}
	if !(ac.Confidence > 0 && ac.Confidence < 1) {
		return Result{}, field.New("confidence", ac.Confidence, "must be in (0, 1)")
	}
	if len(dir) != S.D || Sp.D != S.D {
		return Result{}, field.New("direction", len(dir), "must have the data's dimension %d (both data sets too)", S.D)
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
			rIn, err := optimizer.NewRunner(cfg, obj, S)
			if err != nil {
				errs[k] = err
				return
			}
			rOut, err := optimizer.NewRunner(cfg, obj, Sp)
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
				res := r.Run(optimizer.TaskSeed(ac.Seed, i))
				stats[i] = dot(res.W, dir)
				nd := done.Add(1)
				ac.Progress.Report(nd, int64(len(stats)))
			}
		}(k)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return Result{}, err
		}
	}
	return auditFromStats(stats, ac.Trials, ac.Delta, ac.Confidence), nil
}

// auditFromStats audits runs through thresholdSplit, the threshold attack
// of Evaluate: runs 0 … Trials/2 − 1 of S and S' (i.i.d., independent
// seeds) are the selection half, the rest the evaluation half.
func auditFromStats(stats []float64, trials int, delta, conf float64) Result {
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
	res := Result{EvalTrials: len(evIn)}
	res.MeanIn, res.MeanOut = meanSD(stats, 0), meanSD(stats, 1)
	res.SD = math.Sqrt(0.5 * (variance(stats, 0, res.MeanIn) + variance(stats, 1, res.MeanOut)))
	tb, gb := thresholdSplit(calIn, calOut, evIn, evOut, delta, conf)
	res.GDP = gb
	res.Epsilon, res.Threshold, res.Greater = float64(tb.EpsilonLower), tb.Threshold, tb.Greater
	res.TP, res.FP, res.TPRLow, res.FPRHigh = tb.TP, tb.FP, tb.TPRLow, tb.FPRHigh
	return res
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

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
