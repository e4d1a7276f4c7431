package tables

import (
	"math"

	"github.com/privamp/privamp/optimizer/bst14"
)

// Seed 001: Bassily, Smith, Thakurta 2014, Table 1.

// bst14Eval evaluates a normalised (L = ‖C‖₂ = 1) rate in general units: the
// risk is multiplied by L‖C‖₂ and Δ is replaced by Δ‖C‖₂/L (the table's
// caption). f receives the normalised Δ.
func bst14Eval(f func(p Params, delta float64) float64) func(Params) (float64, bool) {
	return func(p Params) (float64, bool) {
		return p.Lipschitz * p.Diameter * f(p, p.StrongConvexity*p.Diameter/p.Lipschitz), false
	}
}

func bst14Cap(p Params) float64 { return p.N * p.Lipschitz * p.Diameter }

var bst14Hidden = Hidden{Constants: true}

func bst14Cell(form, source string, mono int, f func(p Params, delta float64) float64) Cell {
	return Cell{Form: form, Hidden: bst14Hidden, Source: source, Eval: bst14Eval(f), Cap: bst14Cap, Monotone: mono}
}

var bst14Empty = Cell{Form: "—", Note: "empty in the paper: no new upper bound in the smooth case (the previous one is already tight)"}

func tableBST14() *Table {
	return &Table{
		Name:    "bst14",
		Aliases: []string{"seed-001", "erm"},
		Title:   "Upper and lower bounds for the excess empirical risk of private convex ERM",
		Paper:   "Bassily, Smith, Thakurta 2014, Differentially Private ERM: Efficient Algorithms and Tight Error Bounds",
		Seed:    "001",
		Source:  "Table 1",
		Caption: "Bounds ignore leading multiplicative constants; the values give the bound when it is below n: upper bounds read O(min(n, ·)), lower bounds Ω(min(n, ·)). Stated for L = ‖C‖₂ = 1; in general multiply the risk by L‖C‖₂ and replace Δ by Δ‖C‖₂/L. δ < 1/n is assumed to simplify the bounds.",
		Columns: []Column{
			{Key: "pure_previous", Header: "(ε,0) Previous [CMS11] upper", Group: "ε-DP", Kind: Upper},
			{Key: "pure_this_work", Header: "(ε,0) This work upper", Group: "ε-DP", Kind: Upper},
			{Key: "pure_lower", Header: "(ε,0) Lower", Group: "ε-DP", Kind: Lower},
			{Key: "approx_previous", Header: "(ε,δ) Previous [KST12] upper", Group: "(ε,δ)-DP", Kind: Upper},
			{Key: "approx_this_work", Header: "(ε,δ) This work upper", Group: "(ε,δ)-DP", Kind: Upper},
			{Key: "approx_lower", Header: "(ε,δ) Lower", Group: "(ε,δ)-DP", Kind: Lower},
		},
		Compare:    CompareColumns,
		NeedsDelta: true,
		Scale:      "excess empirical risk of the SUM loss Σᵢ ℓ(θ; dᵢ), in general units (rate × L‖C‖₂, Δ → Δ‖C‖₂/L), capped at n·L·‖C‖₂ as the caption's min(n, ·); d is the paper's p, ‖C‖₂ the diameter, Δ the strong convexity",
		Assumptions: []string{
			"ℓ(·; d) convex and L-Lipschitz on a closed convex set C of diameter ‖C‖₂; Δ-strongly convex in the strongly convex rows (so Δ ≤ 2L/‖C‖₂)",
			"neighbouring data sets replace one record (fixed n)",
			"δ < 1/n (the table's assumption); the (ε, δ) lower bounds need δ = o(1/n)",
			"log is read as ln",
		},
		Notes: []string{
			"the smooth rows have four entries in the paper; the empty cells are read as 'This work' (the previous smooth bounds are already tight)",
			"the explicit bound under 'This work, 1-Lipschitz, ε-DP' is the expectation of Thm 3.2's tail bound Pr[R ≥ (8L‖C‖₂/ε)((p+1) ln 3 + t)] ≤ e^{−t}",
		},
		Uses:     []string{"lipschitz", "diameter", "strong_convexity"},
		Validity: "n ≥ 1, d ≥ 1, ε > 0, δ ∈ (0, 1/n), Δ‖C‖₂/L ≤ 2",
		Check: func(p Params) error {
			if !(p.Delta < 1/p.N) {
				return rangeErr("delta", "must be < 1/n = %v (Table 1 assumes δ < 1/n), got %v", 1/p.N, p.Delta)
			}
			if p.StrongConvexity*p.Diameter/p.Lipschitz > 2*(1+1e-12) {
				return rangeErr("strong_convexity", "must be ≤ 2L/‖C‖₂ = %v (an L-Lipschitz, Δ-strongly convex loss on a set of diameter ‖C‖₂ has Δ ≤ 2L/‖C‖₂), got %v", 2*p.Lipschitz/p.Diameter, p.StrongConvexity)
			}
			return nil
		},
		Rows: []Row{
			{
				Key: "lipschitz", Label: "1-Lipschitz and ‖C‖₂ = 1", Source: "Thm 3.2 (ε-DP), Thm 2.4 ((ε,δ)-DP), Thms 5.2, 5.3 (lower)",
				Cells: []Cell{
					bst14Cell("p√n/ε", "[CMS11] (Chaudhuri–Monteleoni–Sarwate 2011)", 1, func(p Params, _ float64) float64 { return p.D * math.Sqrt(p.N) / p.Epsilon }),
					func() Cell {
						c := bst14Cell("p/ε", "Thm 3.2 (exponential sampling, Alg. 2)", -1, func(p Params, _ float64) float64 { return p.D / p.Epsilon })
						c.Explicit = &Explicit{
							Form:   "(8L‖C‖₂/ε)·((p+1)·ln 3 + 1)",
							Source: "Thm 3.2 tail bound, integrated",
							Note:   "E[R] = ∫₀^∞ Pr[R > r] dr with Pr[R ≥ (8L‖C‖₂/ε)((p+1) ln 3 + t)] ≤ e^{−t}",
							Eval: func(p Params) float64 { // bst14.ExpMechBound's MeanBST: the run's bound
								u, err := bst14.ExpMechBound(p.Epsilon, p.Lipschitz, p.Diameter, p.D, p.N, 0.5)
								if err != nil {
									return math.NaN()
								}
								return u.MeanBST
							},
						}
						return c
					}(),
					bst14Cell("p/ε", "Thm 5.2", -1, func(p Params, _ float64) float64 { return p.D / p.Epsilon }),
					bst14Cell("√(p·n)·log(1/δ)/ε", "[KST12] (Kifer–Smith–Thakurta 2012)", 1, func(p Params, _ float64) float64 {
						return math.Sqrt(p.D*p.N) * ln(1/p.Delta) / p.Epsilon
					}),
					bst14Cell("√p·log²(n/δ)/ε", "Thm 2.4 (noisy SGD, Alg. 1)", 1, func(p Params, _ float64) float64 {
						l := ln(p.N / p.Delta)
						return math.Sqrt(p.D) * l * l / p.Epsilon
					}),
					bst14Cell("√p/ε", "Thm 5.3", -1, func(p Params, _ float64) float64 { return math.Sqrt(p.D) / p.Epsilon }),
				},
			},
			{
				Key: "lipschitz_smooth", Label: "… and O(p)-smooth", Source: "objective perturbation [CMS11, KST12]; Thms 5.2, 5.3 (lower)",
				Cells: []Cell{
					bst14Cell("p/ε", "[CMS11]", -1, func(p Params, _ float64) float64 { return p.D / p.Epsilon }),
					bst14Empty,
					bst14Cell("p/ε", "Thm 5.2", -1, func(p Params, _ float64) float64 { return p.D / p.Epsilon }),
					bst14Cell("√p·log(1/δ)/ε", "[KST12]", -1, func(p Params, _ float64) float64 { return math.Sqrt(p.D) * ln(1/p.Delta) / p.Epsilon }),
					bst14Empty,
					bst14Cell("√p/ε", "Thm 5.3", -1, func(p Params, _ float64) float64 { return math.Sqrt(p.D) / p.Epsilon }),
				},
			},
			{
				Key: "strongly_convex", Label: "1-Lipschitz, Δ-strongly convex, ‖C‖₂ = 1 (so Δ ≤ 2)", Source: "Thm 4.3 (ε-DP), Thm 2.4 ((ε,δ)-DP), Thms 5.4, 5.5 (lower)",
				Cells: []Cell{
					bst14Cell("p²/(√n·Δ·ε²)", "[CMS11]", -1, func(p Params, dl float64) float64 { return p.D * p.D / (math.Sqrt(p.N) * dl * p.Epsilon * p.Epsilon) }),
					bst14Cell("(log(n)/Δ)·p²/(nε²)", "Thm 4.3 (localization, Alg. 4)", -1, func(p Params, dl float64) float64 {
						return ln(p.N) / dl * p.D * p.D / (p.N * p.Epsilon * p.Epsilon)
					}),
					bst14Cell("p²/(nε²)", "Thm 5.4", -1, func(p Params, _ float64) float64 { return p.D * p.D / (p.N * p.Epsilon * p.Epsilon) }),
					bst14Cell("p·log(1/δ)/(√n·Δ·ε²)", "[KST12]", -1, func(p Params, dl float64) float64 {
						return p.D * ln(1/p.Delta) / (math.Sqrt(p.N) * dl * p.Epsilon * p.Epsilon)
					}),
					bst14Cell("(log³(n/δ)/Δ)·p/(nε²)", "Thm 2.4 (noisy SGD, Alg. 1)", 0, func(p Params, dl float64) float64 {
						l := ln(p.N / p.Delta)
						return l * l * l / dl * p.D / (p.N * p.Epsilon * p.Epsilon)
					}),
					bst14Cell("p/(nε²)", "Thm 5.5", -1, func(p Params, _ float64) float64 { return p.D / (p.N * p.Epsilon * p.Epsilon) }),
				},
			},
			{
				Key: "strongly_convex_smooth", Label: "… and O(p)-smooth", Source: "objective perturbation [CMS11, KST12]; Thms 5.4, 5.5 (lower)",
				Cells: []Cell{
					bst14Cell("p²/(nΔε²)", "[CMS11]", -1, func(p Params, dl float64) float64 { return p.D * p.D / (p.N * dl * p.Epsilon * p.Epsilon) }),
					bst14Empty,
					bst14Cell("p²/(nε²)", "Thm 5.4", -1, func(p Params, _ float64) float64 { return p.D * p.D / (p.N * p.Epsilon * p.Epsilon) }),
					bst14Cell("p·log(1/δ)/(nΔε²)", "[KST12]", -1, func(p Params, dl float64) float64 {
						return p.D * ln(1/p.Delta) / (p.N * dl * p.Epsilon * p.Epsilon)
					}),
					bst14Empty,
					bst14Cell("p/(nε²)", "Thm 5.5", -1, func(p Params, _ float64) float64 { return p.D / (p.N * p.Epsilon * p.Epsilon) }),
				},
			},
		},
	}
}
