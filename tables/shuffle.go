package tables

import (
	"github.com/privamp/privamp/composition/shuffle"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// ShuffledDPSGD states a DP-SGD run with shuffled batches (d.Sampling ==
// dp.Shuffle): the lower and upper bounds of composition/shuffle beside the
// Poisson number commonly reported for it (accountant a). Errors are the
// library's *dp.Error, naming the DP-SGD field.
func ShuffledDPSGD(d rdp.DPSGD, a string) (Answer, error) {
	run, err := shuffle.FromDPSGD(d)
	if err != nil {
		return Answer{}, err
	}
	res, err := shuffle.Account(run, a)
	if err != nil {
		return Answer{}, err
	}
	at := "at δ = " + res.Delta.String()
	src := Source{Assumptions: res.Assumptions(), Notes: res.Notes()}
	return Answer{Title: "DP-SGD with shuffled batches: bounds on ε", Source: src, Result: res, Lines: []Line{
		{"n (examples)", dp.Num(res.N), "", "input"},
		{"batch", dp.Num(res.Batch), "", "input"},
		{"T (steps per epoch)", res.StepsPerEpoch, "", "⌈n/batch⌉"},
		{"epochs", res.Epochs, "", "input"},
		{"z (noise multiplier)", res.NoiseMultiplier, "σ/C", "input"},
		{"ε lower bound", res.EpsilonLower, at, res.LowerSource},
		{"ε upper bound", res.EpsilonUpper, at, res.UpperSource},
		{"ε as Poisson (reported)", res.EpsilonPoisson, at + "; not a guarantee here", res.PoissonSource},
	}}, nil
}
