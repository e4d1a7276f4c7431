package tables

import (
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	q "github.com/privamp/privamp/internal/quantity"
)

// BST14Query asks BST14SGD.
type BST14Query struct {
	N         *float64 `json:"n" help:"dataset size n (whole number in [2, 1e7], required)"`
	Epsilon   *float64 `json:"epsilon" help:"target ε (required)"`
	Delta     *float64 `json:"delta" help:"δ < 1/n (required)"`
	Lipschitz float64  `json:"lipschitz" help:"Lipschitz constant L > 0"`
}

// Answer compares seed 001's Thm 2.1 noise with the RDP accountant.
func (x *BST14Query) Answer() (Answer, error) {
	if err := need([]string{"n", "epsilon", "delta"}, x.N, x.Epsilon, x.Delta); err != nil {
		return Answer{}, err
	}
	if *x.N > 1e7 {
		return Answer{}, field.New("n", *x.N, "must be ≤ 1e7 (n² steps are accounted)")
	}
	r, err := BST14SGD(*x.N, *x.Epsilon, *x.Delta, x.Lipschitz)
	if err != nil {
		return Answer{}, err
	}
	res := struct {
		N                     dp.Num   `json:"n"`
		Epsilon               dp.Loss  `json:"epsilon"`
		Delta                 dp.Loss  `json:"delta"`
		Lipschitz             dp.Num   `json:"lipschitz"`
		Sigma                 dp.Noise `json:"sigma"`
		Sigma2                dp.Noise `json:"sigma2"`
		ZReplaceOne           dp.Noise `json:"z_replace_one"`
		ZAddRemove            dp.Noise `json:"z_add_remove"`
		Steps                 dp.Num   `json:"steps"`
		SamplingRate          dp.Num   `json:"sampling_rate"`
		PaperChainEpsilon     dp.Loss  `json:"paper_chain_epsilon"`
		RDPEpsilonReplaceOne  dp.Loss  `json:"rdp_epsilon_replace_one"`
		RDPOrderReplaceOne    dp.Num   `json:"rdp_order_replace_one"`
		RDPEpsilonAddRemove   dp.Loss  `json:"rdp_epsilon_add_remove"`
		RDPOrderAddRemove     dp.Num   `json:"rdp_order_add_remove"`
		NeededSigmaReplaceOne dp.Noise `json:"needed_sigma_replace_one"`
		NeededZReplaceOne     dp.Noise `json:"needed_z_replace_one"`
		NeededSigmaAddRemove  dp.Noise `json:"needed_sigma_add_remove"`
		NeededZAddRemove      dp.Noise `json:"needed_z_add_remove"`
		NoiseRatio            dp.Num   `json:"noise_ratio"`
	}{dp.Num(r.N), dp.Loss(r.Epsilon), dp.Loss(r.Delta), dp.Num(r.Lipschitz), dp.Noise(r.Sigma), dp.Noise(r.Sigma2), dp.Noise(r.ZReplaceOne), dp.Noise(r.ZAddRemove),
		dp.Num(r.Steps), dp.Num(r.Q), dp.Loss(r.PaperChain), dp.Loss(r.ReplaceOne.Epsilon), dp.Num(r.ReplaceOne.Order), dp.Loss(r.AddRemove.Epsilon), dp.Num(r.AddRemove.Order),
		dp.Noise(r.NeededSigmaReplaceOne), dp.Noise(r.NeededZReplaceOne), dp.Noise(r.NeededSigmaAddRemove), dp.Noise(r.NeededZAddRemove), dp.Num(r.NoiseRatio)}
	return answer("Noisy SGD noise rule vs the RDP accountant", r.Source, res,
		Line{"σ (paper)", res.Sigma, "σ² = " + res.Sigma2.String(), "Thm 2.1: 32L²n² ln(n/δ) ln(1/δ)/ε²"},
		Line{"noise multiplier", res.ZReplaceOne, "σ/(2nL), replace-one; σ/(nL) = " + res.ZAddRemove.String(), "derived"},
		Line{"steps T, sampling q", q.Int(r.Steps) + ", " + res.SamplingRate.String(), "", "Alg. 1 (n² steps, q = 1/n)"},
		Line{"ε by the paper's chain", res.PaperChainEpsilon, "claimed ≤ " + q.Nearest(r.Epsilon), "Lemmas 2.2 + 2.3 at δ′ = δ/2 (docs/seeds.md §Seed 001 noisy SGD noise rule)"},
		Line{"ε by RDP, replace-one", res.RDPEpsilonReplaceOne, "α = " + res.RDPOrderReplaceOne.String(), "Poisson model; Mironov Prop. 11 + improved conversion"},
		Line{"ε by RDP, add/remove", res.RDPEpsilonAddRemove, "α = " + res.RDPOrderAddRemove.String(), "for reference"},
		Line{"σ needed, replace-one", res.NeededSigmaReplaceOne, "z = " + res.NeededZReplaceOne.String() + " (σ/(nL))", "rdp.Calibrate for (ε, δ)"},
		Line{"σ needed, add/remove", res.NeededSigmaAddRemove, "z = " + res.NeededZAddRemove.String() + " (σ/(nL))", "rdp.Calibrate, for reference"},
		Line{"paper σ / needed σ", res.NoiseRatio, "replace-one", "how much more noise the paper adds"}), nil
}

