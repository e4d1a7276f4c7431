package main

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// --sampling balls-in-bins reaches the run; an unknown scheme is refused
// naming the flag and the allowed values.
func TestDPSGDBallsInBinsFlags(t *testing.T) {
	o := mustParse(t, newDPSGDCmd, "--sampling", "balls-in-bins", "--n", "1000", "--batch", "10")
	if o.Run.Sampling != dp.BallsInBins || o.Run.Neighbours != dp.AddRemove {
		t.Errorf("%+v", o.Run)
	}
	refused(t, newDPSGDCmd, "balls-in-bins", "--sampling", "balls")
}

// The report names balls-in-bins, states its assumption, and compares
// with Poisson sampling at the same expected batch size; a batch that does
// not divide n is refused naming --batch.
func TestDPSGDBallsInBinsRun(t *testing.T) {
	d := rdp.DPSGD{N: 1000, Batch: 10, Epochs: 2, Noise: 1.2, Delta: 1e-5, Sampling: dp.BallsInBins}
	out := runOut(t, func(a *app) error { return dpsgdRun(&dpsgdOptions{IO: a, Run: d, Accountant: "rdp"}) })
	for _, s := range []string{"DP-SGD (balls-in-bins batches)", "placed in one of them uniformly at random", "with Poisson sampling at the same expected batch size", "random allocation"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	j := runJSONOf(t, func(a *app) error { return dpsgdRun(&dpsgdOptions{IO: a, Run: d, Accountant: "rdp"}) })
	if pe, ok := j["poisson_epsilon"].(float64); !ok || !(pe > 0) || j["method"] != "rdp-balls-in-bins" {
		t.Errorf("JSON: poisson_epsilon %v, method %v", j["poisson_epsilon"], j["method"])
	}
	d.Batch = 7
	a, _, _ := testApp(false)
	err := dpsgdRun(&dpsgdOptions{IO: a, Run: d, Accountant: "rdp"})
	if err == nil || exitCode(err) != exitBadInput || !strings.Contains(err.Error(), "--batch") {
		t.Errorf("batch 7 of 1000: %v (exit %d)", err, exitCode(err))
	}
}
