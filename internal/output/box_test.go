package output

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// boxCase is a table's cells (the header first) and how tablewriter v1.1.5
// drew it (tablewriter.NewTable with WithHeaderAutoFormat(tw.Off),
// WithHeaderAutoWrap(tw.WrapNone) and WithRowAutoWrap(tw.WrapNone), as
// renderTable used it before issue 27).
type boxCase struct {
	Cells [][]string `json:"cells"`
	Want  string     `json:"want"`
}

// TestBoxMatchesTablewriter checks that box draws every table exactly as
// tablewriter drew it: 400 random tables of 1–5 columns and 1–4 rows whose
// cells mix ASCII, spaces, line breaks and every non-ASCII character in
// privamp's sources (Greek, mathematical symbols, combining accents, an
// emoji, a CJK character). The cases were drawn by tablewriter before it was
// removed; 20,000 such tables matched then.
func TestBoxMatchesTablewriter(t *testing.T) {
	b, err := os.ReadFile("testdata/box_tablewriter.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []boxCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 400 {
		t.Fatalf("%d cases, want 400", len(cases))
	}
	fails := 0
	for _, c := range cases {
		var got bytes.Buffer
		if err := box(&got, c.Cells); err != nil {
			t.Fatal(err)
		}
		if got.String() != c.Want && fails < 3 {
			fails++
			t.Errorf("cells %q:\ntablewriter:\n%s\nbox:\n%s", c.Cells, c.Want, got.String())
		}
	}
}

// TestBoxCanFail shows the comparison failing: a table with one cell
// changed is not the recorded drawing.
func TestBoxCanFail(t *testing.T) {
	var got bytes.Buffer
	_ = box(&got, [][]string{{"A"}, {"ε"}})
	if want := "┌───┐\n│ A │\n├───┤\n│ ε │\n└───┘\n"; got.String() != want {
		t.Fatalf("box = %q, want %q", got.String(), want)
	}
	var other bytes.Buffer
	_ = box(&other, [][]string{{"A"}, {"εε"}})
	if other.String() == got.String() {
		t.Fatal("two different tables drew the same")
	}
}
