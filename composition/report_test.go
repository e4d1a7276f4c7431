package composition

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/answer"
	"github.com/privamp/privamp/dp"
)

func spell(name string) string { return "<" + name + ">" }

// A composition's answer states its ε, δ and method with every method's
// row, and names options as the caller spells them.
func TestCompositionReport(t *testing.T) {
	td := 1e-5
	c, err := Compose(Query{Epsilon: 0.1, Compositions: 10, TargetDelta: &td})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Report(true, spell)
	if r.Value("ε") != c.Epsilon.String() || r.Value("method") != c.Method || r.Command != "compose" || len(r.Table.Rows) != len(c.Methods) {
		t.Errorf("rows %v, table %d rows for %d methods", r.Rows, len(r.Table.Rows), len(c.Methods))
	}
	if !strings.HasPrefix(r.Title, "Composition of k = 10 mechanisms") {
		t.Errorf("title %q", r.Title)
	}
	c.RequestedMethod = "advanced"
	for _, x := range c.Report(false, spell).Rows {
		if x.Quantity == "method" && x.Source != "requested with <method>" {
			t.Errorf("method row's source %q", x.Source)
		}
	}
}

// Each conversion answers with its headline row first; bad input is the
// library's error, with no answer.
func TestConvertReport(t *testing.T) {
	for _, q := range []ConvertQuery{
		{Kind: RhoToEpsilon, Rho: 0.5, Delta: 1e-6}, {Kind: RhoToDelta, Rho: 0.5, Epsilon: 3},
		{Kind: PointToEpsilon, Order: 10, RDPEpsilon: 0.5, Delta: 1e-5}, {Kind: PointToDelta, Order: 10, RDPEpsilon: 0.5, Epsilon: 2},
		{Kind: EpsilonDeltaToRho, Epsilon: 1, Delta: 1e-6},
	} {
		r, err := q.Report()
		if err != nil || r.Command != "convert" || r.Result == nil || len(r.Rows) < 2 || r.Rows[0].Text() == "" {
			t.Errorf("%+v: %v, %+v", q, err, r)
		}
	}
	if r, err := (ConvertQuery{Kind: RhoToEpsilon, Rho: -1, Delta: 1e-6}).Report(); err == nil || r != nil {
		t.Errorf("negative ρ: %v, %+v", err, r)
	}
}

// δ at the asked ε is the last row, and only when asked.
func TestProfileAddTo(t *testing.T) {
	r := (*Profile)(nil).AddTo(&answer.Report{})
	if len(r.Rows) != 0 {
		t.Errorf("no profile: %+v", r.Rows)
	}
	p := &Profile{AtEpsilon: &DeltaAt{Epsilon: 1, Delta: 1e-7}}
	r = p.AddTo(&answer.Report{Rows: []answer.Row{answer.NewRow("ε", "2", "", "")}})
	if len(r.Rows) != 2 || r.Rows[1].Quantity != "δ at ε = 1" || r.Rows[1].Text() != dp.Loss(1e-7).String() {
		t.Errorf("rows %+v", r.Rows)
	}
	if r := (&Profile{}).AddTo(&answer.Report{}); len(r.Rows) != 0 {
		t.Errorf("profile without ε: %+v", r.Rows)
	}
}
