package audit

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The scores' answer states the verdict against the given upper bound
// first, the lower bound, and one table row per estimator; the option that
// gave the scores is spelled as the caller does.
func TestEvaluationAnswer(t *testing.T) {
	o := DefaultOptions()
	o.Upper = UpperBound(1, o.Delta, "claim")
	ev, err := Evaluate(gaussianCanaries(rand.New(rand.NewPCG(9, 9)), 4000, 2), o)
	if err != nil {
		t.Fatal(err)
	}
	r := ev.Answer("s.csv", func(n string) string { return "<" + n + ">" })
	if !strings.HasPrefix(r.Title, "privamp audit <scores> s.csv: 4000 canaries") || !strings.HasSuffix(r.Title, ev.Comparison.Verdict.String()) {
		t.Errorf("title %q", r.Title)
	}
	if r.Rows[0].Text() != ev.Comparison.Verdict.String() || r.Command != "audit" || len(r.Table.Rows) == 0 || !r.CSVAll {
		t.Errorf("rows %+v, table %+v", r.Rows, r.Table)
	}
}