// ClippedMeanQuery asks ClippedMean.
type ClippedMeanQuery struct {
	MomentOrder  *float64 `json:"moment_order" help:"moment order k ≥ 2 (required)"`
	MomentBound  *float64 `json:"moment_bound" help:"r_k = (E‖Z‖^k)^{1/k} bound > 0 (required)"`
	SecondMoment *float64 `json:"second_moment" help:"r_2 = (E‖Z‖²)^{1/2} bound ≤ r_k (default r_k)"`
	Tau          *float64 `json:"tau" help:"clip threshold τ > 0 (default τ*)"`
	Batch        *float64 `json:"batch" help:"batch size s (required)"`
	Rho          *float64 `json:"rho" help:"ρ of ρ-zCDP > 0 (required)"`
	Dimension    float64  `json:"dimension" help:"dimension d"`
}

// Answer evaluates seed 004, Algorithm 1 and Lemma 6.
func (x *ClippedMeanQuery) Answer() (Answer, error) {
	if err := need([]string{"moment_order", "moment_bound", "batch", "rho"}, x.MomentOrder, x.MomentBound, x.Batch, x.Rho); err != nil {
		return Answer{}, err
	}
	r2, tau, tauSrc := *x.MomentBound, 0.0, "τ* (MSE-optimal)"
	if x.SecondMoment != nil {
		r2 = *x.SecondMoment
	}
	if x.Tau != nil {
		if err := positiveFinite("tau", *x.Tau); err != nil {
			return Answer{}, err
		}
		tau, tauSrc = *x.Tau, "input"
	}
	r, err := ClippedMean(*x.MomentOrder, *x.MomentBound, r2, tau, *x.Batch, *x.Rho, x.Dimension)
	if err != nil {
		return Answer{}, err
	}
	res := struct {
		MomentOrder  dp.Num   `json:"moment_order"`
		MomentBound  dp.Num   `json:"moment_bound"`
		SecondMoment dp.Num   `json:"second_moment"`
		Tau          dp.Num   `json:"tau"`
		Batch        dp.Num   `json:"batch"`
		Rho          dp.Loss  `json:"rho"`
		Dimension    dp.Num   `json:"dimension"`
		Sigma        dp.Noise `json:"sigma"`
		Bias         dp.Num   `json:"bias"`
		NoiseTerm    dp.Num   `json:"noise_term"`
		SamplingTerm dp.Num   `json:"sampling_term"`
		MSE          dp.Num   `json:"mse"`
		TauOpt       dp.Num   `json:"tau_opt"`
		MSEOpt       dp.Num   `json:"mse_opt"`
		BiasOpt      dp.Num   `json:"bias_opt"`
	}{dp.Num(r.K), dp.Num(r.RK), dp.Num(r.R2), dp.Num(r.Tau), dp.Num(r.S), dp.Loss(r.Rho), dp.Num(r.D), dp.Noise(r.Sigma), dp.Num(r.Bias), dp.Num(r.NoiseTerm),
		dp.Num(r.SamplingTerm), dp.Num(r.MSE), dp.Num(r.TauOpt), dp.Num(r.MSEOpt), dp.Num(r.BiasOpt)}
	return answer("Clipped mean oracle", r.Source, res,
		Line{"τ", res.Tau, tauSrc, ""},
		Line{"σ", res.Sigma, "per coordinate", "σ² = 2τ²/(s²ρ): ρ-zCDP, sensitivity 2τ/s (Prop. 23)"},
		Line{"bias bound", res.Bias, "‖E ν̃ − ν‖", "Lemma 6: r_k^k/((k−1)τ^{k−1})"},
		Line{"MSE bound", res.MSE, "noise " + res.NoiseTerm.String() + " + sampling " + res.SamplingTerm.String() + " + bias² " + q.Nearest(r.Bias*r.Bias), "Lemma 6"},
		Line{"τ* (MSE-optimal)", res.TauOpt, "r_k(s²ρ/(2d(k−1)))^{1/(2k)}", "closed form (derived)"},
		Line{"MSE bound at τ*", res.MSEOpt, "bias " + res.BiasOpt.String(), "Lemma 6 at τ*"}), nil
}

