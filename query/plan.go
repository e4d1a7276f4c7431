package query

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
)

func init() { Register("plan", makePlan) }

// PlanRequest is the "plan" request: privamp plan --tier's flags ("_" for
// "-"). Tiers are written as the flag's values, "[NAME=]SIZE:EPSILON[:DELTA]"
// (SIZE a share of n when n is given, else a count); radius and dimension
// are required; the rest default as on the command line.
type PlanRequest struct {
	Tiers            []string `json:"tiers" jsonin:"required"`
	N                int64    `json:"n"`
	Variant          string   `json:"variant"`
	Batch            int64    `json:"batch"`
	Epochs           int64    `json:"epochs"`
	Tasks            int64    `json:"tasks"`
	Public           int64    `json:"public"`
	Lipschitz        float64  `json:"lipschitz"`
	Smoothness       float64  `json:"smoothness"`
	StrongConvexity  float64  `json:"strong_convexity"`
	Eta              float64  `json:"eta"`
	Radius           float64  `json:"radius" jsonin:"required"`
	Dimension        int64    `json:"dimension" jsonin:"required"`
	Delta            float64  `json:"delta"`
	MaxSigma         float64  `json:"max_sigma"`
	TargetExcessRisk float64  `json:"target_excess_risk"`
	Conversion       string   `json:"conversion"`
}

// PlanResult is the "plan" answer: privamp plan --json's object, plus the
// plan file itself ("plan": what --out writes, for privamp run --plan and
// verify; absent when infeasible).
type PlanResult struct {
	Command string `json:"command"`
	*plan.Result
	File json.RawMessage `json:"plan,omitempty"`
}

// Options is the plan.Options and tiers the request describes.
func (q PlanRequest) Options() (plan.Options, []plan.Tier, []string, error) {
	o := plan.Options{Radius: q.Radius, Dimension: q.Dimension, MaxSigma: q.MaxSigma, TargetExcessRisk: q.TargetExcessRisk}
	t := &o.Training
	t.Public, t.Batch, t.Epochs, t.Tasks, t.Delta = q.Public, q.Batch, q.Epochs, q.Tasks, q.Delta
	t.Loss = shifted.Loss{Lipschitz: q.Lipschitz, Smoothness: q.Smoothness, StrongConvexity: q.StrongConvexity, Eta: q.Eta}
	for _, c := range []struct {
		name string
		v    int64
	}{{"batch", q.Batch}, {"epochs", q.Epochs}, {"tasks", q.Tasks}, {"dimension", q.Dimension}} {
		if c.v < 1 || c.v > 1e12 {
			return o, nil, nil, badInput(c.name, c.v, "must be a whole number in [1, 1e12]")
		}
	}
	if q.Public < 0 || q.Public > 1e12 {
		return o, nil, nil, badInput("public", q.Public, "must be a whole number in [0, 1e12]")
	}
	if q.N < 0 || q.N > plan.MaxPeople {
		return o, nil, nil, badInput("n", q.N, fmt.Sprintf("must be a whole number in [1, %d] (0: the tier sizes are counts)", plan.MaxPeople))
	}
	var err error
	if t.Variant, err = shifted.ParseVariant(def(q.Variant, "pnsgd")); err != nil {
		return o, nil, nil, err
	}
	if o.Conversion, err = rdp.ParseConversion(q.Conversion); err != nil {
		return o, nil, nil, badInput("conversion", q.Conversion, "must be improved or classic")
	}
	tiers, notes, err := plan.ParseTiers(q.Tiers, q.N)
	if err != nil {
		if _, ok := field.As(err); ok {
			return o, nil, nil, err
		}
		return o, nil, nil, badInput("tiers", q.Tiers, err.Error())
	}
	return o, tiers, notes, nil
}

func makePlan(request []byte, _ bool) (*Result, error) {
	q := PlanRequest{Batch: 1, Epochs: 1, Tasks: 1, Lipschitz: 1, Delta: 1e-5}
	if err := decode(request, &q); err != nil {
		return nil, err
	}
	o, tiers, notes, err := q.Options()
	if err != nil {
		return nil, err
	}
	res, err := plan.Make(o, plan.Budgets{Tiers: tiers})
	if err != nil {
		if _, ok := field.As(err); !ok {
			return nil, badInput("tiers", q.Tiers, err.Error())
		}
		return nil, err
	}
	res.Notes = append(notes, res.Notes...)
	out := PlanResult{Command: "plan", Result: res}
	if res.Infeasible == nil && res.Plan != nil {
		var b bytes.Buffer
		if _, err := res.Plan.WriteTo(&b); err != nil {
			return nil, err
		}
		out.File = json.RawMessage(bytes.TrimSpace(b.Bytes()))
	}
	return &Result{Command: "plan", Value: out}, nil
}
