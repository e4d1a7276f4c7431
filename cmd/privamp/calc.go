package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/privamp/privamp/tables"
	"github.com/spf13/cobra"
)

func init() { register(newCalcCmd) }

// calcSpec is one calculator subcommand.
type calcSpec struct {
	name, short string
	source      tables.Source
	build       func(a *app) *cobra.Command
}

func calcSpecs() []calcSpec {
	return []calcSpec{
		{"langevin", "Langevin diffusion / noisy GD path privacy αβ²Δ²t/4, and the β for a target", tables.LangevinSource, newCalcLangevin},
		{"expmech", "exponential mechanism over J candidates: temperature and utility tail", tables.ExpMechSource, newCalcExpMech},
		{"expmech-convex", "exponential mechanism on a convex set: temperature, risk tail and mean", tables.ExpMechConvexSource, newCalcExpMechConvex},
		{"output-perturbation", "output perturbation: sensitivity 2L/(nΔ) and the noise for ε or (ε, δ)", tables.OutputPerturbationSource, newCalcOutputPerturbation},
		{"bst14-sgd", "seed 001's noisy-SGD σ beside what the RDP accountant says", tables.BST14SGDSource, newCalcBST14},
		{"clipped-mean", "clipped mean oracle: bias and MSE under a k-th moment bound, optimal clip τ", tables.ClippedMeanSource, newCalcClipped},
		{"zcdp-budget", "one-pass vs multi-pass zCDP budgets of clipped noisy gradient methods", tables.ZCDPBudgetSource, newCalcBudget},
		{"strong-composition", "strong composition beside basic composition (the smaller reported)", tables.StrongCompositionSource, newCalcStrong},
		{"fully-adaptive", "fully adaptive composition of pure steps: closed form and exact inverse", tables.FullyAdaptiveSource, newCalcFullyAdaptive},
	}
}

func newCalcCmd(a *app) *cobra.Command {
	specs := calcSpecs()
	var lines []string
	for _, s := range specs {
		lines = append(lines, fmt.Sprintf("  %-20s %s (seed %s, %s)", s.name, s.short, s.source.Seed, s.source.Theorem))
	}
	cmd := &cobra.Command{
		Use:   "calc NAME",
		Short: "Calculators for the seed papers' privacy statements (Langevin, exponential mechanism, …)",
		Long: "Calculators for the privacy statements of the five seed papers. Each prints its paper, theorem,\n" +
			"assumptions and validity range, and refuses inputs outside the range.\n\n" + strings.Join(lines, "\n") +
			"\n\nWhere a paper's constant is wrong or loose, the sound value is computed and the paper's shown beside it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r := &report{Title: "Calculators (privamp calc NAME --help)", Table: &table{Header: []string{"name", "what", "seed", "source"}}}
			var list []map[string]any
			for _, s := range specs {
				r.Table.Rows = append(r.Table.Rows, []string{s.name, s.short, s.source.Seed, s.source.Theorem})
				list = append(list, map[string]any{"name": s.name, "description": s.short, "seed": s.source.Seed, "source": s.source.Theorem})
			}
			r.JSON = map[string]any{"command": "calc", "calculators": list}
			return render(a.out, a.mode, r)
		},
	}
	for _, s := range specs {
		cmd.AddCommand(s.build(a))
	}
	return cmd
}

// calcReport starts a report with the source's assumptions and notes.
func calcReport(title string, src tables.Source) *report {
	r := &report{Title: fmt.Sprintf("%s — %s (seed %s), %s", title, src.Paper, src.Seed, src.Theorem)}
	r.Assumptions = append(append(r.Assumptions, src.Assumptions...), "validity range: "+src.Validity)
	r.Notes = append(r.Notes, src.Notes...)
	return r
}

func calcJSON(name string, src tables.Source, kv ...any) map[string]any {
	obj := map[string]any{"command": "calc " + name, "paper": src.Paper, "seed": src.Seed, "theorem": src.Theorem, "validity": src.Validity}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		if x, ok := kv[i+1].(float64); ok {
			obj[k] = num(x)
			continue
		}
		obj[k] = kv[i+1]
	}
	return obj
}

// need returns an error naming the first required flag the user did not give.
func need(cmd *cobra.Command, names ...string) error {
	for _, n := range names {
		if !changed(cmd, n) {
			return badInput("--%s is required (see 'privamp calc %s --help')", n, cmd.Name())
		}
	}
	return nil
}

