package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestAuditLinearGaussian(t *testing.T) {
	m, code, stderr := runJSON(t, "audit", "--synthetic", "quadratic", "--loss", "linear", "--no-projection", "--n", "10", "--dimension", "2",
		"--variant", "pnsgd", "--eta", "0.1", "--sigma", "0.3162", "--index", "1", "--trials", "4000", "--delta", "0.05")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lo, up, ex := m["epsilon_lower"].(float64), m["epsilon"].(float64), m["exact_epsilon"].(float64)
	if !(lo <= ex && ex <= up) || lo < 0.5*ex || m["check"].(map[string]any)["status"] != "PASS" || m["command"] != "audit" {
		t.Fatalf("lower %v, exact %v, upper %v", lo, ex, up)
	}
}

func TestAuditBreastCancerAndWorkers(t *testing.T) {
	args := []string{"audit", "--data", "../../testdata/breast_cancer.csv", "--label", "malignant", "--standardize", "--normalize",
		"--variant", "pnsgd", "--sigma", "1", "--trials", map[bool]string{false: "300", true: "100"}[testing.Short()], "--delta", "1e-3"}
	m1, code, stderr := runJSON(t, append(args, "--workers", "1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m2, _, _ := runJSON(t, append(args, "--workers", "2")...)
	if m1["epsilon_lower"] != m2["epsilon_lower"] || m1["threshold"] != m2["threshold"] {
		t.Fatal("audit result depends on the number of workers")
	}
	if m1["epsilon_lower"].(float64) > m1["epsilon"].(float64) || m1["index"].(float64) != 569 {
		t.Fatalf("audit %v", m1)
	}
}

func TestAuditBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		frag string
	}{
		{[]string{"--trials", "5"}, "--trials"},
		{[]string{"--index", "100000"}, "--index"},
		{[]string{"--confidence", "1.5"}, "--confidence"},
		{[]string{"--workers", "-1"}, "--workers"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"audit", "--quiet"}, c.args...), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.frag) {
			t.Errorf("%v: exit %d %q", c.args, code, errb.String())
		}
	}
}

// Hole 7: audit --csv keeps the answer (the bounds and the verdict) before
// the check table.
func TestAuditCSVKeepsAnswer(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"audit", "--synthetic", "quadratic", "--loss", "linear", "--no-projection", "--n", "10", "--dimension", "2",
		"--variant", "pnsgd", "--eta", "0.1", "--sigma", "1", "--trials", "200", "--csv", "--quiet"}, &out, &errb)
	for _, s := range []string{"verdict", "ε lower bound (audit)", "ε upper bound (proven)", "table,1,check,", "table,1,status,"} {
		if code != 0 || !strings.Contains(out.String(), s) {
			t.Errorf("--csv: exit %d, lacks %q:\n%s%s", code, s, out.String(), errb.String())
		}
	}
}
