package optimizer

import (
	"math"
	"runtime"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
)

// AuditSpec is an empirical audit of the run a Spec describes.
type AuditSpec struct {
	Trials     int     `json:"trials"`
	Index      int64   `json:"index"` // canary position (0: the worst-case index)
	Workers    int     `json:"workers"`
	Confidence float64 `json:"confidence"`
}

// AuditReport is an audit's lower bound beside the proven upper bound at
// the same index and δ (the check: lower ≤ upper).
type AuditReport struct {
	Run         *TrainResult  `json:"run"`
	Index       int64         `json:"index"`
	Trials      int           `json:"trials"`
	Workers     int           `json:"workers"`
	Confidence  float64       `json:"confidence"`
	Lower       quantity.Max  `json:"epsilon_lower"`
	Upper       quantity.Loss `json:"epsilon"`
	UpperSource string        `json:"source"`
	// Exact is the exact ε where the final iterate is Gaussian (NaN: none).
	Exact quantity.Loss `json:"exact_epsilon"`
	AuditResult
	Check TrainCheck `json:"check"`
}

// AuditTraining runs Audit on the neighbours of the Spec's data at one
// index (a worst-case canary of the declared norm, MakeCanary) and sets the
// lower bound beside the certified ε at that index.
func AuditTraining(spec Spec, as AuditSpec, progress func(done int)) (*AuditReport, error) {
	if as.Trials < 20 || as.Trials > 10_000_000 {
		return nil, field.New("trials", as.Trials, "must be a whole number in [20, 10^7]")
	}
	if as.Workers < 0 || as.Workers > 1024 {
		return nil, field.New("workers", as.Workers, "must be in [0, 1024] (0: all cores)")
	}
	if !(as.Confidence >= 0.5 && as.Confidence <= 0.9999) {
		return nil, field.New("confidence", as.Confidence, "must be in [0.5, 0.9999]")
	}
	res, _, err := prepare(spec)
	if err != nil {
		return nil, err
	}
	pr := res.Problem
	cfg := pr.Config
	if w := float64(as.Trials) * 2 * float64(cfg.Steps()) * float64(pr.Data.D); w > 5e11 {
		return nil, field.New("trials", as.Trials, "× %d steps × d = %d is too much work (limit 5·10^11)", cfg.Steps(), pr.Data.D)
	}
	t := as.Index
	if t == 0 {
		t = cfg.N
		if res.Privacy.Applicable {
			t = res.Privacy.WorstIndex
		}
	}
	if t < 1 || t > cfg.N {
		return nil, field.New("index", t, "must be in [1, %d] (the private positions)", cfg.N)
	}
	if as.Workers == 0 {
		as.Workers = runtime.NumCPU()
	}
	rep := &AuditReport{Run: res, Index: t, Trials: as.Trials, Workers: as.Workers, Confidence: as.Confidence,
		Upper: quantity.Loss(math.Inf(1)), UpperSource: "no amplification-by-iteration bound: " + res.Privacy.Reason, Exact: quantity.Loss(math.NaN())}
	if g, err := cfg.Guarantee(); err == nil {
		e, _ := epsilonOf(g, t, cfg.Delta)
		rep.Upper, rep.UpperSource = quantity.Loss(e), g.Source()
	}
	canary := MakeCanary(pr.Objective, pr.Data, pr.Declared.FeatureBound, pr.Declared.LabelBound)
	S, Sp := canary.Neighbours(pr.Data, int(t))
	ar, err := Audit(cfg, pr.Objective, S, Sp, canary.Dir, AuditConfig{Trials: as.Trials, Delta: cfg.Delta,
		Confidence: as.Confidence, Workers: as.Workers, Seed: spec.Seed, Progress: progress})
	if err != nil {
		return nil, err
	}
	rep.AuditResult, rep.Lower = ar, quantity.Max(ar.Epsilon)
	for _, e := range res.Privacy.Exact {
		if e.Index == t {
			rep.Exact = e.ExactEpsilon
		}
	}
	if math.IsNaN(float64(rep.Exact)) && isLinear(pr.Objective.Loss) && math.IsInf(cfg.R, 1) {
		if rho, err := ExactRho(cfg, pr.Data.N(), pr.Objective.L2, 2*pr.Declared.FeatureBound, int(t)); err == nil {
			rep.Exact = quantity.Loss(GaussianShiftEpsilon(math.Sqrt(2*rho), cfg.Delta))
		}
	}
	st := Pass
	if ar.Epsilon > float64(rep.Upper) {
		st = Fail
	}
	rep.Check = TrainCheck{Name: "audit lower bound ≤ proven upper bound", Status: st, Value: quantity.Num(ar.Epsilon), Bound: quantity.Num(rep.Upper),
		Detail: "a FAIL means the bound or its assumptions are wrong"}
	return rep, nil
}
