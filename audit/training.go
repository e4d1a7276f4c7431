package audit

import (
	"math"
	"runtime"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// Spec is an empirical audit of the training run an optimizer.Spec
// describes.
type Spec struct {
	Trials     int     `json:"trials"`
	Index      int64   `json:"index"` // canary position (0: the worst-case index)
	Workers    int     `json:"workers"`
	Confidence float64 `json:"confidence"`
}

// Report is an audit's lower bound beside the proven upper bound at the
// same index and δ (the check: lower ≤ upper). The upper bound is the
// embedded Guarantee (rep.Guarantee.Epsilon: Result's Epsilon is the lower
// bound's float).
type Report struct {
	Run        *optimizer.TrainResult `json:"run"`
	Index      int64                  `json:"index"`
	Trials     int                    `json:"trials"`
	Workers    int                    `json:"workers"`
	Confidence float64                `json:"confidence"`
	Lower      dp.Max                 `json:"epsilon_lower"`
	dp.Guarantee
	// Exact is the exact ε where the final iterate is Gaussian (NaN: none).
	Exact dp.Loss `json:"exact_epsilon"`
	Result
	Check dp.Check `json:"check"`
}

// Training audits the run spec describes at one index: it certifies the run
// (optimizer.Certify, which also checks the index), builds a worst-case
// canary of the declared norms there (NewCanary), runs Run on the two
// neighbours and sets the lower bound beside the certified ε at that index
// and δ. progress, if not nil, is told how many of the 2·Trials runs are
// done. Errors are *field.Error values.
func Training(spec optimizer.Spec, as Spec, progress dp.Progress) (*Report, error) {
	if as.Trials < 20 || as.Trials > 10_000_000 {
		return nil, field.New("trials", as.Trials, "must be a whole number in [20, 10^7]")
	}
	if as.Workers < 0 || as.Workers > 1024 {
		return nil, field.New("workers", as.Workers, "must be in [0, 1024] (0: all cores)")
	}
	if !(as.Confidence >= 0.5 && as.Confidence <= 0.9999) {
		return nil, field.New("confidence", as.Confidence, "must be in [0.5, 0.9999]")
	}
	if as.Index != 0 {
		// certified (and checked against [1, n]) with the other indices
		spec.Indices = append(append([]int64(nil), spec.Indices...), as.Index)
	}
	res, err := optimizer.Certify(spec)
	if err != nil {
		return nil, err
	}
	pr := res.Problem
	cfg := pr.Config
	if w := float64(as.Trials) * 2 * float64(cfg.Steps()) * float64(pr.Data.D); w > 5e11 {
		return nil, field.New("trials", as.Trials, "× %d steps × d = %d is too much work (limit 5·10^11)", cfg.Steps(), pr.Data.D)
	}
	cert := res.Privacy
	t := as.Index
	if t == 0 {
		t = cfg.N
		if cert.Applicable {
			t = cert.WorstIndex
		}
	}
	if as.Workers == 0 {
		as.Workers = runtime.NumCPU()
	}
	rep := &Report{Run: res, Index: t, Trials: as.Trials, Workers: as.Workers, Confidence: as.Confidence,
		Guarantee: dp.Guarantee{Epsilon: dp.Loss(math.Inf(1)), Delta: dp.Loss(cfg.Delta), Source: "no amplification-by-iteration bound: " + cert.Reason}, Exact: dp.Loss(math.NaN())}
	if cert.Applicable {
		rep.Guarantee.Epsilon, rep.Source = cert.WorstEpsilon, cert.Source
		for _, e := range cert.PerIndex {
			if e.Index == t {
				rep.Guarantee.Epsilon = e.Epsilon
			}
		}
	}
	canary := NewCanary(pr.Objective, pr.Data, pr.Declared.FeatureBound, pr.Declared.LabelBound)
	S, Sp := canary.Neighbours(pr.Data, int(t))
	ar, err := Run(cfg, pr.Objective, S, Sp, canary.Dir, Config{Trials: as.Trials, Delta: cfg.Delta,
		Confidence: as.Confidence, Workers: as.Workers, Seed: spec.Seed, Progress: progress})
	if err != nil {
		return nil, err
	}
	rep.Result, rep.Lower = ar, dp.Max(ar.Epsilon)
	for _, e := range cert.Exact {
		if e.Index == t {
			rep.Exact = e.ExactEpsilon
		}
	}
	if math.IsNaN(float64(rep.Exact)) && isLinear(pr.Objective.Loss) && math.IsInf(cfg.R, 1) {
		if rho, err := optimizer.ExactRho(cfg, pr.Data.N(), pr.Objective.L2, 2*pr.Declared.FeatureBound, int(t)); err == nil {
			rep.Exact = dp.Loss(optimizer.GaussianShiftEpsilon(math.Sqrt(2*rho), cfg.Delta))
		}
	}
	rep.Check = dp.NewCheck("audit lower bound ≤ proven upper bound", ar.Epsilon <= float64(rep.Guarantee.Epsilon), ar.Epsilon, float64(rep.Guarantee.Epsilon),
		"a FAIL means the bound or its assumptions are wrong")
	return rep, nil
}
