package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// epochs: the library's curve, the burn-in, the plot; pnsgd --radius uses
// the bounded domain; bad input exits 2 naming the flag.
func TestEpochs(t *testing.T) {
	o := mustParse(t, newEpochsCmd, "--n", "1000", "--sigma", "1", "--eta", "0.05", "--radius", "1", "--max-epochs", "1000")
	run := ampDefaults(1000, 1)
	run.Training.Radius, run.Training.Loss.Eta = 1, 0.05
	if !reflect.DeepEqual(o.ampRun, run) || o.MaxEpochs != 1000 || o.Points != 25 || o.NoSampling || o.Plot != "" {
		t.Errorf("epochs options %+v", o)
	}
	if o := mustParse(t, newEpochsCmd, "--n", "10", "--sigma", "1", "--no-sampling", "--points", "3", "--plot", "e.png"); !o.NoSampling || o.Points != 3 || o.Plot != "e.png" {
		t.Errorf("epochs options %+v", o)
	}
	obj := runJSONOf(t, func(a *app) error { o.IO = a; return epochsRun(o) })
	r := shifted.Training{Variant: shifted.VariantPNSGD, N: 1000, Sigma: 1, Delta: 1e-5, Radius: 1, Loss: shifted.Loss{Lipschitz: 1, Eta: 0.05}}
	want, err := shifted.EpsilonByEpochs(r, shifted.LogSpacedEpochs(1000, 25), rdp.Improved, true)
	if err != nil {
		t.Fatal(err)
	}
	if obj["command"] != "epochs" || int64(obj["burn_in_epochs"].(float64)) != want.BurnIn || want.BurnIn != 60 || obj["limit_epsilon"].(float64) != float64(*want.LimitEpsilon) {
		t.Errorf("epochs: %v", obj)
	}
	pts := obj["points"].([]any)
	last := pts[len(pts)-1].(map[string]any)
	if !(last["domain_epsilon"].(float64) < last["fmtt18_epsilon"].(float64)) {
		t.Errorf("after 1000 passes the domain bound %v is not below FMTT18's %v", last["domain_epsilon"], last["fmtt18_epsilon"])
	}
	plot := filepath.Join(t.TempDir(), "e.svg") // end to end: the wiring of --plot
	if _, errOut, code := runCLI("epochs", "--n", "1000", "--sigma", "1", "--eta", "0.05", "--radius", "1", "--plot", plot, "--max-epochs", "100", "--points", "5"); code != 0 {
		t.Fatalf("plot: exit %d %s", code, errOut)
	}
	if st, err := os.Stat(plot); err != nil || st.Size() < 1000 {
		t.Errorf("plot: %v", err)
	}
	// pnsgd: with --radius the worst record's ε is the bounded-domain one.
	run.Training.Epochs = 1000
	with := pnsgdJSON(t, run)
	run.Training.Radius = 0
	without := pnsgdJSON(t, run)
	w1, w0 := with["summary"].(map[string]any)["worst_epsilon"].(float64), without["summary"].(map[string]any)["worst_epsilon"].(float64)
	if !(w1 < w0) || with["radius"] != 1.0 {
		t.Errorf("pnsgd --radius: %v, without %v", w1, w0)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"epochs", "--n", "1000", "--sigma", "1", "--eta", "0.05", "--radius", "-1"}, "--radius"},
		{[]string{"epochs", "--n", "1000", "--sigma", "1", "--eta", "0.05", "--radius", "NaN"}, "--radius"},
		{[]string{"pnsgd", "--n", "1000", "--sigma", "1", "--eta", "0.05", "--radius", "0"}, ""},
		{[]string{"epochs", "--n", "1000", "--sigma", "1", "--epochs", "3"}, "--epochs"},
		{[]string{"epochs", "--n", "1000", "--sigma", "1", "--max-epochs", "0"}, "--max-epochs"},
		{[]string{"epochs", "--n", "1000", "--sigma", "1", "--plot", "x.pdf"}, "--plot"},
	} {
		_, errOut, code := runCLI(c.args...)
		if c.want == "" {
			if code != 0 {
				t.Errorf("%v: exit %d %s", c.args, code, errOut)
			}
			continue
		}
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, want 2 naming %s: %q", c.args, code, c.want, errOut)
		}
	}
}
