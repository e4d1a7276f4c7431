package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestCalcList(t *testing.T) {
	code, out, _ := runTables("calc")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, name := range []string{"langevin", "expmech", "expmech-convex", "output-perturbation", "bst14-sgd", "clipped-mean", "zcdp-budget", "strong-composition", "fully-adaptive"} {
		if !strings.Contains(out, name) {
			t.Errorf("calc list lacks %s", name)
		}
	}
	code, out, _ = runTables("calc", "--json")
	if obj := decodeOne(t, out); code != 0 || len(obj["calculators"].([]any)) != 9 {
		t.Errorf("calc JSON list: %v", obj)
	}
}

// newCalcCmdForTest is calc with one runF for the list and the calculators.
func newCalcCmdForTest(a *app, runF func(*calcOptions) error) *cobra.Command {
	return newCalcCmd(a, runF, runF)
}

// calc's flags bind the calculator's query; the optional (pointer) fields
// only when given.
func TestCalcFlags(t *testing.T) {
	if o := mustParse(t, newCalcCmdForTest); o.Query != nil {
		t.Errorf("calc without NAME: query %v", o.Query)
	}
	o := mustParse(t, newCalcCmdForTest, "langevin", "--beta", "100", "--sensitivity", "0.01", "--horizon", "1", "--delta", "1e-5")
	b, _ := json.Marshal(o.Query)
	if o.Calculator.Name != "langevin" || !strings.Contains(string(b), `"beta":100`) || !strings.Contains(string(b), `"sensitivity":0.01`) || !strings.Contains(string(b), `"target_epsilon":null`) {
		t.Errorf("langevin query %s", b)
	}
	if _, err := parseFlags(newCalcCmdForTest, "langevin", "--beta", "zz"); err == nil {
		t.Error("--beta zz accepted")
	}
}

// num reads a float from a decoded JSON object.
func jnum(t *testing.T, obj map[string]any, key string) float64 {
	t.Helper()
	v, ok := obj[key].(float64)
	if !ok {
		t.Fatalf("JSON key %q missing or not a number: %v", key, obj[key])
	}
	return v
}

func jnear(t *testing.T, obj map[string]any, key string, want, tol float64) {
	t.Helper()
	if got := jnum(t, obj, key); math.Abs(got-want) > tol*math.Abs(want) {
		t.Errorf("%s = %v, want %v", key, got, want)
	}
}

