package main

import (
	"strings"
	"testing"
)

// The clipped algorithms of seed 004 run through the catalogue: listed in
// run --help, certified at the target ε, and bad input exits 2 naming the flag.
func TestRunClippedAlgorithms(t *testing.T) {
	help, _, _ := runCLI("run", "--help")
	for _, name := range []string{"clipped-acsa", "clipped-sgd", "clipped-erm", "clipped-ppl", "clipped-compare"} {
		if !strings.Contains(help, name+":") {
			t.Errorf("run --help does not list %s", name)
		}
	}
	for _, name := range []string{"clipped-acsa", "clipped-sgd", "clipped-erm", "clipped-ppl"} {
		m, code, stderr := runJSON(t, "run", "--algorithm", name, "--n", "500", "--target-epsilon", "1")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		p := privacyOf(m)
		if e := p["epsilon"].(float64); e > 1 || e < 0.99 {
			t.Errorf("%s: certified ε = %v, want ≤ 1", name, e)
		}
	}
	m, code, stderr := runJSON(t, "run", "--algorithm", "clipped-erm", "--data", bc, "--label", "malignant", "--standardize", "--normalize", "--rho", "0.1")
	if code != 0 || privacyOf(m)["rho"].(float64) > 0.1 {
		t.Errorf("breast cancer: exit %d, %v %s", code, m["privacy"], stderr)
	}
	// regression: σ one ulp below the formula's own rounding failed the noise check (exit 1).
	if _, code, stderr := runJSON(t, "run", "--algorithm", "clipped-acsa", "--data", bc, "--label", "malignant", "--standardize", "--normalize"); code != 0 {
		t.Errorf("clipped-acsa on breast cancer: exit %d %s", code, stderr)
	}
	for _, c := range []struct{ args, flag string }{
		{"--moment-order 1", "--moment-order"},
		{"--moment-order 0.5", "--moment-order"},
		{"--moment-bound 0", "--moment-bound"},
		{"--moment-bound -2", "--moment-bound"},
		{"--rho 0", "--rho"},
		{"--rho -1", "--rho"},
		{"--nu 2", "--nu"},
		{"--radius 0.5", "--mean-norm"},
	} {
		_, stderr, code := runCLI(append([]string{"run", "--algorithm", "clipped-acsa"}, strings.Fields(c.args)...)...)
		if code != 2 || !strings.Contains(stderr, c.flag) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%s: exit %d, stderr %q; want 2 naming %s", c.args, code, stderr, c.flag)
		}
	}
	for _, name := range []string{"clipped-sgd", "clipped-ppl"} {
		_, stderr, code = runCLI("run", "--algorithm", name, "--data", bc, "--label", "malignant", "--standardize", "--normalize")
		if code != 2 || !strings.Contains(stderr, "--l2") {
			t.Errorf("%s without strong convexity: exit %d, %q", name, code, stderr)
		}
	}
}
