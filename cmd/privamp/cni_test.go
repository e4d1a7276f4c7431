package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// cni's flags fill the options; a missing schedule, or an allocation over
// it, is refused before the file is read.
func TestCNIFlags(t *testing.T) {
	o := mustParse(t, newCNICmd, "--schedule", "s.json", "--alpha", "2,8", "--alpha", "32", "--allocation", "a.csv", "--delta", "1e-6", "--segments", "3", "--conversion", "classic")
	if o.Schedule != "s.json" || !reflect.DeepEqual(o.Alphas, []float64{2, 8, 32}) || o.Allocation != "a.csv" || o.Delta != 1e-6 || o.Segments != 3 || o.Conversion != rdp.Classic || o.Stdin == nil {
		t.Errorf("cni options %+v", o)
	}
	if o := mustParse(t, newCNICmd, "--schedule", "-"); o.Delta != 1e-5 || o.Segments != 20 || o.Conversion != rdp.Improved {
		t.Errorf("cni defaults %+v", o)
	}
	refused(t, newCNICmd, "--schedule is required")
	refused(t, newCNICmd, "would overwrite", "--schedule", "s.json", "--allocation", "./s.json")
}

func TestCNI(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	// Thm 23: a person at step 5000 of 10000, v = 0.01, s = 0.2:
	// K = s²/(2v(T − t + 1)) = 0.04/(0.02·5001).
	src := `{"variance": 0.01, "steps": [{"count": 4999}, {"sensitivity": 0.2}, {"count": 5000}]}`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	alloc := filepath.Join(dir, "a.csv")
	obj := runJSONOf(t, func(a *app) error {
		return cniRun(&cniOptions{IO: a, Schedule: path, Allocation: alloc, Delta: 1e-5, Alphas: []float64{2, 10}, Segments: 20, Conversion: rdp.Improved})
	})
	want := 0.04 / (0.02 * 5001)
	if k := obj["rho"].(float64); !ampClose(k, want, 1e-12) {
		t.Fatalf("K = %g, want %g", k, want)
	}
	if r := obj["rdp"].([]any)[1].(map[string]any)["epsilon"].(float64); !ampClose(r, 10*want, 1e-12) {
		t.Fatalf("RDP(10) = %g", r)
	}
	data, err := os.ReadFile(alloc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 10001 || lines[0] != "step,shift" || lines[4999] != "4999,0" {
		t.Fatalf("%d lines, %q, %q", len(lines), lines[0], lines[4999])
	}
	out, _, code := runCLI("cni", "--schedule", path) // the wiring, end to end
	if code != 0 || !strings.Contains(out, "Thm 22") || !strings.Contains(out, "Assumptions:") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestCNIBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	good := write("good.json", `{"variance": 1, "steps": [{"sensitivity": 1}]}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cni"}, "--schedule is required"},
		{[]string{"cni", "--schedule", filepath.Join(dir, "none.json")}, "cannot read"},
		{[]string{"cni", "--schedule", write("c.json", `{"variance": 1, "steps": [{"contraction": 1.5}]}`)}, "does not contract"},
		{[]string{"cni", "--schedule", write("v.json", `{"steps": [{"variance": -2}]}`)}, "variance"},
		{[]string{"cni", "--schedule", write("l.json", "{\"variance\": 1,\n\"steps\": [{\"count\": 1},]}")}, "line 2"},
		{[]string{"cni", "--schedule", write("u.json", `{"variance": 1, "steps": [{"sensitivty": 1}]}`)}, "unknown field"},
		{[]string{"cni", "--schedule", good, "--delta", "2"}, "--delta"},
		{[]string{"cni", "--schedule", good, "--alpha", "1"}, "--alpha"},
		{[]string{"cni", "--schedule", good, "--segments", "-1"}, "--segments"},
		{[]string{"cni", "--schedule", write("big.json", `{"variance": 1, "steps": [{"count": 20000000}]}`), "--allocation", filepath.Join(dir, "a.csv")}, "--allocation"},
	} {
		_, errs, code := runCLI(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a.csv")); err == nil {
		t.Error("allocation written for a refused schedule")
	}
}

// Output over input (issue 9): --allocation never overwrites the --schedule file.
func TestCNIAllocationOverSchedule(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	src := `{"variance": 1, "steps": [{"sensitivity": 1}]}`
	os.WriteFile(path, []byte(src), 0o644)
	_, errs, code := runCLI("cni", "--schedule", path, "--allocation", path)
	if data, _ := os.ReadFile(path); code != 2 || !strings.Contains(errs, "--allocation") || !strings.Contains(errs, "--schedule") || string(data) != src {
		t.Fatalf("exit %d: %s", code, errs)
	}
}