// TestCalcJSON runs every calculator with --json and checks the headline
// numbers against the test vectors of docs/seeds.md (recomputed in the tables tests).
func TestCalcJSON(t *testing.T) {
	t.Parallel() // no run(): touches no package-level state (atomicfile.Stdout, working directory)
	cases := []struct {
		args  []string
		check func(obj map[string]any)
	}{
		{[]string{"calc", "langevin", "--beta", "100", "--sensitivity", "0.01", "--horizon", "1", "--delta", "1e-5"}, func(o map[string]any) {
			jnear(t, o, "rho", 0.25, 1e-12)
			jnear(t, o, "epsilon_classic", 3.64307, 1e-5)
		}},
		{[]string{"calc", "langevin", "--target-epsilon", "1", "--delta", "1e-5", "--sensitivity", "0.01", "--steps", "1000", "--eta", "0.01"}, func(o map[string]any) {
			jnear(t, o, "beta_paper", 18.6396, 1e-5)
			jnear(t, o, "beta_max_classic", 9.12577, 1e-5)
			jnear(t, o, "paper_epsilon_classic", 2.08686, 1e-5)
		}},
		{[]string{"calc", "langevin", "--beta", "10", "--lipschitz", "1", "--n", "100", "--adjacency", "add-remove", "--horizon", "1", "--delta", "1e-5"}, func(o map[string]any) {
			jnear(t, o, "sensitivity", 0.01, 1e-12)
		}},
		{[]string{"calc", "expmech", "--epsilon", "1", "--sensitivity", "0.5", "--candidates", "100", "--alpha", "0.05"}, func(o map[string]any) {
			jnear(t, o, "gap", math.Log(100)+math.Log(20), 1e-12)
			jnear(t, o, "temperature", 1, 1e-12)
		}},
		{[]string{"calc", "expmech-convex", "--epsilon", "1", "--dimension", "10", "--n", "1000"}, func(o map[string]any) {
			jnear(t, o, "tail_bound", 120.643740, 1e-8)
			jnear(t, o, "mean_bst14", 104.677881, 1e-8)
			jnear(t, o, "mean", 20, 1e-12)
		}},
		{[]string{"calc", "output-perturbation", "--epsilon", "0.5", "--delta", "1e-5", "--strong-convexity", "1", "--n", "1000", "--dimension", "10"}, func(o map[string]any) {
			jnear(t, o, "sensitivity", 0.002, 1e-12)
			if jnum(t, o, "paper_sigma_epsilon") <= 0.5 {
				t.Error("paper σ₀ not flagged optimistic")
			}
		}},
		{[]string{"calc", "bst14-sgd", "--n", "100", "--epsilon", "0.5", "--delta", "1e-4"}, func(o map[string]any) {
			jnear(t, o, "sigma2", 1.628743e8, 1e-6)
			jnear(t, o, "z_replace_one", 63.81111, 1e-6)
			if e := jnum(t, o, "rdp_epsilon_replace_one"); !(e < 0.5) {
				t.Errorf("RDP ε at the paper's σ = %v", e)
			}
			if jnum(t, o, "noise_ratio") < 2 {
				t.Error("noise ratio")
			}
		}},
		{[]string{"calc", "clipped-mean", "--moment-order", "2", "--moment-bound", "1", "--batch", "1000", "--rho", "0.5", "--tau", "1"}, func(o map[string]any) {
			jnear(t, o, "sigma", 0.002, 1e-12)
			jnear(t, o, "bias", 1, 1e-12)
		}},
		{[]string{"calc", "zcdp-budget", "--n", "1000", "--steps", "100", "--tau", "1", "--rho", "0.5"}, func(o map[string]any) {
			jnear(t, o, "multi_pass_sigma", 0.02, 1e-12)
			jnear(t, o, "one_pass_sigma", 0.2, 1e-12)
		}},
		{[]string{"calc", "strong-composition", "--step-epsilon", "0.1", "--steps", "100", "--delta", "1e-5"}, func(o map[string]any) {
			jnear(t, o, "strong_epsilon", 5.850235, 1e-6)
			jnear(t, o, "epsilon", 5.850235, 1e-6)
		}},
		{[]string{"calc", "strong-composition", "--step-epsilon", "1", "--steps", "10", "--delta", "1e-5"}, func(o map[string]any) {
			jnear(t, o, "epsilon", 10, 1e-12)
			if o["method"] != "basic" {
				t.Error("basic should win")
			}
		}},
		{[]string{"calc", "strong-composition", "--target-epsilon", "1", "--steps", "100", "--delta", "1e-5"}, func(o map[string]any) {
			if e := jnum(t, o, "epsilon"); e > 1 || e < 0.999999 {
				t.Errorf("inverse gives ε = %v", e)
			}
		}},
		{[]string{"calc", "fully-adaptive", "--target-epsilon", "1", "--steps", "100", "--delta", "1e-5"}, func(o map[string]any) {
			jnear(t, o, "step_exact", 0.0204059, 1e-5)
			jnear(t, o, "step_paper", 0.0104199, 1e-5)
			jnear(t, o, "total_at_paper_step", 0.505429, 1e-5)
		}},
	}
	for _, c := range cases {
		o := mustParse(t, newCalcCmdForTest, c.args[1:]...) // the flags bind the query; nothing computed
		ans, err := o.Query.Answer()
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		obj := runJSONOf(t, func(a *app) error { return render(a.out, a.mode, ans.CalcReport(o.Calculator.Name)) })
		if obj["paper"] == nil || obj["theorem"] == nil || obj["validity"] == nil || obj["assumptions"] == nil {
			t.Errorf("%v: missing source fields", c.args)
		}
		c.check(obj)
		// The text form prints the source, assumptions and validity range.
		out := runOut(t, func(a *app) error { return render(a.out, a.mode, ans.CalcReport(o.Calculator.Name)) })
		if obj["command"] != "calc "+c.args[1] || !strings.Contains(out, "validity range:") || !strings.Contains(out, "seed ") {
			t.Errorf("%v: text output lacks the source/validity", c.args)
		}
	}
}

