package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/privamp/privamp/answer"
	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/atomicfile"
	"github.com/privamp/privamp/internal/buildinfo"
	"github.com/privamp/privamp/internal/flagconfig"
	"github.com/privamp/privamp/optimizer/algorithms"
	"github.com/spf13/cobra"
)

// version and commit are set at build time (-ldflags "-X main.version=… -X main.commit=…").
var version, commit = "0.1.0-dev", ""

// app is the state one invocation shares between commands.
type app struct {
	out, errw io.Writer
	mode      outputMode
	quiet     bool
}

// registry holds the constructors of the subcommands by name; each command
// file adds itself in an init function, so command files stay independent.
// run builds only the command it is asked for (start-up time, issue 27).
var registry = map[string]func(*app) *cobra.Command{"version": newVersionCmd}

func register(name string, f func(*app) *cobra.Command) { registry[name] = f }

func known(name string) bool { return registry[name] != nil }

// runWith ends a command's RunE (gh's pattern): runF when a test gave one
// (it records the options, computes nothing), else the computation run.
func runWith[O any](runF, run func(*O) error, opts *O) error {
	if runF != nil {
		return runF(opts)
	}
	return run(opts)
}

// defaultRun is what "privamp" with no arguments runs: privamp's main job with
// embedded defaults. Set by the overview command's file.
var defaultRun func(a *app, cmd *cobra.Command) error

func newRoot(a *app) *cobra.Command { return newRootFor(a, "*") }

// newRootFor builds the root command with the subcommand named only, all of
// them ("*") or none (""): building every command and its flags was a third
// of privamp's start-up.
func newRootFor(a *app, only string) *cobra.Command {
	root := &cobra.Command{
		Use:   "privamp",
		Short: "Differential-privacy accounting and amplification by iteration",
		Long: `privamp computes differential-privacy guarantees and says where each number comes from.

Accounting: Gaussian, Laplace, DP-SGD (Poisson-subsampled Gaussian), composition, conversions
between RDP, zCDP and (ε, δ), and calibration of noise for a target.
Amplification by iteration (Feldman–Mironov–Talwar–Thakurta 2018): per-person privacy for
noisy SGD that hides its intermediate iterates.

Run with no arguments for a worked example on embedded defaults.

Exit status: 0 success; 1 a computation failed, a check failed or a claim is
not valid (each command's help says which); 2 bad input (the message names
the flag, field or file line and the allowed range); verify also uses 3 for
an unsupported claim.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if defaultRun == nil {
				return cmd.Help()
			}
			return defaultRun(a, cmd)
		},
	}
	flagconfig.OnlyRoot(root, only, func() string { return buildinfo.Read(version, commit).String() })
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetOut(a.out)
	root.SetErr(a.errw)
	root.PersistentFlags().BoolVar(&a.mode.json, "json", false, "print one JSON object (snake_case keys) on stdout")
	root.PersistentFlags().BoolVar(&a.mode.csv, "csv", false, "print tabular output as CSV")
	root.PersistentFlags().BoolVar(&a.quiet, "quiet", false, "no progress bars")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		return a.mode.validate()
	}
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return badInput("%s (see '%s --help')", flagconfig.CleanError(err), cmd.CommandPath())
	})
	for name, f := range registry {
		if only == "*" || only == name {
			root.AddCommand(f(a))
		}
	}
	completeEnums(root)
	if only == "*" {
		flagconfig.StrictCompletion(root, func(shell string) error {
			return badInput("completion: unknown shell %q (allowed: bash, zsh, fish, powershell)", shell)
		}, "Exit status: 0 success, 2 bad input (an unknown shell).")
	}
	return root
}

// newVersionCmd is "privamp version".
func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{Use: "version", Short: "The version, module and commit of this privamp (also --version)", Args: cobra.NoArgs,
		Long: "The version set at build time, the module's version and the VCS commit the binary was built from\n(runtime/debug.ReadBuildInfo).\n\nExit status: 0.",
		RunE: func(cmd *cobra.Command, args []string) error {
			in := buildinfo.Read(version, commit)
			rows := map[bool][]row{true: {answer.NewRow("version", in.Version, "", "build"), answer.NewRow("module", in.Module, "", "build"), answer.NewRow("commit", in.Commit, in.Time, "VCS"), answer.NewRow("go", in.Go, "", "build")}}[a.mode.csv]
			return render(a.out, a.mode, &report{Title: in.String(), Result: in, Command: "version", Rows: rows})
		}}
}

// run executes privamp with args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "privamp: internal error: %v (please report this)\n", r)
			code = exitFailure
		}
	}()
	a := &app{out: stdout, errw: stderr}
	atomicfile.Stdout = stdout // "-" and /dev/stdout outputs join the command's output
	return runRoot(newRootFor(a, flagconfig.Subcommand(args, known)), args, stderr)
}

// runRoot executes root on args and returns the exit status.
func runRoot(root *cobra.Command, args []string, stderr io.Writer) (code int) {
	root.SetArgs(args)
	c, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.msg == "" {
		return ee.code
	}
	var ie *inputError
	if !errors.As(err, &ie) {
		err = flagError(err, nil) // a library field error nobody mapped
	}
	err = unflag(c, err)
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(stderr, "privamp: %s\n", msg)
	code = exitCode(err)
	if code == exitFailure && flagconfig.IsUsageError(msg) {
		code = exitBadInput
	}
	return code
}

// completeEnums configures the flags of c and its subcommands
// (flagconfig.Configure) with the values of every enum flag.
func completeEnums(c *cobra.Command) {
	variants := []string{"pnsgd", "skip", "stop"}
	flagconfig.Configure(c, map[string][]string{"variant": variants, "variants": variants, "method": composition.Methods, "conversion": {"improved", "classic"},
		"neighbours": {"add-remove", "replace-one"}, "accountant": {"best", "rdp", "pld"}, "sampling": {"poisson", "fixed-size"},
		"rule": {"thm29", "thm30", "cor31", "thm32", "calibrate"}, "loss": {"logistic", "squared", "huber", "smooth-hinge", "quadratic", "linear"},
		"synthetic": dataset.SyntheticKinds(), "algorithm": append(variants, algorithms.Names()...), "regularize": {"erm", "sco"}})
}