func newCalcLangevin(a *app) *cobra.Command {
	var beta, sens, lip, n, horizon, steps, eta, delta, eps float64
	var adjacency string
	cmd := &cobra.Command{
		Use:   "langevin",
		Short: "Langevin diffusion / noisy GD path privacy αβ²Δ²t/4, and the β for a target",
		Long: `Seed 000, Lemma 2.2: the whole path of (projected) Langevin diffusion dθ = −β∇L dt + √2 dW up to
time t is ρ-zCDP with ρ = β²Δ²t/4 (RDP αβ²Δ²t/4). Lemma 3.1: noisy gradient descent
θ ← θ − ηβ∇L + N(0, 2ηI) for T steps has the same curve with t = Tη.
With --beta: the (ε, δ) of the path. With --epsilon: the largest β for (ε, δ), exact under the classic
and the improved conversion, beside Lemma 3.1's sufficient condition β ≤ 2ε/(Δ√(Tη ln(1/δ))), which is
about 2× loose (the ε it really gives is shown).
The gradient sensitivity is --sensitivity, or 2L/n (replace-one) / L/n (add/remove) from --lipschitz, --n.`,
		Args: cobra.NoArgs,
		Example: `  privamp calc langevin --beta 100 --sensitivity 0.01 --horizon 1 --delta 1e-5
  privamp calc langevin --epsilon 1 --delta 1e-5 --sensitivity 0.01 --steps 1000 --eta 0.01
  privamp calc langevin --beta 50 --lipschitz 1 --n 10000 --steps 500 --eta 0.1 --delta 1e-6 --json`,
	}
	f := cmd.Flags()
	f.Float64Var(&beta, "beta", 0, "inverse temperature β > 0")
	f.Float64Var(&eps, "epsilon", 0, "target ε > 0: compute the largest β")
	f.Float64Var(&delta, "delta", 0, "δ in (0, 1) (required)")
	f.Float64Var(&sens, "sensitivity", 0, "gradient sensitivity Δ = sup_θ ‖∇L(θ;D) − ∇L(θ;D′)‖₂ > 0")
	f.Float64Var(&lip, "lipschitz", 0, "Lipschitz constant L > 0 (with --n, instead of --sensitivity)")
	f.Float64Var(&n, "n", 0, "dataset size n (with --lipschitz)")
	f.StringVar(&adjacency, "adjacency", "replace-one", "replace-one (Δ = 2L/n) or add-remove (Δ = L/n)")
	f.Float64Var(&horizon, "horizon", 0, "diffusion time t > 0 (or --steps and --eta)")
	f.Float64Var(&steps, "steps", 0, "number of noisy GD steps T (with --eta: t = Tη)")
	f.Float64Var(&eta, "eta", 0, "step size η > 0 (with --steps)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if !changed(cmd, "beta") && !changed(cmd, "epsilon") {
			return badInput("give --beta (privacy of the path) or --epsilon (largest β), or both")
		}
		if err := need(cmd, "delta"); err != nil {
			return err
		}
		src := "input"
		switch {
		case changed(cmd, "sensitivity") && (changed(cmd, "lipschitz") || changed(cmd, "n")):
			return badInput("give --sensitivity or --lipschitz with --n, not both")
		case changed(cmd, "sensitivity"):
		case changed(cmd, "lipschitz") || changed(cmd, "n"):
			if err := need(cmd, "lipschitz", "n"); err != nil {
				return err
			}
			if adjacency != "replace-one" && adjacency != "add-remove" {
				return badInput("--adjacency must be replace-one or add-remove, got %q", adjacency)
			}
			s, err := tables.GradientSensitivity(lip, n, adjacency == "replace-one")
			if err != nil {
				return libErr(err)
			}
			sens, src = s, map[bool]string{true: "2L/n (replace-one)", false: "L/n (add/remove)"}[adjacency == "replace-one"]
		default:
			return badInput("--sensitivity (or --lipschitz with --n) is required")
		}
		switch {
		case changed(cmd, "horizon") && (changed(cmd, "steps") || changed(cmd, "eta")):
			return badInput("give --horizon or --steps with --eta, not both")
		case changed(cmd, "horizon"):
		case changed(cmd, "steps") || changed(cmd, "eta"):
			if err := need(cmd, "steps", "eta"); err != nil {
				return err
			}
			if err := firstErr(positiveInt("steps", steps, 1e15), positive("eta", eta)); err != nil {
				return err
			}
			horizon = steps * eta
		default:
			return badInput("--horizon (or --steps with --eta) is required")
		}
		r := calcReport("Langevin diffusion / noisy gradient descent", tables.LangevinSource)
		r.Rows = append(r.Rows, row{"Δ (gradient sensitivity)", fmtNum(sens), "", src}, row{"t (horizon)", fmtNum(horizon), "", map[bool]string{true: "Tη", false: "input"}[changed(cmd, "steps")]})
		obj := calcJSON("langevin", tables.LangevinSource, "sensitivity", sens, "horizon", horizon, "delta", delta)
		if changed(cmd, "beta") {
			res, err := tables.Langevin(beta, sens, horizon, delta)
			if err != nil {
				return libErr(err)
			}
			r.Rows = append(r.Rows,
				row{"β", fmtNum(beta), "", "input"},
				row{"ρ = β²Δ²t/4", fmtEps(res.Rho), "zCDP (RDP curve αρ)", "Lemma 2.2 / Lemma 3.1"},
				row{"ε", fmtEps(res.Epsilon), "at δ = " + fmtNum(delta) + ", α = " + fmtNum(res.Order), "improved conversion (Canonne–Kamath–Steinke 2020, Prop. 12)"},
				row{"ε (classic)", fmtEps(res.EpsilonClassic), "α = " + fmtNum(res.OrderClassic), "Fact A.4 (Mironov Prop. 3): ρ + 2√(ρ ln(1/δ))"},
				row{"equivalent noise multiplier z", fmtNum(res.NoiseMultiplier), "Gaussian mechanism with ρ = 1/(2z²)", "z = √2/(βΔ√t)"},
			)
			if changed(cmd, "eta") {
				h, z, rho, _ := tables.SGLDStep(eta, beta, sens)
				r.Rows = append(r.Rows, row{"DP-GD form: step h = ηβ, noise z", fmtNum(h) + ", " + fmtNum(z), "per-step ρ = " + fmtEps(rho), "seed 000 §1.2: z = √(2/η)/(βΔ)"})
			}
			obj["beta"], obj["rho"], obj["order"], obj["order_classic"], obj["noise_multiplier"] = beta, res.Rho, num(res.Order), num(res.OrderClassic), res.NoiseMultiplier
			epsJSON(obj, "epsilon", res.Epsilon)
			epsJSON(obj, "epsilon_classic", res.EpsilonClassic)
		}
		if changed(cmd, "epsilon") {
			inv, err := tables.LangevinBetaFor(eps, delta, sens, horizon)
			if err != nil {
				return libErr(err)
			}
			r.Rows = append(r.Rows,
				row{"target ε", fmtNum(eps), "", "input"},
				row{"β max (improved)", fmtDown(inv.BetaImproved), "ρ = " + fmtDown(inv.RhoImproved), "exact inverse, improved conversion (bisection)"},
				row{"β max (classic)", fmtDown(inv.BetaClassic), "ρ = " + fmtDown(inv.RhoClassic), "exact inverse: 2(√(ln(1/δ)+ε) − √ln(1/δ))/(Δ√t)"},
				row{"β (Lemma 3.1 condition)", fmtNum(inv.BetaPaper), fmt.Sprintf("%.3g× β max (classic)", inv.LooseFactor), "2ε/(Δ√(Tη ln(1/δ))) — about 2× loose"},
				row{"ε the paper's β really gives", fmtEps(inv.PaperEpsilon), "classic: " + fmtEps(inv.PaperEpsilonClassic) + " = 2ε + ε²/ln(1/δ)", "Lemma 2.2 at β (Lemma 3.1)"},
			)
			r.Notes = append(r.Notes, inv.Source.Notes...)
			obj["target_epsilon"], obj["beta_max_improved"], obj["beta_max_classic"], obj["beta_paper"] = eps, inv.BetaImproved, inv.BetaClassic, inv.BetaPaper
			obj["rho_max_improved"], obj["rho_max_classic"], obj["rho_paper"], obj["loose_factor"] = inv.RhoImproved, inv.RhoClassic, inv.RhoPaper, inv.LooseFactor
			epsJSON(obj, "paper_epsilon", inv.PaperEpsilon)
			epsJSON(obj, "paper_epsilon_classic", inv.PaperEpsilonClassic)
		}
		r.JSON = obj
		return render(a.out, a.mode, r)
	}
	return cmd
}

