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
