package events

import (
	"fmt"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// One run, one number (issue 24): privamp dpsgd (composition.DPSGDWith) and
// an events file that describes the same run give the same ε, bit for bit,
// by every accountant, under both relations, for Poisson and fixed-size
// batches, at moderate and tiny δ. Before, the events path composed by its
// own tree (2.3817871 for MNIST against dpsgd's 2.3817790; 2.72915 against
// 2.71192 at δ = 1e-9).
func TestSameRunSameEpsilon(t *testing.T) {
	type run struct {
		n, batch, steps, z float64
		q                  float64 // q = 1 instead of n, batch: full batches
	}
	runs := []run{{n: 60000, batch: 256, steps: 14063, z: 1.1}, {n: 1000, batch: 100, steps: 50, z: 2}, {q: 1, steps: 20, z: 5}}
	deltas := []float64{1e-5, 1e-9}
	accountants := []string{composition.AccountBest, composition.AccountRDP, composition.AccountPLD}
	if testing.Short() { // the small run and q = 1, best only
		runs, accountants = runs[1:], accountants[:1]
	}
	for _, c := range runs {
		for _, delta := range deltas {
			for _, rel := range []string{AddOrRemoveOne, ReplaceOne} {
				for _, fixed := range []bool{false, true} {
					if testing.Short() && delta < 1e-6 && rel == ReplaceOne {
						continue // tiny δ under replace-one: the full run
					}
					if fixed && (rel == AddOrRemoveOne || c.q == 1) {
						continue // refused by both (tested elsewhere); q = 1 has no batch size
					}
					for _, a := range accountants {
						d := rdp.DPSGD{N: c.n, Batch: c.batch, SamplingRate: c.q, Steps: c.steps, Noise: c.z, Delta: delta}
						d.Neighbours, _ = dp.ParseRelation("neighbours", rel)
						if fixed {
							d.Sampling = dp.WithoutReplacement
						}
						sampled := fmt.Sprintf(`"type": "PoissonSampled", "sampling_probability": %v`, c.batch/c.n)
						if c.q == 1 {
							sampled = `"type": "PoissonSampled", "sampling_probability": 1`
						}
						if fixed {
							sampled = fmt.Sprintf(`"type": "SampledWithoutReplacement", "source_dataset_size": %v, "sample_size": %v`, c.n, c.batch)
						}
						doc := fmt.Sprintf(`{"neighbouring": %q, "event": {"type": "SelfComposed", "count": %v, "event": {%s, "event": {"type": "Gaussian", "noise_multiplier": %v}}}}`,
							rel, c.steps, sampled, c.z)
						name := fmt.Sprintf("%+v δ=%g %s fixed=%v %s", c, delta, rel, fixed, a)
						want, errD := composition.DPSGDWith(d, a)
						got, errE := Account(mustRead(t, doc), Query{Delta: delta, Accountant: a})
						if (errD == nil) != (errE == nil) {
							t.Errorf("%s: dpsgd error %v, events error %v", name, errD, errE)
							continue
						}
						if errD != nil {
							continue
						}
						if got.Epsilon != want.Epsilon || got.Accountant != want.Accountant {
							t.Errorf("%s: events ε %v by %s, dpsgd ε %v by %s", name, got.Epsilon, got.Accountant, want.Epsilon, want.Accountant)
						}
						if want.PLDEpsilon != 0 && (got.PLDEpsilon == nil || *got.PLDEpsilon != want.PLDEpsilon) {
							t.Errorf("%s: events PLD %v, dpsgd PLD %v", name, got.PLDEpsilon, want.PLDEpsilon)
						}
					}
				}
			}
		}
	}
}
