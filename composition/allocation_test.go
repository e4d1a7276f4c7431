package composition

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// dpsgd --sampling balls-in-bins: the PLD of random allocation, below
// RDP's bound, with Poisson's ε at the same expected batch beside it; the
// events accountant gives the same number for the same run.
func TestDPSGDBallsInBins(t *testing.T) {
	d := rdp.DPSGD{N: 60000, Batch: 250, Epochs: 3, Noise: 1.1, Delta: 1e-5, Sampling: dp.BallsInBins}
	r, err := DPSGDWith(d, AccountBest)
	if err != nil {
		t.Fatal(err)
	}
	if r.Accountant != AccountPLD || r.PLDNote != "" || !strings.Contains(r.Source, "random allocation") || !(r.PLDEpsilon > 0 && r.RDPEpsilon > r.PLDEpsilon) {
		t.Errorf("accountant %q, source %q, pld note %q, pld %v rdp %v", r.Accountant, r.Source, r.PLDNote, r.PLDEpsilon, r.RDPEpsilon)
	}
	if r.PoissonEpsilon == nil || !(*r.PoissonEpsilon > 0) || r.PoissonAccountant != AccountPLD || !strings.Contains(r.RDPNote, "Poisson sampling at the same expected batch size") {
		t.Errorf("Poisson comparison: %v by %q, note %q", r.PoissonEpsilon, r.PoissonAccountant, r.RDPNote)
		return
	}
	ev, _ := d.Event(1.1)
	g, err := Tightest().Epsilon(ev, dp.AddRemove, 1e-5)
	if err != nil || g.Epsilon != r.Epsilon {
		t.Errorf("events: %v %v, dpsgd %v", g.Epsilon, err, r.Epsilon)
	}
	rr, err := DPSGDWith(d, AccountRDP)
	if err != nil || rr.Epsilon != r.RDPEpsilon || rr.Method != "rdp-balls-in-bins" || rr.PoissonAccountant != AccountRDP {
		t.Errorf("rdp: %+v %v", rr, err)
	}
	if pr, err := DPSGDWith(d, AccountPLD); err != nil || pr.Epsilon != r.Epsilon {
		t.Errorf("pld alone: %v %v, best %v", pr.Epsilon, err, r.Epsilon)
	}
	for _, c := range []struct {
		d     rdp.DPSGD
		field string
	}{
		{rdp.DPSGD{N: 60000, Batch: 256, Epochs: 1, Noise: 1, Delta: 1e-5, Sampling: dp.BallsInBins}, "batch"},
		{rdp.DPSGD{SamplingRate: 0.3, Steps: 10, Noise: 1, Delta: 1e-5, Sampling: dp.BallsInBins}, "sampling_rate"},
		{rdp.DPSGD{N: 1000, Batch: 10, Epochs: 1, Noise: 1, Delta: 1e-5, Sampling: dp.BallsInBins, Neighbours: dp.ReplaceOne}, "sampling"},
	} {
		_, err := DPSGDWith(c.d, AccountBest)
		if f, ok := err.(*field.Error); !ok || f.Field != c.field {
			t.Errorf("%+v: %v, want a field error on %s", c.d, err, c.field)
		}
	}
	// Calibration finds the noise the tightest accountant certifies for the target.
	if testing.Short() {
		return
	}
	c := d
	c.Calibrate, c.TargetEpsilon = true, 1
	cr, err := DPSGDWith(c, AccountBest)
	rc, err2 := DPSGDWith(c, AccountRDP)
	if err != nil || err2 != nil || !(float64(cr.Epsilon) <= 1 && float64(cr.Epsilon) > 0.99) || !(cr.NoiseMultiplier < rc.NoiseMultiplier) || cr.Accountant != AccountPLD {
		t.Errorf("calibrated: z %v ε %v by %s (%v), by RDP alone z %v (%v)", cr.NoiseMultiplier, cr.Epsilon, cr.Accountant, err, rc.NoiseMultiplier, err2)
	}
}
