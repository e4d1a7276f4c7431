package answer

import (
	"math"
	"testing"

	"github.com/privamp/privamp/dp"
)

func TestRowText(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{{"as is", "as is"}, {dp.Loss(0.12345678), dp.Loss(0.12345678).String()}, {2.5, "2.5"}, {int64(7), "7"}, {3, "3"}, {true, "true"}} {
		if got := NewRow("q", c.v, "", "").Text(); got != c.want {
			t.Errorf("Text(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// AddPLD inserts the sound ε with its optimistic estimate, the sound ε alone
// when the estimate is not about the mechanism, nothing when there is no
// PLD bound; the note goes to the notes in every case.
func TestAddPLD(t *testing.T) {
	opt := dp.Max(0.9)
	r := &Report{Rows: []Row{NewRow("a", "1", "", ""), NewRow("b", "2", "", "")}}
	r.AddPLD(1, 1.5, &opt, "src", "")
	if len(r.Rows) != 3 || r.Rows[1].Quantity != "ε by PLD / optimistic estimate" || r.Rows[1].Text() != "1.5 / 0.9" || r.Rows[2].Quantity != "b" {
		t.Errorf("with estimate: %+v", r.Rows)
	}
	r = &Report{}
	r.AddPLD(0, 1.5, nil, "src", "why no estimate")
	if len(r.Rows) != 1 || r.Rows[0].Quantity != "ε by PLD" || len(r.Notes) != 1 {
		t.Errorf("without estimate: %+v %q", r.Rows, r.Notes)
	}
	r = &Report{}
	r.AddPLD(0, 0, &opt, "src", "no PLD")
	if len(r.Rows) != 0 || len(r.Notes) != 1 {
		t.Errorf("no PLD bound: %+v %q", r.Rows, r.Notes)
	}
}

func TestHelpers(t *testing.T) {
	if got := JoinNonEmpty("; ", "", "a", "", "b"); got != "a; b" {
		t.Errorf("JoinNonEmpty = %q", got)
	}
	if Or("", "def") != "def" || Or("x", "def") != "x" {
		t.Error("Or")
	}
	if Order(math.Inf(1)) != "∞ (pure DP)" || Order(2.5) != "2.5" {
		t.Errorf("Order: %q %q", Order(math.Inf(1)), Order(2.5))
	}
	if CheckNum(dp.Num(math.NaN())) != "" || CheckNum(2) != "2" {
		t.Error("CheckNum")
	}
	if Flag(nil).Spell("csv") != "csv" || Flag(func(n string) string { return "--" + n }).Spell("csv") != "--csv" {
		t.Error("Spell")
	}
	r := &Report{}
	r.Add("q", 1.0, "u", "s")
	if r.Rows[0] != NewRow("q", 1.0, "u", "s") || r.Value("q") != "1" || r.Value("none") != "" {
		t.Errorf("Add: %+v", r.Rows)
	}
}
