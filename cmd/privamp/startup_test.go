package main

import (
	"bytes"
	"testing"
)

// TestRegistryNames checks that each registered name is its command's
// name: run builds only the command named on the command line (start-up
// time, issue 27), so a wrong name would make that command unknown.
func TestRegistryNames(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range registry {
		if got := r.f(&app{}).Name(); got != r.name {
			t.Errorf("registered as %q, but the command's name is %q", r.name, got)
		}
		if seen[r.name] {
			t.Errorf("%q registered twice", r.name)
		}
		seen[r.name] = true
	}
}

// TestCommandFor checks which commands run builds for a command line.
func TestCommandFor(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, noCommand},
		{[]string{"--json"}, allCommands},
		{[]string{"--help"}, allCommands},
		{[]string{"--version"}, allCommands},
		{[]string{"version"}, "version"},
		{[]string{"--json", "gaussian", "--sigma", "1"}, "gaussian"},
		{[]string{"dpsgd", "--help"}, "dpsgd"},
		{[]string{"help", "dpsgd"}, allCommands},
		{[]string{"completion", "bash"}, allCommands},
		{[]string{"__complete", "dpsgd", ""}, allCommands},
		{[]string{"gausian"}, allCommands},
		{[]string{"--", "gaussian"}, allCommands},
	} {
		if got := commandFor(c.args); got != c.want {
			t.Errorf("commandFor(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// TestLazyRootSameOutput checks that building one command gives the same
// output as building all of them, for a command's result, its help and a
// refused flag.
func TestLazyRootSameOutput(t *testing.T) {
	for _, args := range [][]string{
		{"gaussian", "--sigma", "2", "--delta", "1e-6"},
		{"laplace", "--help"},
		{"gaussian", "--sigma", "2", "--sigma", "3"},
		{"version", "--json"},
	} {
		var lazyOut, lazyErr, fullOut, fullErr bytes.Buffer
		lazy := runRoot(newRootFor(&app{out: &lazyOut, errw: &lazyErr}, commandFor(args)), args, &lazyErr)
		full := runRoot(newRootFor(&app{out: &fullOut, errw: &fullErr}, allCommands), args, &fullErr)
		if lazy != full || lazyOut.String() != fullOut.String() || lazyErr.String() != fullErr.String() {
			t.Errorf("%q: one command built: exit %d, %q %q; all built: exit %d, %q %q", args, lazy, lazyOut.String(), lazyErr.String(), full, fullOut.String(), fullErr.String())
		}
	}
}
