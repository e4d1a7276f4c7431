package main

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer/algorithms"
)

// run --algorithm langevin on the shipped data: the certified ε meets the
// target, every iterate is covered, and the paper's rates sit beside the
// measured excess risk.
func TestRunLangevin(t *testing.T) {
	obj := jsonOf(t, "run", "--algorithm", "langevin", "--data", "../../testdata/breast_cancer.csv", "--label", "malignant",
		"--standardize", "--normalize", "--l2", "0.1", "--coupling", "--steps", "500", "--target-epsilon", "0.5")
	priv := obj["privacy"].(map[string]any)
	if obj["command"] != "run" || obj["algorithm"] != "langevin" || obj["ok"] != true {
		t.Fatalf("command %v, algorithm %v, ok %v", obj["command"], obj["algorithm"], obj["ok"])
	}
	if e := priv["epsilon"].(float64); e > 0.5 || e < 0.4999 || !strings.Contains(priv["covers"].(string), "every iterate") {
		t.Errorf("privacy %v", priv)
	}
	if r := obj["paper_rates"].(map[string]any); r["convex"].(float64) <= 0 || r["strongly_convex"].(float64) <= 0 {
		t.Errorf("paper rates %v", r)
	}
	if _, ok := obj["coupling"].(map[string]any)["max_ratio"].(float64); !ok {
		t.Errorf("no coupling ratio")
	}
}

// Bad input names the flag and exits 2; flags of the PNSGD family are
// refused for a catalogued algorithm; --help lists every algorithm and says
// which are not certified.
func TestRunAlgorithmBadInput(t *testing.T) {
	base := []string{"run", "--algorithm", "langevin", "--synthetic", "logistic", "--n", "100", "--l2", "0.1", "--steps", "10"}
	for args, want := range map[string]string{
		"--eta 0": "--eta", "--beta -1": "--beta", "--psi -1": "--psi", "--steps 0": "--steps",
		"--strong-convexity 5": "--strong-convexity", "--variant skip": "--variant", "--regularize x": "--regularize",
		"--beta 10 --target-epsilon 1": "--beta", "--algorithm nope": "--algorithm", "--algorithm gtu-expmech": "not runnable",
		"--algorithm stop --variant skip": "disagree",
	} {
		_, errs, code := runCLI(withFlags(base, strings.Fields(args)...)...)
		if code != 2 || !strings.Contains(errs, want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%s: exit %d, %q; want exit 2 and one line naming %s", args, code, errs, want)
		}
	}
	out, _, _ := runCLI("run", "--help")
	for _, want := range []string{"langevin:", "pnsgd, skip, stop", "Not runnable as a certified algorithm: gtu-expmech", "iterated-expmech:", "not pure ε-DP", "--coupling"} {
		if !strings.Contains(out, want) {
			t.Errorf("run --help lacks %q", want)
		}
	}
}

// A catalogued algorithm whose check fails makes run exit 1 (here a test
// algorithm; the langevin coupling check's own failure on a non-convex loss
// is tested in optimizer/langevin).
func TestRunAlgorithmFailedCheckExits1(t *testing.T) {
	type params struct {
		Fail bool `param:"fail" doc:"fail the check"`
	}
	algorithms.Register(algorithms.Algorithm{Name: "zz-test-check", Source: "test", Summary: "a check that fails on request",
		Params: func() any { return &params{} },
		Run: func(in algorithms.Input, p any) (*algorithms.Report, error) {
			ok := !p.(*params).Fail
			st := map[bool]dp.Status{true: dp.Pass, false: dp.Fail}[ok]
			return &algorithms.Report{Title: "test", OK: ok, Result: map[string]bool{"ok": ok},
				Checks: []dp.Check{{Name: "requested", Status: st}}}, nil
		}})
	if _, _, code := runCLI("run", "--algorithm", "zz-test-check", "--synthetic", "logistic"); code != 0 {
		t.Errorf("passing check: exit %d", code)
	}
	out, _, code := runCLI("run", "--algorithm", "zz-test-check", "--synthetic", "logistic", "--fail")
	if code != 1 || !strings.Contains(out, "FAIL") {
		t.Errorf("failing check: exit %d, %s", code, out)
	}
}

// An input the algorithm does not use is refused, not silently ignored.
func TestRunAlgorithmRefusesIgnoredInputs(t *testing.T) {
	for _, args := range [][]string{{"smd-sco", "--radius", "2"}, {"smd-vertex", "--synthetic", "bilinear", "--l2", "0.1"}, {"smd-bias-reduced", "--loss", "squared"}} {
		_, errs, code := runCLI(append([]string{"run", "--algorithm"}, args...)...)
		if code != 2 || !strings.Contains(errs, "does not apply") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}
