// Package buildinfo says which privamp is running: the version set at
// build time, the module's version and the VCS commit the binary was built
// from, as runtime/debug.ReadBuildInfo records them.
package buildinfo

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Info is what the binary knows about its build.
type Info struct {
	Version  string `json:"version"`     // set at build time (-ldflags -X), or the module's
	Module   string `json:"module"`      // module path and version ("(devel)" for a local build)
	Commit   string `json:"commit"`      // VCS revision, "" when not recorded
	Time     string `json:"commit_time"` // VCS commit time, RFC 3339
	Modified bool   `json:"modified"`    // the work tree had uncommitted changes
	Go       string `json:"go_version"`  // the Go toolchain
}

// Read returns the build information, with version and commit as set at
// build time (make build sets the commit with -ldflags -X where Go's own
// VCS stamp is off); Go's stamp wins when present.
func Read(version, commit string) Info {
	in := Info{Version: version, Commit: commit}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return in
	}
	in.Module, in.Go = strings.TrimSpace(bi.Main.Path+" "+bi.Main.Version), bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Commit = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// String is one line: "privamp 0.1.0-dev (module github.com/privamp/privamp
// (devel), commit 0123abcd…, 2026-11-26T02:00:00Z, modified; go1.26.8)".
func (in Info) String() string {
	parts := []string{}
	if in.Module != "" {
		parts = append(parts, "module "+in.Module)
	}
	commit := "commit unknown (built without VCS information)"
	if in.Commit != "" {
		commit = "commit " + in.Commit
		if in.Time != "" {
			commit += ", " + in.Time
		}
		if in.Modified {
			commit += ", with uncommitted changes"
		}
	}
	parts = append(parts, commit)
	if in.Go != "" {
		parts = append(parts, in.Go)
	}
	return fmt.Sprintf("privamp %s (%s)", in.Version, strings.Join(parts, "; "))
}
