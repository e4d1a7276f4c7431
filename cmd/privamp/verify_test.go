package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

func writeClaim(t *testing.T, dir, body string) string {
	p := filepath.Join(dir, "claim.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVerifyExample(t *testing.T) {
	m, code, stderr := runJSON(t, "verify", "../../examples/claim.json")
	if code != 0 || m["verdict"] != "VALID" {
		t.Fatalf("exit %d %v %s", code, m["verdict"], stderr)
	}
	if m["certified_epsilon"].(float64) > m["claimed_epsilon"].(float64) {
		t.Fatal("VALID with a claim below the bound")
	}
}

func TestVerifyStatuses(t *testing.T) {
	dir := t.TempDir()
	base := `{"algorithm": "pnsgd", "n": 1000, "eta": 0.5, "sigma": 2, "lipschitz": 1, "smoothness": 1, "delta": 1e-5, "epsilon": %s}`
	cases := []struct {
		eps, extra string
		code       int
		verdict    string
	}{
		{"6", "", 0, "VALID"},
		{"1", "", 1, "INVALID"},
		{"1", `, "eta": 3`, 3, "UNSUPPORTED"},
	}
	for _, c := range cases {
		body := strings.Replace(base, "%s", c.eps, 1)
		if c.extra != "" {
			body = strings.Replace(body, `"eta": 0.5`, `"eta": 3`, 1)
		}
		p := writeClaim(t, dir, body)
		m, code, stderr := runJSON(t, "verify", p)
		if code != c.code || m["verdict"] != c.verdict {
			t.Fatalf("%s: exit %d verdict %v (%s)", c.verdict, code, m["verdict"], stderr)
		}
		switch c.verdict {
		case "INVALID":
			if m["sigma_needed"].(float64) <= 2 || m["certified_epsilon"].(float64) <= 1 {
				t.Fatalf("INVALID report: %v", m)
			}
		case "UNSUPPORTED":
			if len(m["failed_assumptions"].([]any)) == 0 || m["composition_epsilon"] == nil {
				t.Fatalf("UNSUPPORTED report: %v", m)
			}
		}
		// the table form exits the same way
		var out, errb bytes.Buffer
		if code := run([]string{"verify", p}, &out, &errb); code != c.code || !strings.Contains(out.String(), c.verdict) {
			t.Fatalf("%s (table): exit %d\n%s", c.verdict, code, out.String())
		}
	}
}

func TestVerifyBadClaims(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ body, frag string }{
		{`{"algorithm": "pnsgd"}`, `"n"`},
		{`{"algorithm": "pnsgd", "n": "x"}`, `"n"`},
		{"{\n\"n\": 3,,\n}", "line 2"},
		{`{"algorithm": "pnsgd", "n": 10, "eta": 1, "sigma": 1, "lipschitz": 1, "delta": 5, "epsilon": 1}`, `"delta"`},
		{`{"algorithm": "pnsgd", "n": 10, "eta": 1, "sigma": 1, "lipschitz": 1, "delta": 0.1, "epsilon": 1, "extra": 2}`, `"extra"`},
		{`{"algorithm": "pnsgd", "n": 10, "eta": 1, "sigma": 1, "lipschitz": 1, "delta": 0.1, "epsilon": 1, "trajectory": "none.csv"}`, `"trajectory"`},
	} {
		p := writeClaim(t, dir, c.body)
		var out, errb bytes.Buffer
		code := run([]string{"verify", p}, &out, &errb)
		msg := errb.String()
		if code != 2 || !strings.Contains(msg, c.frag) || strings.Count(strings.TrimSpace(msg), "\n") > 0 || out.Len() > 0 {
			t.Errorf("%s: exit %d, stderr %q", c.body, code, msg)
		}
	}
	// a bad trajectory line
	tr := filepath.Join(dir, "t.csv")
	os.WriteFile(tr, []byte("step,grad_norm,step_size\n1,0.5,1\n2,abc,1\n"), 0o644)
	p := writeClaim(t, dir, `{"algorithm": "pnsgd", "n": 2, "eta": 1, "sigma": 1, "lipschitz": 1, "smoothness": 1, "delta": 0.1, "epsilon": 1, "trajectory": "t.csv"}`)
	var out, errb bytes.Buffer
	if code := run([]string{"verify", p}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "line 3") {
		t.Fatalf("bad trajectory: exit %d %q", code, errb.String())
	}
}

