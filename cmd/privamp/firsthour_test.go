package main

import (
	"io"
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

// Issue 27, trap 1: σ versus the noise multiplier. Every command that
// describes a DP-SGD-shaped run takes --noise-multiplier; σ stays for those
// who mean it; both together are refused; a σ that looks like a noise
// multiplier warns, naming --noise-multiplier.
func TestNoiseMultiplierEverywhere(t *testing.T) {
	t.Parallel()
	mnist := []string{"--n", "60000", "--batch", "256", "--epochs", "60"}
	for _, c := range [][]string{{"compare"}, {"pnsgd"}, {"curve"}, {"epochs"}} {
		args := append(append(append([]string{}, c...), mnist...), "--sigma", "0.01", "--noise-multiplier", "1.1")
		if c[0] == "epochs" {
			args = append(append([]string{}, c...), "--n", "60000", "--batch", "256", "--sigma", "0.01", "--noise-multiplier", "1.1")
		}
		expectBadInput(t, args, "--noise-multiplier")
	}
	expectBadInput(t, []string{"dpsgd", "--noise", "1", "--noise-multiplier", "1"}, "--noise-multiplier or --noise")
	expectBadInput(t, []string{"dpsgd", "--noise", "-1"}, "--noise must be")
	expectBadInput(t, []string{"dpsgd", "--noise-multiplier", "-1"}, "--noise-multiplier must be")
	expectBadInput(t, []string{"pnsgd", "--n", "100", "--noise-multiplier", "0"}, "--noise-multiplier must be")
	expectBadInput(t, []string{"pnsgd", "--n", "100"}, "--noise-multiplier (or --sigma) are required")

	// The noise multiplier is σ = zL/b on the averaged gradient, never more
	// noise than stated.
	o := mustParse(t, newCompareCmd, append(mnist, "--noise-multiplier", "1.1", "--lipschitz", "3")...)
	if z := o.Training.NoiseMultiplier(); z > 1.1 || z < 1.1*(1-1e-15) {
		t.Errorf("--noise-multiplier 1.1 --lipschitz 3: σ = %v, z = %v", o.Training.Sigma, z)
	}

	// --sigma 1.1 at batch 256 is z = 281.6: a warning names
	// --noise-multiplier; a σ that is plausible (z = 1.1) does not warn.
	var errw strings.Builder
	cmd := newCompareCmd(&app{out: io.Discard, errw: &errw}, func(*compareOptions) error { return nil })
	cmd.SetErr(&errw)
	cmd.SetArgs(append(mnist, "--sigma", "1.1"))
	if err := cmd.Execute(); err != nil || !strings.Contains(errw.String(), "warning") || !strings.Contains(errw.String(), "give --noise-multiplier 1.1") || !strings.Contains(errw.String(), "281.6") {
		t.Errorf("--sigma 1.1: %v, stderr %q", err, errw.String())
	}
	errw.Reset()
	cmd = newCompareCmd(&app{out: io.Discard, errw: &errw}, func(*compareOptions) error { return nil })
	cmd.SetErr(&errw)
	cmd.SetArgs(append(mnist, "--sigma", "0.004296875"))
	if err := cmd.Execute(); err != nil || errw.Len() > 0 {
		t.Errorf("--sigma 0.004296875: %v, stderr %q", err, errw.String())
	}
	if testing.Short() {
		return
	}
	// compare --noise-multiplier 1.1 prints the sampling bound of the MNIST
	// run, 2.38; the title states both forms of the noise.
	out, errs, code := runCLI(append(append([]string{"compare"}, mnist...), "--noise-multiplier", "1.1")...)
	if code != 0 || !strings.Contains(out, "sampling, add/remove (DP-SGD's usual)              │ 2.38522") || !strings.Contains(out, "σ = 0.00429688 (noise multiplier z = bσ/L = 1.1)") {
		t.Errorf("compare --noise-multiplier 1.1: exit %d\n%s%s", code, out, errs)
	}
	// dpsgd's --noise is an alias: the same output.
	a, _, _ := runCLI("dpsgd", "--noise", "1.1", "--csv")
	b, _, _ := runCLI("dpsgd", "--noise-multiplier", "1.1", "--csv")
	if a != b || !strings.Contains(a, "2.38178") {
		t.Errorf("--noise and --noise-multiplier differ:\n%s\n%s", a, b)
	}
}
