package main

// Tests of verify, audit and run in gh's style (issue 24): flag-parsing
// tests build the command with a runF that records the options and
// computes nothing; computation tests call xRun with options built by hand,
// no flags. The end-to-end tests through the whole binary that remain test
// the wiring only.

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/privamp/privamp/audit"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

// parseOnlyOptions runs newCmd's flag parsing on args with a runF that
// records the options: nothing is computed. It returns the options (nil
// when runF was not reached) and the exit status of the error.
func parseOnlyOptions[T any](newCmd func(*app, func(*T) error) *cobra.Command, args ...string) (*T, int) {
	var got *T
	cmd := newCmd(&app{out: io.Discard, errw: io.Discard}, func(o *T) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	return got, exitCode(cmd.Execute())
}

// jsonApp is an app that writes --json to the returned buffer.
func jsonApp() (*app, *bytes.Buffer) {
	var out bytes.Buffer
	return &app{out: &out, errw: io.Discard, mode: outputMode{json: true}, quiet: true}, &out
}

func decodeJSON(t *testing.T, b *bytes.Buffer) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, b.String())
	}
	return m
}

func TestVerifyOptionsFromFlags(t *testing.T) {
	o, code := parseOnlyOptions(newVerifyCmd, "../../examples/claim.json", "--trajectory", "t.csv")
	if code != 0 || o == nil || o.Path != "../../examples/claim.json" || o.Trajectory != "t.csv" || o.Plan {
		t.Errorf("claim: exit %d, %+v", code, o)
	}
	if o, code = parseOnlyOptions(newVerifyCmd, "../../examples/plan/plan.json"); code != 0 || o == nil || !o.Plan {
		t.Errorf("plan: exit %d, %+v", code, o)
	}
	for _, args := range [][]string{
		{"../../examples/plan/plan.json", "--trajectory", "t.csv"}, // a plan has no trajectory
		{},                      // no file
		{"a.json", "b.json"},    // two files
		{"a.json", "--no-such"}, // an unknown flag
	} {
		if o, code := parseOnlyOptions(newVerifyCmd, args...); o != nil || code == 0 {
			t.Errorf("%v: exit %d, options %+v", args, code, o)
		}
	}
}

// verifyRun decides and exits by the verdict: VALID 0, INVALID 1,
// UNSUPPORTED 3 (dp.Verdict.ExitStatus); an unreadable claim is bad input.
func TestVerifyRunVerdicts(t *testing.T) {
	dir := t.TempDir()
	const run = `{"algorithm": "dpsgd", "sampling": "poisson", "sample_rate": 1, "steps": 10, "noise_multiplier": 4, "delta": 1e-5, ` // q = 1: the exact Gaussian profile, fast
	for _, c := range []struct {
		body, verdict string
		code          int
	}{
		{run + `"epsilon": 5}`, "VALID", 0},
		{run + `"epsilon": 0.05}`, "INVALID", 1},
		{strings.Replace(run, `"poisson"`, `"shuffle"`, 1) + `"epsilon": 5}`, "UNSUPPORTED", 3},
	} {
		a, out := jsonApp()
		err := verifyRun(&verifyOptions{IO: a, Path: writeClaim(t, dir, c.body)})
		if m := decodeJSON(t, out); exitCode(err) != c.code || m["verdict"] != c.verdict || m["command"] != "verify" {
			t.Errorf("%s: exit %d, verdict %v", c.body, exitCode(err), m["verdict"])
		}
	}
	a, out := jsonApp()
	if err := verifyRun(&verifyOptions{IO: a, Path: filepath.Join(dir, "none.json")}); exitCode(err) != 2 || out.Len() != 0 {
		t.Errorf("missing claim: exit %d, wrote %q", exitCode(err), out.String())
	}
}

