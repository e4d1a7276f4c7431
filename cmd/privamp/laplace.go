package main

import (
	"github.com/privamp/privamp/composition"
	"github.com/spf13/cobra"
)

func init() { register("laplace", func(a *app) *cobra.Command { return newLaplaceCmd(a, nil) }) }

// laplaceOptions is what `privamp laplace` was asked: every flag parsed and
// its combinations checked (Calibrate set by --target-epsilon); nothing computed.
type laplaceOptions struct {
	IO        *app
	Mechanism composition.LaplaceMechanism
	Plot      string // --plot: the ε–δ curve's file
}

func newLaplaceCmd(a *app, runF func(*laplaceOptions) error) *cobra.Command {
	opts := &laplaceOptions{IO: a}
	m := &opts.Mechanism
	cmd := &cobra.Command{
		Use:   "laplace",
		Short: "(ε, δ) of the Laplace mechanism composed k times, by every applicable method",
		Long: `k compositions of the Laplace mechanism with ℓ1-sensitivity Δ and scale b. Each release is
(Δ/b)-DP. Reported: basic composition (kΔ/b, δ = 0); RDP (Mironov 2017, Prop. 6) converted at δ;
the exact optimal composition of k pure (Δ/b)-DP mechanisms (Kairouz–Oh–Viswanath 2015); the PLD
of the Laplace mechanism itself (its exact loss, composed by FFT), tightest of all. The smallest
sound ε is chosen and named. With --target-epsilon: the smallest scale b for that ε.

` + exitStatuses,
		Args:    cobra.NoArgs,
		Example: `  privamp laplace --scale 10 --compositions 100 --delta 1e-6`,
	}
	conv := accountingFlags(a, cmd, &m.Profile, &opts.Plot)
	f := cmd.Flags()
	f.Float64Var(&m.Scale, "scale", 0, "Laplace scale b > 0")
	f.Float64Var(&m.Sensitivity, "sensitivity", 1, "ℓ1-sensitivity Δ > 0")
	f.Float64Var(&m.Compositions, "compositions", 1, "number of compositions k (whole number in [1, 1e7])")
	f.Float64Var(&m.Delta, "delta", 1e-5, "δ in (0, 1) for the approximate-DP methods")
	f.Float64Var(&m.TargetEpsilon, "target-epsilon", 0, "calibrate the smallest scale b for this ε > 0 instead of taking --scale")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := exactlyOne(cmd, "scale", "target-epsilon"); err != nil {
			return err
		}
		var err error
		if m.Conversion, err = conv(); err != nil {
			return err
		}
		m.Calibrate = changed(cmd, "target-epsilon")
		return runWith(runF, laplaceRun, opts)
	}
	return cmd
}

// laplaceRun accounts the mechanism by every method and renders it to opts.IO.
func laplaceRun(opts *laplaceOptions) error {
	m := opts.Mechanism
	res, err := m.Account()
	if err != nil {
		return err
	}
	return withProfile(opts.IO, opts.Plot, res.Profile, res.Report(m.Conversion))
}
