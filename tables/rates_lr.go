package tables

import (
	"fmt"
	"math"
)

// Seed 004: Lowy, Razaviyayn, Private Stochastic Optimization with Large
// Worst-Case Lipschitz Parameter. The paper's Figure 1 (summary of results)
// is lost in the text dump, as are almost all displayed equations; the rates
// below are rebuilt from the theorems as reconstructed in
// docs/seeds.md#seed-004-reconstructed-rates and marked accordingly.

// lrA returns a = √d/(n√ρ) and p = (k−1)/k.
func lrA(p Params) (a, pe float64) {
	return math.Sqrt(p.D) / (p.N * math.Sqrt(p.Rho)), (p.MomentOrder - 1) / p.MomentOrder
}

func lrKappa(p Params) float64 { return p.Smoothness / p.StrongConvexity }

func lrLowerValid(p Params) error {
	a, _ := lrA(p)
	if a > 1 {
		return fmt.Errorf("the lower bounds need n large enough that a = √d/(n√ρ) ≤ 1, got a = %.6g", a)
	}
	if p.Rho > p.D {
		return fmt.Errorf("the lower bounds need ρ ≤ d, got ρ = %v > d = %v", p.Rho, p.D)
	}
	return nil
}

func lrConvexLower(p Params) float64 {
	a, pe := lrA(p)
	return p.MomentBound * p.Diameter * (1/math.Sqrt(p.N) + math.Pow(a, pe))
}

func lrSCLower(p Params) float64 {
	a, pe := lrA(p)
	return p.MomentBound * p.MomentBound / p.StrongConvexity * (1/p.N + math.Pow(a, 2*pe))
}

var lrHidden = Hidden{Constants: true, Logs: "logarithmic factors"}

