package bst14

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
)

// Spec is the problem every algorithm of the package runs on: the data and
// what is declared about them (as for optimizer.Train), the loss and the
// domain C = {‖θ‖ ≤ Radius}.
type Spec struct {
	Data optimizer.DataSpec `json:"data"`
	Loss optimizer.LossSpec `json:"loss"`
	// Radius R of C; the paper's ‖C‖₂ is its diameter 2R.
	Radius float64 `json:"radius"`
}

// Common are the parameters every algorithm takes.
type Common struct {
	// Features, if not empty, keeps only these feature columns of a data
	// file (comma-separated 0-based indices or column names), before
	// standardizing and clipping: the way to run the exponential sampler
	// (one or two dimensions) on the shipped data.
	Features string `json:"features,omitempty" param:"features" doc:"keep only these feature columns of the data file (comma-separated 0-based indices or names), before standardize/normalize"`
	Seed     uint64 `json:"seed" param:"seed" doc:"seed of the algorithm's randomness"`
}

// build is optimizer.Build with the feature subset applied first.
func build(s Spec, c Common, delta float64) (*optimizer.Problem, error) {
	if math.IsInf(s.Radius, 1) {
		return nil, field.New("radius", s.Radius, "must be finite: seed 001's algorithms run on a bounded convex set C (‖C‖₂ enters every guarantee)")
	}
	var arrange func(*dataset.Dataset) (*dataset.Dataset, error)
	if c.Features != "" {
		if s.Data.Path == "" {
			return nil, field.New("features", c.Features, "selects columns of a data file; synthetic data take their dimension instead")
		}
		arrange = func(d *dataset.Dataset) (*dataset.Dataset, error) { return selectFeatures(d, c.Features) }
	}
	if delta == 0 {
		delta = 0.5 // Build validates δ for its accounting fields, unused here
	}
	pr, err := optimizer.Build(s.Data, s.Loss, s.Radius, shifted.Training{Delta: delta, Epochs: 1}, "", arrange)
	if err != nil {
		return nil, err
	}
	if c.Features != "" {
		pr.Description += fmt.Sprintf(", features %s", c.Features)
	}
	return pr, nil
}

// selectFeatures keeps the columns named in list (indices or names).
func selectFeatures(d *dataset.Dataset, list string) (*dataset.Dataset, error) {
	var cols []int
	seen := map[int]bool{}
	for _, tok := range strings.Split(list, ",") {
		tok = strings.TrimSpace(tok)
		j, err := strconv.Atoi(tok)
		if err != nil {
			j = -1
			for k, name := range d.Names {
				if name == tok {
					j = k
				}
			}
		}
		if j < 0 || j >= d.D {
			return nil, field.New("features", list, "names a column %q that is not a feature (0..%d or a column name)", tok, d.D-1)
		}
		if seen[j] {
			return nil, field.New("features", list, "names column %q twice", tok)
		}
		seen[j] = true
		cols = append(cols, j)
	}
	out := &dataset.Dataset{D: len(cols), Label: d.Label, Source: d.Source, Lines: d.Lines, Keys: d.Keys,
		X: make([]float64, 0, d.N()*len(cols)), Y: append([]float64(nil), d.Y...)}
	for _, j := range cols {
		if d.Names != nil {
			out.Names = append(out.Names, d.Names[j])
		}
	}
	for i := 0; i < d.N(); i++ {
		row := d.Row(i)
		for _, j := range cols {
			out.X = append(out.X, row[j])
		}
	}
	return out, nil
}

// sumRisk is the paper's objective L(θ;D) = Σᵢ ℓ(θ; dᵢ): n times
// optimizer.EmpiricalRisk (seed 001 §2: the sum, not the average).
func sumRisk(pr *optimizer.Problem, w []float64) float64 {
	return float64(pr.Data.N()) * optimizer.EmpiricalRisk(pr.Objective, pr.Data, w)
}

