package shifted

import (
	"io"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// progressLog records a dp.Progress's calls.
type progressLog struct{ done, total []int64 }

func (p *progressLog) report(done, total int64) {
	p.done, p.total = append(p.done, done), append(p.total, total)
}

// covers checks that the calls span the whole computation: the first at 0,
// the last at the total, never moving back, one total throughout.
func (p *progressLog) covers(t *testing.T, what string, total int64) {
	t.Helper()
	if len(p.done) < 2 {
		t.Fatalf("%s: %d progress calls, want the start and the end at least", what, len(p.done))
	}
	if p.done[0] != 0 || p.done[len(p.done)-1] != total {
		t.Errorf("%s: progress from %d to %d, want 0 to %d", what, p.done[0], p.done[len(p.done)-1], total)
	}
	for i := range p.done {
		if p.total[i] != total || i > 0 && p.done[i] < p.done[i-1] {
			t.Fatalf("%s: call %d reports %d of %d after %v", what, i, p.done[i], p.total[i], p.done[:i])
		}
	}
}

// curve --all's progress covers computing every index of every variant
// and writing every row (issue 27: a bar for the whole duration).
func TestPersonCurvesProgress(t *testing.T) {
	r := baseTraining()
	r.N = 200000
	var comp, write progressLog
	c, err := PersonCurves(r, []Variant{VariantPNSGD, VariantStop}, Options{Conversion: rdp.Improved, Progress: comp.report}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	comp.covers(t, "computing", 2*r.N)
	if len(comp.done) < 4 {
		t.Errorf("computing 2 variants of %d indices reported %d times", r.N, len(comp.done))
	}
	if err := c.WriteCSVProgress(io.Discard, write.report); err != nil {
		t.Fatal(err)
	}
	write.covers(t, "writing", r.N)
}
