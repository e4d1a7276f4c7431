package tables

import (
	"strings"
	"testing"
)

func spell(name string) string { return "<" + name + ">" }

// The tables' and calculators' answers list every table and calculator,
// render a table's grid with the options spelled as the caller does, and
// carry a calculator's source into its result.
func TestReports(t *testing.T) {
	if r := ListReport(); len(r.Table.Rows) != len(All()) || r.Command != "tables" {
		t.Errorf("list: %d rows for %d tables", len(r.Table.Rows), len(All()))
	}
	if r := CatalogueReport(spell); len(r.Table.Rows) != len(Catalogue()) || !strings.Contains(r.Title, "<help>") {
		t.Errorf("catalogue: %q, %d rows", r.Title, len(r.Table.Rows))
	}
	tb, ok := Lookup("bst14")
	if !ok {
		t.Fatal("no bst14")
	}
	r := tb.Describe(nil).Report(spell)
	if r.Table == nil || !strings.Contains(strings.Join(r.Notes, "\n"), "with <n>, <dimension>, <epsilon>, <delta> (see <help>)") {
		t.Errorf("bst14: notes %q", r.Notes)
	}
	ev, err := tb.EvaluateGiven(Params{N: 10000, D: 10, Epsilon: 1, Delta: 1e-6}, map[string]bool{"n": true, "dimension": true, "epsilon": true, "delta": true})
	if err != nil {
		t.Fatal(err)
	}
	if r := tb.Describe(ev).Report(spell); len(r.Rows) != len(tb.Describe(ev).Best) {
		t.Errorf("evaluated bst14: %d rows", len(r.Rows))
	}
	for _, c := range Calculators() {
		ans, err := c.New().Answer()
		if err != nil {
			continue // a calculator whose defaults need an input
		}
		r := ans.CalcReport(c.Name)
		if r.Command != "calc "+c.Name || len(r.Rows) != len(ans.Lines) || r.Assumptions[len(r.Assumptions)-1] != "validity range: "+ans.Source.Validity {
			t.Errorf("%s: %+v", c.Name, r)
		}
	}
}