// ZCDPBudgetQuery asks ZCDPBudgets.
type ZCDPBudgetQuery struct {
	N         *float64 `json:"n" help:"dataset size n (required)"`
	Steps     *float64 `json:"steps" help:"number of steps T ≤ n (required)"`
	Tau       float64  `json:"tau" help:"clip threshold τ > 0"`
	Rho       *float64 `json:"rho" help:"total ρ > 0 (required)"`
	Dimension float64  `json:"dimension" help:"dimension d"`
	Delta     float64  `json:"delta" help:"δ in (0, 1) for the (ε, δ) conversion"`
}

// Answer compares one-pass and multi-pass zCDP budgets (seed 004).
func (x *ZCDPBudgetQuery) Answer() (Answer, error) {
	if err := need([]string{"n", "steps", "rho"}, x.N, x.Steps, x.Rho); err != nil {
		return Answer{}, err
	}
	b, err := ZCDPBudgets(*x.N, *x.Steps, x.Tau, *x.Rho, x.Dimension, x.Delta)
	if err != nil {
		return Answer{}, err
	}
	res := struct {
		N                    dp.Num   `json:"n"`
		Steps                dp.Num   `json:"steps"`
		Tau                  dp.Num   `json:"tau"`
		Rho                  dp.Loss  `json:"rho"`
		Dimension            dp.Num   `json:"dimension"`
		Delta                dp.Loss  `json:"delta"`
		OnePassBatch         dp.Num   `json:"one_pass_batch"`
		OnePassStepRho       dp.Max   `json:"one_pass_step_rho"`
		OnePassSigma         dp.Noise `json:"one_pass_sigma"`
		OnePassNoiseMSE      dp.Num   `json:"one_pass_noise_mse"`
		MultiPassBatch       dp.Num   `json:"multi_pass_batch"`
		MultiPassStepRho     dp.Max   `json:"multi_pass_step_rho"`
		MultiPassSigma       dp.Noise `json:"multi_pass_sigma"`
		MultiPassNoiseMSE    dp.Num   `json:"multi_pass_noise_mse"`
		NaiveSequentialSigma dp.Noise `json:"naive_sequential_sigma"`
		TotalRho             dp.Loss  `json:"total_rho"`
		Epsilon              dp.Loss  `json:"epsilon"`
	}{dp.Num(b.N), dp.Num(b.T), dp.Num(b.Tau), dp.Loss(b.Rho), dp.Num(b.D), dp.Loss(b.Delta), dp.Num(b.OnePassBatch), dp.Max(b.OnePassStepRho), dp.Noise(b.OnePassSigma),
		dp.Num(b.OnePassNoiseMSE), dp.Num(b.MultiPassBatch), dp.Max(b.MultiPassStepRho), dp.Noise(b.MultiPassSigma), dp.Num(b.MultiPassNoiseMSE),
		dp.Noise(b.NaiveSequentialSigma), dp.Loss(b.TotalRho), dp.Loss(b.Epsilon)}
	return answer("zCDP budgets: one pass vs multi-pass", b.Source, res,
		Line{"one pass: batch, per-step ρ", q.Int(b.OnePassBatch) + ", " + res.OnePassStepRho.String(), "", "parallel composition [McS09]"},
		Line{"one pass: σ", res.OnePassSigma, "per-step noise MSE dσ² = " + res.OnePassNoiseMSE.String(), "σ² = 2τ²/(s²ρ)"},
		Line{"multi-pass: batch, per-step ρ", q.Int(b.MultiPassBatch) + ", " + res.MultiPassStepRho.String(), "", "Lemma 24 (sequential)"},
		Line{"multi-pass: σ", res.MultiPassSigma, "per-step noise MSE dσ² = " + res.MultiPassNoiseMSE.String(), "σ² = 2τ²T/(n²ρ)"},
		Line{"one pass, if composed sequentially", res.NaiveSequentialSigma, "σ (wasteful: batches are disjoint)", "for comparison"},
		Line{"total ρ", res.TotalRho, "both", ""},
		Line{"ε", res.Epsilon, "at δ = " + res.Delta.String(), "improved conversion (CKS20 Prop. 12)"}), nil
}

