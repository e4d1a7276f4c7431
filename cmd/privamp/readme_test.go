package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEExamples runs every "$ privamp …" command shown in README.md and
// checks that each output line the README shows under it is a line (or the
// start of a table row) of the real output: the README's examples are the
// binary's, not a memory of it. The examples run in a temporary copy of
// examples/ (testdata/ linked), so files they write (--out, --plot, --trace)
// land there and not over the committed ones.
func TestREADMEExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README example")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	tmp := t.TempDir()
	if err := os.CopyFS(filepath.Join(tmp, "examples"), os.DirFS(filepath.Join(root, "examples"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "testdata"), filepath.Join(tmp, "testdata")); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(tmp); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(wd) })
	examples := readmeExamples(string(readme))
	if len(examples) < 10 {
		t.Fatalf("found only %d examples in README.md", len(examples))
	}
	for _, ex := range examples {
		out, errs, _ := runCLI(ex.args...)
		got := map[string]bool{}
		var rows []string
		for _, l := range strings.Split(out+errs, "\n") {
			l = strings.TrimRight(l, " ")
			got[l] = true
			rows = append(rows, l)
		}
		for _, want := range ex.shown {
			if got[want] {
				continue
			}
			// A table row may carry a note after it in the README.
			found := false
			for _, r := range rows {
				if strings.HasPrefix(r, "│") && strings.HasPrefix(want, r) && len(r) > 10 {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("README: privamp %s\n  shows  %q\n  but the binary does not print it", strings.Join(ex.args, " "), want)
			}
		}
	}
}

type readmeExample struct {
	args  []string
	shown []string
}

// readmeExamples parses the ``` blocks of the README: a line "$ privamp …"
// (continued by a trailing backslash; a "#" comment ends it) starts an
// example, and the lines up to the next "$" line are its shown output
// ("…" lines and blank lines are skipped).
func readmeExamples(md string) []readmeExample {
	var out []readmeExample
	in := false
	var cur *readmeExample
	cont := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			in, cur, cont = !in, nil, false
			continue
		}
		if !in {
			continue
		}
		l := strings.TrimRight(line, " ")
		switch {
		case cont && cur != nil:
			s, more := strings.CutSuffix(strings.TrimSpace(l), "\\")
			cur.args = append(cur.args, strings.Fields(s)...)
			cont = more
		case strings.HasPrefix(l, "$ privamp"):
			cmd := strings.TrimPrefix(l, "$ privamp")
			if i := strings.Index(cmd, " #"); i >= 0 {
				cmd = cmd[:i]
			}
			s, more := strings.CutSuffix(strings.TrimSpace(cmd), "\\")
			out = append(out, readmeExample{args: strings.Fields(s)})
			cur, cont = &out[len(out)-1], more
		case cur != nil && l != "" && !strings.HasPrefix(strings.TrimSpace(l), "…") && !strings.HasPrefix(l, "$"):
			cur.shown = append(cur.shown, l)
		case strings.HasPrefix(l, "$"):
			cur = nil
		}
	}
	return out
}