func newCalcExpMech(a *app) *cobra.Command {
	var eps, sens, cand, alpha float64
	cmd := &cobra.Command{
		Use:   "expmech",
		Short: "exponential mechanism over J candidates: temperature and utility tail",
		Long: `Seed 003, Thm 3.4 (Dwork–Roth Thm 3.10): sampling e ∝ exp(ε s(S, e)/(2Δs)) is ε-DP, and sampling
∝ exp(s) is 2Δs-DP. Thm 3.24 (Dwork–Roth Thm 3.11): P[s(j*) ≤ max s − 2Δs(ln J + ln(1/α))/ε] ≤ α.`,
		Args:    cobra.NoArgs,
		Example: `  privamp calc expmech --epsilon 1 --sensitivity 0.5 --candidates 1000 --alpha 0.05`,
	}
	f := cmd.Flags()
	f.Float64Var(&eps, "epsilon", 0, "ε > 0 (required)")
	f.Float64Var(&sens, "sensitivity", 1, "score sensitivity Δs > 0")
	f.Float64Var(&cand, "candidates", 0, "number of candidates J (whole number ≥ 1, required)")
	f.Float64Var(&alpha, "alpha", 0.05, "failure probability α in (0, 1)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := need(cmd, "epsilon", "candidates"); err != nil {
			return err
		}
		res, err := tables.ExpMech(eps, sens, cand, alpha)
		if err != nil {
			return libErr(err)
		}
		r := calcReport("Exponential mechanism (finite candidates)", res.Source)
		r.Rows = []row{
			{"temperature ε/(2Δs)", fmtNum(res.Temperature), "score multiplier", "Thm 3.4"},
			{"ε of sampling ∝ exp(s)", fmtEps(res.UnitTemperatureEpsilon), "= 2Δs", "Thm 3.4"},
			{"utility gap at α", fmtNum(res.Gap), "P[gap ≥ this] ≤ " + fmtNum(alpha), "Thm 3.24: 2Δs(ln J + ln(1/α))/ε"},
			{"expected gap bound", fmtNum(res.ExpectedGap), "", "Thm 3.24 integrated: 2Δs(ln J + 1)/ε"},
		}
		r.JSON = calcJSON("expmech", res.Source, "epsilon", eps, "sensitivity", sens, "candidates", cand, "alpha", alpha,
			"temperature", res.Temperature, "unit_temperature_epsilon", res.UnitTemperatureEpsilon, "gap", res.Gap, "expected_gap", res.ExpectedGap)
		return render(a.out, a.mode, r)
	}
	return cmd
}

