package main

import (
	"github.com/privamp/privamp/composition"
	"github.com/spf13/cobra"
)

func init() { register("gaussian", func(a *app) *cobra.Command { return newGaussianCmd(a, nil) }) }

// exitStatuses ends the --help of the accounting commands.
const exitStatuses = "Exit status: 0 success, 1 a computation failed, 2 bad input (the message names the flag)."

// exactlyOne refuses unless exactly one of two flags was given.
func exactlyOne(cmd *cobra.Command, x, y string) error {
	if changed(cmd, x) == changed(cmd, y) {
		return badInput("give exactly one of --%s or --%s", x, y)
	}
	return nil
}

// gaussianOptions is what `privamp gaussian` was asked: every flag parsed and
// its combinations checked (Calibrate set by --target-epsilon); nothing computed.
type gaussianOptions struct {
	IO        *app
	Mechanism composition.GaussianMechanism
	Plot      string // --plot: the ε–δ curve's file
}

func newGaussianCmd(a *app, runF func(*gaussianOptions) error) *cobra.Command {
	opts := &gaussianOptions{IO: a}
	m := &opts.Mechanism
	cmd := &cobra.Command{
		Use:   "gaussian",
		Short: "(ε, δ) of the Gaussian mechanism, composed k times; or the σ for a target ε",
		Long: `The exact (ε, δ) of k compositions of the Gaussian mechanism with ℓ2-sensitivity Δ and noise σ.
The composition is exactly one Gaussian mechanism with μ = √k·Δ/σ, whose privacy profile is known
in closed form (Balle–Wang 2018, Thm 8): that is the headline ε, tighter than any RDP accountant.
The RDP-based and zCDP-based values are shown beside it; none may fall below the exact one.
With --target-epsilon, prints the smallest σ that meets (ε, δ) exactly, and the σ RDP would need.

` + exitStatuses,
		Args: cobra.NoArgs,
		Example: `  privamp gaussian --sigma 2 --delta 1e-5
  privamp gaussian --sigma 10 --compositions 100 --delta 1e-6 --json
  privamp gaussian --target-epsilon 1 --delta 1e-5 --compositions 10`,
	}
	conv := accountingFlags(a, cmd, &m.Profile, &opts.Plot)
	f := cmd.Flags()
	f.Float64Var(&m.Sigma, "sigma", 0, "noise standard deviation σ > 0")
	f.Float64Var(&m.Sensitivity, "sensitivity", 1, "ℓ2-sensitivity Δ > 0")
	f.Float64Var(&m.Compositions, "compositions", 1, "number of compositions k (whole number ≥ 1)")
	f.Float64Var(&m.Delta, "delta", 1e-5, "δ in (0, 1)")
	f.Float64Var(&m.TargetEpsilon, "target-epsilon", 0, "calibrate σ for this ε > 0 instead of taking --sigma")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := exactlyOne(cmd, "sigma", "target-epsilon"); err != nil {
			return err
		}
		var err error
		if m.Conversion, err = conv(); err != nil {
			return err
		}
		m.Calibrate = changed(cmd, "target-epsilon")
		return runWith(runF, gaussianRun, opts)
	}
	return cmd
}

// gaussianRun accounts the mechanism and renders it to opts.IO.
func gaussianRun(opts *gaussianOptions) error {
	m := opts.Mechanism
	res, err := m.Account()
	if err != nil {
		return err
	}
	return withProfile(opts.IO, opts.Plot, res.Profile, res.Report(m.Conversion))
}
