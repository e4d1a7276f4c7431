package events

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
)

func allocationDoc(rel string, steps, epochs string) string {
	return `{"neighbouring": "` + rel + `", "event": {"type": "SelfComposed", "count": ` + epochs +
		`, "event": {"type": "RandomAllocation", "num_steps": ` + steps +
		`, "event": {"type": "Gaussian", "noise_multiplier": 1.1}}}}`
}

// A RandomAllocation event reads as dp.RandomAllocation, is accounted by
// the PLD (below RDP) with the ε dpsgd --sampling balls-in-bins prints, by
// RDP alone when asked, and is refused with the reason under replace_one
// and out of range.
func TestRandomAllocationEvents(t *testing.T) {
	ev := mustRead(t, allocationDoc(AddOrRemoveOne, "240", "3"))
	e, rel := ev.DP()
	want := dp.DPSGD(1.0/240, 1.1, 720, dp.BallsInBins)
	if rel != dp.AddRemove || e != want {
		t.Fatalf("DP() = %#v, %v; want %#v", e, rel, want)
	}
	res, err := Account(ev, Query{Delta: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := composition.Tightest().Epsilon(want, dp.AddRemove, 1e-5)
	if res.Epsilon != g.Epsilon || res.Accountant != composition.AccountPLD || float64(res.Steps) != 720 {
		t.Errorf("ε %v by %s over %v runs; want %v by pld over 720", res.Epsilon, res.Accountant, res.Steps, g.Epsilon)
	}
	if ph := res.Phases[0]; ph.Sampling != dp.BallsInBins || ph.NumSteps != 240 || float64(ph.Count) != 720 || !ph.PLD || !ph.RDP {
		t.Errorf("phase %+v", ph)
	}
	if res.PLDNote != "" {
		t.Errorf("PLD note %q", res.PLDNote)
	}
	pl, err := Account(ev, Query{Delta: 1e-5, Accountant: composition.AccountPLD})
	if err != nil || pl.Epsilon != res.Epsilon {
		t.Errorf("pld: %v %v, best %v", pl.Epsilon, err, res.Epsilon)
	}
	rd, err := Account(ev, Query{Delta: 1e-5, Accountant: composition.AccountRDP})
	if err != nil || !(rd.Epsilon > res.Epsilon) {
		t.Errorf("rdp: %v %v, best (pld) %v", rd.Epsilon, err, res.Epsilon)
	}
	for doc, mention := range map[string]string{
		allocationDoc(ReplaceOne, "240", "3"):                                                   "event.event.type",
		allocationDoc(AddOrRemoveOne, "0", "3"):                                                 "event.event.num_steps",
		allocationDoc(AddOrRemoveOne, "1e7", "1e6"):                                             "runs in all",
		strings.Replace(allocationDoc(AddOrRemoveOne, "10", "1"), `"Gaussian"`, `"Laplace"`, 1): "event.event.event.type",
	} {
		ev, err := Read(strings.NewReader(doc))
		if err == nil {
			err = ev.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), mention) {
			t.Errorf("%s: %v, want an error naming %s", doc, err, mention)
		}
	}
}
