package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// The main job: "privamp" with no arguments runs compare on the MNIST-sized
// DP-SGD run of the TF-Privacy tutorial (dpsgdDefaults) as noisy SGD on the
// batch's gradient sum, σ = 1.1/256 with L = 1, every step (the last, smaller
// batch of a pass included) divided by the nominal batch of 256 as DP-SGD does.
func init() {
	defaultRun = func(a *app, root *cobra.Command) error {
		cmp, _, err := root.Find([]string{"compare"})
		d := dpsgdDefaults
		args := []string{"--n", fmtFull(d.n), "--batch", fmtFull(d.batch), "--epochs", fmtFull(d.epochs), "--sigma", fmtFull(d.noise / d.batch), "--delta", fmtFull(d.delta)}
		if err != nil || cmp == root || cmp.ParseFlags(args) != nil {
			return root.Help()
		}
		if !a.mode.json && !a.mode.csv {
			fmt.Fprintf(a.out, "privamp — worked example on embedded defaults: the MNIST-sized DP-SGD run of the TF-Privacy\n"+
				"tutorial (n = %v, batch %v, %v epochs, noise multiplier %v, δ = %v), analysed two ways.\n"+
				"Equivalent to: privamp compare %s\nOther commands: privamp help. Exit status: 0 success, 1 failure.\n\n",
				d.n, d.batch, d.epochs, d.noise, d.delta, strings.Join(args, " "))
		}
		return cmp.RunE(cmp, nil)
	}
}