func newCalcExpMechConvex(a *app) *cobra.Command {
	var eps, lip, diam, d, n, fail float64
	cmd := &cobra.Command{
		Use:   "expmech-convex",
		Short: "exponential mechanism on a convex set: temperature, risk tail and mean",
		Long: `Seed 001, Algorithm 2 and Thms 3.1–3.2: sampling θ ∈ C with density ∝ exp(−ε Σᵢ ℓ(θ; dᵢ)/(2L‖C‖₂)) is
ε-DP, and its excess (sum) risk R satisfies Pr[R ≥ (8L‖C‖₂/ε)((p+1) ln 3 + t)] ≤ e^{−t}. Seed 000,
Thm 2.4: for convex losses E R ≤ p/β on the average scale with β = εn/(2L‖C‖₂), i.e. 2pL‖C‖₂/ε summed.`,
		Args:    cobra.NoArgs,
		Example: `  privamp calc expmech-convex --epsilon 1 --lipschitz 1 --diameter 1 --d 10 --n 1000 --failure 0.05`,
	}
	f := cmd.Flags()
	f.Float64Var(&eps, "epsilon", 0, "ε > 0 (required)")
	f.Float64Var(&lip, "lipschitz", 1, "Lipschitz constant L > 0")
	f.Float64Var(&diam, "diameter", 1, "diameter ‖C‖₂ > 0")
	f.Float64Var(&d, "d", 0, "dimension p (whole number ≥ 1, required)")
	f.Float64Var(&n, "n", 0, "dataset size n (whole number ≥ 1, required)")
	f.Float64Var(&fail, "failure", 0.05, "failure probability in (0, 1) for the tail bound")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := need(cmd, "epsilon", "d", "n"); err != nil {
			return err
		}
		res, err := tables.ExpMechConvex(eps, lip, diam, d, n, fail)
		if err != nil {
			return libErr(err)
		}
		r := calcReport("Exponential mechanism on a convex set", res.Source)
		r.Rows = []row{
			{"temperature (sum loss)", fmtNum(res.Temperature), "ε/(2L‖C‖₂)", "seed 001 Alg. 2, Thm 3.1"},
			{"β (average loss)", fmtNum(res.BetaAverage), "εn/(2L‖C‖₂)", "seed 000 Thm 2.1 / Alg. 2"},
			{"risk tail", fmtNum(res.TailBound), "sum scale; exceeded w.p. ≤ " + fmtNum(fail), "seed 001 Thm 3.2"},
			{"E[risk] (BST14)", fmtNum(res.MeanBST), "sum scale", "Thm 3.2 integrated: (8L‖C‖₂/ε)((p+1) ln 3 + 1)"},
			{"E[risk] (Gibbs, convex)", fmtNum(res.MeanGibbs), "sum scale; ÷n = " + fmtNum(res.MeanGibbs/n) + " averaged", "seed 000 Thm 2.4: p/β"},
			{"E[risk] (best)", fmtNum(res.Mean), "sum scale", "smaller of the two"},
		}
		r.JSON = calcJSON("expmech-convex", res.Source, "epsilon", eps, "lipschitz", lip, "diameter", diam, "d", d, "n", n, "failure", fail,
			"temperature", res.Temperature, "beta_average", res.BetaAverage, "tail_bound", res.TailBound, "mean_bst14", res.MeanBST, "mean_gibbs", res.MeanGibbs, "mean", res.Mean)
		return render(a.out, a.mode, r)
	}
	return cmd
}

