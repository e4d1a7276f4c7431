package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkStatus returns the status of the named check of a verify --json object.
func checkStatus(m map[string]any, name string) string {
	cs, _ := m["checks"].([]any)
	for _, c := range cs {
		if c := c.(map[string]any); c["name"] == name {
			s, _ := c["status"].(string)
			return s
		}
	}
	return ""
}

// TestVerifyIssue22Noise (hole 4a): a claim of σ = 4 beside a trajectory of
// privamp run --sigma 2 --eta 4 --radius 1 --trace was VALID (exit 0); it is
// now UNSUPPORTED (exit 3) by the noise check, and σ = 2 passes it.
func TestVerifyIssue22Noise(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.csv")
	if _, code, errs := runJSON(t, "run", "--data", "../../testdata/breast_cancer.csv", "--label", "malignant", "--standardize", "--normalize",
		"--variant", "pnsgd", "--sigma", "2", "--eta", "4", "--radius", "1", "--trace", tr); code != 0 {
		t.Fatalf("run: exit %d %s", code, errs)
	}
	claim, err := os.ReadFile("../../examples/claim.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sigma, verdict, status string
		code                   int
	}{{"4", "UNSUPPORTED", "FAIL", 3}, {"2", "VALID", "PASS", 0}} {
		body := strings.Replace(string(claim), `"sigma": 4`, `"sigma": `+c.sigma, 1)
		body = strings.Replace(body, `"epsilon": 1.6`, `"epsilon": 100`, 1)
		body = strings.Replace(body, `"trajectory": "trajectory.csv"`, `"trajectory": "t.csv"`, 1)
		p := writeClaim(t, dir, body)
		m, code, errs := runJSON(t, "verify", p)
		if code != c.code || m["verdict"] != c.verdict || checkStatus(m, "trajectory: noise drawn matches σ") != c.status {
			t.Errorf("σ = %s: exit %d %v, noise check %q (%s)", c.sigma, code, m["verdict"], checkStatus(m, "trajectory: noise drawn matches σ"), errs)
		}
	}
}

// exampleClaimIn writes examples/claim.json, edited by the replacements
// (old, new pairs), beside a copy of examples/trajectory.csv in dir.
func exampleClaimIn(t *testing.T, dir string, repl ...string) string {
	t.Helper()
	claim, err := os.ReadFile("../../examples/claim.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := os.ReadFile("../../examples/trajectory.csv")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "trajectory.csv"), tr, 0o644); err != nil {
		t.Fatal(err)
	}
	body := string(claim)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(body, repl[i]) {
			t.Fatalf("examples/claim.json has no %q", repl[i])
		}
		body = strings.Replace(body, repl[i], repl[i+1], 1)
	}
	return writeClaim(t, dir, body)
}

// TestVerifyIssue22Public (hole 4b): "public": 200 beside the 569-step
// example trajectory (769 steps implied) exited 0 VALID; now 3.
func TestVerifyIssue22Public(t *testing.T) {
	p := exampleClaimIn(t, t.TempDir(), `"epochs": 1,`, `"epochs": 1, "public": 200,`)
	m, code, errs := runJSON(t, "verify", p)
	if code != 3 || m["verdict"] != "UNSUPPORTED" || checkStatus(m, "trajectory: number of steps") != "FAIL" {
		t.Errorf("exit %d %v (%s)", code, m["verdict"], errs)
	}
}
