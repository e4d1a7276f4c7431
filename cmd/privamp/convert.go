package main

import (
	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/zcdp"
	"github.com/spf13/cobra"
)

func init() { register("convert", func(a *app) *cobra.Command { return newConvertCmd(a, nil) }) }

// convertOptions is what `privamp convert` was asked: the conversion the
// flags given select, and their values; nothing computed.
type convertOptions struct {
	IO                                     *app
	Kind                                   conversionKind
	Rho, Epsilon, Delta, Order, RDPEpsilon float64
}

// conversionKind is one of convert's five conversions.
type conversionKind int

const (
	rhoToEpsilon conversionKind = iota
	rhoToDelta
	pointToEpsilon
	pointToDelta
	epsilonDeltaToRho
)

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
			opts.Kind = rhoToEpsilon
		case has("rho"):
			opts.Kind = rhoToDelta
		case point && has("delta"):
			opts.Kind = pointToEpsilon
		case point:
			opts.Kind = pointToDelta
		case has("epsilon") && has("delta"):
			opts.Kind = epsilonDeltaToRho
		default:
			return badInput("give --rho with --delta or --epsilon; --epsilon with --delta; or --order and --rdp-epsilon with --delta or --epsilon (see 'privamp convert --help')")
		}
		return runWith(runF, convertRun, opts)
	}
	return cmd
}

// convertRun converts by every applicable theorem and renders to opts.IO.
func convertRun(opts *convertOptions) error {
	rho, eps, delta, order, rdpEps := opts.Rho, opts.Epsilon, opts.Delta, opts.Order, opts.RDPEpsilon
	var r *report
	switch opts.Kind {
	case rhoToEpsilon:
		res, err := zcdp.ToEpsilon(rho, delta)
		if err != nil {
			return err
		}
		r = &report{Title: "ρ-zCDP → (ε, δ)", Result: res, Rows: []row{
			{"ε", res.Epsilon, "at δ = " + res.Delta.String() + ", α = " + res.Order.String(), res.Source},
			{"ε (Bun–Steinke)", res.BunSteinkeEpsilon, "", zcdp.BunSteinke.Source()},
		}, Assumptions: []string{"the mechanism is ρ-zCDP: D_α ≤ ρα for every α > 1 (Bun–Steinke 2016, Def. 1.1)"}}
	case rhoToDelta:
		res, err := zcdp.ToDelta(rho, eps)
		if err != nil {
			return err
		}
		r = &report{Title: "ρ-zCDP → δ at ε", Result: res, Rows: []row{
			{"δ", res.Delta, "at ε = " + res.Epsilon.String() + ", α = " + fmtOrder(float64(res.Order)), zcdp.RDP.Source() + "; Bretagnolle–Huber at small α"},
			{"δ (classic)", res.ClassicDelta, "", rdp.Classic.Source()},
		}, Assumptions: []string{"the mechanism is ρ-zCDP"}}
	case pointToEpsilon:
		res, err := rdp.PointToEpsilon(order, rdpEps, delta)
		if err != nil {
			return err
		}
		r = &report{Title: "RDP point (α, ε(α)) → (ε, δ)", Result: res, Rows: []row{
			{"ε", res.Epsilon, "at δ = " + res.Delta.String(), rdp.Improved.Source()},
			{"ε (classic)", res.ClassicEpsilon, "", rdp.Classic.Source()},
		}, Assumptions: []string{"the mechanism is (α, ε(α))-RDP at this one order; other orders could give a smaller ε"}}
	case pointToDelta:
		res, err := rdp.PointToDelta(order, rdpEps, eps)
		if err != nil {
			return err
		}
		r = &report{Title: "RDP point (α, ε(α)) → δ at ε", Result: res, Rows: []row{
			{"δ", res.Delta, "at ε = " + res.Epsilon.String(), rdp.Improved.Source() + "; Bretagnolle–Huber"},
			{"δ (classic)", res.ClassicDelta, "", rdp.Classic.Source()},
		}, Assumptions: []string{"the mechanism is (α, ε(α))-RDP at this one order"}}
	case epsilonDeltaToRho:
		res, err := zcdp.ToRho(eps, delta)
		if err != nil {
			return err
		}
		r = &report{Title: "(ε, δ) → ρ*: the largest ρ whose zCDP guarantee implies (ε, δ)", Result: res, Rows: []row{
			{"ρ*", res.Rho, "", "inverse of the improved conversion, maximised over α (" + rdp.Improved.Source() + ")"}, {"ρ* (Bun–Steinke)", res.BunSteinkeRho, "(√(ln(1/δ)+ε) − √ln(1/δ))²", "inverse of " + zcdp.BunSteinke.Source()},
			{"noise multiplier for ρ* (zCDP-implied)", res.NoiseMultiplier, "σ/Δ via zCDP; not the exact Gaussian σ (see the notes)", "ρ = Δ²/(2σ²)"},
		}, Notes: []string{"any mechanism that is ρ-zCDP with ρ ≤ ρ* is (ε, δ)-DP", composition.ZCDPNoiseNote(eps, delta, float64(res.NoiseMultiplier))}}
	}
	return render(opts.IO.out, opts.IO.mode, withResult("convert", r.Result, r))
}
