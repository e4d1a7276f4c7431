package main

import (
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/rdp"
	"github.com/spf13/cobra"
)

func init() { register(newLaplaceCmd) }

func newLaplaceCmd(a *app) *cobra.Command {
	var scale, sens, k, delta float64
	cmd := &cobra.Command{
		Use:   "laplace",
		Short: "(ε, δ) of the Laplace mechanism composed k times, by every applicable method",
		Long: `k compositions of the Laplace mechanism with ℓ1-sensitivity Δ and scale b. Each release is
(Δ/b)-DP. Reported: basic composition (kΔ/b, δ = 0); RDP (Mironov 2017, Prop. 6) converted at δ;
the exact optimal composition of k pure (Δ/b)-DP mechanisms (Kairouz–Oh–Viswanath 2015). The
smallest sound ε is chosen and named.`,
		Args:    cobra.NoArgs,
		Example: `  privamp laplace --scale 10 --compositions 100 --delta 1e-6`,
	}
	conv := conversionFlag(cmd)
	cmd.Flags().Float64Var(&scale, "scale", 0, "Laplace scale b > 0")
	cmd.Flags().Float64Var(&sens, "sensitivity", 1, "ℓ1-sensitivity Δ > 0")
	cmd.Flags().Float64Var(&k, "compositions", 1, "number of compositions k (whole number in [1, 1e7])")
	cmd.Flags().Float64Var(&delta, "delta", 1e-5, "δ in (0, 1) for the approximate-DP methods")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		c, err := conv()
		if err := firstErr(err, positive("scale", scale), positive("sensitivity", sens), positiveInt("compositions", k, 1e7), openUnit("delta", delta)); err != nil {
			return err
		}
		eps0 := sens / scale
		pure := k * eps0
		dp, _ := rdp.EpsilonFor(rdp.Repeat(rdp.Laplace{Scale: scale / sens}, k), delta, c)
		opt, optErr := composition.OptimalEpsilon(eps0, 0, int(k), delta)
		if optErr != nil {
			opt = math.Inf(1)
		}
		methods := []row{
			{"ε (basic, δ = 0)", fmtEps(pure), "", "Dwork–Roth 2014, Thm 3.16"},
			{"ε (RDP)", fmtEps(dp.Epsilon), "α = " + fmtOrder(dp.Order), "Mironov 2017, Prop. 6 + " + c.Source()},
			{"ε (optimal composition)", fmtEps(opt), "", "Kairouz–Oh–Viswanath 2015, Thm 3.3"},
		}
		best, name := pure, "basic"
		bestDelta := 0.0
		if dp.Epsilon < best {
			best, name, bestDelta = dp.Epsilon, "rdp", delta
		}
		if opt < best {
			best, name, bestDelta = opt, "optimal", delta
		}
		r := &report{
			Title: "Laplace mechanism",
			Rows: append([]row{
				{"per-release ε = Δ/b", fmtNum(eps0), "", "Dwork–Roth 2014, Thm 3.6"},
				{"ε (chosen: " + name + ")", fmtEps(best), "at δ = " + fmtNum(bestDelta), "smallest sound value below"},
			}, methods...),
			Assumptions: []string{"ℓ1-sensitivity of each query ≤ Δ; fresh independent Laplace(b) noise per coordinate and release; compositions may be adaptive"},
		}
		r.JSON = map[string]any{
			"command": "laplace", "scale": scale, "sensitivity": sens, "compositions": k, "delta": bestDelta,
			"method": name, "basic_epsilon": pure, "rdp_order": num(dp.Order), "optimal_epsilon": num(opt),
		}
		epsJSON(r.JSON, "epsilon", best)
		epsJSON(r.JSON, "rdp_epsilon", dp.Epsilon)
		return render(a.out, a.mode, r)
	}
	return cmd
}
