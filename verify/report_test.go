package verify

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/shifted/plan"
)

// A claim's answer states the verdict first and lists every check; a
// DP-SGD claim's answer states the certified ε by its accountant; a plan's
// answer states its verdict and its budget groups.
func TestReports(t *testing.T) {
	for _, path := range []string{"../examples/claim.json", "../examples/dpsgd-claim.json"} {
		c, trace, tpath, err := Load(path, "")
		if err != nil {
			t.Fatal(err)
		}
		v, err := Verify(c, trace)
		if err != nil {
			t.Fatal(err)
		}
		r := v.Report(path, tpath)
		if r.Rows[0].Quantity != "verdict" || r.Rows[0].Text() != v.Verdict.String() || len(r.Table.Rows) != len(v.Checks) || !r.CSVAll {
			t.Errorf("%s: first row %+v, %d table rows for %d checks", path, r.Rows[0], len(r.Table.Rows), len(v.Checks))
		}
		if v.DPSGD != nil && r.Rows[3].Quantity != "certified ε" {
			t.Errorf("%s: DP-SGD rows %+v", path, r.Rows)
		}
	}
	p, err := plan.LoadFile("../examples/plan/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	pv, err := VerifyPlan(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := pv.Report("plan.json", p)
	if !strings.HasPrefix(r.Title, "privamp verify plan.json: "+pv.Verdict.String()) || r.Rows[0].Text() != pv.Verdict.String() {
		t.Errorf("plan: title %q, rows %+v", r.Title, r.Rows)
	}
}
