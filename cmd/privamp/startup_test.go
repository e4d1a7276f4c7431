package main

import (
	"bytes"
	"testing"

	"github.com/privamp/privamp/internal/flagconfig"
)

// TestRegistryNames checks that each registered name is its command's
// name: run builds only the command named on the command line (start-up
// time, issue 27), so a wrong name would make that command unknown.
func TestRegistryNames(t *testing.T) {
	for name, f := range registry {
		if got := f(&app{}).Name(); got != name {
			t.Errorf("registered as %q, but the command's name is %q", name, got)
		}
	}
}

// TestSubcommand checks which commands run builds for a command line.
func TestSubcommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"--json"}, "*"},
		{[]string{"--help"}, "*"},
		{[]string{"--version"}, "*"},
		{[]string{"version"}, "version"},
		{[]string{"--json", "gaussian", "--sigma", "1"}, "gaussian"},
		{[]string{"dpsgd", "--help"}, "dpsgd"},
		{[]string{"help", "dpsgd"}, "*"},
		{[]string{"completion", "bash"}, "*"},
		{[]string{"__complete", "dpsgd", ""}, "*"},
		{[]string{"gausian"}, "*"},
		{[]string{"--", "gaussian"}, "*"},
	} {
		if got := flagconfig.Subcommand(c.args, known); got != c.want {
			t.Errorf("Subcommand(%q) = %q, want %q", c.args, got, c.want)
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
		{"version", "--help"},
		{"gaussian", "--version"},
		{"gaussian", "--sigma", "2", "--delta", "1e-6", "--csv"},
	} {
		var lazyOut, lazyErr, fullOut, fullErr bytes.Buffer
		lazy := runRoot(newRootFor(&app{out: &lazyOut, errw: &lazyErr}, flagconfig.Subcommand(args, known)), args, &lazyErr)
		full := runRoot(newRootFor(&app{out: &fullOut, errw: &fullErr}, "*"), args, &fullErr)
		if lazy != full || lazyOut.String() != fullOut.String() || lazyErr.String() != fullErr.String() {
			t.Errorf("%q: one command built: exit %d, %q %q; all built: exit %d, %q %q", args, lazy, lazyOut.String(), lazyErr.String(), full, fullOut.String(), fullErr.String())
		}
	}
}