// StrongCompositionQuery asks StrongComposition, or StrongCompositionStep
// for a target total ε.
type StrongCompositionQuery struct {
	StepEpsilon   *float64 `json:"step_epsilon" help:"per-step ε > 0"`
	TargetEpsilon *float64 `json:"target_epsilon" help:"total ε > 0: compute the largest per-step ε"`
	Steps         *float64 `json:"steps" help:"number of mechanisms T (required)"`
	Delta         *float64 `json:"delta" help:"δ′ in (0, 1) (required)"`
}

// Answer evaluates seed 001, Lemma 2.3 beside basic composition.
func (x *StrongCompositionQuery) Answer() (Answer, error) {
	if err := need([]string{"steps", "delta"}, x.Steps, x.Delta); err != nil {
		return Answer{}, err
	}
	if (x.StepEpsilon == nil) == (x.TargetEpsilon == nil) {
		return Answer{}, field.New("step_epsilon", nil, "or a target epsilon is required, not both")
	}
	var lines []Line
	eps := val(x.StepEpsilon)
	if x.TargetEpsilon != nil {
		e, err := StrongCompositionStep(*x.TargetEpsilon, *x.Steps, *x.Delta)
		if err != nil {
			return Answer{}, err
		}
		eps = e
		lines = append(lines, Line{"largest per-step ε", dp.Max(eps), "for total " + q.Nearest(*x.TargetEpsilon), "min(basic, strong) ≤ target (bisection)"})
	}
	r, err := StrongComposition(eps, *x.Steps, *x.Delta)
	if err != nil {
		return Answer{}, err
	}
	res := struct {
		StepEpsilon   dp.Num  `json:"step_epsilon"`
		TargetEpsilon *dp.Num `json:"target_epsilon,omitempty"`
		Steps         dp.Num  `json:"steps"`
		Delta         dp.Loss `json:"delta"`
		Method        string  `json:"method"`
		Epsilon       dp.Loss `json:"epsilon"`
		BasicEpsilon  dp.Loss `json:"basic_epsilon"`
		StrongEpsilon dp.Loss `json:"strong_epsilon"`
		RDPEpsilon    dp.Loss `json:"rdp_epsilon"`
	}{dp.Num(eps), nil, dp.Num(r.Steps), dp.Loss(r.DeltaPrime), map[bool]string{true: "basic", false: "strong"}[r.BestIsBasic], dp.Loss(r.Best), dp.Loss(r.Basic), dp.Loss(r.Strong), dp.Loss(r.RDP)}
	if x.TargetEpsilon != nil {
		res.TargetEpsilon = ref(dp.Num(*x.TargetEpsilon))
	}
	return answer("Strong vs basic composition", r.Source, res, append(lines,
		Line{"basic", res.BasicEpsilon, "δ = 0", "Tε"},
		Line{"strong", res.StrongEpsilon, "δ′ = " + res.Delta.String(), "Lemma 2.3: √(2T ln(1/δ′))ε + Tε(e^ε − 1)"},
		Line{"ε (reported)", res.Epsilon, res.Method + " composition", "the smaller"},
		Line{"ε by RDP (reference)", res.RDPEpsilon, "δ′ = " + res.Delta.String(), "pure-DP RDP curve (rdp.PureDP) + improved conversion"})...), nil
}

