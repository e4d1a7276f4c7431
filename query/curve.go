package query

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

func init() { Register("curve", curve) }

// CurveRequest is the "curve" request: the run of privamp curve (its
// flags, "_" for "-"), the variants (default pnsgd), about points indices
// (default 60; 0 or all: every index, at most MaxCurveAll), and whether
// the sampling baseline is left out.
type CurveRequest struct {
	N                   int64    `json:"n" jsonin:"required"`
	Sigma               float64  `json:"sigma" jsonin:"required"`
	Lipschitz           float64  `json:"lipschitz"`
	Delta               float64  `json:"delta"`
	Epochs              int64    `json:"epochs"`
	Batch               int64    `json:"batch"`
	Public              int64    `json:"public"`
	Tasks               int64    `json:"tasks"`
	StrongConvexity     float64  `json:"strong_convexity"`
	Smoothness          float64  `json:"smoothness"`
	Eta                 float64  `json:"eta"`
	Radius              float64  `json:"radius"`
	Nonsmooth           bool     `json:"nonsmooth"`
	Dimension           int64    `json:"dimension"`
	CompositionFallback bool     `json:"composition_fallback"`
	Conversion          string   `json:"conversion"`
	Variants            []string `json:"variants"`
	Points              *int     `json:"points"`
	All                 bool     `json:"all"`
	NoSampling          bool     `json:"no_sampling"`
}

// MaxCurveAll is the most indices a curve of every index returns as JSON
// (as privamp curve --json); MaxCurveBulk through the bulk path (Floats:
// 16 bytes an index and variant, held once in Go and once by the caller; the
// command line's streamed CSV goes further).
const (
	MaxCurveAll  = 1_000_000
	MaxCurveBulk = 20_000_000
)

// defaultCurve is a CurveRequest with the command line's defaults.
func defaultCurve() CurveRequest {
	return CurveRequest{Lipschitz: 1, Delta: 1e-5, Epochs: 1, Batch: 1, Tasks: 1, Dimension: 1}
}

// Run is the shifted run, the variants, the options and the number of
// points the request describes.
func (q CurveRequest) Run(bulk bool) (shifted.Training, []shifted.Variant, shifted.Options, int, error) {
	r := shifted.Training{N: q.N, Sigma: q.Sigma, Delta: q.Delta, Epochs: q.Epochs, Batch: q.Batch, Public: q.Public, Tasks: q.Tasks,
		Loss: shifted.Loss{Lipschitz: q.Lipschitz, Smoothness: q.Smoothness, StrongConvexity: q.StrongConvexity, Eta: q.Eta}, Radius: q.Radius}
	o := shifted.Options{Nonsmooth: q.Nonsmooth, Dimension: q.Dimension, CompositionFallback: q.CompositionFallback}
	for _, c := range []struct {
		name string
		v    int64
	}{{"n", q.N}, {"epochs", q.Epochs}, {"batch", q.Batch}, {"tasks", q.Tasks}, {"dimension", q.Dimension}} {
		if c.v < 1 || c.v > 1e12 {
			return r, nil, o, 0, badInput(c.name, c.v, "must be a whole number in [1, 1e12]")
		}
	}
	if q.Public < 0 || q.Public > 1e12 {
		return r, nil, o, 0, badInput("public", q.Public, "must be a whole number in [0, 1e12]")
	}
	var err error
	if o.Conversion, err = rdp.ParseConversion(q.Conversion); err != nil {
		return r, nil, o, 0, badInput("conversion", q.Conversion, "must be improved or classic")
	}
	names := q.Variants
	if len(names) == 0 {
		names = []string{"pnsgd"}
	}
	var vs []shifted.Variant
	for _, s := range names {
		v, err := shifted.ParseVariant(strings.TrimSpace(s))
		if err != nil {
			return r, nil, o, 0, badInput("variants", s, "must be pnsgd, skip or stop")
		}
		vs = append(vs, v)
	}
	r.Variant = vs[0]
	points := 60
	switch {
	case q.All && q.Points != nil:
		return r, nil, o, 0, badInput("points", *q.Points, "cannot be given with all (give only one of them)")
	case q.All:
		if limit := map[bool]int64{false: MaxCurveAll, true: MaxCurveBulk}[bulk]; q.N > limit {
			return r, nil, o, 0, badInput("n", q.N, fmt.Sprintf("must be at most %d with all (every index; the command line streams any n as CSV)", limit))
		}
		points = 0
	case q.Points != nil:
		points = *q.Points
	}
	if !r.Loss.Contracts() && !o.CompositionFallback && r.Loss.Eta > 0 && r.Loss.Smoothness > 0 {
		return r, nil, o, 0, badInput("eta", r.Loss.Eta, "must be at most 2/smoothness: the step does not contract (FMTT18 Prop. 18), so amplification by iteration does not apply (composition_fallback gives the composition bound)")
	}
	return r, vs, o, points, nil
}

func curve(request []byte, bulk bool) (*Result, error) {
	q := defaultCurve()
	if err := decode(request, &q); err != nil {
		return nil, err
	}
	r, vs, o, points, err := q.Run(bulk)
	if err != nil {
		return nil, err
	}
	c, err := shifted.PersonCurves(r, vs, o, points, !q.NoSampling)
	if err != nil {
		return nil, err
	}
	c.ExpandIndex()
	res := &Result{Command: "curve", Value: c}
	if !bulk {
		return res, nil
	}
	idx := make([]float64, len(c.Index))
	for i, t := range c.Index {
		idx[i] = float64(t)
	}
	res.Floats = append(res.Floats, Column{Name: "index", Values: idx})
	for _, col := range c.Columns {
		res.Floats = append(res.Floats, Column{Name: col.Name, Values: col.Epsilon})
	}
	// The answer beside the arrays: the JSON object without index and ε lists.
	var meta map[string]any
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		return nil, err
	}
	delete(meta, "index")
	for _, col := range meta["columns"].([]any) {
		delete(col.(map[string]any), "epsilon")
	}
	res.Meta, res.Value = meta, nil
	return res, nil
}
