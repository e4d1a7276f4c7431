package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// The main job: "privamp" with no arguments runs compare on the MNIST-sized
// DP-SGD run of the TF-Privacy tutorial (dpsgdDefaults) as noisy SGD on the
// batch's gradient sum, noise multiplier 1.1 (σ = 1.1/256 with L = 1), every step (the last, smaller
// batch of a pass included) divided by the nominal batch of 256 as DP-SGD does.
func init() {
	defaultRun = func(a *app, root *cobra.Command) error { return mainJob(a, root.Help, nil) }
}

// mainJob parses compare's flags for the defaults into compare's options,
// prints the header (text only) and runs compare, or runF as a test asks.
func mainJob(a *app, help func() error, runF func(*compareOptions) error) error {
	d := dpsgdDefaults
	args := []string{"--n", fmtFull(d.n), "--batch", fmtFull(d.batch), "--epochs", fmtFull(d.epochs), "--noise-multiplier", fmtFull(d.noise), "--delta", fmtFull(d.delta)}
	cmp := newCompareCmd(a, func(o *compareOptions) error {
		if !a.mode.json && !a.mode.csv {
			fmt.Fprintf(a.out, "privamp — worked example on embedded defaults: the MNIST-sized DP-SGD run of the TF-Privacy\n"+
				"tutorial (n = %v, batch %v, %v epochs, noise multiplier %v, δ = %v), analysed two ways.\n"+
				"Equivalent to: privamp compare %s\nOther commands: privamp help. Exit status: 0 success, 1 failure.\n\n",
				d.n, d.batch, d.epochs, d.noise, d.delta, strings.Join(args, " "))
		}
		return runWith(runF, compareRun, o)
	})
	if cmp.ParseFlags(args) != nil {
		return help()
	}
	return cmp.RunE(cmp, nil)
}
