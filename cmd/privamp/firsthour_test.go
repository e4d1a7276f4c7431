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
	o = mustParse(t, newCompareCmd, append(mnist, "--sigma", "1.1")...)
	if w := o.Training.NoiseWarning("--sigma", "--noise-multiplier"); !strings.Contains(w, "if 1.1 is DP-SGD's noise multiplier") || !strings.Contains(w, "281.6") {
		t.Errorf("--sigma 1.1: warning %q", w)
	}
	if o = mustParse(t, newCompareCmd, append(mnist, "--sigma", "0.004296875")...); o.Training.NoiseWarning("--sigma", "--noise-multiplier") != "" {
		t.Errorf("--sigma 0.004296875 warns: %q", o.Training.NoiseWarning("--sigma", "--noise-multiplier"))
	}
	// The warning is printed once the run is accepted (a refusal is one line).
	_, errs, code := runCLI("pnsgd", "--n", "1000", "--batch", "256", "--sigma", "1.1", "--index", "1")
	if code != 0 || !strings.HasPrefix(errs, "privamp: warning: --sigma: σ = 1.1 is the noise on the averaged gradient") || !strings.Contains(errs, "give --noise-multiplier 1.1") {
		t.Errorf("pnsgd --sigma 1.1 --batch 256: exit %d, stderr %q", code, errs)
	}
	expectBadInput(t, []string{"pnsgd", "--n", "1000", "--batch", "256", "--sigma", "1.1", "--variant", "stop"}, "--batch")
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

// Issue 27, trap 4: run's default variant is skip, and a flag that needs
// another variant says so; a count of 0 is refused, not read as 1; run's
// noise distribution is --noise-distribution, --noise a deprecated alias
// that says so.
func TestDefaultsAgreeWithHelp(t *testing.T) {
	t.Parallel()
	for args, want := range map[string]string{
		"run --epochs 3":                    "need --variant pnsgd",
		"run --tasks 2":                     "--tasks --variant stop",
		"run --epochs 0 --variant pnsgd":    "--epochs must be > 0, got 0",
		"run --batch 0 --variant pnsgd":     "--batch must be > 0, got 0",
		"audit --tasks 0 --variant stop":    "--tasks must be > 0, got 0",
		"dpsgd --epochs 0":                  "--epochs must be > 0, got 0",
		"dpsgd --steps 0":                   "--steps must be > 0, got 0",
		"dpsgd --n 0 --batch 10":            "--n must be > 0, got 0",
		"dpsgd --sampling-rate 0 --steps 9": "--sampling-rate must be > 0, got 0",
	} {
		expectBadInput(t, strings.Fields(args), want)
	}
	out, _, _ := runCLI("run", "--help")
	if !strings.Contains(out, `whose default is skip`) || !strings.Contains(out, `(default "skip")`) || !strings.Contains(out, "--noise-distribution") {
		t.Errorf("run --help does not state the default variant or --noise-distribution")
	}
	synth := []string{"run", "--algorithm", "output-perturbation", "--synthetic", "logistic", "--n", "200", "--l2", "0.1", "--quiet", "--json"}
	_, errs, code := runCLI(append(synth, "--noise", "gaussian")...)
	if code != 0 || !strings.Contains(errs, "--noise is deprecated: use --noise-distribution") {
		t.Errorf("--noise gaussian: exit %d, %q", code, errs)
	}
	_, errs, code = runCLI(append(synth, "--noise", "gaussian", "--noise-distribution", "gamma")...)
	if code != 2 || !strings.Contains(errs, "--noise-distribution is given twice") {
		t.Errorf("--noise and --noise-distribution: exit %d, %q", code, errs)
	}
}

// Issue 27, trap 5: a plan's utility bounds above the trivial bound 2LR are
// labelled VACUOUS, and so is their ratio; headers keep Greek letters as
// they are ("TARGET ε", "δ"; upper-casing made δ a Δ, another quantity).
func TestPlanUtilityVacuousAndGreekHeaders(t *testing.T) {
	t.Parallel()
	out, errs, code := runCLI("plan", "--people", "../../examples/plan/people.csv", "--radius", "1", "--dimension", "10", "--delta", "1e-6", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"79.2079                                     │ VACUOUS: not below the trivial bound 2LR = 2", "387.999                                     │ VACUOUS", "compares a VACUOUS bound", "│ TARGET ε │   δ   │"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "ΕΔ") {
		t.Errorf("upper-cased Greek in:\n%s", out)
	}
	// A bound below 2LR is not labelled: 1e5 people.
	out, _, _ = runCLI("plan", "--n", "100000", "--tier", "0.5:1", "--tier", "0.5:2", "--radius", "1", "--dimension", "10", "--delta", "1e-6", "--quiet")
	if strings.Contains(out, "VACUOUS") || !strings.Contains(out, "utility bound E[F(W)] − F*") {
		t.Errorf("an informative bound labelled:\n%s", out)
	}
}

// Issue 27: privamp version and --version print the version, the module
// and the commit.
func TestVersion(t *testing.T) {
	a, _, c1 := runCLI("version")
	b, _, c2 := runCLI("--version")
	if c1 != 0 || c2 != 0 || a != b || !strings.HasPrefix(a, "privamp "+version+" (module github.com/privamp/privamp") || !strings.Contains(a, "commit ") {
		t.Errorf("version: %q (exit %d), --version: %q (exit %d)", a, c1, b, c2)
	}
}

// Issue 27, trap 4: an output in a missing directory is refused naming the
// option that gave it (not a temporary file), exit 2.
func TestMissingDirectoryNamesTheOption(t *testing.T) {
	t.Parallel()
	for _, c := range [][]string{
		{"plan", "--people", "../../examples/plan/people.csv", "--radius", "1", "--dimension", "10", "--delta", "1e-6", "--out", "nodir/x.json"},
		{"plan", "--people", "../../examples/plan/people.csv", "--radius", "1", "--dimension", "10", "--delta", "1e-6", "--plot", "nodir/x.png"},
		{"epochs", "--n", "100", "--sigma", "1", "--max-epochs", "3", "--points", "2", "--plot", "nodir/x.png"},
		{"cni", "--schedule", "../../examples/schedule.json", "--allocation", "nodir/x.csv"},
		{"run", "--synthetic", "logistic", "--n", "50", "--trace", "nodir/x.csv", "--quiet"},
	} {
		flag := c[len(c)-2]
		if c[len(c)-1] == "--quiet" {
			flag = c[len(c)-3]
		}
		expectBadInput(t, c, "privamp: "+flag+" nodir/")
	}
}
