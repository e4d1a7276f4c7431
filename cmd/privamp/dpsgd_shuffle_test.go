package main

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// TestDPSGDShuffleRun: --sampling shuffle prints the lower and upper bounds
// of composition/shuffle beside the Poisson ε, lower ≤ upper, and the
// Poisson number below the lower bound at this run (the gap Chua et al.
// warn about).
func TestDPSGDShuffleRun(t *testing.T) {
	a, out := jsonApp()
	d := rdp.DPSGD{N: 10000, Batch: 100, Epochs: 2, Noise: 1, Delta: 1e-5, Sampling: dp.Shuffle}
	if err := dpsgdRun(&dpsgdOptions{IO: a, Run: d, Accountant: "rdp"}); err != nil {
		t.Fatal(err)
	}
	m := decodeJSON(t, out)
	lo, up, po := m["epsilon_lower"].(float64), m["epsilon_upper"].(float64), m["epsilon_poisson_reported"].(float64)
	if !(po < lo && lo <= up) || m["steps_per_epoch"] != 100.0 || m["command"] != "dpsgd" || !strings.Contains(m["lower_source"].(string), "Chua") {
		t.Errorf("%v", m)
	}
}

// TestDPSGDShuffleRefusals: what shuffled batches cannot take is refused
// with exit 2, naming the flag.
func TestDPSGDShuffleRefusals(t *testing.T) {
	for _, c := range [][]string{
		{"--steps", "100"}, {"--target-epsilon", "1"}, {"--epochs", "1.5"}, {"--batch", "1"}, {"--epochs"},
	} {
		args := []string{"dpsgd", "--sampling", "shuffle", "--n", "1000", "--batch", "10"}
		if len(c) == 2 { // else: the flag missing
			args = append(args, c...)
		}
		if c[0] != "--epochs" && c[0] != "--steps" {
			args = append(args, "--epochs", "2")
		}
		if _, stderr, code := runCLI(args...); code != 2 || !strings.Contains(stderr, c[0]) {
			t.Errorf("%v: exit %d, %q", c, code, stderr)
		}
	}
	// δ(ε) and its curve are refused while the flags are read, before any computation
	refused(t, newDPSGDCmd, "do not apply to --sampling shuffle", "--sampling", "shuffle", "--at-epsilon", "1")
	refused(t, newDPSGDCmd, "do not apply to --sampling shuffle", "--sampling", "shuffle", "--plot", "c.png")
}
