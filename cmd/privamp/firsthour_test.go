package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Issue 27, trap 2: a flag given twice is refused (exit 2, naming it) in
// every command, as a JSON input refuses a repeated key; only the list
// flags (--index, --tier, …) repeat. Nothing is computed: the refusal comes
// while the flags are parsed.
func TestRepeatedFlagsRefused(t *testing.T) {
	t.Parallel()
	stride := 1 // -short: every fourth flag (0.5 s instead of 2 s)
	if testing.Short() {
		stride = 4
	}
	seen := 0
	var walk func(c *cobra.Command)
	checked, lists := 0, 0
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		path := strings.Fields(c.CommandPath())[1:]
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" || f.Name == "version" {
				return
			}
			if typ := f.Value.Type(); strings.HasSuffix(typ, "Slice") || strings.HasSuffix(typ, "Array") {
				lists++
				return
			}
			if seen++; seen%stride != 0 {
				return
			}
			arg := "--" + f.Name + "=" + f.DefValue
			if f.Value.Type() == "bool" {
				arg = "--" + f.Name
			}
			args := append(append([]string{}, path...), arg, arg)
			_, errs, code := runCLI(args...)
			if code != exitBadInput || !strings.Contains(errs, "--"+f.Name+" is given twice") {
				t.Errorf("%v: exit %d, %q; want 2 and --%s is given twice", args, code, errs, f.Name)
			}
			checked++
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRoot(&app{})
	completeEnums(root)
	for _, c := range root.Commands() {
		c.Flags().AddFlagSet(root.PersistentFlags()) // --json, --csv, --quiet of every command
		walk(c)
	}
	if checked < 200/stride || lists < 5 {
		t.Errorf("checked %d flags and left %d list flags: the walk missed commands", checked, lists)
	}
	t.Logf("%d flags refused twice; %d list flags repeat", checked, lists)
	// The list flags still repeat.
	out, errs, code := runCLI("pnsgd", "--n", "100", "--sigma", "1", "--index", "1", "--index", "2", "--csv")
	if code != 0 || !strings.Contains(out, "index 2") {
		t.Errorf("--index twice: exit %d, %q %q", code, out, errs)
	}
}
