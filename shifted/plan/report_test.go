package plan

import (
	"strings"
	"testing"
)

// spell is a caller's flag spelling that the tests can recognise.
func spell(name string) string { return "<" + name + ">" }

// The plan's answer states the computed σ and η, the worst person, the
// files written and the budget groups, and names options as the caller
// spells them; the infeasible answer names the binding cap the same way.
func TestReport(t *testing.T) {
	s := baseSetting(PNSGD)
	tiers, _, err := ParseTiers([]string{"strict=20:0.5", "rest=80:4"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Make(s, Budgets{Tiers: tiers})
	if err != nil || res.Infeasible != nil {
		t.Fatalf("Make: %v, %+v", err, res)
	}
	r := res.Report(s, Shown{What: "100 people in 2 tiers", PlanFile: "p.json", Flag: spell})
	if r.Value("noise σ") != res.Sigma.String() || r.Value("step size η") != res.Eta.String() || r.Value("plan written to") != "p.json" || r.Value("plot written to") != "" {
		t.Errorf("rows: %v", r.Rows)
	}
	if !strings.Contains(r.Title, "100 people in 2 tiers") || r.Table == nil || len(r.Table.Rows) != len(res.Groups) {
		t.Errorf("title %q, table %+v", r.Title, r.Table)
	}

	s = withCaps(s, 1e-3, 0)
	res, err = Make(s, Budgets{Tiers: tiers})
	if err != nil || res.Infeasible == nil {
		t.Fatalf("Make under a tiny cap: %v, infeasible %v", err, res.Infeasible)
	}
	r, msg := res.InfeasibleReport(s, Shown{What: "100 people", PlanFile: "p.json", Flag: spell})
	if !strings.Contains(r.Title, "INFEASIBLE under <max_sigma> 0.001") || !strings.Contains(msg, "<max_sigma> 0.001") {
		t.Errorf("title %q, message %q", r.Title, msg)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "no plan or plot written") {
		t.Errorf("notes %q", r.Notes)
	}
}
