package tables

import "math"

// Seed 003: González, Guzmán, Paquette, Mirror Descent Algorithms with Nearly
// Dimension-Independent Rates for Differentially-Private Stochastic
// Saddle-Point Problems; Table 1.

// ggpEll returns ℓ = ln dx + ln dy and ℓx = ln dx (natural logs: they come
// from the entropy bound D(w, uniform) ≤ ln d).
func ggpEll(p Params) (l, lx float64) { return ln(p.DX) + ln(p.DY), ln(p.DX) }

// ggpCheck is the range every theorem of seed 003 assumes.
func ggpCheck(p Params) error {
	if lim := 8 * ln(1/p.Delta); !(p.Epsilon < lim) {
		return rangeErr("epsilon", "must be < 8 ln(1/δ) = %.6g (every theorem of the paper assumes 0 < ε < 8 log(1/δ)), got %v", lim, p.Epsilon)
	}
	if p.DX < 2 {
		return rangeErr("dx", "must be an integer ≥ 2 (a simplex with one vertex is a point), got %v", p.DX)
	}
	if p.DY < 2 {
		return rangeErr("dy", "must be an integer ≥ 2 (a simplex with one vertex is a point), got %v", p.DY)
	}
	return nil
}

var ggpHidden = Hidden{Constants: true, Logs: "polylog(n, 1/δ) and function-class parameters"}

func ggpBilinear(p Params) float64 {
	l, _ := ggpEll(p)
	return math.Sqrt(l)/math.Sqrt(p.N) + math.Sqrt(math.Pow(l, 1.5)/(p.N*p.Epsilon))
}

func ggpSSPLower(p Params) float64 {
	l, _ := ggpEll(p)
	return math.Sqrt(l/p.N) + math.Pow(l, 0.75)/math.Sqrt(p.N*p.Epsilon)
}

func ggpSCOAsi(p Params) float64 {
	_, lx := ggpEll(p)
	return math.Sqrt(lx)/math.Sqrt(p.N) + math.Pow(lx, 2.0/3)/math.Pow(p.N*p.Epsilon, 2.0/3)
}

var ggpNone = Cell{Form: "None", Note: "no previous rate"}

