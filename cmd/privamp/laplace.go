package main

import (
	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/internal/quantity"
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
	scaleSrc := "input"
	if res.CalibratedBy != "" {
		scaleSrc = "calibrated: smallest b with ε ≤ target, by " + res.CalibratedBy + " (verified)"
	}
	c := m.Conversion
	r := &report{
		Title: "Laplace mechanism",
		Rows: []row{
			{"b (scale)", res.Scale, "", scaleSrc},
			{"per-release ε = Δ/b", res.StepEpsilon, "", "Dwork–Roth 2014, Thm 3.6"},
			{"ε (chosen: " + res.Method + ")", res.Epsilon, "at δ = " + quantity.Up(float64(res.Delta)), "smallest sound value below"},
			{"ε (basic, δ = 0)", res.BasicEpsilon, "", "Dwork–Roth 2014, Thm 3.16"},
			{"ε (RDP)", res.RDPEpsilon, "α = " + fmtOrder(float64(res.RDPOrder)), "Mironov 2017, Prop. 6 + " + c.Source()},
			{"ε (optimal composition)", res.OptimalEpsilon, "", "Kairouz–Oh–Viswanath 2015, Thm 3.3"},
		},
		Assumptions: []string{"ℓ1-sensitivity of each query ≤ Δ; fresh independent Laplace(b) noise per coordinate and release; compositions may be adaptive"},
	}
	addPLD(r, 3, res.PLDEpsilon, &res.EpsilonOptimistic, res.PLDSource, res.PLDNote)
	return withProfile(opts.IO, opts.Plot, res.Profile, withResult("laplace", res, r))
}
