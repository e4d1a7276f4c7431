package main

import (
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/rdp"
)

// laplace's flags fill the mechanism; --target-epsilon asks for calibration.
func TestLaplaceFlags(t *testing.T) {
	o := mustParse(t, newLaplaceCmd, "--scale", "10", "--compositions", "1e2", "--delta", "1e-6", "--sensitivity", "2")
	if m := o.Mechanism; m.Scale != 10 || m.Compositions != 100 || m.Delta != 1e-6 || m.Sensitivity != 2 || m.Calibrate || m.Conversion != rdp.Improved {
		t.Errorf("options %+v", m)
	}
	if o := mustParse(t, newLaplaceCmd, "--target-epsilon", "1"); !o.Mechanism.Calibrate || o.Mechanism.TargetEpsilon != 1 {
		t.Errorf("calibration options %+v", o.Mechanism)
	}
	refused(t, newLaplaceCmd, "--scale", "--scale", "1", "--target-epsilon", "1")
	refused(t, newLaplaceCmd, "--scale")
}

// laplaceAt runs laplace's computation at scale b (or the target ε when
// calibrate) with --json output.
func laplaceAt(t *testing.T, x, k, delta float64, calibrate bool) map[string]any {
	t.Helper()
	m := composition.LaplaceMechanism{Scale: x, Sensitivity: 1, Compositions: k, Delta: delta, Conversion: rdp.Improved}
	if calibrate {
		m.Scale, m.TargetEpsilon, m.Calibrate = 0, x, true
	}
	return runJSONOf(t, func(a *app) error { return laplaceRun(&laplaceOptions{IO: a, Mechanism: m}) })
}

// Laplace calibration: the returned scale meets the target when recomputed,
// and a 0.1% smaller scale does not. Under -short k = 1000 is left out
// (k = 1 calibrates by optimal composition, k = 10 by the PLD: both kept).
func TestLaplaceCalibration(t *testing.T) {
	for _, k := range []float64{1, 10, 1000} {
		if testing.Short() && k == 1000 {
			continue
		}
		b := laplaceAt(t, 1, k, 1e-6, true)["scale"].(float64)
		if e := laplaceAt(t, b, k, 1e-6, false)["epsilon"].(float64); e > 1 {
			t.Errorf("k=%v: b=%v recomputes to ε=%v", k, b, e)
		}
		if e := laplaceAt(t, b*0.999, k, 1e-6, false)["epsilon"].(float64); e <= 1 {
			t.Errorf("k=%v: b=%v is not the smallest (0.999b gives %v)", k, b, e)
		}
	}
	expectBadInput(t, []string{"laplace", "--scale", "1", "--target-epsilon", "1"}, "--scale")
}
