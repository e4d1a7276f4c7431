package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// No accounting command exits 0 without an ε (issue 23, item 2: fixed-size
// batches under replace-one printed "epsilon": null with exit 0 at
// δ ≤ 1e-7). dpsgd over Poisson/fixed-size sampling, both neighbouring
// relations and the three accountants, gaussian, laplace and compose
// --events over the example files, each at δ from 1e-5 to 1e-12: exit 0
// comes with a finite ε ≥ 0; any other status with a one-line message (pld
// alone refuses, naming --accountant, where its rounding bounds exceed δ).
// Under -short: the commands only.
func TestNoNullEpsilon(t *testing.T) {
	deltas := []string{"1e-5", "1e-7", "1e-9", "1e-12"}
	accountants := []string{"best", "pld", "rdp"}
	var cmds [][]string
	if testing.Short() {
		t.Skip("2 s; under -short the library's tests hold the same runs (composition.TestDPSGDFixedSize, events.TestAccountantChoice at δ = 1e-9)")
	}
	for _, d := range deltas {
		for _, a := range accountants {
			for _, s := range []string{"--n 50000 --batch 200 --steps 50000 --noise 2", "--n 1000000 --batch 1000 --steps 100000 --noise 5",
				"--n 10000 --batch 100 --steps 300 --noise 0.8"} {
				for _, nb := range []string{"--neighbours replace-one --sampling fixed-size", "--neighbours replace-one", ""} {
					cmds = append(cmds, strings.Fields(fmt.Sprintf("dpsgd %s %s --accountant %s --delta %s", s, nb, a, d)))
				}
			}
		}
		cmds = append(cmds, strings.Fields("gaussian --sigma 2 --compositions 1000 --delta "+d),
			strings.Fields("laplace --scale 10 --compositions 100 --delta "+d))
		for _, f := range []string{"events-fixed-batches", "events-two-phase", "events-noise-schedule"} {
			for _, a := range accountants {
				cmds = append(cmds, strings.Fields("compose --events ../../examples/"+f+".json --accountant "+a+" --target-delta "+d))
			}
		}
	}
	for _, args := range cmds {
		out, errs, code := runCLI(append(args, "--json")...)
		if code != 0 {
			if msg := strings.TrimSpace(errs); msg == "" || strings.Contains(msg, "\n") {
				t.Errorf("%v: exit %d with message %q", args, code, errs)
			}
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Errorf("%v: %v", args, err)
			continue
		}
		e, ok := obj["epsilon"].(float64)
		if !ok || !(e >= 0) || math.IsInf(e, 0) {
			t.Errorf("%v: exit 0 with ε %v (%v)", args, obj["epsilon"], obj["epsilon_reason"])
		}
	}
	t.Logf("%d commands", len(cmds))
}
