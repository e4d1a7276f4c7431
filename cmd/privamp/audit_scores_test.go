package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const canaryFile = "../../examples/canary-scores.csv"

// audit --scores: the lower bound beside a given upper bound, the verdict
// and its exit status, table, JSON, CSV and the plot.
func TestAuditScores(t *testing.T) {
	obj := jsonOf(t, "audit", "--scores", canaryFile, "--epsilon", "3")
	cmp := obj["comparison"].(map[string]any)
	if obj["command"] != "audit" || obj["epsilon_lower"].(float64) != 1.1120926691550663 || cmp["verdict"] != "CONSISTENT" || obj["estimator"] != "threshold" {
		t.Errorf("consistent: %v", obj)
	}
	plot := filepath.Join(t.TempDir(), "tradeoff.png")
	out, errOut, code := runCLI("audit", "--scores", canaryFile, "--epsilon", "0.5", "--plot", plot)
	if code != 1 || !strings.Contains(out, "VIOLATED") || !strings.Contains(out, "1.11209") {
		t.Errorf("violated: exit %d\n%s%s", code, out, errOut)
	}
	if st, err := os.Stat(plot); err != nil || st.Size() < 1000 {
		t.Errorf("plot: %v", err)
	}
	out, _, code = runCLI("audit", "--scores", canaryFile, "--csv")
	recs, err := csv.NewReader(strings.NewReader(strings.Replace(out, "\n\n", "\n", 1))).ReadAll()
	if code != 0 || err == nil && len(recs) < 3 {
		t.Errorf("csv: exit %d, %v\n%s", code, err, out)
	}
	// A claim: its ε at its δ is the upper bound.
	claim := filepath.Join(t.TempDir(), "claim.json")
	if err := os.WriteFile(claim, []byte(`{"algorithm": "dpsgd", "sampling": "poisson", "sample_rate": 0.01, "noise_multiplier": 1, "steps": 100, "delta": 1e-5, "epsilon": 0.8}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI("audit", "--scores", canaryFile, "--claim", claim, "--json")
	if err := json.Unmarshal([]byte(out), &obj); err != nil || code != 1 {
		t.Fatalf("claim: exit %d, %v", code, err)
	}
	if cmp := obj["comparison"].(map[string]any); cmp["verdict"] != "VIOLATED" || cmp["epsilon_upper"] != 0.8 {
		t.Errorf("claim: %v", cmp)
	}
}

// Bad input: exit 2 naming the line, the flag or the conflict.
func TestAuditScoresBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--scores", write("nan.csv", "member,score\n1,0.5\n0,NaN\n")}, "line 3"},
		{[]string{"--scores", write("two.csv", "member,score\n2,0.5\n0,1\n")}, "line 2"},
		{[]string{"--scores", write("rep.csv", "id,member,score\nc1,1,0.5\nc2,0,1\nc1,1,0.5\n")}, "line 4: id repeats line 2"},
		{[]string{"--scores", write("repg.csv", "id,member,guess\nc1,1,1\nc2,0,1\nc2,0,1\n")}, "line 4: id repeats line 3"},
		{[]string{"--scores", write("nomem.csv", "member,score\n0,0.5\n0,1\n")}, "member"},
		{[]string{"--scores", canaryFile, "--trials", "10"}, "--trials"},
		{[]string{"--scores", canaryFile, "--epsilon", "1", "--claim", "x.json"}, "--claim"},
		{[]string{"--scores", canaryFile, "--plot", "x.pdf"}, "--plot"},
		{[]string{"--scores", write("s.png", "member,score\n1,1\n0,0\n"), "--plot", filepath.Join(dir, "s.png")}, "--scores"},
		{[]string{"--scores", canaryFile, "--confidence", "1.5"}, "--confidence"},
		{[]string{"--epsilon", "1"}, "--scores"},
		{[]string{"--scores", "no-such.csv"}, "no-such.csv"},
	} {
		_, errOut, code := runCLI(append([]string{"audit"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, want 2 naming %s: %q", c.args, code, c.want, errOut)
		}
	}
	// Too few canaries is not an error: the bound is 0 with the reason.
	obj := jsonOf(t, "audit", "--scores", write("few.csv", "member,score\n1,0.5\n0,0.1\n1,0.7\n0,0.2\n"))
	if obj["epsilon_lower"] != 0.0 || obj["reason"] == nil {
		t.Errorf("few canaries: %v", obj)
	}
}
