package main

import (
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/zcdp"
	"github.com/spf13/cobra"
)

func init() { register(newGaussianCmd) }

func newGaussianCmd(a *app) *cobra.Command {
	var sigma, sens, k, delta, target float64
	cmd := &cobra.Command{
		Use:   "gaussian",
		Short: "(ε, δ) of the Gaussian mechanism, composed k times; or the σ for a target ε",
		Long: `The exact (ε, δ) of k compositions of the Gaussian mechanism with ℓ2-sensitivity Δ and noise σ.
The composition is exactly one Gaussian mechanism with μ = √k·Δ/σ, whose privacy profile is known
in closed form (Balle–Wang 2018, Thm 8): that is the headline ε, tighter than any RDP accountant.
The RDP-based and zCDP-based values are shown beside it; none may fall below the exact one.
With --target-epsilon, prints the smallest σ that meets (ε, δ) exactly, and the σ RDP would need.`,
		Args: cobra.NoArgs,
		Example: `  privamp gaussian --sigma 2 --delta 1e-5
  privamp gaussian --sigma 10 --compositions 100 --delta 1e-6 --json
  privamp gaussian --target-epsilon 1 --delta 1e-5 --compositions 10`,
	}
	conv := conversionFlag(cmd)
	cmd.Flags().Float64Var(&sigma, "sigma", 0, "noise standard deviation σ > 0")
	cmd.Flags().Float64Var(&sens, "sensitivity", 1, "ℓ2-sensitivity Δ > 0")
	cmd.Flags().Float64Var(&k, "compositions", 1, "number of compositions k (whole number ≥ 1)")
	cmd.Flags().Float64Var(&delta, "delta", 1e-5, "δ in (0, 1)")
	cmd.Flags().Float64Var(&target, "target-epsilon", 0, "calibrate σ for this ε > 0 instead of taking --sigma")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		calibrate := changed(cmd, "target-epsilon")
		if calibrate == changed(cmd, "sigma") {
			return badInput("give exactly one of --sigma or --target-epsilon")
		}
		c, err := conv()
		if err := firstErr(err, positive("sensitivity", sens), positiveInt("compositions", k, 1e12), openUnit("delta", delta)); err != nil {
			return err
		}
		if calibrate {
			if err := positive("target-epsilon", target); err != nil {
				return err
			}
			mu, err := composition.CalibrateGaussian(target, delta)
			if err != nil {
				return badInput("--target-epsilon %v: %v", target, err)
			}
			sigma = math.Sqrt(k) * sens / mu
			// Rounding in σ = √k·Δ/μ must not push ε above the target.
			for i := 0; i < 100; i++ {
				if e, _ := composition.GaussianEpsilon(math.Sqrt(k)*sens/sigma, delta); e <= target {
					break
				}
				sigma *= 1 + 1e-12
			}
		} else if err := positive("sigma", sigma); err != nil {
			return err
		}
		return render(a.out, a.mode, gaussianReport(sigma, sens, k, delta, target, calibrate, c))
	}
	return cmd
}

func gaussianReport(sigma, sens, k, delta, target float64, calibrated bool, conv rdp.Conversion) *report {
	mu := math.Sqrt(k) * sens / sigma
	exact, _ := composition.GaussianEpsilon(mu, delta)
	rho := k * zcdp.Gaussian(sens, sigma)
	rdpEps, order := rdp.LinearEpsilon(rho, delta, conv)
	bs, _ := zcdp.Epsilon(rho, delta, zcdp.BunSteinke)
	r := &report{
		Title: "Gaussian mechanism",
		Rows: []row{
			{"σ (noise std)", fmtUp(sigma), "", map[bool]string{true: "calibrated: largest μ with exact δ(ε) ≤ δ (Balle–Wang 2018, Thm 8)", false: "input"}[calibrated]},
			{"Δ (ℓ2-sensitivity)", fmtNum(sens), "", "input"},
			{"k (compositions)", fmtInt(k), "", "input"},
			{"μ = √k·Δ/σ", fmtNum(mu), "", "composition of Gaussians is Gaussian (Dong–Roth–Su 2019, Cor. 3.3)"},
			{"ε (exact)", fmtEps(exact), "at δ = " + fmtNum(delta), "analytic Gaussian mechanism, Balle–Wang 2018, Thm 8"},
			{"ε (RDP)", fmtEps(rdpEps), "order α = " + fmtNum(order), "Mironov 2017, Prop. 7 + " + conv.Source()},
			{"ρ (zCDP)", fmtEps(rho), "", "Bun–Steinke 2016, Prop. 1.6, Lemma 1.7"},
			{"ε (zCDP)", fmtEps(bs), "", zcdp.BunSteinke.Source()},
		},
		Assumptions: []string{
			"the query's ℓ2-sensitivity is at most Δ for the neighbouring relation you use (add/remove or replace-one: Δ must be stated for it)",
			"each release adds fresh, independent N(0, σ²I) noise; compositions may be adaptive",
		},
		Notes: []string{"the exact ε is the smallest ε for which the mechanism is (ε, δ)-DP; the RDP and zCDP values are sound but looser"},
	}
	if calibrated {
		// what RDP accounting would need for the same target
		zs, _, err := rdp.Calibrate(func(s float64) rdp.Curve { return rdp.Linear(k * sens * sens / (2 * s * s)) }, target, delta, conv)
		if err == nil {
			r.Rows = append(r.Rows, row{"σ needed by RDP", fmtUp(zs), "for the same target", "RDP accounting, " + conv.Source()})
		}
	}
	r.JSON = map[string]any{
		"command": "gaussian", "sigma": sigma, "sensitivity": sens, "compositions": k, "delta": delta, "mu": mu,
		"method": "analytic-gaussian", "source": "Balle–Wang 2018, Thm 8",
		"rdp_order": num(order), "rho": rho, "conversion": conv.String(), "calibrated": calibrated,
	}
	epsJSON(r.JSON, "epsilon", exact)
	epsJSON(r.JSON, "rdp_epsilon", rdpEps)
	epsJSON(r.JSON, "zcdp_epsilon", bs)
	if calibrated {
		r.JSON["target_epsilon"] = target
	}
	return r
}
