package events

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/composition"
)

// The events' answer states the headline ε at δ with its accountant, RDP's
// ε beside it, and one table row per phase.
func TestReport(t *testing.T) {
	ev, err := Read(strings.NewReader(`{"neighbouring": "add_or_remove_one", "event": {"type": "Composed", "events": [
	  {"type": "SelfComposed", "count": 100, "event": {"type": "PoissonSampled", "sampling_probability": 0.01, "event": {"type": "Gaussian", "noise_multiplier": 1.0}}},
	  {"type": "Gaussian", "noise_multiplier": 5}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Account(ev, Query{Delta: 1e-5, Accountant: composition.AccountRDP})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report("two.json")
	if !strings.HasPrefix(r.Title, "Events of two.json: ") || r.Command != "compose" || len(r.Table.Rows) != len(res.Phases) || len(res.Phases) != 2 {
		t.Errorf("title %q, %d table rows for %d phases", r.Title, len(r.Table.Rows), len(res.Phases))
	}
	if r.Rows[0].Quantity != "ε" || r.Rows[0].Text() != res.Epsilon.String() || r.Rows[0].Source != "accountant: rdp" {
		t.Errorf("headline row %+v", r.Rows[0])
	}
}