// TestVerifyPlan: a plan file is recognised by its format and verified
// person by person: VALID (exit 0) for the shipped plans, INVALID (exit 1)
// with every violation for a plan whose targets were lowered by hand.
func TestVerifyPlan(t *testing.T) {
	for _, f := range []string{"../../examples/plan/plan.json", "../../examples/plan/tiers-plan.json", "../../examples/plan/breast-cancer-plan.json"} {
		m, code, stderr := runJSON(t, "verify", f)
		if code != 0 || m["verdict"] != "VALID" || m["kind"] != "plan" || m["violation_count"].(float64) != 0 || m["worst_ratio"].(float64) > 1 {
			t.Errorf("%s: exit %d %v %s", f, code, m, stderr)
		}
		for _, g := range m["groups"].([]any) {
			if g := g.(map[string]any); g["achieved_max"].(float64) > g["epsilon"].(float64) {
				t.Errorf("%s: group %v", f, g)
			}
		}
	}
	// Lower two people's targets below what they get: INVALID, naming them.
	dir := t.TempDir()
	p := loadPlanFile(t, "../../examples/plan/plan.json")
	p.People.Epsilon[4], p.People.Epsilon[23] = 0.05, 0.3
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad-plan.json")
	os.WriteFile(bad, buf.Bytes(), 0o644)
	m, code, stderr := runJSON(t, "verify", bad)
	if code != 1 || m["verdict"] != "INVALID" || m["violation_count"].(float64) != 2 {
		t.Fatalf("exit %d %v %s", code, m, stderr)
	}
	vs := m["violations"].([]any)
	v0, v1 := vs[0].(map[string]any), vs[1].(map[string]any)
	g := shifted.SGD{N: 24, Sigma: p.Sigma, Loss: shifted.Loss{Lipschitz: 1, Eta: p.Eta}}
	want, _ := shifted.Epsilon(g, 24, 1e-6, rdp.Improved)
	if v0["position"].(float64) != 5 || v0["id"] != p.People.ID[4] || v0["epsilon"].(float64) != 0.05 ||
		v1["position"].(float64) != 24 || !ampClose(v1["achieved"].(float64), want.Epsilon, 1e-9) {
		t.Errorf("violations %v (position 24: shifted gives %v)", vs, want.Epsilon)
	}
	var out, errb bytes.Buffer
	code = run([]string{"verify", bad}, &out, &errb)
	for _, s := range []string{"INVALID", p.People.ID[4], "σ that meets every target", "people above their target"} {
		if code != 1 || !strings.Contains(out.String(), s) {
			t.Errorf("table: exit %d, lacks %q:\n%s", code, s, out.String())
		}
	}
	// A malformed plan: exit 2, one line.
	for _, c := range []struct{ body, frag string }{
		{`{"format": "privamp-plan"}`, "version"},
		{`{"format": "privamp-plan", "version": 1, "oops": 1}`, "oops"},
		{strings.Replace(buf.String(), `"sigma": `, `"sigma": -`, 1), `"sigma"`},
	} {
		path := writeClaim(t, dir, c.body)
		var out, errb bytes.Buffer
		code := run([]string{"verify", path}, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.frag) || strings.Count(strings.TrimSpace(errb.String()), "\n") > 0 || out.Len() > 0 {
			t.Errorf("%.50s: exit %d %q", c.body, code, errb.String())
		}
	}
	if code := run([]string{"verify", "../../examples/plan/plan.json", "--trajectory", "x.csv"}, &out, &errb); code != 2 {
		t.Errorf("--trajectory with a plan: exit %d", code)
	}
}
