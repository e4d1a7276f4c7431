package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// Issue 24: the main job's (privamp with no arguments) sampling rows are
// the ε `privamp dpsgd` gives for the same run (Poisson rate b/n, the same
// steps, noise multiplier bσ/L, the same δ), add/remove and replace-one:
// one accountant, one number. compare at q = 1 (every record in every
// batch) goes the same way: there the exact Gaussian, not RDP.
func TestMainJobSamplingIsDPSGD(t *testing.T) {
	runs := [][]string{{"compare", "--n", "1000", "--batch", "1000", "--epochs", "20", "--sigma", "0.002"}, {}}
	if testing.Short() {
		runs = runs[:1] // the main job's MNIST-sized run (three PLDs, 0.9 s of CPU) is make test's
	}
	for _, args := range runs {
		sameRunAsDPSGD(t, args...)
	}
}

func sameRunAsDPSGD(t *testing.T, args ...string) {
	t.Helper()
	m := jsonOf(t, args...)
	num := func(k string) float64 {
		x, ok := m[k].(float64)
		if !ok {
			t.Fatalf("%s: %v", k, m[k])
		}
		return x
	}
	n, b, steps := num("n"), num("batch"), num("steps")
	run := rdp.DPSGD{SamplingRate: b / n, Steps: steps, Noise: b * num("sigma") / num("lipschitz"), Delta: num("delta")}
	for _, c := range []struct {
		key string
		rel dp.Relation
	}{{"sampling_add_remove_epsilon", dp.AddRemove}, {"sampling_replace_one_epsilon", dp.ReplaceOne}} {
		d := run
		d.Neighbours = c.rel
		var out bytes.Buffer
		if err := dpsgdRun(&dpsgdOptions{IO: &app{out: &out, errw: &out, mode: outputMode{json: true}}, Run: d, Accountant: composition.AccountBest}); err != nil {
			t.Fatal(err)
		}
		var res struct{ Epsilon float64 }
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("%v: %s", err, out.Bytes())
		}
		if got := num(c.key); got != res.Epsilon || got == 0 {
			t.Errorf("%v: %s = %v, dpsgd (%+v) gives %v", args, c.key, got, d, res.Epsilon)
		}
	}
}