func TestCalcBadInput(t *testing.T) {
	cases := [][]string{
		{"calc", "langevin", "--delta", "1e-5", "--sensitivity", "1", "--horizon", "1"},                // neither β nor ε
		{"calc", "langevin", "--beta", "1", "--sensitivity", "1", "--horizon", "1"},                    // no δ
		{"calc", "langevin", "--beta", "1", "--sensitivity", "1", "--horizon", "1", "--delta", "1"},    // δ = 1
		{"calc", "langevin", "--beta", "1", "--sensitivity", "1", "--steps", "10", "--delta", "0.1"},   // η missing
		{"calc", "langevin", "--beta", "-1", "--sensitivity", "1", "--horizon", "1", "--delta", "0.1"}, // β < 0
		{"calc", "langevin", "--beta", "1", "--lipschitz", "1", "--n", "10", "--adjacency", "x", "--horizon", "1", "--delta", "0.1"},
		{"calc", "expmech", "--epsilon", "1", "--candidates", "2.5"},
		{"calc", "expmech", "--epsilon", "1", "--candidates", "10", "--alpha", "0"},
		{"calc", "expmech-convex", "--epsilon", "1", "--dimension", "10"},
		{"calc", "output-perturbation", "--epsilon", "1", "--delta", "2", "--strong-convexity", "1", "--n", "10"},
		{"calc", "bst14-sgd", "--n", "1000", "--epsilon", "1", "--delta", "0.01"},  // δ ≥ 1/n
		{"calc", "bst14-sgd", "--n", "1000", "--epsilon", "10", "--delta", "1e-5"}, // ε > 2√ln(1/δ)
		{"calc", "clipped-mean", "--moment-order", "1", "--moment-bound", "1", "--batch", "10", "--rho", "1"},
		{"calc", "clipped-mean", "--moment-order", "2", "--moment-bound", "1", "--second-moment", "2", "--batch", "10", "--rho", "1"},
		{"calc", "zcdp-budget", "--n", "10", "--steps", "11", "--rho", "1"},
		{"calc", "strong-composition", "--step-epsilon", "1", "--target-epsilon", "1", "--steps", "10", "--delta", "0.1"},
		{"calc", "strong-composition", "--step-epsilon", "1", "--steps", "0", "--delta", "0.1"},
		{"calc", "fully-adaptive", "--target-epsilon", "60", "--steps", "10", "--delta", "1e-3"}, // ε ≥ 8 ln(1/δ)
		{"calc", "fully-adaptive", "--target-epsilon", "1", "--steps", "10"},
		{"calc", "nope"},
		{"calc", "langevin", "--beta", "zz"},
	}
	for _, args := range cases {
		code, out, errw := runTables(args...)
		if code != 2 || out != "" || strings.Count(errw, "\n") != 1 || !strings.HasPrefix(errw, "privamp: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errw)
		}
	}
	_, _, errw := runTables("calc", "fully-adaptive", "--target-epsilon", "60", "--steps", "10", "--delta", "1e-3")
	if !strings.Contains(errw, "--target-epsilon") || !strings.Contains(errw, "8 ln(1/δ)") {
		t.Errorf("range refusal message: %q", errw)
	}
}
