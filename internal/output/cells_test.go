package output

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

// The rule for a CSV value cell: one number, a label, or a statement.
func TestOneValue(t *testing.T) {
	for c, want := range map[string]bool{
		"2.38178": true, "1e-05": true, "inf": true, "": true, "VALID": true, "add/remove": true, "bst14-sgd": true,
		"0.1.0-dev": true, "fmtt18": true, "epsilon_2": true,
		"the gradient step contracts (FMTT18 Prop. 18); β from the declared bounds": true,
		"58880 of 60000 records (98.13%)":                                           false, "2.38178 / 1.67857": false, "[0.671531, 1.2068]": false,
		"75 passes, ε = 9.08482": false, "100.0%": false, "0.1 – 0.1": false, "2–10": false, "10000, 0.01": false,
	} {
		if got := OneValue(c); got != want {
			t.Errorf("OneValue(%q) = %v, want %v", c, got, want)
		}
	}
}

// A headline cell with several numbers becomes one row per number in the
// CSV (issue 27), each naming its number in the value's text; the old
// output, one cell "58880 of 60000 records (98.13%)", breaks the rule.
func TestCSVOneNumberPerCell(t *testing.T) {
	doc := Doc{Rows: [][4]string{{"coverage", "58880 of 60000 records (98.13%)", "indices 1..58880", "FMTT18"}, {"ε", "2.38", "", "PLD"}}}
	var b bytes.Buffer
	if err := Render(&b, Mode{CSV: true}, doc); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"quantity", "value", "unit", "source"},
		{"coverage [# of 60000 records (98.13%)]", "58880", "indices 1..58880", "FMTT18"},
		{"coverage [58880 of # records (98.13%)]", "60000", "indices 1..58880", "FMTT18"},
		{"coverage [58880 of 60000 records (#%)]", "98.13", "%", "FMTT18"},
		{"ε", "2.38", "", "PLD"}}
	if len(recs) != len(want) {
		t.Fatalf("got %q, want %q", recs, want)
	}
	for i := range want {
		if strings.Join(recs[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d: %q, want %q", i, recs[i], want[i])
		}
		if i > 0 && !OneValue(recs[i][1]) {
			t.Errorf("row %d: %q breaks the rule", i, recs[i][1])
		}
	}
	if OneValue(doc.Rows[0][1]) {
		t.Error("the old cell passes the rule: the rule cannot fail")
	}
}

// In the long format a table row's first cell names the row and stays
// whole; its other cells get a row per number.
func TestLongCSVKeepsRowNames(t *testing.T) {
	doc := Doc{Rows: [][4]string{{"verdict", "VALID", "", ""}}, CSVAll: true,
		Table: &Table{Header: []string{"check", "positions"}, Rows: [][]string{{"δ < 1/n", "2–10"}}}}
	var b bytes.Buffer
	if err := Render(&b, Mode{CSV: true}, doc); err != nil {
		t.Fatal(err)
	}
	want := "section,row,key,value,unit,source\nsummary,1,verdict,VALID,,\ntable,1,check,δ < 1/n,,\n" +
		"table,1,positions [#–10],2,,\ntable,1,positions [2–#],10,,\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
