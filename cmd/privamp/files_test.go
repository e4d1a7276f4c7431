package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Issue 23 item 7: what an output path means, for every writer.
func TestOutputFiles(t *testing.T) {
	dir := t.TempDir()
	people, err := os.ReadFile("../../examples/plan/people.csv")
	if err != nil {
		t.Fatal(err)
	}
	// "-" is standard output: plan --people ./- --out - wrote its plan over
	// its input, a file named "-".
	dash := filepath.Join(dir, "-")
	if err := os.WriteFile(dash, people, 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"--radius", "1", "--dimension", "10", "--delta", "1e-6", "--quiet"}
	out, errs, code := planCLI(append(base, "--people", dash, "--out", "-")...)
	if b, _ := os.ReadFile(dash); code != 0 || !bytes.Equal(b, people) {
		t.Fatalf("--people %s --out -: exit %d %s; the input is now %d bytes", dash, code, errs, len(b))
	}
	var plan map[string]any
	if err := json.NewDecoder(strings.NewReader(out)).Decode(&plan); err != nil || plan["format"] == nil {
		t.Errorf("--out -: the plan is not on standard output: %v\n%.300s", err, out)
	}
	// A FIFO (and a link to one, as /dev/stdout is to a shell's pipe) is
	// written in place, not replaced.
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	link := filepath.Join(dir, "stdout")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, link} {
		got := make(chan []byte)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- nil
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- b
		}()
		_, errs, code := planCLI(append(base, "--people", dash, "--out", p)...)
		b := <-got
		if fi, err := os.Lstat(fifo); code != 0 || err != nil || fi.Mode()&os.ModeNamedPipe == 0 || !bytes.Contains(b, []byte(`"format"`)) {
			t.Errorf("--out %s: exit %d %s; %d bytes through the pipe", p, code, errs, len(b))
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("--out %s: the link was replaced", p)
		}
	}
	// An output that cannot be created: exit 2 naming the flag and the
	// output, never the temporary file.
	for _, c := range [][]string{
		{"plan", "--out", filepath.Join(dir, "nodir", "x.json")},
		{"plan", "--plot", filepath.Join(dir, "nodir", "x.svg")},
		{"cni", "--allocation", filepath.Join(dir, "nodir", "a.csv")},
	} {
		args := append(append([]string{}, c...), "--people", dash, "--radius", "1", "--dimension", "10", "--delta", "1e-6")
		if c[0] == "cni" {
			args = append(append([]string{}, c...), "--schedule", "../../examples/schedule.json")
		}
		_, errs, code := runCLI(args...)
		if code != 2 || !strings.HasPrefix(errs, "privamp: "+c[1]+" "+c[2]+": cannot be created") || strings.Contains(errs, ".privamp") {
			t.Errorf("%v: exit %d, %q", c, code, errs)
		}
	}
	// audit --claim's trajectory is an input: --plot may not replace it.
	claim, _ := os.ReadFile("../../examples/claim.json")
	traj, _ := os.ReadFile("../../examples/trajectory.csv")
	cp := filepath.Join(dir, "claim.json")
	tsvg := filepath.Join(dir, "t.svg")
	if err := os.WriteFile(cp, bytes.Replace(claim, []byte(`"trajectory.csv"`), []byte(`"t.svg"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tsvg, traj, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI("audit", "--scores", canaryFile, "--claim", cp, "--plot", tsvg)
	if b, _ := os.ReadFile(tsvg); code != 2 || !strings.Contains(errs, "--plot "+tsvg+": is the --claim trajectory file") || !bytes.Equal(b, traj) {
		t.Errorf("audit --claim trajectory --plot: exit %d %q; trajectory intact: %v", code, errs, bytes.Equal(b, traj))
	}
}
