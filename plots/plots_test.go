package plots

import (
	"bytes"
	"errors"
	"testing"

	"github.com/privamp/privamp/audit"
	"github.com/privamp/privamp/shifted"
)

// A trade-off plot renders to PNG and SVG; a curve with nothing drawable on
// log axes is ErrNothingToPlot, not an empty picture.
func TestPlots(t *testing.T) {
	ev := &audit.Evaluation{Delta: 1e-5, Curve: []audit.TradeoffPoint{{FPR: 0.01, FNR: 0.9}, {FPR: 0.1, FNR: 0.5}, {FPR: 0.5, FNR: 0.1}},
		ClaimedCurve: []audit.TradeoffPoint{{FPR: 0.01, FNR: 0.98}, {FPR: 0.5, FNR: 0.4}}}
	p, err := Tradeoff(ev)
	if err != nil {
		t.Fatal(err)
	}
	for format, magic := range map[string]string{"png": "\x89PNG", "svg": "<?xml"} {
		b, err := Image(format, 300, p)
		if err != nil || !bytes.HasPrefix(b, []byte(magic)) {
			t.Errorf("%s: %v, %q", format, err, b[:min(len(b), 8)])
		}
	}
	c := shifted.Curves{N: 2, Delta: 1e-5, Columns: []shifted.CurveColumn{{Name: "x", Epsilon: []float64{0, 0}}}}
	if _, err := Curve(c); !errors.Is(err, ErrNothingToPlot) {
		t.Errorf("all-zero curve: %v", err)
	}
}

// Every log axis carries several labelled ticks (issue 27: epochs.png had
// one label on its ε axis, clipped-compare.png one on its risk axis).
func TestLogTicksLabelSeveral(t *testing.T) {
	for _, r := range [][2]float64{{1.5, 20}, {0.03, 0.7}, {0.5, 4}, {3, 9}, {1, 1e6}, {1e-5, 1e-4}} {
		n := 0
		for _, tk := range (logTicks{}).Ticks(r[0], r[1]) {
			if tk.Label != "" {
				n++
			}
		}
		if n < 3 {
			t.Errorf("[%g, %g]: %d labelled ticks", r[0], r[1], n)
		}
	}
}
