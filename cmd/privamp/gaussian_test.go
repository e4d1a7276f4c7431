package main

import (
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/rdp"
)

// gaussian's flags fill the mechanism; --target-epsilon asks for calibration.
func TestGaussianFlags(t *testing.T) {
	o := mustParse(t, newGaussianCmd, "--sigma", "2", "--compositions", "1e3", "--delta", "1e-6", "--sensitivity", "0.5", "--conversion", "classic")
	m := o.Mechanism
	if m.Sigma != 2 || m.Compositions != 1000 || m.Delta != 1e-6 || m.Sensitivity != 0.5 || m.Conversion != rdp.Classic || m.Calibrate {
		t.Errorf("options %+v", m)
	}
	if o := mustParse(t, newGaussianCmd, "--target-epsilon", "1"); !o.Mechanism.Calibrate || o.Mechanism.TargetEpsilon != 1 || o.Mechanism.Conversion != rdp.Improved || o.Mechanism.Delta != 1e-5 {
		t.Errorf("calibration options %+v", o.Mechanism)
	}
	refused(t, newGaussianCmd, "--sigma", "--delta", "1e-6")
	refused(t, newGaussianCmd, "--sigma", "--sigma", "1", "--target-epsilon", "1")
	refused(t, newGaussianCmd, "--conversion", "--sigma", "1", "--conversion", "magic")
}

// gaussianAt runs gaussian's computation at σ (or the target ε when
// calibrate) with --json output.
func gaussianAt(t *testing.T, x float64, k float64, delta float64, calibrate bool) map[string]any {
	t.Helper()
	m := composition.GaussianMechanism{Sigma: x, Sensitivity: 1, Compositions: k, Delta: delta, Conversion: rdp.Improved}
	if calibrate {
		m.Sigma, m.TargetEpsilon, m.Calibrate = 0, x, true
	}
	return runJSONOf(t, func(a *app) error { return gaussianRun(&gaussianOptions{IO: a, Mechanism: m}) })
}

// privamp gaussian: the exact ε is the floor; RDP and zCDP values lie above
// it, the improved RDP conversion within ~10% for moderate noise. Under
// -short the 1000-fold compositions run at σ = 20 only (both branches of
// the 12% check are still taken: ε below and above 0.5).
func TestGaussianFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("make test only: composition.TestGaussianMechanismExact holds exact ≤ RDP ≤ zCDP under -short")
	}
	t.Parallel() // no run(): touches no package-level state (atomicfile.Stdout, working directory)
	for _, sigma := range []float64{0.8, 2, 5, 20} {
		for _, k := range []float64{1, 10, 1000} {
			if testing.Short() && (k == 1000 && sigma != 20 || sigma == 2 || sigma == 5) {
				continue
			}
			obj := gaussianAt(t, sigma, k, 1e-6, false)
			exact, rdpE, z := obj["epsilon"].(float64), obj["rdp_epsilon"].(float64), obj["zcdp_epsilon"].(float64)
			if rdpE < exact || z < rdpE {
				t.Errorf("σ=%v k=%v: exact %v, rdp %v, zcdp %v out of order", sigma, k, exact, rdpE, z)
			}
			if exact > 0.5 && rdpE > 1.12*exact {
				t.Errorf("σ=%v k=%v: rdp %v more than 12%% above exact %v", sigma, k, rdpE, exact)
			}
		}
	}
}

// Calibration: recomputing ε at the returned noise meets the target.
func TestGaussianCalibrationMeetsTarget(t *testing.T) {
	t.Parallel() // no run(): touches no package-level state (atomicfile.Stdout, working directory)
	for _, target := range []float64{0.3, 1, 4} {
		sigma := gaussianAt(t, target, 7, 1e-5, true)["sigma"].(float64)
		if again := gaussianAt(t, sigma, 7, 1e-5, false); again["epsilon"].(float64) > target {
			t.Errorf("target %v: σ=%v recomputes to ε=%v", target, sigma, again["epsilon"])
		}
	}
}