func TestAuditOptionsFromFlags(t *testing.T) {
	o, code := parseOnlyOptions(newAuditCmd, "--synthetic", "quadratic", "--loss", "linear", "--no-projection", "--variant", "pnsgd",
		"--eta", "0.1", "--sigma", "0.3", "--index", "1", "--trials", "50", "--workers", "2", "--delta", "1e-3")
	if code != 0 || o == nil || o.Scores != nil || o.Audit.Trials != 50 || o.Audit.Index != 1 || o.Audit.Workers != 2 ||
		!math.IsInf(o.Training.Radius, 1) || o.Training.Training.Sigma != 0.3 || o.Training.Training.Delta != 1e-3 || o.Training.Data.Synthetic != "quadratic" {
		t.Fatalf("neighbouring runs: exit %d, %+v", code, o)
	}
	o, code = parseOnlyOptions(newAuditCmd, "--scores", "s.csv", "--epsilon", "0.5", "--delta", "1e-3", "--confidence", "0.9", "--assume-gdp", "--thresholds", "1,2")
	if code != 0 || o == nil || o.Scores == nil {
		t.Fatalf("scores: exit %d, %+v", code, o)
	}
	if s := o.Scores; s.Path != "s.csv" || !s.EpsilonGiven || s.Epsilon != 0.5 || s.Delta != 1e-3 || s.Confidence != 0.9 || !s.GDP || len(s.Grid) != 2 || s.In == nil {
		t.Errorf("scores: %+v", s)
	}
	if o, _ = parseOnlyOptions(newAuditCmd, "--scores", "s.csv"); o == nil || o.Scores.EpsilonGiven {
		t.Errorf("no --epsilon: %+v", o.Scores)
	}
	for _, args := range [][]string{
		{"--claim", "c.json"}, // --claim goes with --scores
		{"--epsilon", "1"},
		{"--scores", "s.csv", "--epsilon", "1", "--claim", "c.json"},
		{"--scores", "s.csv", "--plot", "x.txt"},
		{"--scores", "s.csv", "--trials", "100"}, // not a flag of --scores
		{"--radius", "2", "--no-projection"},
		{"--sigma", "1", "--target-epsilon", "1"},
	} {
		if o, code := parseOnlyOptions(newAuditCmd, args...); o != nil || code != 2 {
			t.Errorf("%v: exit %d, options %+v", args, code, o)
		}
	}
}

// auditRun on canary scores: CONSISTENT exits 0, VIOLATED 1, without a
// flag parsed.
func TestAuditRunScores(t *testing.T) {
	for _, c := range []struct {
		epsilon float64
		verdict string
		code    int
	}{{3, "CONSISTENT", 0}, {0.5, "VIOLATED", 1}} {
		a, out := jsonApp()
		err := auditRun(&auditOptions{IO: a, Scores: &scoresOptions{Path: canaryFile, Epsilon: c.epsilon, EpsilonGiven: true, Confidence: 0.95, Delta: 1e-5}})
		m := decodeJSON(t, out)
		if cmp, _ := m["comparison"].(map[string]any); exitCode(err) != c.code || cmp["verdict"] != c.verdict || m["epsilon_lower"].(float64) != 1.1120926691550663 {
			t.Errorf("ε = %g: exit %d, %v", c.epsilon, exitCode(err), m["comparison"])
		}
	}
}

// auditRun of neighbouring runs of the linear loss (exact Gaussian
// output): the lower bound is below the proven one, exit 0.
func TestAuditRunNeighbours(t *testing.T) {
	a, out := jsonApp()
	spec := optimizer.Spec{Data: optimizer.DataSpec{Synthetic: "quadratic", N: 1000, Dimension: 10, Seed: 1}, Loss: optimizer.LossSpec{Name: "linear"},
		Radius: math.Inf(1), Training: shifted.Training{Variant: shifted.VariantPNSGD, Batch: 1, Epochs: 1, Tasks: 1, Delta: 1e-3, Sigma: 0.3}, Seed: 1, MaxPoints: 2000}
	spec.Training.Loss.Eta = 0.1
	err := auditRun(&auditOptions{IO: a, Training: spec, Audit: audit.Spec{Trials: 100, Index: 1, Workers: 2, Confidence: 0.95}})
	m := decodeJSON(t, out)
	if exitCode(err) != 0 || m["command"] != "audit" || m["check"].(map[string]any)["status"] != "PASS" {
		t.Errorf("exit %d (%v), check %v", exitCode(err), err, m["check"])
	}
}

