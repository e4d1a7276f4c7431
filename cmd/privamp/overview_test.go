package main

import (
	"math"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// The README's first command: privamp with no arguments runs the main job.
func TestDefaultRun(t *testing.T) {
	out, errs, code := runCLI()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"worked example on embedded defaults", "iteration, best record", "sampling, add/remove", "Sources:", "Assumptions:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	obj := jsonOf(t)
	// DP-SGD's own accounting of the same run (add/remove) is the dpsgd value.
	d := jsonOf(t, "dpsgd")
	if obj["command"] != "compare" || d["epsilon"] == nil {
		t.Fatalf("json: %v", obj)
	}
}

// Hole 9 (issue 9): the main job's last partial batch (96 records) was
// averaged over 96, an effective noise multiplier of 0.41 instead of 1.1, and
// its worst record got ε = 39.2452. Every step now divides by the nominal
// batch of 256, as DP-SGD does: the worst record's ε is shifted.SGD's, and
// the output says how loose the replace-one sampling baseline may be.
func TestDefaultRunNominalBatch(t *testing.T) {
	obj := jsonOf(t)
	it := obj["iteration"].(map[string]any)
	worst := it["worst_epsilon"].(float64)
	run := shifted.SGD{N: 60000, Batch: 256, Epochs: 60, Sigma: 1.1 / 256, Loss: shifted.Loss{Lipschitz: 1}}
	want, err := shifted.Epsilon(run, 60000, 1e-5, rdp.Improved)
	if err != nil {
		t.Fatal(err)
	}
	if worst != want.Epsilon || int64(it["worst_index"].(float64)) != 60000 || !(worst < 39.2452) {
		t.Fatalf("worst record ε = %v, want %v (shifted.SGD with the nominal batch), below the old 39.2452", worst, want.Epsilon)
	}
	// The old divisor: the last batch's sensitivity 2L/96 instead of 2L/256.
	old := math.Exp(run.LogRho(60000)) * (256.0 / 96) * (256.0 / 96)
	if e, _ := rdp.LinearEpsilon(old, 1e-5, rdp.Improved); !(e > 2*worst) {
		t.Fatalf("the averaged-over-96 value %v should be far above %v", e, worst)
	}
	// The replace-one sampling baseline is labelled loose, with its scale.
	ro, ar := obj["sampling_replace_one_epsilon"].(float64), obj["sampling_add_remove_epsilon"].(float64)
	if l := obj["sampling_replace_one_looseness"].(float64); l != ro/ar || !(l > 1) {
		t.Fatalf("looseness %v, want %v", l, ro/ar)
	}
	out, _, _ := runCLI()
	for _, s := range []string{"sampling, replace-one (like for like, loose)", "× too high (see the notes)", "replace-one sampling baseline is loose", "scale of the possible looseness"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q", s)
		}
	}
}
