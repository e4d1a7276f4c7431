package main

import (
	"strings"
	"testing"
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