func tableGGP() *Table {
	ggpSSPLowerCell := Cell{
		Form: "√(log(d)/n) + log(d)^{3/4}/√(nε)", Hidden: Hidden{Constants: true}, Source: "abstract, Remark 3.2 (cited: [Bun–Ullman–Vadhan] with the resampling argument of [Bassily:2019])",
		Note: "log d is read as ℓ = ln dx + ln dy (d = dx·dy), which makes it equal to the bilinear rate marked (*) optimal; it holds already for bilinear objectives, which every SSP class here contains",
		Eval: upTo(ggpSSPLower), Monotone: -1,
	}
	return &Table{
		Name:    "ggp-l1",
		Aliases: []string{"seed-003", "saddle-point"},
		Title:   "Nearly dimension-independent rates for DP stochastic saddle points and DP-SCO in the ℓ1 setting",
		Paper:   "González, Guzmán, Paquette, Mirror Descent Algorithms with Nearly Dimension-Independent Rates for Differentially-Private Stochastic Saddle-Point Problems",
		Seed:    "003",
		Source:  "Table 1",
		Caption: "Rates derived from the paper's results. polylog(n, 1/δ) factors, function-class parameters and constants are omitted. L1-smooth = first-order-smooth, L2-smooth = second-order-smooth. ℓ = log dx + log dy and ℓx = log dx. (*): optimal up to polylog factors. (**): holds with high probability; the rest hold in expectation.",
		Columns: []Column{
			{Key: "previous", Header: "Previous best-known rate", Group: "", Kind: Upper},
			{Key: "ours", Header: "Our rate", Group: "", Kind: Upper},
			{Key: "lower", Header: "Lower bound (not in Table 1: abstract, Remark 3.2; (*) rates)", Group: "", Kind: Lower, Added: true},
		},
		Compare:    CompareColumns,
		NeedsDelta: true,
		Scale:      "SSP rows: expected duality gap; SCO rows: expected excess risk; on simplices of dimension dx, dy (ℓ = ln dx + ln dy, ℓx = ln dx); dimensionless (function-class parameters L0, L1, L2 omitted)",
		Assumptions: []string{
			"0 < δ < 1 and 0 < ε < 8 log(1/δ) (every theorem of the paper)",
			"n i.i.d. samples; neighbouring data sets replace one element; (ε, δ)-DP",
			"ℓ1 setting on the simplices Δx ⊂ ℝ^dx, Δy ⊂ ℝ^dy; L0-Lipschitz and L1-smooth w.r.t. ‖·‖₁ (first-order-smooth), plus L2-smooth partials (second-order-smooth)",
		},
		Notes: []string{
			"the table omits the √(ln(1/δ)) inside Thm 3.1's brackets; the rates are evaluated exactly as printed",
			"Thm 3.1 (6) (second-order-smooth, rate exponent 2/5 with Algorithm 1, in expectation) is not in the table",
			"the abstract states the L2-smooth SSP rate as √(log d/n) + log d/√(nε), the table ℓ/√n + (ℓ²/(nε))^{1/2}; the table's form is evaluated",
		},
		Uses:     []string{"dx", "dy"},
		Validity: "n ≥ 1, dx, dy ≥ 2, δ ∈ (0, 1), 0 < ε < 8 ln(1/δ)",
		Check:    ggpCheck,
		Rows: []Row{
			{
				Key: "ssp_bilinear", Label: "SSP, Bilinear", Source: "Thm 3.1 (7); previous: [Hardt:2010]",
				Cells: []Cell{
					{Form: "√ℓ/√n + (ℓ^{3/2}/(nε))^{1/2}", Mark: "(*)", Hidden: ggpHidden, Source: "[Hardt:2010]", Eval: upTo(ggpBilinear), Monotone: -1},
					{Form: "√ℓ/√n + (ℓ^{3/2}/(nε))^{1/2}", Mark: "(*)", Hidden: ggpHidden, Source: "Thm 3.1", Eval: upTo(ggpBilinear), Monotone: -1},
					ggpSSPLowerCell,
				},
			},
			{
				Key: "ssp_quadratic", Label: "SSP, Quadratic", Source: "Thm 3.1 (7)",
				Cells: []Cell{
					ggpNone,
					{Form: "√ℓ/√n + (ℓ^{3/2}/(nε))^{1/2}", Mark: "(*)", Hidden: ggpHidden, Source: "Thm 3.1", Eval: upTo(ggpBilinear), Monotone: -1},
					ggpSSPLowerCell,
				},
			},
			{
				Key: "ssp_l2_smooth", Label: "SSP, L2-smooth", Source: "Thm 3.14 (Algorithm 3, bias-reduced)",
				Cells: []Cell{
					ggpNone,
					{Form: "ℓ/√n + (ℓ²/(nε))^{1/2}", Mark: "(**)", Hidden: ggpHidden, Source: "Thm 3.14", Note: "holds with probability 0.99", Eval: upTo(func(p Params) float64 {
						l, _ := ggpEll(p)
						return l/math.Sqrt(p.N) + math.Sqrt(l*l/(p.N*p.Epsilon))
					}), Monotone: -1},
					ggpSSPLowerCell,
				},
			},
			{
				Key: "ssp_l1_smooth", Label: "SSP, L1-smooth", Source: "Thm 3.1 (5)",
				Cells: []Cell{
					ggpNone,
					{Form: "√ℓ/√n + (ℓ^{3/2}/(nε))^{1/3}", Hidden: ggpHidden, Source: "Thm 3.1", Eval: upTo(func(p Params) float64 {
						l, _ := ggpEll(p)
						return math.Sqrt(l)/math.Sqrt(p.N) + math.Cbrt(math.Pow(l, 1.5)/(p.N*p.Epsilon))
					}), Monotone: -1},
					ggpSSPLowerCell,
				},
			},
			{
				Key: "sco_l2_smooth", Label: "SCO, L2-smooth", Source: "Thm 4.2 (Algorithm 5)",
				Cells: []Cell{
					ggpNone,
					{Form: "√ℓx/√n + ℓx/√(nε)", Hidden: ggpHidden, Source: "Thm 4.2", Eval: upTo(func(p Params) float64 {
						_, lx := ggpEll(p)
						return math.Sqrt(lx)/math.Sqrt(p.N) + lx/math.Sqrt(p.N*p.Epsilon)
					}), Monotone: -1},
					{Form: "—", Note: "no lower bound stated for this class"},
				},
			},
			{
				Key: "sco_l1_smooth", Label: "SCO, L1-smooth", Source: "Thm 4.2 (Algorithm 5); previous: [asi2021private]",
				Cells: []Cell{
					{Form: "√ℓx/√n + ℓx^{2/3}/(nε)^{2/3}", Mark: "(*)", Hidden: ggpHidden, Source: "[asi2021private] (Asi, Feldman, Koren, Talwar 2021)", Eval: upTo(ggpSCOAsi), Monotone: -1},
					{Form: "√ℓx/√n + ℓx^{7/10}/(nε)^{2/5}", Hidden: ggpHidden, Source: "Thm 4.2", Eval: upTo(func(p Params) float64 {
						_, lx := ggpEll(p)
						return math.Sqrt(lx)/math.Sqrt(p.N) + math.Pow(lx, 0.7)/math.Pow(p.N*p.Epsilon, 0.4)
					}), Monotone: -1},
					{Form: "√ℓx/√n + ℓx^{2/3}/(nε)^{2/3}", Hidden: Hidden{Constants: true, Logs: "polylog factors"}, Source: "(*) on [asi2021private]: optimal up to polylog", Note: "the previous rate is marked optimal, so it is the lower bound up to polylog factors", Eval: upTo(ggpSCOAsi), Monotone: -1},
				},
			},
		},
	}
}
