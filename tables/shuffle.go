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
	src := Source{Assumptions: []string{
		"each epoch shuffles the n examples once (afresh every epoch) and cuts ⌈n/batch⌉ consecutive batches: every example is in exactly one batch per epoch",
		"per-example gradients are clipped to ℓ2 norm ≤ C and the summed batch gradient gets N(0, (zC)²I) noise",
		"neighbouring data sets: " + res.Neighbours.String() + "; all intermediate models may be released",
	}, Notes: []string{
		"the ε of shuffled batches lies in [lower, upper]: a claim below the lower bound is false; one at or above the upper bound holds",
		"the Poisson ε is what Opacus, TF-Privacy and JAX users commonly report for this run; it is a guarantee for Poisson sampling only, not for shuffled batches",
	}}
	if res.Neighbours == dp.AddRemove {
		src.Assumptions = append(src.Assumptions, shuffle.ZeroOut)
	}
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
