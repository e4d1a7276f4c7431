package main

import (
	"strings"
	"testing"
)

// Seed 001's algorithms end to end: JSON results, exit 2 naming the flag on
// bad input and outside the theorems' assumptions. Under -short the exact
// samplers run on one feature (the two-dimensional sampler is 20× slower;
// its library tests cover it).
func TestBST14AlgorithmsCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("1.8 s of training through the binary; package bst14's -short tests run the algorithms, TestAlgSaddle and TestRunClippedAlgorithms the catalogue's wiring")
	}
	data := []string{"run", "--data", bc, "--label", "malignant", "--standardize", "--normalize"}
	two := append(append([]string(nil), data...), "--features", "mean_radius,mean_texture")
	if testing.Short() {
		two = append(append([]string(nil), data...), "--features", "mean_radius")
	}
	for _, args := range [][]string{
		append(append([]string(nil), data...), "--algorithm", "bst14-sgd", "--steps", "2000"),
		append(append([]string(nil), data...), "--algorithm", "output-perturbation", "--l2", "0.01", "--noise-distribution", "gaussian"),
		append(append([]string(nil), two...), "--algorithm", "bst14-expmech"),
		append(append([]string(nil), two...), "--algorithm", "bst14-localize", "--l2", "0.05"),
		append(append([]string(nil), two...), "--algorithm", "iterated-expmech", "--l2", "0.05"),
		append(append([]string(nil), data...), "--algorithm", "bst14-localize-gaussian", "--l2", "0.05", "--steps", "5000"),
	} {
		m := jsonOf(t, args...)
		res, ok := m["result"].(map[string]any)
		if !ok {
			res = m
		}
		if _, ok := res["measured"]; !ok {
			t.Errorf("%v: no measured risk in %v", args, m)
		}
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{append(append([]string(nil), data...), "--algorithm", "output-perturbation", "--l2", "0"), "--l2"}, // given 0: refused (no l2: the default 0.1)
		{append(append([]string(nil), data...), "--algorithm", "output-perturbation", "--l2", "1", "--noise-distribution", "laplace"), "--noise-distribution"},
		{append(append([]string(nil), data...), "--algorithm", "output-perturbation", "--l2", "1", "--delta", "1e-6"), "--delta"},
		{append(append([]string(nil), data...), "--algorithm", "bst14-expmech"), "--dimension"},
		{append(append([]string(nil), data...), "--algorithm", "bst14-sgd", "--step-rule", "adam"), "--step-rule"},
		{append(append([]string(nil), data...), "--algorithm", "bst14-sgd", "--sigma", "5", "--target-epsilon", "1"), "--sigma"},
		{append(append([]string(nil), data...), "--algorithm", "bst14-localize", "--features", "0", "--l2", "0"), "--l2"},
		{append(append([]string(nil), data...), "--algorithm", "bst14-expmech", "--features", "0,zz"), "--features"},
		{append(append([]string(nil), data...), "--algorithm", "iterated-expmech", "--features", "0", "--l2", "0"), "--l2"},
		{append(append([]string(nil), data...), "--algorithm", "iterated-expmech", "--features", "0", "--c", "-1"), "--c"},
		{append(append([]string(nil), data...), "--algorithm", "bst14-localize-gaussian", "--step-rule", "adam"), "--step-rule"},
		{append(append([]string(nil), data...), "--algorithm", "bst14-objective-perturbation"), "not runnable"},
	} {
		_, errs, code := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.flag) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, want 2 naming %s: %q", c.args[len(data):], code, c.flag, errs)
		}
	}
}
