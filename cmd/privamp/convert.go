package main

import (
	"github.com/privamp/privamp/composition"
	"github.com/spf13/cobra"
)

func init() { register("convert", func(a *app) *cobra.Command { return newConvertCmd(a, nil) }) }

// convertOptions is what `privamp convert` was asked: the conversion the
// flags given select, and their values; nothing computed.
type convertOptions struct {
	IO *app
	composition.ConvertQuery
}

func newConvertCmd(a *app, runF func(*convertOptions) error) *cobra.Command {
	opts := &convertOptions{IO: a}
	cmd := &cobra.Command{
		Use:   "convert",
		Short: "Convert between ρ-zCDP, RDP points and (ε, δ)-DP",
		Long: `Conversions, each by every applicable theorem, tightest first:
  --rho R --delta D              ρ-zCDP → ε
  --rho R --epsilon E            ρ-zCDP → δ
  --epsilon E --delta D          (ε, δ) → ρ*, the largest ρ whose zCDP guarantee implies (ε, δ)
  --order A --rdp-epsilon E --delta D     an RDP point (α, ε(α)) → ε
  --order A --rdp-epsilon E --epsilon E2  an RDP point → δ

` + exitStatuses,
		Args: cobra.NoArgs,
		Example: `  privamp convert --rho 0.5 --delta 1e-6
  privamp convert --epsilon 1 --delta 1e-6
  privamp convert --order 10 --rdp-epsilon 0.5 --delta 1e-5`,
	}
	f := cmd.Flags()
	f.Float64Var(&opts.Rho, "rho", 0, "ρ ≥ 0 of ρ-zCDP")
	f.Float64Var(&opts.Epsilon, "epsilon", 0, "ε ≥ 0 of (ε, δ)-DP")
	f.Float64Var(&opts.Delta, "delta", 0, "δ in (0, 1)")
	f.Float64Var(&opts.Order, "order", 0, "RDP order α > 1")
	f.Float64Var(&opts.RDPEpsilon, "rdp-epsilon", 0, "RDP ε(α) ≥ 0 at --order")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		has := func(s string) bool { return changed(cmd, s) }
		point := has("order") || has("rdp-epsilon")
		switch {
		case point && (!has("order") || !has("rdp-epsilon") || has("rho")):
			return badInput("an RDP point needs both --order and --rdp-epsilon (and no --rho)")
		case (point || has("rho")) && has("delta") == has("epsilon"):
			return badInput("with --rho or an RDP point give exactly one of --delta or --epsilon")
		case has("rho") && has("delta"):
			opts.Kind = composition.RhoToEpsilon
		case has("rho"):
			opts.Kind = composition.RhoToDelta
		case point && has("delta"):
			opts.Kind = composition.PointToEpsilon
		case point:
			opts.Kind = composition.PointToDelta
		case has("epsilon") && has("delta"):
			opts.Kind = composition.EpsilonDeltaToRho
		default:
			return badInput("give --rho with --delta or --epsilon; --epsilon with --delta; or --order and --rdp-epsilon with --delta or --epsilon (see 'privamp convert --help')")
		}
		return runWith(runF, convertRun, opts)
	}
	return cmd
}

// convertRun converts by every applicable theorem and renders to opts.IO.
func convertRun(opts *convertOptions) error {
	r, err := opts.Report()
	if err != nil {
		return err
	}
	return render(opts.IO.out, opts.IO.mode, r)
}
