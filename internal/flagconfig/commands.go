package flagconfig

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Subcommand names the one subcommand a program must build to run args: the
// first argument that is not a flag when known says it names a command; ""
// (none) for no arguments; else "*", all of them (help, completion, --help,
// --version, an unknown name and its suggestions). It assumes every flag
// before the subcommand is a boolean, so that no flag takes the next
// argument. Building only that command is most of privamp's start-up saving
// (issue 27).
func Subcommand(args []string, known func(string) bool) string {
	if len(args) == 0 {
		return ""
	}
	i := slices.IndexFunc(args, func(s string) bool { return !strings.HasPrefix(s, "-") })
	if i >= 0 && known(args[i]) && !slices.Contains(args[:i], "--") {
		return args[i]
	}
	return "*"
}

// OnlyRoot fits root to a run that builds only the subcommand named only
// (Subcommand): --version and cobra's completion command belong to the root
// alone, so version is called (the build information read) and the
// completion command (its help text is formatted when it is added) kept only
// when every command is built, "*" (start-up time, issue 27).
func OnlyRoot(root *cobra.Command, only string, version func() string) {
	if only == "*" {
		root.Version = version()
	} else {
		root.CompletionOptions.DisableDefaultCmd = true
	}
}

// Configure sets up the flags of c and of every command under it: integer
// flags read whole numbers written 1e3 (WholeNumbers), every flag but a list
// refuses a second value (Once), and the flags named in enums complete to
// their values in a shell.
func Configure(c *cobra.Command, enums map[string][]string) {
	WholeNumbers(c.Flags())
	Once(c.Flags())
	Once(c.PersistentFlags())
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if vals, ok := enums[f.Name]; ok {
			_ = c.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(vals, cobra.ShellCompDirectiveNoFileComp))
		}
	})
	for _, sub := range c.Commands() {
		Configure(sub, enums)
	}
}

// StrictCompletion adds cobra's completion command to root, changed so that
// an unknown shell is refused with unknown's error (cobra prints its help and
// exits 0) and its help says so (exits, the help's last paragraph).
func StrictCompletion(root *cobra.Command, unknown func(shell string) error, exits string) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return unknown(args[0])
				}
				return cmd.Help()
			}
			c.Args = cobra.ArbitraryArgs
			c.Long += "\n\n" + exits
		}
	}
}