func tableLR() *Table {
	lrConvexLowerCell := Cell{
		Form: "r_k·D·(1/√n + a^{(k−1)/k})", Hidden: Hidden{Constants: true}, Source: "Thm 7 / Thm 26 (linear loss; Assumption 2 form, r̃_k under Assumption 1)",
		Eval: upTo(lrConvexLower), Valid: lrLowerValid, Monotone: -1,
	}
	lrSCLowerCell := Cell{
		Form: "(r_k²/μ)·(1/n + a^{2(k−1)/k})", Hidden: Hidden{Constants: true}, Source: "Thm 8 / Thm 28 (f = (μ/2)‖w − x‖², κ = 1)",
		Eval: upTo(lrSCLower), Valid: lrLowerValid, Monotone: -1,
	}
	return &Table{
		Name:          "lr-heavy-tailed",
		Aliases:       []string{"seed-004", "heavy-tailed"},
		Title:         "Private stochastic optimisation with heavy-tailed gradients (k-th moment bounds): rates by setting",
		Paper:         "Lowy, Razaviyayn, Private Stochastic Optimization with Large Worst-Case Lipschitz Parameter (arXiv 2209.07403)",
		Seed:          "004",
		Source:        "Figure 1 — LOST in the text dump; RECONSTRUCTED from Thms 7–12, 18, 20, 26–48 (docs/seeds.md §Seed 004 reconstructed rates)",
		Reconstructed: true,
		Caption:       "Reconstruction: the paper's Figure 1 summarises its results (and the dump lost it with nearly every displayed equation). Every rate is ≲ or Õ: absolute constants and logarithms hidden. a = √d/(n√ρ), p = (k−1)/k, κ = β/μ.",
		Columns: []Column{
			{Key: "prior", Header: "Prior (WXDX20 / KLZ22)", Kind: Info},
			{Key: "upper", Header: "This paper, upper bound", Kind: Upper},
			{Key: "time", Header: "Time", Kind: Info},
			{Key: "lower", Header: "Lower bound", Kind: Lower},
		},
		Compare:         CompareColumns,
		EpsilonOptional: true,
		Scale:           "expected excess population risk under ρ-zCDP, with D the ℓ2-diameter of W, r_k (Assumption 2) and r̃_{2k,n} (Assumption 1, empirical) the gradient moment bounds, μ the strong convexity, β the smoothness",
		Assumptions: []string{
			"Assumption 1/2: k-th moments of the stochastic (sub)gradient norms bounded (k ≥ 2): r_2 ≤ r_k ≤ r̃_{2k,n} ≤ L_f",
			"W convex and compact with diameter D; data i.i.d.; neighbours replace one entry; ρ-zCDP (BS16 Prop. 1.3 converts to (ε, δ))",
			"smooth rows: F β-smooth (not each f(·, x)); SC rows: μ-strongly convex with κ = β/μ ≥ 1; PPL: μ-proximal-PL",
			"lower bounds: ρ ≤ d and n large enough that a ≤ 1",
		},
		Notes: []string{
			"RECONSTRUCTED: Figure 1 is lost; the rates come from the theorems as reconstructed in docs/seeds.md (§Seed 004 reconstructed rates), with D and μ restored",
			"the κ-powers in the smooth strongly convex and PPL rows are reconstructions of uncertain form (marked [?]): the SC row uses T = κ in Thm 34's bound, r_2²/(μn) + (r_k²/μ)(√(dκ)/(n√ρ))^{2p}; the PPL row uses T = κ in Thm 48's bound",
			"the prior-work column is text only: its forms are not reliable enough to evaluate",
			"the non-smooth rows use r̃_{2k,n} (a weighted empirical 2k-th moment); under mild assumptions it tends to r_{2k} (Thm 45)",
		},
		Uses:     []string{"diameter", "strong_convexity", "smoothness", "moment_order", "moment_bound", "second_moment", "moment_bound_2k", "rho"},
		Validity: "n ≥ 1, d ≥ 1, k ≥ 2, ρ > 0 (or ε > 0 and δ ∈ (0, 1) to use ρ*(ε, δ)), r_2 ≤ r_k ≤ r̃_{2k,n}, β ≥ μ; lower bounds: ρ ≤ d and a ≤ 1",
		Check: func(p Params) error {
			if p.Rho == 0 {
				return rangeErr("rho", "is required for this zCDP table (or give delta to use ρ*(ε, δ))")
			}
			if p.SecondMoment > p.MomentBound*(1+1e-12) {
				return rangeErr("second_moment", "must be ≤ r_k = %v (r_2 ≤ r_k by Jensen), got %v", p.MomentBound, p.SecondMoment)
			}
			if p.MomentBound > p.MomentBound2k*(1+1e-12) {
				return rangeErr("moment_bound_2k", "must be ≥ r_k = %v (r_k ≤ r_{2k} ≤ r̃_{2k,n}), got %v", p.MomentBound, p.MomentBound2k)
			}
			if p.Smoothness < p.StrongConvexity {
				return rangeErr("smoothness", "must be ≥ the strong convexity μ = %v (κ = β/μ ≥ 1), got %v", p.StrongConvexity, p.Smoothness)
			}
			return nil
		},
		Rows: []Row{
			{
				Key: "smooth_convex", Label: "Smooth convex", Source: "Thm 9 / Thm 31 (Algorithm 2, noisy clipped AC-SA); Thm 7 / Thm 26",
				Cells: []Cell{
					{Form: "≈ r(√(d/n) + (d/(n√ρ))^{(k−1)/k}) [?]; needs every f(·, x) smooth", Source: "[KLZ22, Thm 5.4]", Note: "form uncertain; not evaluated"},
					{Form: "r_2·D/√n + max{(βD²)^{(k−1)/(5k−1)}·(r_k·D)^{4k/(5k−1)}·a^{4(k−1)/(5k−1)}, r_k·D·a^{(k−1)/k}}", Hidden: lrHidden, Source: "Thm 9 / Thm 31", Note: "reconstructed [R]; optimal (meets the lower bound) when β ≲ (r_k/D)·a^{(k−1)/k} (Remark 10)",
						Eval: upTo(func(p Params) float64 {
							a, pe := lrA(p)
							k, D := p.MomentOrder, p.Diameter
							t1 := math.Pow(p.Smoothness*D*D, (k-1)/(5*k-1)) * math.Pow(p.MomentBound*D, 4*k/(5*k-1)) * math.Pow(a, 4*(k-1)/(5*k-1))
							return p.SecondMoment*D/math.Sqrt(p.N) + math.Max(t1, p.MomentBound*D*math.Pow(a, pe))
						}), Monotone: -1},
					{Form: "linear (≤ n gradient evaluations)"},
					lrConvexLowerCell,
				},
			},
			{
				Key: "smooth_sc", Label: "Smooth strongly convex", Source: "Thm 11 / Thm 34 (Algorithm 6, noisy clipped SGD); Thm 8 / Thm 28",
				Cells: []Cell{
					{Form: "KLZ22 Thm 5.6 is wrong (App. C); its correction carries an extra worst-case κ_f", Source: "App. C", Note: "not evaluated"},
					{Form: "r_2²/(μn) + κ^{(k−1)/k}·(r_k²/μ)·a^{2(k−1)/k} [κ-power ?]", Hidden: lrHidden, Source: "Thm 11 / Thm 34 with T = Θ̃(κ)", Note: "reconstructed; the κ-power is uncertain [?]",
						Eval: upTo(func(p Params) float64 {
							a, pe := lrA(p)
							mu := p.StrongConvexity
							return p.SecondMoment*p.SecondMoment/(mu*p.N) + math.Pow(lrKappa(p), pe)*p.MomentBound*p.MomentBound/mu*math.Pow(a, 2*pe)
						}), Monotone: -1},
					{Form: "linear (≤ n gradient evaluations)"},
					lrSCLowerCell,
				},
			},
			{
				Key: "nonsmooth_convex", Label: "Non-smooth convex", Source: "Thm 12 / Thm 41 (Algorithm 4, localized noisy clipped subgradient); Thm 7 / Thm 26",
				Cells: []Cell{
					{Form: "none (first result)"},
					{Form: "r̃_{2k,n}·D·(1/√n + a^{(k−1)/k})", Hidden: lrHidden, Source: "Thm 12 / Thm 41", Note: "reconstructed [R]",
						Eval: upTo(func(p Params) float64 {
							a, pe := lrA(p)
							return p.MomentBound2k * p.Diameter * (1/math.Sqrt(p.N) + math.Pow(a, pe))
						}), Monotone: -1},
					{Form: "polynomial"},
					lrConvexLowerCell,
				},
			},
			{
				Key: "nonsmooth_sc", Label: "Non-smooth strongly convex", Source: "Thm 18 / Thm 43 (reduction to Algorithm 4); Thm 8 / Thm 28",
				Cells: []Cell{
					{Form: "none"},
					{Form: "(r̃_{2k,n}²/μ)·(1/n + a^{2(k−1)/k})", Hidden: lrHidden, Source: "Thm 18 / Thm 43", Note: "reconstructed [R]",
						Eval: upTo(func(p Params) float64 {
							a, pe := lrA(p)
							return p.MomentBound2k * p.MomentBound2k / p.StrongConvexity * (1/p.N + math.Pow(a, 2*pe))
						}), Monotone: -1},
					{Form: "polynomial"},
					lrSCLowerCell,
				},
			},
			{
				Key: "proximal_pl", Label: "Proximal-PL (non-convex)", Source: "Thm 20 / Thm 48 (Algorithm 8, noisy clipped proximal SGD); Thm 8 (SC ⊂ PPL)",
				Cells: []Cell{
					{Form: "none"},
					{Form: "κ·r_2²/(μn) + (r_k²/μ)·(κ·a)^{2(k−1)/k} [κ-power ?]", Hidden: lrHidden, Source: "Thm 20 / Thm 48 with T = Θ̃(κ)", Note: "reconstructed; the κ-power is uncertain [?]",
						Eval: upTo(func(p Params) float64 {
							a, pe := lrA(p)
							mu, kap := p.StrongConvexity, lrKappa(p)
							return kap*p.SecondMoment*p.SecondMoment/(mu*p.N) + p.MomentBound*p.MomentBound/mu*math.Pow(kap*a, 2*pe)
						}), Monotone: -1},
					{Form: "linear (≤ n gradient evaluations)"},
					lrSCLowerCell,
				},
			},
		},
	}
}
