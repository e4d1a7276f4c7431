package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runJSON(t *testing.T, args ...string) (map[string]any, int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append(args, "--json", "--quiet"), &out, &errb)
	if code != 0 && code != 1 && code != 3 {
		return nil, code, errb.String()
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%v: not one JSON object: %v\n%s\nstderr: %s", args, err, out.String(), errb.String())
	}
	return m, code, errb.String()
}

func checksByName(m map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, c := range m["checks"].([]any) {
		cm := c.(map[string]any)
		out[cm["name"].(string)] = cm
	}
	return out
}

func TestRunBreastCancer(t *testing.T) {
	dir := t.TempDir()
	tr, png := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.png")
	args := []string{"run", "--data", "../../testdata/breast_cancer.csv", "--label", "malignant", "--standardize", "--normalize",
		"--variant", "skip", "--target-epsilon", "1", "--repeats", "8", "--trace", tr, "--plot", png}
	m, code, stderr := runJSON(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for name, c := range checksByName(m) {
		if c["status"] == "FAIL" {
			t.Errorf("check %q failed: %v", name, c)
		}
	}
	pr := m["privacy"].(map[string]any)
	if pr["epsilon_worst"].(float64) > 1 || pr["worst_index"].(float64) != 569 {
		t.Fatalf("privacy %v", pr)
	}
	if pr["epsilon_first"].(float64) >= pr["epsilon_worst"].(float64) {
		t.Fatal("index 1 not better protected than the last")
	}
	if _, ok := m["utility"]; !ok {
		t.Fatal("no utility with --repeats")
	}
	for _, f := range []string{tr, png} {
		st, err := os.Stat(f)
		if err != nil || st.Size() == 0 {
			t.Fatalf("%s not written: %v", f, err)
		}
	}
	b, _ := os.ReadFile(png)
	if !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Fatal("--plot .png is not a PNG")
	}
	// same seed, same output
	m2, _, _ := runJSON(t, args[:len(args)-6]...)
	w1 := m["result"].(map[string]any)["w"].([]any)
	w2 := m2["result"].(map[string]any)["w"].([]any)
	for i := range w1 {
		if w1[i] != w2[i] {
			t.Fatal("run is not deterministic for a seed")
		}
	}
}

