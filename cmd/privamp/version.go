package main

import (
	"fmt"

	"github.com/privamp/privamp/internal/buildinfo"
	"github.com/spf13/cobra"
)

func init() {
	register(func(a *app) *cobra.Command {
		return &cobra.Command{Use: "version", Short: "The version, module and commit of this privamp (also --version)", Args: cobra.NoArgs,
			Long: "The version set at build time, the module's version and the VCS commit the binary was built from\n(runtime/debug.ReadBuildInfo).\n\nExit status: 0.",
			RunE: func(cmd *cobra.Command, args []string) error {
				in := buildinfo.Read(version, commit)
				if a.mode.json || a.mode.csv {
					return render(a.out, a.mode, &report{Result: in, Command: "version", Rows: []row{{"version", in.Version, "", "build"}, {"module", in.Module, "", "build"}, {"commit", in.Commit, in.Time, "build"}, {"go", in.Go, "", "build"}}})
				}
				_, err := fmt.Fprintln(a.out, in)
				return err
			}}
	})
}
