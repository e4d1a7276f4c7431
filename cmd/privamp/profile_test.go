package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// --at-epsilon and --plot are read the same way by every accounting
// command; a bad value is refused before anything is computed.
func TestAtEpsilonFlags(t *testing.T) {
	if o := mustParse(t, newDPSGDCmd, "--at-epsilon", "2", "--plot", "c.svg"); o.Profile.At == nil || *o.Profile.At != 2 || !o.Profile.Curve || o.Plot != "c.svg" {
		t.Errorf("dpsgd: %+v", o.Profile)
	}
	if o := mustParse(t, newGaussianCmd, "--sigma", "2", "--at-epsilon", "0"); o.Mechanism.Profile.At == nil || o.Mechanism.Profile.Curve {
		t.Errorf("gaussian: %+v", o.Mechanism.Profile)
	}
	if o := mustParse(t, newLaplaceCmd, "--scale", "2", "--at-epsilon", "1"); o.Mechanism.Profile.At == nil {
		t.Errorf("laplace: %+v", o.Mechanism.Profile)
	}
	if o := mustParse(t, newComposeCmd, "--epsilon", "1", "--compositions", "3", "--at-epsilon", "1"); o.Query.Profile.At == nil {
		t.Errorf("compose: %+v", o.Query.Profile)
	}
	refused(t, newDPSGDCmd, "--at-epsilon", "--at-epsilon", "-1")
	refused(t, newGaussianCmd, "--at-epsilon", "--sigma", "1", "--at-epsilon", "inf")
	refused(t, newLaplaceCmd, "--plot", "--scale", "1", "--plot", "c.txt")
	refused(t, newComposeCmd, "--plot", "--epsilon", "1", "--compositions", "3", "--plot", "c.pdf")
	// Opacus' shape: a sampling rate with epochs (⌈epochs/q⌉ steps).
	if o := mustParse(t, newDPSGDCmd, "--sampling-rate", "0.003", "--epochs", "2"); o.Run.SamplingRate != 0.003 || o.Run.Epochs != 2 {
		t.Errorf("dpsgd --sampling-rate --epochs: %+v", o.Run)
	}
}

// δ at the ε asked for is printed, the curve is in --json and drawn by
// --plot.
func TestAtEpsilonOutputs(t *testing.T) {
	at := 1.0
	g := &gaussianOptions{Mechanism: composition.GaussianMechanism{Sigma: 2, Sensitivity: 1, Compositions: 1, Delta: 1e-5, Profile: composition.ProfileQuery{At: &at}}}
	out := runOut(t, func(a *app) error { g.IO = a; return gaussianRun(g) })
	if want := "δ at ε = 1"; !strings.Contains(out, want) || !strings.Contains(out, dp.Loss(composition.GaussianDelta(0.5, 1)).String()) {
		t.Errorf("gaussian output lacks %q with the exact δ:\n%s", want, out)
	}
	plot := filepath.Join(t.TempDir(), "curve.svg")
	d := &dpsgdOptions{Run: rdp.DPSGD{SamplingRate: 0.01, Steps: 100, Noise: 1, Delta: 1e-5, Sampling: dp.Poisson}, Accountant: "rdp",
		Profile: composition.ProfileQuery{At: &at, Curve: true}, Plot: plot}
	obj := runJSONOf(t, func(a *app) error { d.IO = a; return dpsgdRun(d) })
	curve, _ := obj["epsilon_delta_curve"].([]any)
	if _, ok := obj["at_epsilon"].(map[string]any); !ok || len(curve) != composition.CurvePoints+1 {
		t.Errorf("dpsgd --json: at_epsilon %v, %d curve points", obj["at_epsilon"], len(curve))
	}
	if b, err := os.ReadFile(plot); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("--plot wrote no SVG: %v", err)
	}
}
