package tables

import (
	"github.com/privamp/privamp/shifted"

	"fmt"
	"math"
)

// Seed 002: Feldman, Mironov, Talwar, Thakurta 2018, Table 1.

func upTo(f func(p Params) float64) func(Params) (float64, bool) {
	return func(p Params) (float64, bool) { return f(p), false }
}

func exactly(f func(p Params) float64) func(Params) (float64, bool) {
	return func(p Params) (float64, bool) { return f(p), true }
}

func ln(x float64) float64 { return math.Log(x) }

// fmtt18Explicit is Theorem 32 with Theorem 26's ln n replaced by the sound
// 1 + ln n ≥ H_n (see docs/errata.md#stop-pnsgd-theorem-26): q = max{2k(1+ln n)/n,
// 2 ln(1/δ)}, bound (4RL/√n)·√(1 + 16 d q ln(1/δ)/ε²).
func fmtt18Explicit(tasks func(Params) float64) *Explicit {
	return &Explicit{
		Form:   "(4RL/√n)·√(1 + 16·d·q·ln(1/δ)/ε²), q = max{2k(1+ln n)/n, 2 ln(1/δ)}",
		Source: "Thm 32 (Stop-PNSGD per task), with Thm 26's ln n corrected to 1 + ln n ≥ H_n",
		Note:   "the paper's q uses ln n; its privacy proof goes through Thm 26, whose last step bounds the harmonic number H_{n−t+1} by ln(n−t+1), which is false; 1 + ln n is a valid bound, so this σ and bound are the sound version",
		Eval: func(p Params) float64 {
			l := -ln(p.Delta)
			q := shifted.Thm32Q(int64(p.N), int64(tasks(p)), p.Delta)
			return 4 * p.Radius * p.Lipschitz / math.Sqrt(p.N) * math.Sqrt(1+16*p.D*q*l/(p.Epsilon*p.Epsilon))
		},
		Valid: func(p Params) error {
			if !(p.Epsilon < 1) {
				return fmt.Errorf("FMTT18 Thm 32 needs ε ∈ (0, 1), got %v", p.Epsilon)
			}
			if !(p.Delta < 0.5) {
				return fmt.Errorf("FMTT18 Thm 32 needs δ ∈ (0, 1/2), got %v", p.Delta)
			}
			return nil
		},
	}
}

var fmtt18Hidden = Hidden{Constants: true, Logs: "poly ln(1/δ)"}

