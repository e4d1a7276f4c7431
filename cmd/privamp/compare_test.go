package main

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

func TestCompare(t *testing.T) {
	o := ampDefaults(100000, 4)
	o.Options.Indices = []int64{99000}
	obj := runJSONOf(t, func(a *app) error { return compareRun(&compareOptions{a, o}) })
	c, err := shifted.Compare(shifted.SGD{N: 100000, Sigma: 4, Loss: shifted.Loss{Lipschitz: 1}}, 1e-5, rdp.Improved)
	if err != nil {
		t.Fatal(err)
	}
	if int64(obj["iteration_wins"].(float64)) != c.IterationWins || c.IterationWins <= 0 || c.IterationWins >= 100000 {
		t.Fatalf("iteration wins %v, library %d", obj["iteration_wins"], c.IterationWins)
	}
	// Sampling as DP-SGD computes it: q = b/n, z = bσ/L, the tighter of
	// the PLD and RDP (the PLD here).
	want, _ := pld.DPSGD(1e-5, 4, 100000, 1e-5, pld.Options{})
	rdpWant, _ := rdp.EpsilonFor(rdp.Repeat(rdp.SampledGaussian{Q: 1e-5, Z: 4}, 100000), 1e-5, rdp.Improved)
	if got := obj["sampling_add_remove_epsilon"].(float64); got != float64(want.Epsilon) || !(got < rdpWant.Epsilon) {
		t.Fatalf("sampling ε %g, want the PLD's %g (below RDP's %g)", got, want.Epsilon, rdpWant.Epsilon)
	}
	// Iteration at the boundary index is at most sampling, the next above.
	e1, _ := shifted.Epsilon(c.Run, c.IterationWins, 1e-5, rdp.Improved)
	e2, _ := shifted.Epsilon(c.Run, c.IterationWins+1, 1e-5, rdp.Improved)
	if e1.Epsilon > c.SamplingReplaceOne.Epsilon || e2.Epsilon <= c.SamplingReplaceOne.Epsilon {
		t.Fatalf("boundary: %g, %g vs %g", e1.Epsilon, e2.Epsilon, c.SamplingReplaceOne.Epsilon)
	}
	if v := obj["verdict"].(string); !strings.Contains(v, "at least as good as sampling for the records at positions 1..") {
		t.Fatalf("verdict %q", v)
	}
	out, _, code := runCLI("compare", "--n", "1000", "--sigma", "1", "--batch", "10", "--epochs", "3") // the wiring, end to end
	if code != 0 || !strings.Contains(out, "replace-one") || !strings.Contains(out, "add/remove") || !strings.Contains(out, "neighbour relations differ") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestCompareBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--n", "100", "--sigma", "1", "--public", "3"}, "--public"},
		{[]string{"compare", "--n", "100", "--sigma", "1", "--eta", "3", "--smoothness", "1"}, "does not contract"},
		{[]string{"compare", "--n", "100", "--sigma", "-1"}, "--sigma"},
		{[]string{"compare", "--n", "100", "--sigma", "10", "--index", "101"}, "--index"}, // refused after the comparison: σ = 10 makes it cheap
	} {
		_, errs, code := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
}

// The looseness scale is a number even where the ratio is undefined, and
// every amplification command documents its exit statuses.
func TestCompareExtremesAndHelp(t *testing.T) {
	for _, sigma := range []string{"1e-300", "1e6"} {
		for _, mode := range []string{"--csv", "--json", "--quiet"} {
			out, errs, code := runCLI("compare", "--n", "100", "--sigma", sigma, mode)
			if code != 0 || strings.Contains(out, "undefined") || strings.Contains(out, "NaN") {
				t.Errorf("σ = %s %s: exit %d %s\n%s", sigma, mode, code, errs, out)
			}
		}
	}
	for _, cmd := range []string{"pnsgd", "curve", "compare", "cni"} {
		out, _, code := runCLI(cmd, "--help")
		if code != 0 || !strings.Contains(out, "Exit status: 0 success, 1 failure") || !strings.Contains(out, "2 bad input") {
			t.Errorf("%s --help: exit %d, no exit statuses", cmd, code)
		}
	}
}