func newCalcOutputPerturbation(a *app) *cobra.Command {
	var eps, delta, lip, sc, n, d float64
	cmd := &cobra.Command{
		Use:   "output-perturbation",
		Short: "output perturbation: sensitivity 2L/(nΔ) and the noise for ε or (ε, δ)",
		Long: `Seed 001, Algorithm 3 and Appendix B: releasing θ* + b, θ* the exact minimiser of a sum of n L-Lipschitz,
Δ-strongly convex losses, whose sensitivity is 2L/(nΔ). ε-DP: ‖b‖ ~ Gamma(p, 2L/(nΔε)). (ε, δ): the paper's
σ₀² = 4L² ln(1/δ)/(Δ²ε²n²) is optimistic; privamp shows the ε it really gives, the standard Gaussian
mechanism's σ (ε < 1) and the exact (analytic) σ.`,
		Args:    cobra.NoArgs,
		Example: `  privamp calc output-perturbation --epsilon 0.5 --delta 1e-5 --lipschitz 1 --strong-convexity 1 --n 1000 --d 10`,
	}
	f := cmd.Flags()
	f.Float64Var(&eps, "epsilon", 0, "ε > 0 (required)")
	f.Float64Var(&delta, "delta", 0, "δ in (0, 1) (required)")
	f.Float64Var(&lip, "lipschitz", 1, "Lipschitz constant L > 0")
	f.Float64Var(&sc, "strong-convexity", 0, "strong convexity Δ > 0 of each loss (required)")
	f.Float64Var(&n, "n", 0, "dataset size n (required)")
	f.Float64Var(&d, "d", 1, "dimension p")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := need(cmd, "epsilon", "delta", "strong-convexity", "n"); err != nil {
			return err
		}
		res, err := tables.OutputPerturbation(eps, delta, lip, sc, n, d)
		if err != nil {
			return libErr(err)
		}
		r := calcReport("Output perturbation", res.Source)
		classic := "n/a (needs ε < 1)"
		if !math.IsNaN(res.ClassicSigma) {
			classic = fmtNum(res.ClassicSigma)
		}
		r.Rows = []row{
			{"sensitivity", fmtNum(res.Sensitivity), "ℓ2, of θ*", "2L/(nΔ) [CMS11]"},
			{"ε-DP: Gamma radius scale", fmtNum(res.GammaScale), "‖b‖ ~ Gamma(p, scale); E‖b‖ = " + fmtNum(res.MeanNorm), "Alg. 3"},
			{"(ε,δ): paper's σ₀", fmtNum(res.PaperSigma), "gives ε = " + fmtEps(res.PaperSigmaEpsilon) + " at δ", "App. B (optimistic constant)"},
			{"(ε,δ): standard Gaussian σ", classic, "√(2 ln(1.25/δ))·Δ₂/ε", "Dwork–Roth 2014, Thm A.1"},
			{"(ε,δ): exact σ", fmtNum(res.AnalyticSigma), "smallest σ for (ε, δ)", "analytic Gaussian, Balle–Wang 2018, Thm 8"},
		}
		r.JSON = calcJSON("output-perturbation", res.Source, "epsilon", eps, "delta", delta, "lipschitz", lip, "strong_convexity", sc, "n", n, "d", d,
			"sensitivity", res.Sensitivity, "gamma_scale", res.GammaScale, "mean_norm", res.MeanNorm, "paper_sigma", res.PaperSigma,
			"classic_sigma", res.ClassicSigma, "analytic_sigma", res.AnalyticSigma)
		epsJSON(r.JSON, "paper_sigma_epsilon", res.PaperSigmaEpsilon)
		return render(a.out, a.mode, r)
	}
	return cmd
}

func newCalcBST14(a *app) *cobra.Command {
	var n, eps, delta, lip float64
	cmd := &cobra.Command{
		Use:   "bst14-sgd",
		Short: "seed 001's noisy-SGD σ beside what the RDP accountant says",
		Long: `Seed 001, Theorem 2.1: σ² = 32L²n² ln(n/δ) ln(1/δ)/ε² with T = n² one-record steps. privamp shows the ε the
paper's own proof chain gives (about 1.5ε), the ε the RDP accountant gives for that σ (replace-one, sound
for Poisson sampling with q = 1/n; add/remove for reference), and the σ the accountant needs for the target.
The Poisson model approximates the paper's one-record-per-step sampling: it is not a proof for it.`,
		Args:    cobra.NoArgs,
		Example: `  privamp calc bst14-sgd --n 1000 --epsilon 1 --delta 1e-5`,
	}
	f := cmd.Flags()
	f.Float64Var(&n, "n", 0, "dataset size n (whole number ≥ 2, required)")
	f.Float64Var(&eps, "epsilon", 0, "target ε (required)")
	f.Float64Var(&delta, "delta", 0, "δ < 1/n (required)")
	f.Float64Var(&lip, "lipschitz", 1, "Lipschitz constant L > 0")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := need(cmd, "n", "epsilon", "delta"); err != nil {
			return err
		}
		if err := positiveInt("n", n, 1e7); err != nil {
			return err
		}
		res, err := tables.BST14SGD(n, eps, delta, lip)
		if err != nil {
			return libErr(err)
		}
		r := calcReport("Noisy SGD noise rule vs the RDP accountant", res.Source)
		r.Rows = []row{
			{"σ (paper)", fmtNum(res.Sigma), "σ² = " + fmtNum(res.Sigma2), "Thm 2.1: 32L²n² ln(n/δ) ln(1/δ)/ε²"},
			{"noise multiplier", fmtNum(res.ZReplaceOne), "σ/(2nL), replace-one; σ/(nL) = " + fmtNum(res.ZAddRemove), "derived"},
			{"steps T, sampling q", fmtInt(res.Steps) + ", " + fmtNum(res.Q), "", "Alg. 1 (n² steps, q = 1/n)"},
			{"ε by the paper's chain", fmtEps(res.PaperChain), "claimed ≤ " + fmtNum(eps), "Lemmas 2.2 + 2.3 at δ′ = δ/2 (notes §1.1)"},
			{"ε by RDP, replace-one", fmtEps(res.ReplaceOne.Epsilon), "α = " + fmtNum(res.ReplaceOne.Order), "Poisson model; Mironov Prop. 11 + improved conversion"},
			{"ε by RDP, add/remove", fmtEps(res.AddRemove.Epsilon), "α = " + fmtNum(res.AddRemove.Order), "for reference"},
			{"σ needed, replace-one", fmtNum(res.NeededSigmaReplaceOne), "z = " + fmtNum(res.NeededZReplaceOne) + " (σ/(nL))", "rdp.Calibrate for (ε, δ)"},
			{"σ needed, add/remove", fmtNum(res.NeededSigmaAddRemove), "z = " + fmtNum(res.NeededZAddRemove) + " (σ/(nL))", "rdp.Calibrate, for reference"},
			{"paper σ / needed σ", fmtNum(res.NoiseRatio), "replace-one", "how much more noise the paper adds"},
		}
		r.JSON = calcJSON("bst14-sgd", res.Source, "n", n, "epsilon", eps, "delta", delta, "lipschitz", lip, "sigma", res.Sigma, "sigma2", res.Sigma2,
			"z_replace_one", res.ZReplaceOne, "z_add_remove", res.ZAddRemove, "steps", res.Steps, "q", res.Q,
			"rdp_order_replace_one", res.ReplaceOne.Order, "rdp_order_add_remove", res.AddRemove.Order,
			"needed_sigma_replace_one", res.NeededSigmaReplaceOne, "needed_z_replace_one", res.NeededZReplaceOne,
			"needed_sigma_add_remove", res.NeededSigmaAddRemove, "needed_z_add_remove", res.NeededZAddRemove, "noise_ratio", res.NoiseRatio)
		epsJSON(r.JSON, "paper_chain_epsilon", res.PaperChain)
		epsJSON(r.JSON, "rdp_epsilon_replace_one", res.ReplaceOne.Epsilon)
		epsJSON(r.JSON, "rdp_epsilon_add_remove", res.AddRemove.Epsilon)
		return render(a.out, a.mode, r)
	}
	return cmd
}

