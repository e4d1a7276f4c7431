package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIsFile: the "format" key is matched exactly (encoding/json's
// case-insensitive matching would take "Format" for it), and the first
// "format" key decides.
func TestIsFile(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]bool{
		`{"format": "privamp-plan", "version": 1}`:               true,
		`{"n": 3, "format" : "privamp-plan"}`:                    true,
		`{"Format": "privamp-plan", "version": 1}`:               false,
		`{"FORMAT": "privamp-plan"}`:                             false,
		`{"format": "other", "format": "privamp-plan"}`:          false,
		`{"format": "privamp-plan-x"}`:                           false,
		`["format", "privamp-plan"]`:                             false,
		`{"algorithm": "pnsgd", "n": 10, "description": "plan"}`: false,
		``: false,
	} {
		p := filepath.Join(dir, "f.json")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := IsFile(p); got != want {
			t.Errorf("%s: IsFile = %v, want %v", body, got, want)
		}
	}
	if IsFile(filepath.Join(dir, "missing.json")) {
		t.Error("a missing file is a plan")
	}
}

// TestLoadFile: errors name the file.
func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "p.json")
	os.WriteFile(p, []byte(`{"format": "privamp-plan", "oops": 1}`), 0o644)
	if _, err := LoadFile(p); err == nil || !strings.HasPrefix(err.Error(), p+": ") || !strings.Contains(err.Error(), "oops") {
		t.Errorf("bad plan: %v", err)
	}
	if _, err := LoadFile(filepath.Join(dir, "none.json")); err == nil || !strings.Contains(err.Error(), "cannot open "+dir) {
		t.Errorf("missing plan: %v", err)
	}
}
