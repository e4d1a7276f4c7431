package query

import (
	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/composition/shuffle"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

func init() { Register("dpsgd", dpsgd) }

// DPSGDRequest is the "dpsgd" request: the flags of privamp dpsgd, keys
// spelt as the flags with "_" for "-". There are no MNIST defaults: give
// n and batch (with epochs or steps), or sampling_rate with steps; noise,
// or target_epsilon to calibrate the noise; delta. Neighbours (add-remove
// or replace-one), sampling (poisson, fixed-size, or shuffle: then the
// answer is composition/shuffle's interval of ε), accountant (rdp, pld,
// best) and conversion (improved, classic) default as on the command line.
type DPSGDRequest struct {
	N             *float64 `json:"n"`
	Batch         *float64 `json:"batch"`
	SamplingRate  *float64 `json:"sampling_rate"`
	Epochs        *float64 `json:"epochs"`
	Steps         *float64 `json:"steps"`
	Noise         *float64 `json:"noise"`
	Delta         float64  `json:"delta"`
	TargetEpsilon *float64 `json:"target_epsilon"`
	Neighbours    string   `json:"neighbours"`
	Sampling      string   `json:"sampling"`
	Accountant    string   `json:"accountant"`
	Conversion    string   `json:"conversion"`
}

// Run is the rdp.DPSGD the request describes, with the accountant's name;
// the key combinations privamp dpsgd refuses are refused here the same way.
func (q DPSGDRequest) Run() (rdp.DPSGD, string, error) {
	var d rdp.DPSGD
	for _, p := range []struct {
		a, b string
		x, y *float64
	}{{"noise", "target_epsilon", q.Noise, q.TargetEpsilon}, {"epochs", "steps", q.Epochs, q.Steps},
		{"sampling_rate", "n", q.SamplingRate, q.N}, {"sampling_rate", "batch", q.SamplingRate, q.Batch}} {
		if p.x != nil && p.y != nil {
			return d, "", badInput(p.b, *p.y, "cannot be given with "+p.a+" (give only one of them)")
		}
	}
	if q.Noise == nil && q.TargetEpsilon == nil {
		return d, "", badInput("noise", nil, "is required (the noise multiplier z > 0), or give target_epsilon to calibrate it")
	}
	val := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	d = rdp.DPSGD{N: val(q.N), Batch: val(q.Batch), SamplingRate: val(q.SamplingRate), Epochs: val(q.Epochs), Steps: val(q.Steps),
		Noise: val(q.Noise), Delta: q.Delta, TargetEpsilon: val(q.TargetEpsilon), Calibrate: q.TargetEpsilon != nil}
	var err error
	if d.Neighbours, err = dp.ParseRelation("neighbours", def(q.Neighbours, "add-remove")); err != nil {
		return d, "", err
	}
	smp, err := dp.ParseSampling("sampling", def(q.Sampling, "poisson"))
	if err != nil || smp == dp.None {
		return d, "", badInput("sampling", q.Sampling, "must be poisson, fixed-size, shuffle or balls-in-bins")
	}
	d.Sampling = smp
	if d.Conversion, err = rdp.ParseConversion(q.Conversion); err != nil {
		return d, "", badInput("conversion", q.Conversion, "must be improved or classic")
	}
	acc := def(q.Accountant, "best")
	if _, err := composition.Named(acc); err != nil {
		return d, "", err
	}
	return d, acc, nil
}

func def(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func dpsgd(request []byte, _ bool) (*Result, error) {
	var q DPSGDRequest
	if err := decode(request, &q); err != nil {
		return nil, err
	}
	d, acc, err := q.Run()
	if err != nil {
		return nil, err
	}
	if d.Sampling == dp.Shuffle { // an interval, not one ε (as privamp dpsgd --sampling shuffle)
		run, err := shuffle.FromDPSGD(d)
		if err != nil {
			return nil, err
		}
		res, err := shuffle.Account(run, acc)
		if err != nil {
			return nil, err
		}
		return &Result{Command: "dpsgd", Value: res, Assumptions: res.Assumptions(), Notes: res.Notes()}, nil
	}
	res, err := composition.DPSGDWith(d, acc)
	if err != nil {
		return nil, err
	}
	return &Result{Command: "dpsgd", Value: res, Assumptions: composition.DPSGDAssumptions(d), Notes: res.Notes()}, nil
}
