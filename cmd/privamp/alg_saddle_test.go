package main

import (
	"strings"
	"testing"
)

// smd-vertex and smd-bias-reduced run end to end through the catalogue:
// typed JSON, exit 2 naming the flag on bad input, exit 1 on a failed check.
func TestAlgSaddle(t *testing.T) {
	syn := []string{"run", "--synthetic", "bilinear", "--n", "600", "--dimension", "6", "--repeats", "4"}
	for _, alg := range []string{"smd-vertex", "smd-bias-reduced"} {
		obj := jsonOf(t, append(syn, "--algorithm", alg)...)
		res := obj
		pr, ok := res["privacy"].(map[string]any)
		if !ok || res["algorithm"] != alg {
			t.Fatalf("%s: no typed result in %v", alg, obj)
		}
		if res["ok"] != true || pr["epsilon"].(float64) > 1 {
			t.Errorf("%s: ok %v, ε %v", alg, res["ok"], pr["epsilon"])
		}
	}
	obj := jsonOf(t, "run", "--algorithm", "smd-vertex", "--data", bc, "--label", "malignant", "--standardize", "--repeats", "3")
	game := obj["game"].(map[string]any)
	if game["dx"].(float64) != 60 || game["dy"].(float64) != 4 || game["n"].(float64) != 569 {
		t.Errorf("group game on the shipped data: %v", game)
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--algorithm", "smd-vertex", "--data", bc, "--label", "malignant"}, "--scaling"},
		{append(syn, "--algorithm", "smd-vertex", "--target-epsilon", "100"), "--target-epsilon"},
		{append(syn, "--algorithm", "smd-vertex", "--samples", "0"), "--samples"},
		{append(syn, "--algorithm", "smd-vertex", "--steps", "601"), "--steps"},
		{append(syn, "--algorithm", "smd-bias-reduced", "--stop-budget", "2"), "--stop-budget"},
		{append(syn, "--algorithm", "smd-bias-reduced", "--batch-parameter", "-1"), "--batch-parameter"},
		{append(syn, "--algorithm", "smd-vertex", "--repeats", "1"), "--repeats"},
	} {
		args := c.args
		if args[0] != "run" {
			args = append([]string{"run"}, args...)
		}
		_, errs, code := runCLI(args...)
		if code != 2 || !strings.Contains(errs, c.flag) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %s on one line", c.args, code, errs, c.flag)
		}
	}
	// A step size the target does not allow fails the ε check: exit 1.
	if _, _, code := runCLI(append(syn, "--algorithm", "smd-vertex", "--eta", "1")...); code != 1 {
		t.Errorf("--eta 1 at ε = 1: exit %d, want 1", code)
	}
}

// smd-sco (Algorithm 5) end to end: typed JSON on both instances, K-sparse
// output, exit 2 naming the flag on bad input, exit 1 on a failed check.
func TestAlgSaddleSCO(t *testing.T) {
	if testing.Short() {
		t.Skip("make test only: saddle.TestSCORun runs the algorithm under -short; TestAlgSaddle the catalogue's wiring")
	}
	syn := []string{"run", "--algorithm", "smd-sco", "--synthetic", "simplex-lsq", "--n", "3000", "--dimension", "10", "--repeats", "4"}
	obj := jsonOf(t, syn...)
	pr, ok := obj["privacy"].(map[string]any)
	if !ok || obj["algorithm"] != "smd-sco" {
		t.Fatalf("no typed result in %v", obj)
	}
	if obj["ok"] != true || pr["epsilon"].(float64) > 1 || obj["measured_max_support"].(float64) > obj["samples"].(float64) {
		t.Errorf("ok %v, ε %v, support %v, K %v", obj["ok"], pr["epsilon"], obj["measured_max_support"], obj["samples"])
	}
	obj = jsonOf(t, "run", "--algorithm", "smd-sco", "--data", bc, "--label", "malignant", "--standardize", "--repeats", "3")
	if obj["d"].(float64) != 62 || obj["n"].(float64) != 569 || obj["ok"] != true {
		t.Errorf("logistic instance on the shipped data: d %v, n %v, ok %v", obj["d"], obj["n"], obj["ok"])
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"run", "--algorithm", "smd-sco", "--data", bc, "--label", "malignant", "--standardize", "--l1-radius", "0"}, "--l1-radius"},
		{[]string{"run", "--algorithm", "smd-sco", "--data", bc, "--label", "malignant"}, "--scaling"},
		{append(syn, "--round-length", "-1"), "--round-length"},
		{append(syn, "--samples", "-1"), "--samples"},
		{append(syn, "--steps", "3001"), "--steps"},
		{append(syn, "--label-noise", "-1"), "--label-noise"},
		{append(syn, "--target-epsilon", "100"), "--target-epsilon"},
	} {
		_, errs, code := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.flag) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %s on one line", c.args, code, errs, c.flag)
		}
	}
	if _, _, code := runCLI(append(syn, "--eta", "1")...); code != 1 {
		t.Errorf("--eta 1 at ε = 1: exit %d, want 1", code)
	}
}
