package tables

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	q "github.com/privamp/privamp/internal/quantity"

	"github.com/privamp/privamp/internal/field"
)

// Line is one labelled quantity of a calculator's answer. Value is a string
// or an internal/quantity kind (Loss, Max, Noise, Num), whose type decides
// the direction in which it is rounded for display.
type Line struct {
	Quantity string
	Value    any
	Unit     string
	Source   string
}

// Answer is what a calculator returns: its typed result (a struct with json
// tags), the lines that state it, and the source it rests on.
type Answer struct {
	Title  string
	Source Source
	Result any
	Lines  []Line
}

// Query is a calculator's input. Its exported fields are the inputs, named
// by their json tags and described by their help tags; a pointer field is
// optional (nil: not given) and a required one that is nil is refused.
type Query interface {
	Answer() (Answer, error)
}

// Calculator is one of the seed papers' privacy statements as a function.
type Calculator struct {
	Name, Short string
	// Doc states the calculator's theorem in words.
	Doc    string
	Source Source
	// New returns a Query holding the calculator's defaults.
	New func() Query
}

// Calculators lists the calculators, one per privacy statement of the seed
// papers with explicit constants.
func Calculators() []Calculator {
	return []Calculator{
		{"langevin", "Langevin diffusion / noisy GD path privacy αβ²Δ²t/4, and the β for a target", `Seed 000, Lemma 2.2: the whole path of (projected) Langevin diffusion dθ = −β∇L dt + √2 dW up to
time t is ρ-zCDP with ρ = β²Δ²t/4 (RDP αβ²Δ²t/4). Lemma 3.1: noisy gradient descent
θ ← θ − ηβ∇L + N(0, 2ηI) for T steps has the same curve with t = Tη.
With β: the (ε, δ) of the path. With a target ε: the largest β for (ε, δ), exact under the classic
and the improved conversion, beside Lemma 3.1's sufficient condition β ≤ 2ε/(Δ√(Tη ln(1/δ))), which is
about 2× loose (the ε it really gives is shown). The gradient sensitivity is given, or 2L/n
(replace-one) / L/n (add/remove) from the Lipschitz constant and n.`, LangevinSource, func() Query { return &LangevinQuery{Adjacency: "replace-one"} }},
		{"expmech", "exponential mechanism over J candidates: temperature and utility tail", `Seed 003, Thm 3.4 (Dwork–Roth Thm 3.10): sampling e ∝ exp(ε s(S, e)/(2Δs)) is ε-DP, and sampling
∝ exp(s) is 2Δs-DP. Thm 3.24 (Dwork–Roth Thm 3.11): P[s(j*) ≤ max s − 2Δs(ln J + ln(1/α))/ε] ≤ α.`, ExpMechSource, func() Query { return &ExpMechQuery{Sensitivity: 1, Alpha: 0.05} }},
		{"expmech-convex", "exponential mechanism on a convex set: temperature, risk tail and mean", `Seed 001, Algorithm 2 and Thms 3.1–3.2: sampling θ ∈ C with density ∝ exp(−ε Σᵢ ℓ(θ; dᵢ)/(2L‖C‖₂)) is
ε-DP, and its excess (sum) risk R satisfies Pr[R ≥ (8L‖C‖₂/ε)((p+1) ln 3 + t)] ≤ e^{−t}. Seed 000,
Thm 2.4: for convex losses E R ≤ p/β on the average scale with β = εn/(2L‖C‖₂), i.e. 2pL‖C‖₂/ε summed.`, ExpMechConvexSource, func() Query { return &ExpMechConvexQuery{Lipschitz: 1, Diameter: 1, Failure: 0.05} }},
		{"output-perturbation", "output perturbation: sensitivity 2L/(nΔ) and the noise for ε or (ε, δ)", `Seed 001, Algorithm 3 and Appendix B: releasing θ* + b, θ* the exact minimiser of a sum of n L-Lipschitz,
Δ-strongly convex losses, whose sensitivity is 2L/(nΔ). ε-DP: ‖b‖ ~ Gamma(p, 2L/(nΔε)). (ε, δ): the paper's
σ₀² = 4L² ln(1/δ)/(Δ²ε²n²) is optimistic; privamp shows the ε it really gives, the standard Gaussian
mechanism's σ (ε < 1) and the exact (analytic) σ.`, OutputPerturbationSource, func() Query { return &OutputPerturbationQuery{Lipschitz: 1, Dimension: 1} }},
		{"bst14-sgd", "seed 001's noisy-SGD σ beside what the RDP accountant says", `Seed 001, Theorem 2.1: σ² = 32L²n² ln(n/δ) ln(1/δ)/ε² with T = n² one-record steps. Shown: the ε the
paper's own proof chain gives (about 1.5ε), the ε the RDP accountant gives for that σ (replace-one, sound
for Poisson sampling with q = 1/n; add/remove for reference), and the σ the accountant needs for the target.
The Poisson model approximates the paper's one-record-per-step sampling: it is not a proof for it.`, BST14SGDSource, func() Query { return &BST14Query{Lipschitz: 1} }},
		{"clipped-mean", "clipped mean oracle: bias and MSE under a k-th moment bound, optimal clip τ", `Seed 004, Algorithm 1 (MeanOracle1) and Lemma 6: clip s samples to radius τ, average, add N(0, σ²I) with
σ² = 2τ²/(s²ρ) (ρ-zCDP). Bias ≤ r_k^k/((k−1)τ^{k−1}); MSE ≤ dσ² + r_2²/s + bias². The MSE-optimal clip is
τ* = r_k·(s²ρ/(2d(k−1)))^{1/(2k)} (closed form). Without τ, τ* is used; r_2 defaults to r_k.`, ClippedMeanSource, func() Query { return &ClippedMeanQuery{Dimension: 1} }},
		{"zcdp-budget", "one-pass vs multi-pass zCDP budgets of clipped noisy gradient methods", `Seed 004 (docs/seeds.md §Seed 004 zCDP budgets): one pass over disjoint batches of s = ⌊n/T⌋ records, each step ρ-zCDP, is
ρ-zCDP in total by parallel composition (σ² = 2τ²/(s²ρ), no factor T); T full-batch passes, each ρ/T-zCDP,
are ρ-zCDP by sequential composition (σ² = 2τ²T/(n²ρ)).`, ZCDPBudgetSource, func() Query { return &ZCDPBudgetQuery{Tau: 1, Dimension: 1, Delta: 1e-5} }},
		{"strong-composition", "strong composition beside basic composition (the smaller reported)", `Seed 001, Lemma 2.3 (Dwork–Rothblum–Vadhan 2010): T adaptive ε-DP mechanisms are
(√(2T ln(1/δ′))ε + Tε(e^ε − 1), δ′)-DP; basic composition gives (Tε, 0). The smaller is reported, with the
RDP value of pure DP for reference. With a target total ε, the largest per-step ε for it instead.`, StrongCompositionSource, func() Query { return &StrongCompositionQuery{} }},
		{"fully-adaptive", "fully adaptive composition of pure steps: closed form and exact inverse", `Seed 003, Thm 3.5 (Whitehouse et al. 2023) with k pure ε₀-DP steps: ε = ε₀√(2k ln(1/δ)) + kε₀²/2, and its exact
inverse ε₀ = √2(√(ln(1/δ)+ε) − √ln(1/δ))/√k, beside Cor. 3.6's sufficient ε₀ = ε/(2√(2k ln(1/δ))), which spends
only about ε/2. The paper assumes 0 < ε < 8 ln(1/δ); inputs outside are refused.
For lists of adaptively chosen (ε_m, δ_m) use the composition filter.`, FullyAdaptiveSource, func() Query { return &FullyAdaptiveQuery{} }},
	}
}

