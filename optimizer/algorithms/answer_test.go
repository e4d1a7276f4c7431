package algorithms

import (
	"math"
	"testing"

	"github.com/privamp/privamp/dp"
)

// A run's answer shows each line's unit, or its kind where a measured line
// has none, and one table row per check with an absent value left empty.
func TestReportAnswer(t *testing.T) {
	rep := &Report{Title: "t", Result: struct{}{},
		Lines:  []Line{{Quantity: "ε", Value: dp.Loss(1), Kind: "certified", Unit: "at δ = 1e-5", Source: "s"}, {Quantity: "loss", Value: 0.5, Kind: Measured, Unit: "nats", Source: "m"}},
		Checks: []dp.Check{{Name: "c", Status: dp.Pass, Value: dp.Num(math.NaN()), Bound: 2, Detail: "d"}}}
	r := rep.Answer()
	if r.Rows[0].Unit != "at δ = 1e-5" || r.Rows[1].Unit != Measured || r.Command != "run" || !r.CSVAll {
		t.Errorf("rows %+v", r.Rows)
	}
	if got := r.Table.Rows[0]; got[0] != "c" || got[1] != string(dp.Pass) || got[2] != "" || got[3] != "2" {
		t.Errorf("check row %q", got)
	}
}