func tableFMTT18() *Table {
	return &Table{
		Name:    "fmtt18",
		Aliases: []string{"seed-002", "amplification-by-iteration"},
		Title:   "Single-pass private convex optimisation: excess population loss and local privacy",
		Paper:   "Feldman, Mironov, Talwar, Thakurta 2018, Privacy Amplification by Iteration",
		Seed:    "002",
		Source:  "Table 1",
		Caption: "The excess loss corresponds to the excess population loss. Comparison for a single pass over the dataset (at most n gradient evaluations). The table hides dependence on poly ln(1/δ). (*) This bound is not stated explicitly but can be derived by setting the parameters in [9] appropriately. (**) For output perturbation, the variant that can be implemented via SGD in a single pass [43]. LDP stands for local differential privacy.",
		Columns: []Column{
			{Key: "one_task", Header: "Excess loss, one task", Group: "one task", Kind: Upper},
			{Key: "k_tasks", Header: "Excess loss, k ≤ n tasks", Group: "k tasks", Kind: Upper},
			{Key: "ldp", Header: "LDP (ε_local), one task", Group: "ldp", Kind: Info},
		},
		Compare:    CompareRows,
		NeedsDelta: true,
		Scale:      "excess population loss of an L-Lipschitz convex loss on a set of radius R; the table is normalised (L = R = 1), values are the rate times L·R",
		Assumptions: []string{
			"convex, L-Lipschitz losses over a convex body in a ball of radius R (β-smooth for the explicit Thm 32 bound, with step η = 4R/√(n(L² + dσ²)) ≤ 2/β)",
			"samples i.i.d.; one pass (at most n gradient evaluations); (ε, δ)-DP with the intermediate iterates hidden",
			"k ≤ n tasks for the k-tasks column",
		},
		Notes: []string{
			"the paper's markers (*) and (**) are lost in the text dump; by the caption, (*) belongs to 'Noisy SGD + sampling' and (**) to 'Output perturbation'",
			"the 'This work' explicit bound uses Thm 32 with ln n corrected to 1 + ln n (Thm 26 bounds a harmonic number by ln, which is false); see docs/errata.md §Stop-PNSGD Theorem 26",
		},
		Uses:     []string{"lipschitz", "radius", "tasks"},
		Validity: "n ≥ 1, d ≥ 1, ε > 0, δ ∈ (0, 1), 1 ≤ k ≤ n; explicit Thm 32 bound: ε ∈ (0, 1), δ ∈ (0, 1/2)",
		Check: func(p Params) error {
			if p.Tasks > p.N {
				return rangeErr("tasks", "must be ≤ n = %v (the table's k ≤ n tasks), got %v", p.N, p.Tasks)
			}
			return nil
		},
		Rows: []Row{
			{
				Key: "noisy_sgd_sampling", Label: "Noisy SGD + sampling", Source: "[9] (Bassily–Smith–Thakurta 2014), (*)",
				Cells: []Cell{
					{Form: "Õ(√(d/(εn)))", Hidden: fmtt18Hidden, Mark: "(*)", Source: "[9], derived per the caption", Eval: upTo(func(p Params) float64 { return p.Lipschitz * p.Radius * math.Sqrt(p.D/(p.Epsilon*p.N)) }), Monotone: -1},
					{Form: "Õ(√(d/(εn)))", Hidden: fmtt18Hidden, Mark: "(*)", Source: "[9], derived per the caption", Eval: upTo(func(p Params) float64 { return p.Lipschitz * p.Radius * math.Sqrt(p.D/(p.Epsilon*p.N)) }), Monotone: -1},
					{Form: "Õ(n)", Hidden: Hidden{Constants: true, Logs: "poly ln(1/δ)"}, Source: "[9]", Eval: upTo(func(p Params) float64 { return p.N }), Monotone: 1},
				},
			},
			{
				Key: "noisy_sgd", Label: "Noisy SGD", Source: "[16, 37]",
				Cells: []Cell{
					{Form: "Õ(√(d/(ε²n)))", Hidden: fmtt18Hidden, Source: "[16, 37]", Eval: upTo(func(p Params) float64 { return p.Lipschitz * p.Radius * math.Sqrt(p.D/(p.Epsilon*p.Epsilon*p.N)) }), Monotone: -1},
					{Form: "Õ(√(dk/(ε²n)))", Hidden: fmtt18Hidden, Source: "[16, 37]", Eval: upTo(func(p Params) float64 {
						return p.Lipschitz * p.Radius * math.Sqrt(p.D*p.Tasks/(p.Epsilon*p.Epsilon*p.N))
					}), Monotone: -1},
					{Form: "ε", Source: "[16, 37]", Note: "every step is a Gaussian mechanism on one record: local ε-DP at the table's ε", Eval: exactly(func(p Params) float64 { return p.Epsilon })},
				},
			},
			{
				Key: "output_perturbation", Label: "Output perturbation", Source: "[13, 43], (**)",
				Cells: []Cell{
					{Form: "Õ(√(d/(ε²n)))", Hidden: fmtt18Hidden, Mark: "(**)", Source: "[13, 43]", Eval: upTo(func(p Params) float64 { return p.Lipschitz * p.Radius * math.Sqrt(p.D/(p.Epsilon*p.Epsilon*p.N)) }), Monotone: -1},
					{Form: "Õ(√(dk/(ε²n)))", Hidden: fmtt18Hidden, Mark: "(**)", Source: "[13, 43]", Eval: upTo(func(p Params) float64 {
						return p.Lipschitz * p.Radius * math.Sqrt(p.D*p.Tasks/(p.Epsilon*p.Epsilon*p.N))
					}), Monotone: -1},
					{Form: "∞", Source: "[13, 43]", Note: "the unperturbed SGD iterates are released to the server: no local guarantee", Eval: exactly(func(Params) float64 { return math.Inf(1) })},
				},
			},
			{
				Key: "this_work", Label: "This work", Source: "Thm 29/30 (one task), Thm 32 (k tasks), Lemma 27 (LDP)",
				Cells: []Cell{
					{Form: "Õ(√(d/(ε²n)))", Hidden: fmtt18Hidden, Source: "Thms 29, 30, 32", Eval: upTo(func(p Params) float64 { return p.Lipschitz * p.Radius * math.Sqrt(p.D/(p.Epsilon*p.Epsilon*p.N)) }),
						Explicit: fmtt18Explicit(func(Params) float64 { return 1 }), Monotone: -1},
					{Form: "Õ(√(d/(ε²n)))", Hidden: fmtt18Hidden, Source: "Thm 32", Note: "independent of k for k ≤ n ln(1/δ)/(1 + ln n)", Eval: upTo(func(p Params) float64 { return p.Lipschitz * p.Radius * math.Sqrt(p.D/(p.Epsilon*p.Epsilon*p.N)) }),
						Explicit: fmtt18Explicit(func(p Params) float64 { return p.Tasks }), Monotone: -1},
					{Form: "ε", Source: "Lemma 27, Thm 29", Note: "local RDP 2αL²/σ² per person even if all iterates are published; the table's ε is the local ε", Eval: exactly(func(p Params) float64 { return p.Epsilon })},
				},
			},
		},
	}
}
