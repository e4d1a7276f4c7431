package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// epochs: the library's curve, the burn-in, the plot; pnsgd --radius uses
// the bounded domain; bad input exits 2 naming the flag.
func TestEpochs(t *testing.T) {
	obj := jsonOf(t, "epochs", "--n", "1000", "--sigma", "1", "--eta", "0.05", "--radius", "1", "--max-epochs", "1000")
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
	plot := filepath.Join(t.TempDir(), "e.svg")
	if _, errOut, code := runCLI("epochs", "--n", "1000", "--sigma", "1", "--eta", "0.05", "--radius", "1", "--plot", plot); code != 0 {
		t.Fatalf("plot: exit %d %s", code, errOut)
	}
	if st, err := os.Stat(plot); err != nil || st.Size() < 1000 {
		t.Errorf("plot: %v", err)
	}
	// pnsgd: with --radius the worst record's ε is the bounded-domain one.
	with := jsonOf(t, "pnsgd", "--n", "1000", "--sigma", "1", "--eta", "0.05", "--epochs", "1000", "--radius", "1")
	without := jsonOf(t, "pnsgd", "--n", "1000", "--sigma", "1", "--eta", "0.05", "--epochs", "1000")
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
