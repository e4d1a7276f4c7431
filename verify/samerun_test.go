package verify

import (
	"fmt"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// TestDPSGDClaimSameEpsilonAsDPSGD: one run, one number. A DP-SGD claim is
// certified with the ε `privamp dpsgd` prints for the same run (the
// command's rdp.DPSGD from n, batch and epochs, or q and steps, accounted
// by composition.DPSGDWith with the default accountant, "best"), to the
// last bit: both go through the same accounting (accountDPSGD).
func TestDPSGDClaimSameEpsilonAsDPSGD(t *testing.T) {
	cases := []struct {
		claim string
		run   rdp.DPSGD // as cmd/privamp/dpsgd.go builds it from its flags
	}{
		{`"sampling": "poisson", "n": 60000, "batch_size": 256, "epochs": 60, "noise_multiplier": 1.1, "delta": 1e-5`,
			rdp.DPSGD{N: 60000, Batch: 256, Epochs: 60, Noise: 1.1, Delta: 1e-5}},
		{`"sampling": "poisson", "sample_rate": 0.01, "steps": 1000, "noise_multiplier": 0.9, "delta": 1e-9`,
			rdp.DPSGD{SamplingRate: 0.01, Steps: 1000, Noise: 0.9, Delta: 1e-9}},
	}
	if testing.Short() {
		cases = cases[1:] // δ = 1e-9 by sample_rate and steps; MNIST is TestDPSGDMNIST's and make test's
	} else {
		cases = append(cases,
			struct {
				claim string
				run   rdp.DPSGD
			}{`"sampling": "poisson", "n": 60000, "batch_size": 256, "epochs": 60, "noise_multiplier": 1.1, "delta": 1e-5, "neighbours": "replace-one"`,
				rdp.DPSGD{N: 60000, Batch: 256, Epochs: 60, Noise: 1.1, Delta: 1e-5, Neighbours: dp.ReplaceOne}},
			struct {
				claim string
				run   rdp.DPSGD
			}{`"sampling": "fixed-size", "n": 10000, "batch_size": 100, "steps": 500, "noise_multiplier": 1.5, "delta": 1e-6, "neighbours": "replace-one"`,
				rdp.DPSGD{N: 10000, Batch: 100, Steps: 500, Noise: 1.5, Delta: 1e-6, Neighbours: dp.ReplaceOne, Sampling: dp.WithoutReplacement}})
	}
	for _, c := range cases {
		want, err := composition.DPSGDWith(c.run, composition.AccountBest)
		if err != nil {
			t.Fatalf("%+v: %v", c.run, err)
		}
		doc := fmt.Sprintf(`{"algorithm": "dpsgd", %s, "epsilon": 1}`, c.claim)
		v := verifyDPSGDString(t, doc, Options{})
		if v.WorstEpsilon != want.Epsilon || v.Source != want.Source {
			t.Errorf("%s: verify certifies ε = %v (%s), privamp dpsgd prints %v (%s)", c.claim, v.WorstEpsilon, v.Source, want.Epsilon, want.Source)
		}
		// The claim (ε = 1) is invalid: the noise it needs is the noise
		// `privamp dpsgd --target-epsilon 1` calibrates for the same run.
		cal := c.run
		cal.Calibrate, cal.TargetEpsilon = true, 1
		wantZ, err := composition.DPSGDWith(cal, composition.AccountBest)
		if err != nil {
			t.Fatal(err)
		}
		if v.NoiseMultiplierNeeded != wantZ.NoiseMultiplier {
			t.Errorf("%s: verify needs noise %v, privamp dpsgd --target-epsilon 1 calibrates %v", c.claim, v.NoiseMultiplierNeeded, wantZ.NoiseMultiplier)
		}
	}
}
