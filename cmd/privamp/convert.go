package main

import (
	"math"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/zcdp"
	"github.com/spf13/cobra"
)

func init() { register(newConvertCmd) }

func newConvertCmd(a *app) *cobra.Command {
	var rho, eps, delta, order, rdpEps float64
	cmd := &cobra.Command{
		Use:   "convert",
		Short: "Convert between ρ-zCDP, RDP points and (ε, δ)-DP",
		Long: `Conversions, each by every applicable theorem, tightest first:
  --rho R --delta D              ρ-zCDP → ε
  --rho R --epsilon E            ρ-zCDP → δ
  --epsilon E --delta D          (ε, δ) → ρ*, the largest ρ whose zCDP guarantee implies (ε, δ)
  --order A --rdp-epsilon E --delta D     an RDP point (α, ε(α)) → ε
  --order A --rdp-epsilon E --epsilon E2  an RDP point → δ`,
		Args: cobra.NoArgs,
		Example: `  privamp convert --rho 0.5 --delta 1e-6
  privamp convert --epsilon 1 --delta 1e-6
  privamp convert --order 10 --rdp-epsilon 0.5 --delta 1e-5`,
	}
	f := cmd.Flags()
	f.Float64Var(&rho, "rho", 0, "ρ ≥ 0 of ρ-zCDP")
	f.Float64Var(&eps, "epsilon", 0, "ε ≥ 0 of (ε, δ)-DP")
	f.Float64Var(&delta, "delta", 0, "δ in (0, 1)")
	f.Float64Var(&order, "order", 0, "RDP order α > 1")
	f.Float64Var(&rdpEps, "rdp-epsilon", 0, "RDP ε(α) ≥ 0 at --order")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		has := func(s string) bool { return changed(cmd, s) }
		switch {
		case has("rho") && !has("order") && !has("rdp-epsilon"):
			if err := nonNegative("rho", rho); err != nil {
				return err
			}
			if has("delta") == has("epsilon") {
				return badInput("with --rho give exactly one of --delta or --epsilon")
			}
			if has("delta") {
				if err := openUnit("delta", delta); err != nil {
					return err
				}
				return render(a.out, a.mode, convertRhoToEps(rho, delta))
			}
			if err := nonNegative("epsilon", eps); err != nil {
				return err
			}
			return render(a.out, a.mode, convertRhoToDelta(rho, eps))
		case has("order") || has("rdp-epsilon"):
			if !(has("order") && has("rdp-epsilon")) || has("rho") {
				return badInput("an RDP point needs both --order and --rdp-epsilon (and no --rho)")
			}
			if err := finite("order", order); err != nil {
				return err
			}
			if !(order > 1) {
				return badInput("--order must be > 1, got %v", order)
			}
			if err := nonNegative("rdp-epsilon", rdpEps); err != nil {
				return err
			}
			if has("delta") == has("epsilon") {
				return badInput("with an RDP point give exactly one of --delta or --epsilon")
			}
			if has("delta") {
				if err := openUnit("delta", delta); err != nil {
					return err
				}
				return render(a.out, a.mode, convertPointToEps(order, rdpEps, delta))
			}
			if err := nonNegative("epsilon", eps); err != nil {
				return err
			}
			return render(a.out, a.mode, convertPointToDelta(order, rdpEps, eps))
		case has("epsilon") && has("delta"):
			if err := firstErr(nonNegative("epsilon", eps), openUnit("delta", delta)); err != nil {
				return err
			}
			return render(a.out, a.mode, convertEpsToRho(eps, delta))
		}
		return badInput("give --rho with --delta or --epsilon; --epsilon with --delta; or --order and --rdp-epsilon with --delta or --epsilon (see 'privamp convert --help')")
	}
	return cmd
}

func convertRhoToEps(rho, delta float64) *report {
	tight, _ := zcdp.Epsilon(rho, delta, zcdp.RDP)
	_, order := rdp.LinearEpsilon(rho, delta, rdp.Improved)
	bs, _ := zcdp.Epsilon(rho, delta, zcdp.BunSteinke)
	r := &report{
		Title: "ρ-zCDP → (ε, δ)",
		Rows: []row{
			{"ε", fmtEps(tight), "at δ = " + fmtNum(delta) + ", α = " + fmtNum(order), zcdp.RDP.Source()},
			{"ε (Bun–Steinke)", fmtEps(bs), "", zcdp.BunSteinke.Source()},
		},
		Assumptions: []string{"the mechanism is ρ-zCDP: D_α ≤ ρα for every α > 1 (Bun–Steinke 2016, Def. 1.1)"},
	}
	r.JSON = map[string]any{"command": "convert", "rho": rho, "delta": delta, "order": num(order), "method": "rdp-improved", "source": zcdp.RDP.Source()}
	epsJSON(r.JSON, "epsilon", tight)
	epsJSON(r.JSON, "bun_steinke_epsilon", bs)
	return r
}

