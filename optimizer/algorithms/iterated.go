package algorithms

import (
	"fmt"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/optimizer/bst14"
)

func init() {
	Register(Algorithm{
		Name:    "iterated-expmech",
		Source:  "seed 000: Ganesh–Thakurta–Upadhyay, Algorithm 1 (flag = 1, ERM), Thm 4.2 (pure ε-DP, Σεᵢ; c a utility parameter); seed 001 Algorithm 2's exact sampler (dimension 1 or 2, l2 > 0)",
		Summary: "iterated exponential mechanism: k rounds at εᵢ = ε/2^(k−i+1), each sampling exactly from C ∩ B(θᵢ₋₁, rᵢ₋₁), the radii from declared constants",
		Params:  func() any { return &bst14.IteratedParams{TargetEpsilon: 1, Common: bst14.Common{Seed: 1}} },
		Run:     runIterated,
	})
}

func runIterated(in Input, params any) (*Report, error) {
	in, notes := withExactDimension(in)
	in, n2 := withL2(in)
	res, err := bst14.RunIterated(bst14Spec(in), *params.(*bst14.IteratedParams))
	if err != nil {
		return nil, err
	}
	r := &Report{Title: fmt.Sprintf("privamp run: iterated-expmech on %s, %s loss", res.Description, res.Declared.Loss),
		Checks: res.Checks, OK: res.OK, Result: res, Assumptions: res.Assumptions, Notes: append(append(notes, n2...), res.Notes...)}
	r.AddVerdict("checks of the run against the bound on its mean and the data-free output θ = 0")
	r.Add("records n, dimension p", fmt.Sprintf("%d, %d", res.N, res.Dimension), Given, res.Description)
	r.Add("Lipschitz L, strong convexity m", fmt.Sprintf("%.6g, %g", res.Lipschitz, res.StrongConvexity), Derived, "from the declared bounds; m = l2")
	r.Add("rounds k", len(res.Rounds), Derived, res.RoundsSource)
	c := "0 (the radius from BST14 Thm 3.2's tail)"
	if res.C > 0 {
		c = fmt.Sprint(res.C)
	}
	r.Add("radius constant c", c, Given, "unspecified in the paper: a utility parameter, the privacy does not depend on it")
	for i, rd := range res.Rounds {
		r.Add(fmt.Sprintf("round %d: εᵢ, ‖Cᵢ₋₁‖₂, radius rᵢ", i+1), fmt.Sprintf("%g, %.6g, %.6g", rd.Epsilon, rd.Diameter, rd.Radius), Derived, res.RadiusSource)
	}
	r.Add("ε (pure)", res.Epsilon, Certified, bst14.IteratedSource)
	inside := 0
	for _, rd := range res.Rounds {
		if rd.Contained {
			inside++
		}
	}
	r.Add("rounds whose set held θ*", fmt.Sprintf("%d of %d", inside, len(res.Rounds)), Measured, "the exact minimiser on C (non-private)")
	r.Add("excess empirical risk (sum Σℓ)", dp.Num(res.Measured.Sum), Measured, "")
	r.Add("excess empirical risk (average)", dp.Num(res.Measured.Average), Measured, "")
	r.Add("Thm 3.2 mean bound of the last round (sum)", dp.Num(res.Bound), Derived, "(8L‖C_{k−1}‖₂/ε_k)((p+1) ln 3 + 1)")
	r.Add("paper's rate Thm 4.2 L²(p² + p ln n)/(ε²n²m) (average)", fmt.Sprintf("%.6g × an unknown constant", res.PaperRate), Derived, "O(·) in the paper: its constant is not given")
	r.Add("trivial bound nL‖C‖₂ (sum)", dp.Num(res.Trivial), Derived, "every θ ∈ C")
	sayWorse(r, res.N, "", nil, 0, "its explicit bound (Thm 3.2 on the last set) holds only when every round's set holds θ*, which the unspecified c does not ensure, and Thm 4.2's rate has no constants")
	return r, nil
}
