package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/privamp/privamp/internal/field"
)

// Issue 9 hole 11: messages and exit codes of the root command.
func TestRootMessagesAndExitCodes(t *testing.T) {
	// "privamp --foo" said "see 'privamp privamp --help'".
	_, errs, code := runCLI("--foo")
	if code != 2 || !strings.Contains(errs, "see 'privamp --help'") || strings.Contains(errs, "privamp privamp") {
		t.Errorf("privamp --foo: exit %d, %q", code, errs)
	}
	_, errs, _ = runCLI("pnsgd", "--foo")
	if !strings.Contains(errs, "see 'privamp pnsgd --help'") {
		t.Errorf("privamp pnsgd --foo: %q", errs)
	}
	// "completion foo" printed help and exited 0.
	expectBadInput(t, []string{"completion", "foo"}, `"foo"`)
	out, _, code := runCLI("completion", "bash")
	if code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d", code)
	}
	expectBadInput(t, []string{"nosuch"}, "nosuch")
}

// A library field error that a command returns unmapped still exits 2 and
// names the flag.
func TestFieldErrorsNameTheFlag(t *testing.T) {
	err := flagError(field.New("strong_convexity", 3.0, "must be ≤ the smoothness β = 1"), nil)
	if got := err.Error(); got != "--strong-convexity must be ≤ the smoothness β = 1, got 3" {
		t.Errorf("%q", got)
	}
	if exitCode(err) != exitBadInput {
		t.Errorf("exit %d", exitCode(err))
	}
	err = flagError(field.New("dimension", int64(0), "must be a whole number in [1, 1e12]"), map[string]string{"dimension": "dim"})
	if !strings.HasPrefix(err.Error(), "--dim ") {
		t.Errorf("rename: %q", err)
	}
}

// Every command's --help states its exit statuses (issue 9).
func TestEveryHelpStatesExitStatuses(t *testing.T) {
	a := &app{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		if !strings.Contains(c.Long, "Exit status") {
			t.Errorf("%s --help does not state its exit statuses", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			if c.Name() != "completion" { // cobra's per-shell scripts
				walk(sub)
			}
		}
	}
	walk(newRoot(a))
}

// Shell completion offers every enum flag's values and the table names,
// and files for none of them.
func TestCompletion(t *testing.T) {
	for args, want := range map[string]string{
		"run --variant":         "skip",
		"run --algorithm":       "langevin",
		"dpsgd --accountant":    "pld",
		"dpsgd --neighbours":    "replace-one",
		"compose --method":      "pld",
		"gaussian --conversion": "classic",
		"curve --variants":      "stop",
		"run --loss":            "smooth-hinge",
	} {
		out, _, code := runCLI(append([]string{"__complete"}, append(strings.Fields(args), "")...)...)
		if code != 0 || !strings.Contains(out, want+"\n") || !strings.Contains(out, ":4") {
			t.Errorf("%s: exit %d, %q; want %s and no file completion", args, code, out, want)
		}
	}
	if out, _, _ := runCLI("__complete", "tables", ""); !strings.Contains(out, "bst14\n") {
		t.Errorf("tables completion: %q", out)
	}
}

// The commands that read large files state their input limits.
func TestHelpStatesInputLimits(t *testing.T) {
	for _, c := range []string{"plan", "verify", "cni"} {
		if out, _, _ := runCLI(c, "--help"); !strings.Contains(out, "Input limits:") {
			t.Errorf("%s --help states no input limits", c)
		}
	}
}
