package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/privamp/privamp/verify"
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

// TestVerifyIssue22Delta (hole 4c): "delta": 0.1 with n = 60000 was VALID
// (exit 0) with no remark; now the check "δ < 1/n" FAILs in every format
// and the exit status is 3. So for a claim (n = 569).
func TestVerifyIssue22Delta(t *testing.T) {
	dir := t.TempDir()
	doc, err := os.ReadFile("../../examples/dpsgd-claim.json")
	if err != nil {
		t.Fatal(err)
	}
	dp := filepath.Join(dir, "dp.json")
	if err := os.WriteFile(dp, []byte(strings.Replace(string(doc), `"delta": 1e-5`, `"delta": 0.1`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	cl := exampleClaimIn(t, dir, `"delta": 1e-5`, `"delta": 0.1`)
	for _, p := range []string{dp, cl} {
		c, trace, tpath, err := verify.Load(p, "")
		if err != nil {
			t.Fatal(err)
		}
		v, err := verify.Verify(c, trace) // once; rendered in every format
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []outputMode{{json: true}, {csv: true}, {}} {
			var out bytes.Buffer
			err := reportVerdict(&app{out: &out, errw: io.Discard, mode: mode}, v.Report(p, tpath), v.Verdict)
			if mode.json {
				if m := decodeJSON(t, &out); m["verdict"] != "UNSUPPORTED" || checkStatus(m, "δ < 1/n") != "FAIL" {
					t.Errorf("%s: %v %q", p, m["verdict"], checkStatus(m, "δ < 1/n"))
				}
			} else if !strings.Contains(out.String(), "δ < 1/n") || !strings.Contains(out.String(), "protects nobody") {
				t.Errorf("%s %+v:\n%s", p, mode, out.String())
			}
			if exitCode(err) != 3 {
				t.Errorf("%s %+v: exit %d", p, mode, exitCode(err))
			}
		}
	}
}

// TestVerifyIssue22Assumed (hole 4d): "Poisson sampling │ PASS │ declared
// (taken on trust)" is now ASSUMED; no check taken on trust shows PASS.
func TestVerifyIssue22Assumed(t *testing.T) {
	files := []string{"../../examples/dpsgd-claim.json", "../../examples/claim.json", "../../examples/dpsgd-fixed-size-claim.json"}
	if testing.Short() {
		files = files[:2] // the fixed-size claim's PLD takes a second; package verify's tests read it too
	}
	for i, p := range files {
		a, out := jsonApp()
		err := verifyRun(&verifyOptions{IO: a, Path: p})
		m := decodeJSON(t, out)
		if err != nil {
			t.Fatalf("%s: exit %d %v", p, exitCode(err), err)
		}
		if i == 0 && checkStatus(m, "Poisson sampling") != "ASSUMED" {
			t.Errorf("Poisson sampling: %q", checkStatus(m, "Poisson sampling"))
		}
		for _, c := range m["checks"].([]any) {
			c := c.(map[string]any)
			if c["basis"] == "declared (taken on trust)" && c["status"] == "PASS" {
				t.Errorf("%s: %v is taken on trust but PASS", p, c["name"])
			}
		}
	}
}

// TestVerifyIssue22PlanFile (holes 4e, 8a): an edited summary
// (max_achieved_ratio, achieved_max) was VALID, exit 0, with output
// identical to the untouched plan; now INVALID, exit 1, naming the field.
// A plan without smoothness and η = 1e300 was VALID; now UNSUPPORTED,
// exit 3, via composition.
func TestVerifyIssue22PlanFile(t *testing.T) {
	dir := t.TempDir()
	edit := func(src, old, new string) string {
		raw, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), old) {
			t.Fatalf("%s has no %q", src, old)
		}
		p := filepath.Join(dir, "p.json")
		if err := os.WriteFile(p, []byte(strings.Replace(string(raw), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const bc = "../../examples/plan/breast-cancer-plan.json"
	for _, c := range [][3]string{
		{`"max_achieved_ratio": 0.99999999`, `"max_achieved_ratio": 0.5`, "summary.max_achieved_ratio"},
		{`"achieved_max": 0.10752135087594095`, `"achieved_max": 0.05`, "summary.groups[0].achieved_max"},
	} {
		p := edit(bc, c[0], c[1])
		out, _, code := runCLI("verify", p)
		if code != 1 || !strings.Contains(out, "INVALID") || !strings.Contains(out, c[2]) {
			t.Errorf("%s edited: exit %d\n%s", c[2], code, out)
		}
	}
	p := edit("../../examples/plan/plan.json", `"eta": 0.008416669203670301`, `"eta": 1e300`)
	m, code, errs := runJSON(t, "verify", p)
	if code != 3 || m["verdict"] != "UNSUPPORTED" || m["via"] != "composition" || checkStatus(m, "smoothness β stated") != "UNMET" {
		t.Errorf("η = 1e300 without β: exit %d %v via %v (%s)", code, m["verdict"], m["via"], errs)
	}
}

// TestVerifyIssue22Sampling (hole 8b): a DP-SGD claim without "sampling"
// was read as Poisson with no remark (exit 0); now it is refused as a
// missing required field naming the allowed values (exit 2, one line).
func TestVerifyIssue22Sampling(t *testing.T) {
	p := writeClaim(t, t.TempDir(), `{"algorithm": "dpsgd", "n": 60000, "batch_size": 256, "noise_multiplier": 1.1, "epochs": 60, "delta": 1e-5, "epsilon": 2.6}`)
	out, errs, code := runCLI("verify", p)
	if code != 2 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Fatalf("exit %d, out %q, err %q", code, out, errs)
	}
	for _, w := range []string{`"sampling"`, `"poisson"`, `"fixed-size"`, `"shuffle"`} {
		if !strings.Contains(errs, w) {
			t.Errorf("the error does not name %s: %s", w, errs)
		}
	}
}