// FullyAdaptiveQuery asks FullyAdaptiveStep.
type FullyAdaptiveQuery struct {
	TargetEpsilon *float64 `json:"target_epsilon" help:"target ε, 0 < ε < 8 ln(1/δ) (required)"`
	Steps         *float64 `json:"steps" help:"number of pure-DP steps k (required)"`
	Delta         *float64 `json:"delta" help:"δ in (0, 1) (required)"`
}

// Answer evaluates seed 003, Thm 3.5 and Cor. 3.6 for k pure steps.
func (x *FullyAdaptiveQuery) Answer() (Answer, error) {
	if err := need([]string{"target_epsilon", "steps", "delta"}, x.TargetEpsilon, x.Steps, x.Delta); err != nil {
		return Answer{}, err
	}
	r, err := FullyAdaptiveStep(*x.TargetEpsilon, *x.Steps, *x.Delta)
	if err != nil {
		return Answer{}, err
	}
	res := struct {
		TargetEpsilon    dp.Num  `json:"target_epsilon"`
		Steps            dp.Num  `json:"steps"`
		Delta            dp.Loss `json:"delta"`
		StepExact        dp.Max  `json:"step_exact"`
		StepPaper        dp.Max  `json:"step_paper"`
		TotalAtExactStep dp.Loss `json:"total_at_exact_step"`
		TotalAtPaperStep dp.Loss `json:"total_at_paper_step"`
		ZCDPEpsilon      dp.Loss `json:"zcdp_epsilon"`
	}{dp.Num(r.Target), dp.Num(r.Steps), dp.Loss(r.Delta), dp.Max(r.StepExact), dp.Max(r.StepPaper), dp.Loss(r.TotalAtExactStep), dp.Loss(r.TotalAtPaperStep), dp.Loss(r.ZCDP)}
	return answer("Fully adaptive composition", r.Source, res,
		Line{"ε₀ (exact)", res.StepExact, "per step; spends " + res.TotalAtExactStep.String(), "Thm 3.5 inverted: √2(√(ln(1/δ)+ε) − √ln(1/δ))/√k"},
		Line{"ε₀ (Cor. 3.6)", res.StepPaper, "per step; spends " + res.TotalAtPaperStep.String(), "ε/(2√(2k ln(1/δ))) — about 2× conservative"},
		Line{"ε at ε₀ (exact), zCDP route", res.ZCDPEpsilon, "budgets fixed in advance", "kε₀²/2-zCDP + improved conversion"}), nil
}