// need refuses the first required input that was not given.
func need(names []string, given ...*float64) error {
	for i, g := range given {
		if g == nil {
			return field.New(names[i], nil, "is required")
		}
	}
	return nil
}

func val(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func answer(title string, src Source, res any, lines ...Line) Answer {
	return Answer{Title: title, Source: src, Result: res, Lines: lines}
}

// LangevinQuery asks Langevin and/or LangevinBetaFor.
type LangevinQuery struct {
	Beta          *float64 `json:"beta" help:"inverse temperature β > 0"`
	TargetEpsilon *float64 `json:"target_epsilon" help:"target ε > 0: compute the largest β"`
	Delta         *float64 `json:"delta" help:"δ in (0, 1) (required)"`
	Sensitivity   *float64 `json:"sensitivity" help:"gradient sensitivity Δ = sup_θ ‖∇L(θ;D) − ∇L(θ;D′)‖₂ > 0"`
	Lipschitz     *float64 `json:"lipschitz" help:"Lipschitz constant L > 0 (with n, instead of the sensitivity)"`
	N             *float64 `json:"n" help:"dataset size n (with the Lipschitz constant)"`
	Adjacency     string   `json:"adjacency" help:"replace-one (Δ = 2L/n) or add-remove (Δ = L/n)"`
	Horizon       *float64 `json:"horizon" help:"diffusion time t > 0 (or steps and eta)"`
	Steps         *float64 `json:"steps" help:"number of noisy GD steps T (with eta: t = Tη)"`
	Eta           *float64 `json:"eta" help:"step size η > 0 (with steps)"`
}

// LangevinAnswer is the path's privacy at β and/or the largest β for ε.
type LangevinAnswer struct {
	Sensitivity dp.Num  `json:"sensitivity"`
	Horizon     dp.Num  `json:"horizon"`
	Delta       dp.Loss `json:"delta"`
	// At β (Lemma 2.2 / 3.1).
	Beta            *dp.Num   `json:"beta,omitempty"`
	Rho             *dp.Loss  `json:"rho,omitempty"`
	Epsilon         *dp.Loss  `json:"epsilon,omitempty"`
	Order           *dp.Num   `json:"order,omitempty"`
	EpsilonClassic  *dp.Loss  `json:"epsilon_classic,omitempty"`
	OrderClassic    *dp.Num   `json:"order_classic,omitempty"`
	NoiseMultiplier *dp.Noise `json:"noise_multiplier,omitempty"`
	// For a target ε (exact inverses, and Lemma 3.1's condition).
	TargetEpsilon       *dp.Num  `json:"target_epsilon,omitempty"`
	BetaMaxImproved     *dp.Max  `json:"beta_max_improved,omitempty"`
	BetaMaxClassic      *dp.Max  `json:"beta_max_classic,omitempty"`
	BetaPaper           *dp.Num  `json:"beta_paper,omitempty"`
	RhoMaxImproved      *dp.Max  `json:"rho_max_improved,omitempty"`
	RhoMaxClassic       *dp.Max  `json:"rho_max_classic,omitempty"`
	RhoPaper            *dp.Loss `json:"rho_paper,omitempty"`
	LooseFactor         *dp.Num  `json:"loose_factor,omitempty"`
	PaperEpsilon        *dp.Loss `json:"paper_epsilon,omitempty"`
	PaperEpsilonClassic *dp.Loss `json:"paper_epsilon_classic,omitempty"`
}

func ref[T any](v T) *T { return &v }

// Answer evaluates Lemma 2.2 at β (Langevin) and/or inverts it for a target
// ε (LangevinBetaFor); Δ from GradientSensitivity when L and n are given,
// t = Tη from steps and η.
func (x *LangevinQuery) Answer() (Answer, error) {
	switch {
	case x.Beta == nil && x.TargetEpsilon == nil:
		return Answer{}, field.New("beta", nil, "is required (or a target epsilon for the largest β)")
	case x.Delta == nil:
		return Answer{}, field.New("delta", nil, "is required")
	}
	sens, sensSrc := val(x.Sensitivity), "input"
	switch {
	case x.Sensitivity != nil && (x.Lipschitz != nil || x.N != nil):
		return Answer{}, field.New("sensitivity", *x.Sensitivity, "cannot be combined with a Lipschitz constant and n")
	case x.Sensitivity == nil && x.Lipschitz == nil && x.N == nil:
		return Answer{}, field.New("sensitivity", nil, "is required (or a Lipschitz constant and n)")
	case x.Sensitivity == nil:
		if err := need([]string{"lipschitz", "n"}, x.Lipschitz, x.N); err != nil {
			return Answer{}, err
		}
		rel, err := dp.ParseRelation("adjacency", x.Adjacency)
		if err != nil {
			return Answer{}, err
		}
		if sens, err = GradientSensitivity(*x.Lipschitz, *x.N, rel); err != nil {
			return Answer{}, err
		}
		sensSrc = map[bool]string{true: "2L/n (replace-one)", false: "L/n (add/remove)"}[rel == dp.ReplaceOne]
	}
	horizon, tSrc := val(x.Horizon), "input"
	switch {
	case x.Horizon != nil && (x.Steps != nil || x.Eta != nil):
		return Answer{}, field.New("horizon", *x.Horizon, "cannot be combined with steps and eta")
	case x.Horizon == nil && x.Steps == nil && x.Eta == nil:
		return Answer{}, field.New("horizon", nil, "is required (or steps and eta)")
	case x.Horizon == nil:
		if err := need([]string{"steps", "eta"}, x.Steps, x.Eta); err != nil {
			return Answer{}, err
		}
		if err := field.First(integerAtLeast("steps", *x.Steps, 1), positiveFinite("eta", *x.Eta)); err != nil {
			return Answer{}, err
		}
		horizon, tSrc = *x.Steps**x.Eta, "Tη"
	}
	delta := *x.Delta
	a := LangevinAnswer{Sensitivity: dp.Num(sens), Horizon: dp.Num(horizon), Delta: dp.Loss(delta)}
	ans := answer("Langevin diffusion / noisy gradient descent", LangevinSource, &a,
		Line{"Δ (gradient sensitivity)", dp.Num(sens), "", sensSrc}, Line{"t (horizon)", dp.Num(horizon), "", tSrc})
	if x.Beta != nil {
		res, err := Langevin(*x.Beta, sens, horizon, delta)
		if err != nil {
			return Answer{}, err
		}
		a.Beta, a.Rho, a.Epsilon, a.Order = ref(dp.Num(res.Beta)), ref(dp.Loss(res.Rho)), ref(dp.Loss(res.Epsilon)), ref(dp.Num(res.Order))
		a.EpsilonClassic, a.OrderClassic, a.NoiseMultiplier = ref(dp.Loss(res.EpsilonClassic)), ref(dp.Num(res.OrderClassic)), ref(dp.Noise(res.NoiseMultiplier))
		ans.Lines = append(ans.Lines,
			Line{"β", *a.Beta, "", "input"},
			Line{"ρ = β²Δ²t/4", *a.Rho, "zCDP (RDP curve αρ)", "Lemma 2.2 / Lemma 3.1"},
			Line{"ε", *a.Epsilon, "at δ = " + a.Delta.String() + ", α = " + a.Order.String(), "improved conversion (Canonne–Kamath–Steinke 2020, Prop. 12)"},
			Line{"ε (classic)", *a.EpsilonClassic, "α = " + a.OrderClassic.String(), "Fact A.4 (Mironov Prop. 3): ρ + 2√(ρ ln(1/δ))"},
			Line{"equivalent noise multiplier z", *a.NoiseMultiplier, "Gaussian mechanism with ρ = 1/(2z²)", "z = √2/(βΔ√t)"})
		if x.Eta != nil {
			h, z, rho, _ := SGLDStep(*x.Eta, *x.Beta, sens)
			ans.Lines = append(ans.Lines, Line{"DP-GD form: step h = ηβ, noise z", q.Nearest(h) + ", " + q.Up(z), "per-step ρ = " + dp.Loss(rho).String(), "z = √(2/η)/(βΔ) (docs/seeds.md §Seed 000 Langevin path and noisy gradient descent)"})
		}
	}
	if x.TargetEpsilon != nil {
		inv, err := LangevinBetaFor(*x.TargetEpsilon, delta, sens, horizon)
		if err != nil {
			if fe, ok := field.As(err); ok && fe.Field == "epsilon" {
				err = field.New("target_epsilon", fe.Value, "%s", fe.Reason)
			}
			return Answer{}, err
		}
		a.TargetEpsilon, a.BetaMaxImproved, a.BetaMaxClassic, a.BetaPaper = ref(dp.Num(inv.Epsilon)), ref(dp.Max(inv.BetaImproved)), ref(dp.Max(inv.BetaClassic)), ref(dp.Num(inv.BetaPaper))
		a.RhoMaxImproved, a.RhoMaxClassic, a.RhoPaper, a.LooseFactor = ref(dp.Max(inv.RhoImproved)), ref(dp.Max(inv.RhoClassic)), ref(dp.Loss(inv.RhoPaper)), ref(dp.Num(inv.LooseFactor))
		a.PaperEpsilon, a.PaperEpsilonClassic = ref(dp.Loss(inv.PaperEpsilon)), ref(dp.Loss(inv.PaperEpsilonClassic))
		ans.Source = inv.Source
		ans.Lines = append(ans.Lines,
			Line{"target ε", *a.TargetEpsilon, "", "input"},
			Line{"β max (improved)", *a.BetaMaxImproved, "ρ = " + a.RhoMaxImproved.String(), "exact inverse, improved conversion (bisection)"},
			Line{"β max (classic)", *a.BetaMaxClassic, "ρ = " + a.RhoMaxClassic.String(), "exact inverse: 2(√(ln(1/δ)+ε) − √ln(1/δ))/(Δ√t)"},
			Line{"β (Lemma 3.1 condition)", *a.BetaPaper, fmt.Sprintf("%.3g× β max (classic)", inv.LooseFactor), "2ε/(Δ√(Tη ln(1/δ))) — about 2× loose"},
			Line{"ε the paper's β really gives", *a.PaperEpsilon, "classic: " + a.PaperEpsilonClassic.String() + " = 2ε + ε²/ln(1/δ)", "Lemma 2.2 at β (Lemma 3.1)"})
	}
	return ans, nil
}

// ExpMechQuery asks ExpMech.
type ExpMechQuery struct {
	Epsilon     *float64 `json:"epsilon" help:"ε > 0 (required)"`
	Sensitivity float64  `json:"sensitivity" help:"score sensitivity Δs > 0"`
	Candidates  *float64 `json:"candidates" help:"number of candidates J (whole number ≥ 1, required)"`
	Alpha       float64  `json:"alpha" help:"failure probability α in (0, 1)"`
}

// Answer evaluates seed 003, Thms 3.4 and 3.24.
func (x *ExpMechQuery) Answer() (Answer, error) {
	if err := need([]string{"epsilon", "candidates"}, x.Epsilon, x.Candidates); err != nil {
		return Answer{}, err
	}
	r, err := ExpMech(*x.Epsilon, x.Sensitivity, *x.Candidates, x.Alpha)
	if err != nil {
		return Answer{}, err
	}
	res := struct {
		Epsilon                dp.Loss `json:"epsilon"`
		Sensitivity            dp.Num  `json:"sensitivity"`
		Candidates             dp.Num  `json:"candidates"`
		Alpha                  dp.Num  `json:"alpha"`
		Temperature            dp.Num  `json:"temperature"`
		UnitTemperatureEpsilon dp.Loss `json:"unit_temperature_epsilon"`
		Gap                    dp.Num  `json:"gap"`
		ExpectedGap            dp.Num  `json:"expected_gap"`
	}{dp.Loss(r.Epsilon), dp.Num(r.Sensitivity), dp.Num(r.Candidates), dp.Num(r.Alpha), dp.Num(r.Temperature), dp.Loss(r.UnitTemperatureEpsilon), dp.Num(r.Gap), dp.Num(r.ExpectedGap)}
	return answer("Exponential mechanism (finite candidates)", r.Source, res,
		Line{"temperature ε/(2Δs)", res.Temperature, "score multiplier", "Thm 3.4"},
		Line{"ε of sampling ∝ exp(s)", res.UnitTemperatureEpsilon, "= 2Δs", "Thm 3.4"},
		Line{"utility gap at α", res.Gap, "P[gap ≥ this] ≤ " + res.Alpha.String(), "Thm 3.24: 2Δs(ln J + ln(1/α))/ε"},
		Line{"expected gap bound", res.ExpectedGap, "", "Thm 3.24 integrated: 2Δs(ln J + 1)/ε"}), nil
}

// ExpMechConvexQuery asks ExpMechConvex.
type ExpMechConvexQuery struct {
	Epsilon   *float64 `json:"epsilon" help:"ε > 0 (required)"`
	Lipschitz float64  `json:"lipschitz" help:"Lipschitz constant L > 0"`
	Diameter  float64  `json:"diameter" help:"diameter ‖C‖₂ > 0"`
	Dimension *float64 `json:"dimension" help:"dimension p (whole number ≥ 1, required)"`
	N         *float64 `json:"n" help:"dataset size n (whole number ≥ 1, required)"`
	Failure   float64  `json:"failure" help:"failure probability in (0, 1) for the tail bound"`
}

// Answer evaluates seed 001, Thms 3.1–3.2 and seed 000, Thm 2.4.
func (x *ExpMechConvexQuery) Answer() (Answer, error) {
	if err := need([]string{"epsilon", "dimension", "n"}, x.Epsilon, x.Dimension, x.N); err != nil {
		return Answer{}, err
	}
	r, err := ExpMechConvex(*x.Epsilon, x.Lipschitz, x.Diameter, *x.Dimension, *x.N, x.Failure)
	if err != nil {
		return Answer{}, err
	}
	res := struct {
		Epsilon     dp.Loss `json:"epsilon"`
		Lipschitz   dp.Num  `json:"lipschitz"`
		Diameter    dp.Num  `json:"diameter"`
		Dimension   dp.Num  `json:"dimension"`
		N           dp.Num  `json:"n"`
		Failure     dp.Num  `json:"failure"`
		Temperature dp.Num  `json:"temperature"`
		BetaAverage dp.Num  `json:"beta_average"`
		TailBound   dp.Num  `json:"tail_bound"`
		MeanBST     dp.Num  `json:"mean_bst14"`
		MeanGibbs   dp.Num  `json:"mean_gibbs"`
		Mean        dp.Num  `json:"mean"`
	}{dp.Loss(r.Epsilon), dp.Num(r.Lipschitz), dp.Num(r.Diameter), dp.Num(r.Dim), dp.Num(r.N), dp.Num(r.Failure), dp.Num(r.Temperature), dp.Num(r.BetaAverage), dp.Num(r.TailBound), dp.Num(r.MeanBST), dp.Num(r.MeanGibbs), dp.Num(r.Mean)}
	return answer("Exponential mechanism on a convex set", r.Source, res,
		Line{"temperature (sum loss)", res.Temperature, "ε/(2L‖C‖₂)", "seed 001 Alg. 2, Thm 3.1"},
		Line{"β (average loss)", res.BetaAverage, "εn/(2L‖C‖₂)", "seed 000 Thm 2.1 / Alg. 2"},
		Line{"risk tail", res.TailBound, "sum scale; exceeded w.p. ≤ " + res.Failure.String(), "seed 001 Thm 3.2"},
		Line{"E[risk] (BST14)", res.MeanBST, "sum scale", "Thm 3.2 integrated: (8L‖C‖₂/ε)((p+1) ln 3 + 1)"},
		Line{"E[risk] (Gibbs, convex)", res.MeanGibbs, "sum scale; ÷n = " + q.Nearest(r.MeanGibbs/r.N) + " averaged", "seed 000 Thm 2.4: p/β"},
		Line{"E[risk] (best)", res.Mean, "sum scale", "smaller of the two"}), nil
}

// OutputPerturbationQuery asks OutputPerturbation.
type OutputPerturbationQuery struct {
	Epsilon         *float64 `json:"epsilon" help:"ε > 0 (required)"`
	Delta           *float64 `json:"delta" help:"δ in (0, 1) (required)"`
	Lipschitz       float64  `json:"lipschitz" help:"Lipschitz constant L > 0"`
	StrongConvexity *float64 `json:"strong_convexity" help:"strong convexity Δ > 0 of each loss (required)"`
	N               *float64 `json:"n" help:"dataset size n (required)"`
	Dimension       float64  `json:"dimension" help:"dimension p"`
}

// Answer evaluates seed 001, Algorithm 3 and Appendix B.
func (x *OutputPerturbationQuery) Answer() (Answer, error) {
	if err := need([]string{"epsilon", "delta", "strong_convexity", "n"}, x.Epsilon, x.Delta, x.StrongConvexity, x.N); err != nil {
		return Answer{}, err
	}
	r, err := OutputPerturbation(*x.Epsilon, *x.Delta, x.Lipschitz, *x.StrongConvexity, *x.N, x.Dimension)
	if err != nil {
		return Answer{}, err
	}
	res := struct {
		Epsilon           dp.Loss   `json:"epsilon"`
		Delta             dp.Loss   `json:"delta"`
		Lipschitz         dp.Num    `json:"lipschitz"`
		StrongConvexity   dp.Num    `json:"strong_convexity"`
		N                 dp.Num    `json:"n"`
		Dimension         dp.Num    `json:"dimension"`
		Sensitivity       dp.Num    `json:"sensitivity"`
		GammaScale        dp.Noise  `json:"gamma_scale"`
		MeanNorm          dp.Num    `json:"mean_norm"`
		PaperSigma        dp.Num    `json:"paper_sigma"`
		PaperSigmaEpsilon dp.Loss   `json:"paper_sigma_epsilon"`
		ClassicSigma      *dp.Noise `json:"classic_sigma"` // null: needs ε < 1
		AnalyticSigma     dp.Noise  `json:"analytic_sigma"`
	}{Epsilon: dp.Loss(r.Epsilon), Delta: dp.Loss(r.Delta), Lipschitz: dp.Num(r.Lipschitz), StrongConvexity: dp.Num(r.StrongConvexity), N: dp.Num(r.N), Dimension: dp.Num(r.Dim),
		Sensitivity: dp.Num(r.Sensitivity), GammaScale: dp.Noise(r.GammaScale), MeanNorm: dp.Num(r.MeanNorm), PaperSigma: dp.Num(r.PaperSigma), PaperSigmaEpsilon: dp.Loss(r.PaperSigmaEpsilon), AnalyticSigma: dp.Noise(r.AnalyticSigma)}
	var classic any = "n/a (needs ε < 1)"
	if r.ClassicSigma == r.ClassicSigma { // not NaN
		res.ClassicSigma = ref(dp.Noise(r.ClassicSigma))
		classic = *res.ClassicSigma
	}
	return answer("Output perturbation", r.Source, res,
		Line{"sensitivity", res.Sensitivity, "ℓ2, of θ*", "2L/(nΔ) [CMS11]"},
		Line{"ε-DP: Gamma radius scale", res.GammaScale, "‖b‖ ~ Gamma(p, scale); E‖b‖ = " + res.MeanNorm.String(), "Alg. 3"},
		Line{"(ε,δ): paper's σ₀", res.PaperSigma, "gives ε = " + res.PaperSigmaEpsilon.String() + " at δ", "App. B (optimistic constant)"},
		Line{"(ε,δ): standard Gaussian σ", classic, "√(2 ln(1.25/δ))·Δ₂/ε", "Dwork–Roth 2014, Thm A.1"},
		Line{"(ε,δ): exact σ", res.AnalyticSigma, "smallest σ for (ε, δ)", "analytic Gaussian, Balle–Wang 2018, Thm 8"}), nil
}
