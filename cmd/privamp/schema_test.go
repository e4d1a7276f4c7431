package main

import (
	"os"
	"strings"
	"testing"
)

// TestJSONSchemaDocumented runs the commands that docs/json-schema.md shows
// and checks that every top-level key each one prints is listed in that
// command's section, and that each object names its command.
func TestJSONSchemaDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/json-schema.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	var name string
	for _, l := range strings.Split(string(doc), "\n") {
		if h, ok := strings.CutPrefix(l, "## "); ok {
			name = h
			continue
		}
		if name != "" {
			sections[name] += l + "\n"
		}
	}
	wd, _ := os.Getwd()
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(wd) })
	for sec, body := range sections {
		i := strings.Index(body, "`privamp")
		if i < 0 {
			t.Fatalf("section %s names no command", sec)
		}
		line := strings.SplitN(body[i+1:], "`", 2)[0]
		args := strings.Fields(strings.TrimPrefix(line, "privamp"))
		if testing.Short() && (len(args) == 0 || args[0] == "run" || args[0] == "audit" || args[0] == "compare" ||
			strings.Contains(line, "--events") || strings.Contains(line, "shuffle")) {
			// The training runs' sections and the four whose commands take
			// 0.4–0.8 s of CPU each (the main job, compare's PLD columns, the
			// two-phase events file, the shuffle bounds) are make test's.
			continue
		}
		var obj map[string]any
		if len(args) == 0 { // the main job: already run by its own tests
			_, obj = mainJobOutputs(t)
		} else {
			obj = jsonOf(t, args...)
		}
		if c, _ := obj["command"].(string); c == "" {
			t.Errorf("%s: no \"command\" key", sec)
		}
		for k := range obj {
			if !strings.Contains(body, "| `"+k+"` |") {
				t.Errorf("docs/json-schema.md, section %s: key %q is not documented", sec, k)
			}
		}
	}
	if len(sections) < 15 {
		t.Errorf("only %d sections", len(sections))
	}
}
