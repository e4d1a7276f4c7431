package events

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/composition/pld"
)

// Many distinct mechanisms (issue 27): a file of distinct sampled
// Gaussians is composed on one window, reports progress from 0 to its
// total without moving back, gets the ε of the same mechanisms written
// with their repeats grouped (identical mechanisms are grouped), and one
// with more distinct mechanisms than the PLD composes is answered by RDP
// at once, saying why.
func TestManyDistinct(t *testing.T) {
	var done, total []int64
	q := Query{Delta: 1e-6}
	q.Profile.Progress = func(d, n int64) { done, total = append(done, d), append(total, n) }
	start := time.Now()
	r, err := Account(mustRead(t, distinctSchedule(6)), q)
	if err != nil || r.Accountant != "pld" || r.RDPEpsilon == nil || !(r.Epsilon < *r.RDPEpsilon) {
		t.Fatalf("6 distinct: %+v %v", r, err)
	}
	t.Logf("6 distinct: ε %v (RDP %v) in %v, %d progress reports", r.Epsilon, *r.RDPEpsilon, time.Since(start), len(done))
	k := len(done) - 1
	if k < 3 || done[0] != 0 || done[k] != total[k] {
		t.Fatalf("progress %v of %v: want from 0 to the total in several steps", done, total)
	}
	for i := 1; i <= k; i++ {
		if done[i] < done[i-1] || done[i] > total[i] || total[i] != total[0] {
			t.Fatalf("progress %v of %v moves back or past its total", done, total)
		}
	}
	// The same 6 mechanisms, each written twice (in another order): the
	// groups run twice, as SelfComposed count 2 of each says.
	doc := distinctSchedule(6)
	body := doc[strings.Index(doc, "[")+1 : strings.LastIndex(doc, "]")]
	twice := mustRead(t, `{"event": {"type": "Composed", "events": [`+body+","+body+`]}}`)
	sc := mustRead(t, schedule(6, 2))
	a, err := Account(twice, Query{Delta: 1e-6})
	b, err2 := Account(sc, Query{Delta: 1e-6})
	if err != nil || err2 != nil || a.Epsilon != b.Epsilon || a.Steps != 12 || b.Steps != 12 {
		t.Errorf("repeated %+v %v, self-composed %+v %v: want the same ε", a, err, b, err2)
	}
	// More distinct mechanisms than the PLD composes: RDP answers, the
	// PLD's note says why; pld asked by name refuses.
	var lap strings.Builder
	for i := 0; i <= pld.MaxDistinct; i++ {
		fmt.Fprintf(&lap, `,{"type": "Laplace", "noise_multiplier": %d}`, 1000+i)
	}
	over, err := Read(strings.NewReader(`{"event": {"type": "Composed", "events": [` + lap.String()[1:] + `]}}`))
	if err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	r, err = Account(over, Query{Delta: 1e-6})
	if err != nil || r.Accountant != "rdp" || r.PLDEpsilon != nil || !strings.Contains(r.PLDNote, "distinct mechanisms, more than the PLD accountant composes within its time budget") {
		t.Errorf("%d distinct: %+v %v", pld.MaxDistinct+1, r, err)
	}
	t.Logf("%d distinct: RDP in %v: %s", pld.MaxDistinct+1, time.Since(start), r.PLDNote)
	_, err = Account(over, Query{Delta: 1e-6, Accountant: composition.AccountPLD})
	wantField(t, err, "accountant", "distinct mechanisms")
}
