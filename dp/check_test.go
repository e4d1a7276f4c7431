package dp

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The rule's three helpers: VACUOUS at or above the trivial bound whatever
// the value, PASS/FAIL below it; WORSE above the data-free output's value;
// the verdict names a FAIL and a WORSE output; only FAIL fails a run.
func TestUtilityBaselineVerdict(t *testing.T) {
	cases := []struct {
		c    Check
		want Status
	}{
		{UtilityCheck("u", 0.1, 2, 1, "d"), Vacuous},
		{UtilityCheck("u", 5, 1, 1, "d"), Vacuous},
		{UtilityCheck("u", 0.1, math.NaN(), 1, "d"), Vacuous},
		{UtilityCheck("u", 0.1, 0.5, 1, "d"), Pass},
		{UtilityCheck("u", 0.6, 0.5, 1, "d"), Fail},
		{BaselineCheck("b", 0.4, 0.5, "d"), Pass},
		{BaselineCheck("b", 0.6, 0.5, "d"), Worse},
	}
	for i, c := range cases {
		if c.c.Status != c.want {
			t.Errorf("case %d: %+v, want %s", i, c.c, c.want)
		}
	}
	if !strings.Contains(cases[0].c.Detail, "trivial bound 1") || !strings.Contains(cases[6].c.Detail, "WORSE") {
		t.Errorf("details do not say why: %q, %q", cases[0].c.Detail, cases[6].c.Detail)
	}
	pass, worse, fail := cases[3].c, cases[6].c, cases[4].c
	for _, v := range []struct {
		checks []Check
		ok     bool
		want   string
	}{
		{[]Check{pass, cases[0].c}, true, "every check passes"},
		{[]Check{pass, worse}, true, "every check passes; the output's risk is WORSE than the data-free output's"},
		{[]Check{fail, worse}, false, "a check FAILED (see the checks); the output's risk is WORSE than the data-free output's"},
	} {
		if AllPass(v.checks) != v.ok || VerdictLine(v.checks) != v.want {
			t.Errorf("%v: ok %v verdict %q, want %v %q", v.checks, AllPass(v.checks), VerdictLine(v.checks), v.ok, v.want)
		}
	}
}

// Each verdict's exit status, in the one place it is mapped: 0 for what
// passes, 1 for what fails, 3 for an unsupported claim.
func TestVerdictExitStatus(t *testing.T) {
	for v, want := range map[Verdict]int{Passed: 0, Valid: 0, Consistent: 0, Failed: 1, Invalid: 1, Violated: 1, Unsupported: 3} {
		if got := v.ExitStatus(); got != want {
			t.Errorf("%s: exit %d, want %d", v, got, want)
		}
	}
	if VerdictOf([]Check{NewCheck("a", true, 1, 2, ""), {Name: "w", Status: Worse}}) != Passed ||
		VerdictOf([]Check{NewCheck("a", false, 3, 2, "")}) != Failed {
		t.Error("VerdictOf: only a FAIL fails a run")
	}
}

// A check's JSON keys are today's: name, status, value, bound, detail, and
// basis only where claim verification sets it; statuses and verdicts
// encode as their words.
func TestCheckJSON(t *testing.T) {
	b, err := json.Marshal(Check{Name: "n", Status: Unmet, Value: 1, Bound: 2, Detail: "d"})
	if err != nil || string(b) != `{"name":"n","status":"UNMET","value":1,"bound":2,"detail":"d"}` {
		t.Errorf("run's check: %s %v", b, err)
	}
	b, _ = json.Marshal(Check{Name: "n", Status: NA, Basis: "checked (arithmetic)", Value: 1, Bound: 2})
	if string(b) != `{"name":"n","status":"N/A","basis":"checked (arithmetic)","value":1,"bound":2,"detail":""}` {
		t.Errorf("verify's check: %s", b)
	}
	if b, _ := json.Marshal(struct{ V Verdict }{Unsupported}); string(b) != `{"V":"UNSUPPORTED"}` {
		t.Errorf("verdict: %s", b)
	}
}
