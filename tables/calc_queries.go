package tables

import (
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
		N                     q.Num   `json:"n"`
		Epsilon               q.Loss  `json:"epsilon"`
		Delta                 q.Loss  `json:"delta"`
		Lipschitz             q.Num   `json:"lipschitz"`
		Sigma                 q.Noise `json:"sigma"`
		Sigma2                q.Noise `json:"sigma2"`
		ZReplaceOne           q.Noise `json:"z_replace_one"`
		ZAddRemove            q.Noise `json:"z_add_remove"`
		Steps                 q.Num   `json:"steps"`
		SamplingRate          q.Num   `json:"sampling_rate"`
		PaperChainEpsilon     q.Loss  `json:"paper_chain_epsilon"`
		RDPEpsilonReplaceOne  q.Loss  `json:"rdp_epsilon_replace_one"`
		RDPOrderReplaceOne    q.Num   `json:"rdp_order_replace_one"`
		RDPEpsilonAddRemove   q.Loss  `json:"rdp_epsilon_add_remove"`
		RDPOrderAddRemove     q.Num   `json:"rdp_order_add_remove"`
		NeededSigmaReplaceOne q.Noise `json:"needed_sigma_replace_one"`
		NeededZReplaceOne     q.Noise `json:"needed_z_replace_one"`
		NeededSigmaAddRemove  q.Noise `json:"needed_sigma_add_remove"`
		NeededZAddRemove      q.Noise `json:"needed_z_add_remove"`
		NoiseRatio            q.Num   `json:"noise_ratio"`
	}{q.Num(r.N), q.Loss(r.Epsilon), q.Loss(r.Delta), q.Num(r.Lipschitz), q.Noise(r.Sigma), q.Noise(r.Sigma2), q.Noise(r.ZReplaceOne), q.Noise(r.ZAddRemove),
		q.Num(r.Steps), q.Num(r.Q), q.Loss(r.PaperChain), q.Loss(r.ReplaceOne.Epsilon), q.Num(r.ReplaceOne.Order), q.Loss(r.AddRemove.Epsilon), q.Num(r.AddRemove.Order),
		q.Noise(r.NeededSigmaReplaceOne), q.Noise(r.NeededZReplaceOne), q.Noise(r.NeededSigmaAddRemove), q.Noise(r.NeededZAddRemove), q.Num(r.NoiseRatio)}
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
		MomentOrder  q.Num   `json:"moment_order"`
		MomentBound  q.Num   `json:"moment_bound"`
		SecondMoment q.Num   `json:"second_moment"`
		Tau          q.Num   `json:"tau"`
		Batch        q.Num   `json:"batch"`
		Rho          q.Loss  `json:"rho"`
		Dimension    q.Num   `json:"dimension"`
		Sigma        q.Noise `json:"sigma"`
		Bias         q.Num   `json:"bias"`
		NoiseTerm    q.Num   `json:"noise_term"`
		SamplingTerm q.Num   `json:"sampling_term"`
		MSE          q.Num   `json:"mse"`
		TauOpt       q.Num   `json:"tau_opt"`
		MSEOpt       q.Num   `json:"mse_opt"`
		BiasOpt      q.Num   `json:"bias_opt"`
	}{q.Num(r.K), q.Num(r.RK), q.Num(r.R2), q.Num(r.Tau), q.Num(r.S), q.Loss(r.Rho), q.Num(r.D), q.Noise(r.Sigma), q.Num(r.Bias), q.Num(r.NoiseTerm),
		q.Num(r.SamplingTerm), q.Num(r.MSE), q.Num(r.TauOpt), q.Num(r.MSEOpt), q.Num(r.BiasOpt)}
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
		N                    q.Num   `json:"n"`
		Steps                q.Num   `json:"steps"`
		Tau                  q.Num   `json:"tau"`
		Rho                  q.Loss  `json:"rho"`
		Dimension            q.Num   `json:"dimension"`
		Delta                q.Loss  `json:"delta"`
		OnePassBatch         q.Num   `json:"one_pass_batch"`
		OnePassStepRho       q.Max   `json:"one_pass_step_rho"`
		OnePassSigma         q.Noise `json:"one_pass_sigma"`
		OnePassNoiseMSE      q.Num   `json:"one_pass_noise_mse"`
		MultiPassBatch       q.Num   `json:"multi_pass_batch"`
		MultiPassStepRho     q.Max   `json:"multi_pass_step_rho"`
		MultiPassSigma       q.Noise `json:"multi_pass_sigma"`
		MultiPassNoiseMSE    q.Num   `json:"multi_pass_noise_mse"`
		NaiveSequentialSigma q.Noise `json:"naive_sequential_sigma"`
		TotalRho             q.Loss  `json:"total_rho"`
		Epsilon              q.Loss  `json:"epsilon"`
	}{q.Num(b.N), q.Num(b.T), q.Num(b.Tau), q.Loss(b.Rho), q.Num(b.D), q.Loss(b.Delta), q.Num(b.OnePassBatch), q.Max(b.OnePassStepRho), q.Noise(b.OnePassSigma),
		q.Num(b.OnePassNoiseMSE), q.Num(b.MultiPassBatch), q.Max(b.MultiPassStepRho), q.Noise(b.MultiPassSigma), q.Num(b.MultiPassNoiseMSE),
		q.Noise(b.NaiveSequentialSigma), q.Loss(b.TotalRho), q.Loss(b.Epsilon)}
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
		lines = append(lines, Line{"largest per-step ε", q.Max(eps), "for total " + q.Nearest(*x.TargetEpsilon), "min(basic, strong) ≤ target (bisection)"})
	}
	r, err := StrongComposition(eps, *x.Steps, *x.Delta)
	if err != nil {
		return Answer{}, err
	}
	res := struct {
		StepEpsilon   q.Num  `json:"step_epsilon"`
		TargetEpsilon *q.Num `json:"target_epsilon,omitempty"`
		Steps         q.Num  `json:"steps"`
		Delta         q.Loss `json:"delta"`
		Method        string `json:"method"`
		Epsilon       q.Loss `json:"epsilon"`
		BasicEpsilon  q.Loss `json:"basic_epsilon"`
		StrongEpsilon q.Loss `json:"strong_epsilon"`
		RDPEpsilon    q.Loss `json:"rdp_epsilon"`
	}{q.Num(eps), nil, q.Num(r.Steps), q.Loss(r.DeltaPrime), map[bool]string{true: "basic", false: "strong"}[r.BestIsBasic], q.Loss(r.Best), q.Loss(r.Basic), q.Loss(r.Strong), q.Loss(r.RDP)}
	if x.TargetEpsilon != nil {
		res.TargetEpsilon = ref(q.Num(*x.TargetEpsilon))
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
		TargetEpsilon    q.Num  `json:"target_epsilon"`
		Steps            q.Num  `json:"steps"`
		Delta            q.Loss `json:"delta"`
		StepExact        q.Max  `json:"step_exact"`
		StepPaper        q.Max  `json:"step_paper"`
		TotalAtExactStep q.Loss `json:"total_at_exact_step"`
		TotalAtPaperStep q.Loss `json:"total_at_paper_step"`
		ZCDPEpsilon      q.Loss `json:"zcdp_epsilon"`
	}{q.Num(r.Target), q.Num(r.Steps), q.Loss(r.Delta), q.Max(r.StepExact), q.Max(r.StepPaper), q.Loss(r.TotalAtExactStep), q.Loss(r.TotalAtPaperStep), q.Loss(r.ZCDP)}
	return answer("Fully adaptive composition", r.Source, res,
		Line{"ε₀ (exact)", res.StepExact, "per step; spends " + res.TotalAtExactStep.String(), "Thm 3.5 inverted: √2(√(ln(1/δ)+ε) − √ln(1/δ))/√k"},
		Line{"ε₀ (Cor. 3.6)", res.StepPaper, "per step; spends " + res.TotalAtPaperStep.String(), "ε/(2√(2k ln(1/δ))) — about 2× conservative"},
		Line{"ε at ε₀ (exact), zCDP route", res.ZCDPEpsilon, "budgets fixed in advance", "kε₀²/2-zCDP + improved conversion"}), nil
}