func convertRhoToDelta(rho, eps float64) *report {
	d, _ := rdp.DeltaFor(rdp.Linear(rho), eps, rdp.Improved)
	c, _ := rdp.DeltaFor(rdp.Linear(rho), eps, rdp.Classic)
	r := &report{
		Title: "ρ-zCDP → δ at ε",
		Rows: []row{
			{"δ", fmtEps(d.Delta), "at ε = " + fmtNum(eps) + ", α = " + fmtOrder(d.Order), zcdp.RDP.Source() + "; Bretagnolle–Huber at small α"},
			{"δ (classic)", fmtEps(c.Delta), "", rdp.Classic.Source()},
		},
		Assumptions: []string{"the mechanism is ρ-zCDP"},
	}
	r.JSON = map[string]any{"command": "convert", "rho": rho, "epsilon": eps, "delta": d.Delta, "order": num(d.Order), "classic_delta": c.Delta, "method": "rdp-improved", "source": rdp.Improved.Source()}
	return r
}

func convertEpsToRho(eps, delta float64) *report {
	tight, _ := zcdp.RhoFor(eps, delta, zcdp.RDP)
	bs, _ := zcdp.RhoFor(eps, delta, zcdp.BunSteinke)
	r := &report{
		Title: "(ε, δ) → ρ*: the largest ρ whose zCDP guarantee implies (ε, δ)",
		Rows: []row{
			{"ρ*", fmtDown(tight), "", "inverse of the improved conversion, maximised over α (" + rdp.Improved.Source() + ")"},
			{"ρ* (Bun–Steinke)", fmtDown(bs), "(√(ln(1/δ)+ε) − √ln(1/δ))²", "inverse of " + zcdp.BunSteinke.Source()},
			{"noise multiplier for ρ*", fmtUp(1 / sqrt2rho(tight)), "σ/Δ of one Gaussian release", "ρ = Δ²/(2σ²)"},
		},
		Notes: []string{"any mechanism that is ρ-zCDP with ρ ≤ ρ* is (ε, δ)-DP"},
	}
	r.JSON = map[string]any{"command": "convert", "epsilon": eps, "delta": delta, "rho": tight, "bun_steinke_rho": bs, "noise_multiplier": num(1 / sqrt2rho(tight)), "method": "rdp-improved-inverse", "source": rdp.Improved.Source()}
	return r
}

func sqrt2rho(rho float64) float64 {
	if rho <= 0 {
		return 0
	}
	return math.Sqrt(2 * rho)
}

func convertPointToEps(order, rdpEps, delta float64) *report {
	imp := rdp.PointEpsilon(order, rdpEps, delta, rdp.Improved)
	cl := rdp.PointEpsilon(order, rdpEps, delta, rdp.Classic)
	r := &report{
		Title: "RDP point (α, ε(α)) → (ε, δ)",
		Rows: []row{
			{"ε", fmtEps(imp), "at δ = " + fmtNum(delta), rdp.Improved.Source()},
			{"ε (classic)", fmtEps(cl), "", rdp.Classic.Source()},
		},
		Assumptions: []string{"the mechanism is (α, ε(α))-RDP at this one order; other orders could give a smaller ε"},
	}
	r.JSON = map[string]any{"command": "convert", "order": order, "rdp_epsilon": rdpEps, "delta": delta, "method": "improved", "source": rdp.Improved.Source()}
	epsJSON(r.JSON, "epsilon", imp)
	epsJSON(r.JSON, "classic_epsilon", cl)
	return r
}

func convertPointToDelta(order, rdpEps, eps float64) *report {
	imp := math.Exp(rdp.PointLogDelta(order, rdpEps, eps, rdp.Improved))
	cl := math.Exp(rdp.PointLogDelta(order, rdpEps, eps, rdp.Classic))
	r := &report{
		Title: "RDP point (α, ε(α)) → δ at ε",
		Rows: []row{
			{"δ", fmtEps(imp), "at ε = " + fmtNum(eps), rdp.Improved.Source() + "; Bretagnolle–Huber"},
			{"δ (classic)", fmtEps(cl), "", rdp.Classic.Source()},
		},
		Assumptions: []string{"the mechanism is (α, ε(α))-RDP at this one order"},
	}
	r.JSON = map[string]any{"command": "convert", "order": order, "rdp_epsilon": rdpEps, "epsilon": eps, "delta": imp, "classic_delta": cl, "method": "improved", "source": rdp.Improved.Source()}
	return r
}