// Risk is the measured excess empirical risk of an output, on the paper's
// scale (the sum Σᵢ ℓ) and on privamp's (the average, as PNSGD reports it).
type Risk struct {
	// Sum is L(θ;D) − min_C L(·;D) with L the sum of the n losses.
	Sum float64 `json:"excess_risk_sum"`
	// Average is Sum/n.
	Average float64 `json:"excess_risk_average"`
	// OptimumAverage is min_C of the average loss (non-private).
	OptimumAverage float64 `json:"optimum_risk_average"`
	// Stationarity of the non-private minimiser (optimizer.Minimize).
	Stationarity float64 `json:"stationarity"`
}

func measure(pr *optimizer.Problem, w []float64, opt optimizer.Optimum) Risk {
	avg := optimizer.EmpiricalRisk(pr.Objective, pr.Data, w) - opt.F
	n := float64(pr.Data.N())
	return Risk{Sum: n * avg, Average: avg, OptimumAverage: opt.F, Stationarity: opt.Stationarity}
}

// check is one check of a run (dp.NewCheck).
var check = dp.NewCheck

// markovAlpha is the false-alarm rate of boundCheck's FAIL: an excess
// risk is ≥ 0, so one run exceeds a bound B on its mean by the factor 1/α
// with probability at most α (Markov's inequality).
const markovAlpha = 0.05

// boundCheck compares one run's measured excess risk with a bound B on its
// mean. VACUOUS when B is at least the trivial bound nL‖C‖₂, which no point
// of C can exceed (dp.UtilityCheck); otherwise PASS at or below B,
// ABOVE between B and B/α (one run may exceed a bound on the mean), and
// FAIL above B/α when B/α is below the trivial bound: under the theorem a
// run gets there with probability ≤ α = 5% (Markov), so a FAIL means an
// assumption the bound needs (the declared constants) or the measurement
// is wrong.
func boundCheck(name string, risk, bound, trivial float64, detail string) dp.Check {
	detail = fmt.Sprintf("%s; a bound on the mean: one run fails above %g× it (%.6g), which under the theorem happens with probability ≤ %g (Markov), when that is below the trivial bound nL‖C‖₂ = %.6g", detail, 1/markovAlpha, bound/markovAlpha, markovAlpha, trivial)
	c := dp.UtilityCheck(name, risk, bound, trivial, detail)
	if c.Status == dp.Fail {
		c.Status = dp.Above
		if bound/markovAlpha < trivial && risk > bound/markovAlpha {
			c.Status = dp.Fail
		}
	}
	return c
}

// baselineCheck compares the output's excess risk with that of θ = 0, the
// centre of C and the data-free output (dp.BaselineCheck).
func baselineCheck(pr *optimizer.Problem, r Risk, opt optimizer.Optimum) dp.Check {
	zero := measure(pr, make([]float64, pr.Data.D), opt)
	return dp.BaselineCheck("excess risk (sum) ≤ that of θ = 0", r.Sum, zero.Sum,
		"the output's Σℓ − min against the data-free output θ = 0 (the centre of C)")
}

// Outcome is how every run of the package ends: the measured risk, the
// checks and their verdict (OK is false when one FAILED), the seed, the
// output and what the run relied on. The results embed it, so its keys
// sit at the top level of their JSON.
type Outcome struct {
	Measured    Risk       `json:"measured"`
	Checks      []dp.Check `json:"checks"`
	OK          bool       `json:"ok"`
	Seed        uint64     `json:"seed"`
	W           []float64  `json:"w"`
	Assumptions []string   `json:"assumptions"`
	Notes       []string   `json:"notes"`
}

// newOutcome starts a run's outcome: its seed, then its own assumptions
// followed by the problem's, and the problem's notes.
func newOutcome(seed uint64, pr *optimizer.Problem, assumptions ...string) Outcome {
	return Outcome{Seed: seed, Assumptions: append(assumptions, pr.Assumptions...), Notes: append([]string(nil), pr.Notes...)}
}