func newCalcClipped(a *app) *cobra.Command {
	var k, rk, r2, tau, s, rho, d float64
	cmd := &cobra.Command{
		Use:   "clipped-mean",
		Short: "clipped mean oracle: bias and MSE under a k-th moment bound, optimal clip τ",
		Long: `Seed 004, Algorithm 1 (MeanOracle1) and Lemma 6: clip s samples to radius τ, average, add N(0, σ²I) with
σ² = 2τ²/(s²ρ) (ρ-zCDP). Bias ≤ r_k^k/((k−1)τ^{k−1}); MSE ≤ dσ² + r_2²/s + bias². The MSE-optimal clip is
τ* = r_k·(s²ρ/(2d(k−1)))^{1/(2k)} (closed form). Without --tau, τ* is used.`,
		Args:    cobra.NoArgs,
		Example: `  privamp calc clipped-mean --moment-order 4 --moment-bound 3.78 --second-moment 2 --batch 1000 --rho 0.5 --d 100`,
	}
	f := cmd.Flags()
	f.Float64Var(&k, "moment-order", 0, "moment order k ≥ 2 (required)")
	f.Float64Var(&rk, "moment-bound", 0, "r_k = (E‖Z‖^k)^{1/k} bound > 0 (required)")
	f.Float64Var(&r2, "second-moment", 0, "r_2 = (E‖Z‖²)^{1/2} bound ≤ r_k (default r_k)")
	f.Float64Var(&tau, "tau", 0, "clip threshold τ > 0 (default τ*)")
	f.Float64Var(&s, "batch", 0, "batch size s (required)")
	f.Float64Var(&rho, "rho", 0, "ρ of ρ-zCDP > 0 (required)")
	f.Float64Var(&d, "d", 1, "dimension d")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := need(cmd, "moment-order", "moment-bound", "batch", "rho"); err != nil {
			return err
		}
		if !changed(cmd, "second-moment") {
			r2 = rk
		}
		if changed(cmd, "tau") {
			if err := positive("tau", tau); err != nil {
				return err
			}
		}
		res, err := tables.ClippedMean(k, rk, r2, tau, s, rho, d)
		if err != nil {
			return libErr(err)
		}
		r := calcReport("Clipped mean oracle", res.Source)
		r.Rows = []row{
			{"τ", fmtNum(res.Tau), map[bool]string{true: "input", false: "τ* (MSE-optimal)"}[changed(cmd, "tau")], ""},
			{"σ", fmtNum(res.Sigma), "per coordinate", "σ² = 2τ²/(s²ρ): ρ-zCDP, sensitivity 2τ/s (Prop. 23)"},
			{"bias bound", fmtNum(res.Bias), "‖E ν̃ − ν‖", "Lemma 6: r_k^k/((k−1)τ^{k−1})"},
			{"MSE bound", fmtNum(res.MSE), "noise " + fmtNum(res.NoiseTerm) + " + sampling " + fmtNum(res.SamplingTerm) + " + bias² " + fmtNum(res.Bias*res.Bias), "Lemma 6"},
			{"τ* (MSE-optimal)", fmtNum(res.TauOpt), "r_k(s²ρ/(2d(k−1)))^{1/(2k)}", "closed form (derived)"},
			{"MSE bound at τ*", fmtNum(res.MSEOpt), "bias " + fmtNum(res.BiasOpt), "Lemma 6 at τ*"},
		}
		r.JSON = calcJSON("clipped-mean", res.Source, "moment_order", k, "moment_bound", rk, "second_moment", r2, "tau", res.Tau, "batch", s, "rho", rho, "d", d,
			"sigma", res.Sigma, "bias", res.Bias, "noise_term", res.NoiseTerm, "sampling_term", res.SamplingTerm, "mse", res.MSE,
			"tau_opt", res.TauOpt, "mse_opt", res.MSEOpt, "bias_opt", res.BiasOpt)
		return render(a.out, a.mode, r)
	}
	return cmd
}

