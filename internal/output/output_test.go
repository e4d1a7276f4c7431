package output

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/privamp/privamp/internal/quantity"
)

// An infinite ε prints as null with its reason beside it, at any depth; the
// command and the report's notes are added; JSON and CSV are exclusive of
// the tables.
func TestRender(t *testing.T) {
	type part struct {
		Epsilon loss   `json:"epsilon"`
		Inner   []loss `json:"inner_epsilon"`
	}
	d := Doc{Title: "T", Rows: [][4]string{{"ε", "∞", "", "src"}}, Notes: []string{"n"}, Command: "c",
		Result: Merged{part{loss(math.Inf(1)), nil}, struct {
			Sub map[string]loss `json:"sub"`
		}{map[string]loss{"epsilon": loss(math.Inf(1))}}}}
	var b bytes.Buffer
	if err := Render(&b, Mode{JSON: true}, d); err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(b.Bytes(), &obj); err != nil {
		t.Fatal(err)
	}
	sub := obj["sub"].(map[string]any)
	if obj["epsilon"] != nil || obj["epsilon_reason"] != quantity.NoFinite || sub["epsilon_reason"] != quantity.NoFinite || obj["command"] != "c" || obj["notes"] == nil {
		t.Errorf("JSON %s", b.String())
	}
	b.Reset()
	if err := Render(&b, Mode{}, d); err != nil || !strings.Contains(b.String(), "[1] src") || !strings.Contains(b.String(), "  - n") {
		t.Errorf("table %v:\n%s", err, b.String())
	}
	b.Reset()
	d.Table = &Table{Header: []string{"a"}, Rows: [][]string{{"1"}}}
	if err := Render(&b, Mode{CSV: true}, d); err != nil || b.String() != "a\n1\n" {
		t.Errorf("CSV %v: %q", err, b.String())
	}
}

// With a width, tables and footnotes wrap to it; without one nothing wraps.
func TestRenderWraps(t *testing.T) {
	long := strings.Repeat("a long source citation ", 8)
	d := Doc{Title: "t", Rows: [][4]string{{"quantity", "1", "", long}}, Notes: []string{long},
		Table: &Table{Header: []string{"check", "detail"}, Rows: [][]string{{"c", long}}}}
	var wide, narrow strings.Builder
	if err := Render(&wide, Mode{}, d); err != nil {
		t.Fatal(err)
	}
	if err := Render(&narrow, Mode{Width: 60}, d); err != nil {
		t.Fatal(err)
	}
	maxLine := func(s string) int {
		m := 0
		for _, l := range strings.Split(s, "\n") {
			m = max(m, utf8.RuneCountInString(l))
		}
		return m
	}
	if got := maxLine(narrow.String()); got > 60 {
		t.Errorf("width 60: a line of %d columns:\n%s", got, narrow.String())
	}
	if maxLine(wide.String()) <= 60 {
		t.Errorf("no width: the long cell was wrapped")
	}
	if !strings.Contains(strings.Join(strings.Fields(narrow.String()), " "), strings.TrimSpace(long)) {
		t.Errorf("wrapping lost words")
	}
}

// A terminal width never changes JSON, CSV or Markdown.
func TestWidthLeavesMachineFormatsAlone(t *testing.T) {
	long := strings.Repeat("a long cell ", 20)
	d := Doc{Title: "t", Rows: [][4]string{{"q", long, "", long}}, Table: &Table{Header: []string{"c"}, Rows: [][]string{{long}}},
		Result: map[string]string{"command": "x", "v": long}}
	for _, m := range []Mode{{JSON: true}, {CSV: true}, {Markdown: true}} {
		var a, b strings.Builder
		w := m
		w.Width = 30
		if err := Render(&a, m, d); err != nil {
			t.Fatal(err)
		}
		if err := Render(&b, w, d); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%+v: width 30 changed the output", m)
		}
	}
}

// loss encodes as a privacy loss does (package dp's Loss): +Inf as null.
type loss float64

func (x loss) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(x), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(x))
}

// Header upper-cases Latin letters only: δ is not Δ (issue 27).
func TestHeaderKeepsGreek(t *testing.T) {
	for in, want := range map[string]string{"target ε": "TARGET ε", "δ": "δ", "fmtt18_epsilon": "FMTT18 EPSILON", "achieved ε (min – max)": "ACHIEVED ε (MIN – MAX)"} {
		if got := Header(in); got != want {
			t.Errorf("Header(%q) = %q, want %q", in, got, want)
		}
	}
}

// A document with headline rows and a table is one CSV table in the long
// format; paired values are split, one number per cell (issue 27).
func TestCSVLongFormat(t *testing.T) {
	var b strings.Builder
	d := Doc{Rows: [][4]string{{"ε by PLD / optimistic estimate", "2.38 / 1.67", "u", "s"}}, Table: &Table{Header: []string{"a", "b"}, Rows: [][]string{{"1", "—"}}}, CSVAll: true}
	if err := Render(&b, Mode{CSV: true}, d); err != nil {
		t.Fatal(err)
	}
	want := "section,row,key,value,unit,source\nsummary,1,ε by PLD,2.38,u,s\nsummary,2,optimistic estimate,1.67,u,s\ntable,1,a,1,,\ntable,1,b,,,\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// At a width, every line fits (tables narrowed, headers and cells wrapped,
// the title and footnotes wrapped); a buffer is not a terminal or a pipe
// and gets no limit (issue 27).
func TestWidthFits(t *testing.T) {
	long := strings.Repeat("a long explanation of where the number comes from ", 4)
	d := Doc{Title: long, Rows: [][4]string{{"quantity with a long name that goes on", "2.38178", long, long}, {"ε", "1", "", "input"}},
		Table: &Table{Header: []string{"a_very_long_column_header_name", "b"}, Rows: [][]string{{long, "1"}}}, Notes: []string{long}, Assumptions: []string{long}}
	for _, width := range []int{40, 60, 80, 100} {
		var b strings.Builder
		if err := Render(&b, Mode{Width: width}, d); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(b.String(), "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("width %d: a line of %d: %q", width, n, l)
			}
		}
	}
	if got := fit([][]string{{"A VERY LONG COLUMN HEADER NAME", "B"}, {"x", "1"}}, 24); got[0][0] != "A VERY LONG\nCOLUMN HEADER\nNAME" {
		t.Errorf("header not wrapped: %q", got[0][0])
	}
	if WidthFor(&strings.Builder{}) != 0 {
		t.Error("a buffer has a width")
	}
	t.Setenv("COLUMNS", "")
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := WidthFor(f); got != ReadableWidth {
		t.Errorf("a file: width %d, want %d", got, ReadableWidth)
	}
	t.Setenv("COLUMNS", "0")
	if got := WidthFor(f); got != 0 {
		t.Errorf("COLUMNS=0: width %d", got)
	}
}
