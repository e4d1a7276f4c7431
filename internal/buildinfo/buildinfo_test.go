package buildinfo

import (
	"strings"
	"testing"
)

// The version line names the version, the module and the commit, or says
// that the commit is unknown (issue 27).
func TestString(t *testing.T) {
	in := Read("1.2.3", "")
	if s := in.String(); !strings.HasPrefix(s, "privamp 1.2.3 (") || !strings.Contains(s, "module github.com/privamp/privamp") || !strings.Contains(s, "commit ") {
		t.Errorf("%q", s)
	}
	in = Info{Version: "1", Module: "m v1", Commit: "abc", Time: "2026-01-01T00:00:00Z", Modified: true, Go: "go1.26"}
	if s := in.String(); s != "privamp 1 (module m v1; commit abc, 2026-01-01T00:00:00Z, with uncommitted changes; go1.26)" {
		t.Errorf("%q", s)
	}
}