func newCalcBudget(a *app) *cobra.Command {
	var n, T, tau, rho, d, delta float64
	cmd := &cobra.Command{
		Use:   "zcdp-budget",
		Short: "one-pass vs multi-pass zCDP budgets of clipped noisy gradient methods",
		Long: `Seed 004 (P5–P8 of the notes): one pass over disjoint batches of s = ⌊n/T⌋ records, each step ρ-zCDP, is
ρ-zCDP in total by parallel composition (σ² = 2τ²/(s²ρ), no factor T); T full-batch passes, each ρ/T-zCDP,
are ρ-zCDP by sequential composition (σ² = 2τ²T/(n²ρ)).`,
		Args:    cobra.NoArgs,
		Example: `  privamp calc zcdp-budget --n 100000 --steps 100 --tau 1 --rho 0.5 --d 10 --delta 1e-5`,
	}
	f := cmd.Flags()
	f.Float64Var(&n, "n", 0, "dataset size n (required)")
	f.Float64Var(&T, "steps", 0, "number of steps T ≤ n (required)")
	f.Float64Var(&tau, "tau", 1, "clip threshold τ > 0")
	f.Float64Var(&rho, "rho", 0, "total ρ > 0 (required)")
	f.Float64Var(&d, "d", 1, "dimension d")
	f.Float64Var(&delta, "delta", 1e-5, "δ in (0, 1) for the (ε, δ) conversion")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := need(cmd, "n", "steps", "rho"); err != nil {
			return err
		}
		b, err := tables.ZCDPBudgets(n, T, tau, rho, d, delta)
		if err != nil {
			return libErr(err)
		}
		r := calcReport("zCDP budgets: one pass vs multi-pass", b.Source)
		r.Rows = []row{
			{"one pass: batch, per-step ρ", fmtInt(b.OnePassBatch) + ", " + fmtDown(b.OnePassStepRho), "", "parallel composition [McS09]"},
			{"one pass: σ", fmtNum(b.OnePassSigma), "per-step noise MSE dσ² = " + fmtNum(b.OnePassNoiseMSE), "σ² = 2τ²/(s²ρ)"},
			{"multi-pass: batch, per-step ρ", fmtInt(b.MultiPassBatch) + ", " + fmtDown(b.MultiPassStepRho), "", "Lemma 24 (sequential)"},
			{"multi-pass: σ", fmtNum(b.MultiPassSigma), "per-step noise MSE dσ² = " + fmtNum(b.MultiPassNoiseMSE), "σ² = 2τ²T/(n²ρ)"},
			{"one pass, if composed sequentially", fmtNum(b.NaiveSequentialSigma), "σ (wasteful: batches are disjoint)", "for comparison"},
			{"total ρ", fmtEps(b.TotalRho), "both", ""},
			{"ε", fmtEps(b.Epsilon), "at δ = " + fmtNum(delta), "improved conversion (CKS20 Prop. 12)"},
		}
		r.JSON = calcJSON("zcdp-budget", b.Source, "n", n, "steps", T, "tau", tau, "rho", rho, "d", d, "delta", delta,
			"one_pass_batch", b.OnePassBatch, "one_pass_step_rho", b.OnePassStepRho, "one_pass_sigma", b.OnePassSigma, "one_pass_noise_mse", b.OnePassNoiseMSE,
			"multi_pass_batch", b.MultiPassBatch, "multi_pass_step_rho", b.MultiPassStepRho, "multi_pass_sigma", b.MultiPassSigma, "multi_pass_noise_mse", b.MultiPassNoiseMSE,
			"naive_sequential_sigma", b.NaiveSequentialSigma, "total_rho", b.TotalRho)
		epsJSON(r.JSON, "epsilon", b.Epsilon)
		return render(a.out, a.mode, r)
	}
	return cmd
}