func TestRunExactQuadratic(t *testing.T) {
	// linear loss without projection: exact ρ equals the bound at index 1
	m, code, stderr := runJSON(t, "run", "--synthetic", "quadratic", "--loss", "linear", "--no-projection", "--n", "50", "--dim", "3",
		"--variant", "pnsgd", "--eta", "0.1", "--sigma", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ex := m["exact"].(map[string]any)
	i1 := ex["index_1"].(map[string]any)
	if d := i1["exact_rho"].(float64) / i1["bound_rho"].(float64); d < 1-1e-9 || d > 1+1e-9 {
		t.Fatalf("index 1: exact ρ %v vs bound %v", i1["exact_rho"], i1["bound_rho"])
	}
	last := ex["index_50"].(map[string]any)
	if last["exact_rho"].(float64) > last["bound_rho"].(float64) || last["exact_epsilon"].(float64) > last["bound_epsilon"].(float64) {
		t.Fatalf("index 50: exact above the bound: %v", last)
	}
	// quadratic (strongly convex): exact ≤ bound everywhere, SVG plot
	svg := filepath.Join(t.TempDir(), "p.svg")
	m, code, _ = runJSON(t, "run", "--synthetic", "quadratic", "--no-projection", "--n", "200", "--dim", "2",
		"--variant", "pnsgd", "--eta", "0.05", "--sigma", "2", "--plot", svg)
	if code != 0 {
		t.Fatal(code)
	}
	for k, v := range m["exact"].(map[string]any) {
		e := v.(map[string]any)
		if e["exact_rho"].(float64) > e["bound_rho"].(float64)*(1+1e-12) {
			t.Fatalf("%s: exact %v > bound %v", k, e["exact_rho"], e["bound_rho"])
		}
	}
	if b, _ := os.ReadFile(svg); !bytes.Contains(b, []byte("<svg")) {
		t.Fatal("--plot .svg is not SVG")
	}
}

func TestRunVariantsAndRules(t *testing.T) {
	for _, args := range [][]string{
		{"--variant", "stop"},
		{"--variant", "stop", "--tasks", "3"},
		{"--variant", "skip", "--public", "200"},
		{"--variant", "pnsgd", "--epochs", "3", "--batch", "10", "--target-epsilon", "2"},
		{"--variant", "pnsgd", "--l2", "0.1", "--sigma", "3"},
		{"--loss", "smooth-hinge", "--smoothing", "0.2", "--variant", "stop"},
		{"--synthetic", "linear", "--loss", "huber", "--variant", "skip"},
	} {
		m, code, stderr := runJSON(t, append([]string{"run", "--n", "400", "--dim", "4"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		pr := m["privacy"].(map[string]any)
		if pr["applicable"] != true {
			t.Fatalf("%v: %v", args, pr)
		}
		c, ok := checksByName(m)["sound ε ≤ target"]
		if _, sigma := m["algorithm"].(map[string]any)["sigma_source"].(string); ok != !strings.Contains(strings.Join(args, " "), "--sigma") || !sigma {
			t.Errorf("%v: target check present = %v", args, ok)
		}
		if ok && c["status"] != "PASS" {
			t.Errorf("%v: %v", args, c)
		}
	}
}

func TestRunConfigFile(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"synthetic": "logistic", "n": 300, "dim": 3, "variant": "stop", "target_epsilon": 0.5, "seed": 7}`), 0o644)
	m, code, stderr := runJSON(t, "run", "--config", cfg, "--seed", "8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	al := m["algorithm"].(map[string]any)
	if al["variant"] != "stop" || al["seed"].(float64) != 8 || m["data"].(map[string]any)["n"].(float64) != 300 {
		t.Fatalf("config not applied (or flag did not win): %v", al)
	}
	os.WriteFile(cfg, []byte(`{"nope": 1}`), 0o644)
	if _, code, stderr := runJSON(t, "run", "--config", cfg); code != 2 || !strings.Contains(stderr, "nope") {
		t.Fatalf("unknown key: exit %d %s", code, stderr)
	}
}

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a,b,y\n1,2,0\n1,x,1\n"), 0o644)
	trace := filepath.Join(dir, "never.csv")
	cases := []struct {
		args []string
		frag string
	}{
		{[]string{"--delta", "2"}, "--delta"},
		{[]string{"--data", filepath.Join(dir, "missing.csv"), "--label", "y"}, "--data"},
		{[]string{"--data", bad, "--label", "y", "--trace", trace}, "line 3"},
		{[]string{"--data", bad}, "--label"},
		{[]string{"--plot", "x.gif"}, "--plot"},
		{[]string{"--variant", "nope"}, "--variant"},
		{[]string{"--loss", "huber", "--huber-delta", "-1"}, "--huber-delta"},
		{[]string{"--batch", "0"}, "--batch"},
		{[]string{"--variant", "skip", "--epochs", "2"}, "--epochs"},
		{[]string{"--sigma", "1", "--target-epsilon", "1"}, "--sigma"},
		{[]string{"--rule", "thm29"}, "--rule"},
		{[]string{"--repeats", "1"}, "--repeats"},
		{[]string{"--tasks", "2"}, "--tasks"},
		{[]string{"--n", "abc"}, "--n"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"run", "--quiet"}, c.args...), &out, &errb)
		msg := errb.String()
		if code != 2 || !strings.Contains(msg, c.frag) || strings.Count(strings.TrimSpace(msg), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q (want 2, one line naming %s)", c.args, code, msg, c.frag)
		}
	}
	if _, err := os.Stat(trace); err == nil {
		t.Fatal("a trace was written for a failed run")
	}
}