func TestRunOptionsFromFlags(t *testing.T) {
	o, code := parseOnlyOptions(newRunCmd, "--synthetic", "logistic", "--n", "300", "--dimension", "3", "--variant", "stop", "--sigma", "2", "--trace", "t.csv", "--index", "1,2")
	if code != 0 || o == nil || o.Algorithm != nil || o.Trace != "t.csv" || o.Spec.Data.N != 300 || o.Spec.Training.Variant != shifted.VariantStop ||
		o.Spec.Training.Sigma != 2 || len(o.Spec.Indices) != 2 || o.Spec.Radius != 1 || o.Spec.Training.Delta != 1e-5 {
		t.Fatalf("pnsgd family: exit %d, %+v", code, o)
	}
	if o, _ = parseOnlyOptions(newRunCmd, "--algorithm", "skip", "--synthetic", "logistic"); o == nil || o.Spec.Training.Variant != shifted.VariantSkip {
		t.Errorf("--algorithm skip: %+v", o)
	}
	o, code = parseOnlyOptions(newRunCmd, "--algorithm", "langevin", "--synthetic", "logistic", "--n", "200", "--steps", "50", "--no-projection")
	if code != 0 || o == nil || o.Algorithm == nil || o.Algorithm.Name != "langevin" || !o.Input.Set["steps"] || o.Input.Data.N != 200 || !math.IsInf(o.Input.Radius, 1) {
		t.Fatalf("langevin: exit %d, %+v", code, o)
	}
	for _, args := range [][]string{
		{"--algorithm", "stop", "--variant", "skip"},
		{"--algorithm", "no-such-algorithm"},
		{"--algorithm", "langevin", "--repeats", "3"}, // a PNSGD flag
		{"--id", "id"}, // --id goes with --plan
		{"--sigma", "1", "--target-epsilon", "1"},
		{"--radius", "2", "--no-projection"},
		{"--plot", "x.txt"},
	} {
		if o, code := parseOnlyOptions(newRunCmd, args...); o != nil || code == 0 {
			t.Errorf("%v: exit %d, options %+v", args, code, o)
		}
	}
}

// runRun trains from a Spec built by hand: a passing run exits 0 and its
// checks carry the typed statuses' words.
func TestRunRunSpec(t *testing.T) {
	a, out := jsonApp()
	spec := optimizer.Spec{Data: optimizer.DataSpec{Synthetic: "logistic", N: 300, Dimension: 3, Seed: 1}, Radius: 1,
		Training: shifted.Training{Variant: shifted.VariantSkip, Batch: 1, Epochs: 1, Tasks: 1, Delta: 1e-5}, Target: 1, Seed: 1, Confidence: 0.95, MaxPoints: 2000}
	spec.Loss.HuberDelta, spec.Loss.Smoothing = 1, 0.1
	err := runRun(&runOptions{IO: a, Spec: spec})
	m := decodeJSON(t, out)
	if exitCode(err) != 0 || m["ok"] != true || len(m["checks"].([]any)) == 0 {
		t.Fatalf("exit %d (%v), %v", exitCode(err), err, m["checks"])
	}
	for _, ch := range m["checks"].([]any) {
		if st := ch.(map[string]any)["status"]; !strings.Contains(" PASS N/A WORSE VACUOUS ", " "+st.(string)+" ") {
			t.Errorf("status %v", st)
		}
		if _, ok := ch.(map[string]any)["basis"]; ok {
			t.Errorf("a run's check has verify's basis key: %v", ch)
		}
	}
}

// One run, one number, through the whole binary: `privamp verify` of a
// DP-SGD claim certifies the ε `privamp dpsgd` prints for the same run
// (package verify's TestDPSGDClaimSameEpsilonAsDPSGD pins more runs).
func TestVerifyDPSGDClaimMatchesDPSGDCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("privamp dpsgd takes over a second (its PLD and optimistic grid); package verify's test runs under -short")
	}
	d := jsonOf(t, "dpsgd", "--sampling-rate", "0.01", "--steps", "1000", "--noise", "1.1", "--delta", "1e-5")
	p := writeClaim(t, t.TempDir(), `{"algorithm": "dpsgd", "sampling": "poisson", "sample_rate": 0.01, "steps": 1000, "noise_multiplier": 1.1, "delta": 1e-5, "epsilon": 3}`)
	v := jsonOf(t, "verify", p)
	if d["epsilon"] != v["worst_epsilon"] || d["source"] != v["source"] || v["verdict"] != "VALID" {
		t.Errorf("dpsgd ε = %v (%v); verify certifies %v (%v), %v", d["epsilon"], d["source"], v["worst_epsilon"], v["source"], v["verdict"])
	}
}