func newCalcStrong(a *app) *cobra.Command {
	var eps, T, delta, target float64
	cmd := &cobra.Command{
		Use:   "strong-composition",
		Short: "strong composition beside basic composition (the smaller reported)",
		Long: `Seed 001, Lemma 2.3 (Dwork–Rothblum–Vadhan 2010): T adaptive ε-DP mechanisms are
(√(2T ln(1/δ′))ε + Tε(e^ε − 1), δ′)-DP; basic composition gives (Tε, 0). The smaller is reported, with the
RDP value of pure DP for reference. With --target, the largest per-step ε for that total instead.`,
		Args: cobra.NoArgs,
		Example: `  privamp calc strong-composition --epsilon 0.1 --steps 100 --delta 1e-5
  privamp calc strong-composition --target 1 --steps 100 --delta 1e-5`,
	}
	f := cmd.Flags()
	f.Float64Var(&eps, "epsilon", 0, "per-step ε > 0")
	f.Float64Var(&T, "steps", 0, "number of mechanisms T (required)")
	f.Float64Var(&delta, "delta", 0, "δ′ in (0, 1) (required)")
	f.Float64Var(&target, "target", 0, "total ε > 0: compute the largest per-step ε")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := need(cmd, "steps", "delta"); err != nil {
			return err
		}
		if changed(cmd, "epsilon") == changed(cmd, "target") {
			return badInput("give exactly one of --epsilon (per step) or --target (total)")
		}
		if changed(cmd, "target") {
			if err := positiveInt("steps", T, 1e7); err != nil {
				return err
			}
			e, err := tables.StrongCompositionStep(target, T, delta)
			if err != nil {
				return libErr(err)
			}
			eps = e
		}
		res, err := tables.StrongComposition(eps, T, delta)
		if err != nil {
			return libErr(err)
		}
		r := calcReport("Strong vs basic composition", res.Source)
		which := map[bool]string{true: "basic", false: "strong"}[res.BestIsBasic]
		if changed(cmd, "target") {
			r.Rows = append(r.Rows, row{"largest per-step ε", fmtNum(eps), "for total " + fmtNum(target), "min(basic, strong) ≤ target (bisection)"})
		}
		r.Rows = append(r.Rows,
			row{"basic", fmtEps(res.Basic), "δ = 0", "Tε"},
			row{"strong", fmtEps(res.Strong), "δ′ = " + fmtNum(delta), "Lemma 2.3: √(2T ln(1/δ′))ε + Tε(e^ε − 1)"},
			row{"ε (reported)", fmtEps(res.Best), which + " composition", "the smaller"},
			row{"ε by RDP (reference)", fmtEps(res.RDP), "δ′ = " + fmtNum(delta), "pure-DP RDP curve (rdp.PureDP) + improved conversion"},
		)
		r.JSON = calcJSON("strong-composition", res.Source, "epsilon_step", eps, "steps", T, "delta", delta, "method", which)
		epsJSON(r.JSON, "basic_epsilon", res.Basic)
		epsJSON(r.JSON, "strong_epsilon", res.Strong)
		epsJSON(r.JSON, "epsilon", res.Best)
		epsJSON(r.JSON, "rdp_epsilon", res.RDP)
		if changed(cmd, "target") {
			r.JSON["target"] = target
		}
		return render(a.out, a.mode, r)
	}
	return cmd
}

func newCalcFullyAdaptive(a *app) *cobra.Command {
	var eps, k, delta float64
	cmd := &cobra.Command{
		Use:   "fully-adaptive",
		Short: "fully adaptive composition of pure steps: closed form and exact inverse",
		Long: `Seed 003, Thm 3.5 (Whitehouse et al. 2023) with k pure ε₀-DP steps: ε = ε₀√(2k ln(1/δ)) + kε₀²/2, and its exact
inverse ε₀ = √2(√(ln(1/δ)+ε) − √ln(1/δ))/√k, beside Cor. 3.6's sufficient ε₀ = ε/(2√(2k ln(1/δ))), which spends
only about ε/2. The paper assumes 0 < ε < 8 ln(1/δ); inputs outside are refused.
For lists of adaptively chosen (ε_m, δ_m) use 'privamp compose --method filter'.`,
		Args:    cobra.NoArgs,
		Example: `  privamp calc fully-adaptive --epsilon 1 --steps 100 --delta 1e-5`,
	}
	f := cmd.Flags()
	f.Float64Var(&eps, "epsilon", 0, "target ε, 0 < ε < 8 ln(1/δ) (required)")
	f.Float64Var(&k, "steps", 0, "number of pure-DP steps k (required)")
	f.Float64Var(&delta, "delta", 0, "δ in (0, 1) (required)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := need(cmd, "epsilon", "steps", "delta"); err != nil {
			return err
		}
		res, err := tables.FullyAdaptiveStep(eps, k, delta)
		if err != nil {
			return libErr(err)
		}
		r := calcReport("Fully adaptive composition", res.Source)
		r.Rows = []row{
			{"ε₀ (exact)", fmtNum(res.StepExact), "per step; spends " + fmtNum(res.TotalAtExactStep), "Thm 3.5 inverted: √2(√(ln(1/δ)+ε) − √ln(1/δ))/√k"},
			{"ε₀ (Cor. 3.6)", fmtNum(res.StepPaper), "per step; spends " + fmtNum(res.TotalAtPaperStep), "ε/(2√(2k ln(1/δ))) — about 2× conservative"},
			{"ε at ε₀ (exact), zCDP route", fmtNum(res.ZCDP), "budgets fixed in advance", "kε₀²/2-zCDP + improved conversion"},
		}
		r.Notes = append(r.Notes, res.Source.Notes...)
		r.JSON = calcJSON("fully-adaptive", res.Source, "epsilon", eps, "steps", k, "delta", delta, "step_exact", res.StepExact, "step_paper", res.StepPaper,
			"total_at_exact_step", res.TotalAtExactStep, "total_at_paper_step", res.TotalAtPaperStep, "zcdp_epsilon", res.ZCDP)
		return render(a.out, a.mode, r)
	}
	return cmd
}
