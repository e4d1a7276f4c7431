package tables

import "testing"

// Every table's grid has a label, one cell per column and a source per row;
// an evaluated table lists its evaluable cells with a value each.
func TestGrids(t *testing.T) {
	for _, tb := range All() {
		d := tb.Describe(nil)
		hdr, rows := d.Grid()
		if len(hdr) != len(d.Columns)+2 || len(rows) != len(d.Rows) {
			t.Errorf("%s: header %d for %d columns, %d rows for %d", tb.Name, len(hdr), len(d.Columns), len(rows), len(d.Rows))
		}
		for _, r := range rows {
			if len(r) != len(hdr) {
				t.Errorf("%s: row %q has %d cells, header %d", tb.Name, r[0], len(r), len(hdr))
			}
		}
	}
	tb, _ := Lookup("bst14")
	ev, err := tb.EvaluateGiven(Params{N: 1e4, D: 10, Epsilon: 1, Delta: 1e-6}, map[string]bool{"n": true, "dimension": true, "epsilon": true, "delta": true})
	if err != nil {
		t.Fatal(err)
	}
	hdr, rows := tb.Describe(ev).EvaluatedGrid()
	if len(hdr) != 6 || len(rows) == 0 {
		t.Fatalf("evaluated grid: %d columns, %d rows", len(hdr), len(rows))
	}
	for _, r := range rows {
		if r[3] == "" || r[3] == "—" && r[4] == "" {
			t.Errorf("row %v has no value and no reason", r)
		}
	}
}
