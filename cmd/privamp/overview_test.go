package main

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// mainJobOutput runs the main job's wiring (its header, compare's options
// from its flags) with one comparison rendered as text and as JSON, for the
// tests below and the schema test (the MNIST-sized comparison is the
// slowest part; README's examples run privamp itself end to end).
var mainJobOutput = sync.OnceValues(func() (string, string) {
	a, out, _ := testApp(false)
	var js string
	err := mainJob(a, nil, func(o *compareOptions) error {
		c, err := shifted.CompareTraining(o.Training, o.Options)
		if err != nil {
			return err
		}
		b, _, _ := testApp(true)
		if err := render(b.out, b.mode, c.Answer()); err != nil {
			return err
		}
		js = b.out.(*bytes.Buffer).String()
		return render(a.out, a.mode, c.Answer())
	})
	if err != nil {
		return "", err.Error()
	}
	return out.String(), js
})

// mainJobOutputs returns the main job's text and its JSON object.
func mainJobOutputs(t *testing.T) (string, map[string]any) {
	t.Helper()
	out, js := mainJobOutput()
	if out == "" {
		t.Fatal(js)
	}
	return out, decodeOne(t, js)
}

// The main job is compare on the MNIST-sized run with the nominal batch.
func TestMainJobOptions(t *testing.T) {
	var got *compareOptions
	a, out, _ := testApp(false)
	if err := mainJob(a, nil, func(o *compareOptions) error { got = o; return nil }); err != nil || got == nil {
		t.Fatal(err)
	}
	want := ampDefaults(60000, 1.1/256)
	want.Training.Batch, want.Training.Epochs = 256, 60
	if !reflect.DeepEqual(got.ampRun, want) || !strings.Contains(out.String(), "Equivalent to: privamp compare --n 60000 --batch 256 --epochs 60 --noise-multiplier 1.1 --delta 1e-05") {
		t.Errorf("main job options %+v, header %q", got.ampRun, out)
	}
	a, out, _ = testApp(true)
	if err := mainJob(a, nil, func(o *compareOptions) error { return nil }); err != nil || out.Len() != 0 {
		t.Errorf("--json: a header was printed: %q (%v)", out, err)
	}
}

// The README's first command: privamp with no arguments runs the main job.
func TestDefaultRun(t *testing.T) {
	out, obj := mainJobOutputs(t)
	for _, want := range []string{"worked example on embedded defaults", "iteration, best record", "sampling, add/remove", "Sources:", "Assumptions:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
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
	if testing.Short() {
		t.Skip("make test only: the main job's wiring is TestDefaultRun's under -short")
	}
	out, obj := mainJobOutputs(t)
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
	for _, s := range []string{"sampling, replace-one (like for like, loose)", "× too high (see the notes)", "replace-one sampling baseline is loose", "scale of the possible looseness"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q", s)
		}
	}
}
