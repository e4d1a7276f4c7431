package tables_test

import (
	"fmt"

	"github.com/privamp/privamp/tables"
)

func ExampleTable_Evaluate() {
	t, _ := tables.Lookup("ggp-l1")
	ev, err := t.Evaluate(tables.Params{N: 1e5, D: 1000, Epsilon: 1, Delta: 1e-5})
	if err != nil {
		fmt.Println(err)
		return
	}
	v := ev.Values[0][1] // SSP, bilinear, "Our rate"
	fmt.Printf("%s = %.4f (%s)\n", t.Rows[0].Cells[1].Form, v.Value, v.Label)
	fmt.Println(ev.Best[0].Summary)
	// Output:
	// √ℓ/√n + (ℓ^{3/2}/(nε))^{1/2} = 0.0344 (up to constants and polylog(n, 1/δ) and function-class parameters)
	// SSP, Bilinear: best upper bound "Previous best-known rate" = 0.0344147; gap to the lower bound 0.0344147: ×1
}

func ExampleTable_Evaluate_refused() {
	t, _ := tables.Lookup("bst14")
	_, err := t.Evaluate(tables.Params{N: 1000, D: 10, Epsilon: 1, Delta: 0.01})
	fmt.Println(err)
	// Output:
	// delta must be < 1/n = 0.001 (Table 1 assumes δ < 1/n), got 0.01
}

func ExampleLangevinBetaFor() {
	// Seed 000, Lemma 3.1: T = 1000 steps of size η = 0.01, Δ = 0.01.
	inv, _ := tables.LangevinBetaFor(1, 1e-5, 0.01, 1000*0.01)
	fmt.Printf("paper's β = %.4f gives ε = %.4f (classic conversion)\n", inv.BetaPaper, inv.PaperEpsilonClassic)
	fmt.Printf("exact β for ε = 1: %.4f (classic), %.4f (improved)\n", inv.BetaClassic, inv.BetaImproved)
	// Output:
	// paper's β = 18.6396 gives ε = 2.0869 (classic conversion)
	// exact β for ε = 1: 9.1258 (classic), 11.0556 (improved)
}

func ExampleStrongComposition() {
	r, _ := tables.StrongComposition(1, 10, 1e-5)
	fmt.Printf("strong %.4f, basic %.0f: best %.0f (basic: %v)\n", r.Strong, r.Basic, r.Best, r.BestIsBasic)
	// Output:
	// strong 32.3571, basic 10: best 10 (basic: true)
}

func ExampleFullyAdaptiveStep() {
	r, _ := tables.FullyAdaptiveStep(1, 100, 1e-5)
	fmt.Printf("exact ε₀ = %.6f, Cor. 3.6 ε₀ = %.6f spends ε = %.4f\n", r.StepExact, r.StepPaper, r.TotalAtPaperStep)
	// Output:
	// exact ε₀ = 0.020406, Cor. 3.6 ε₀ = 0.010420 spends ε = 0.5054
}

func ExampleClippedMean() {
	// k = 4 moments, r_4 = 3.78, r_2 = 2, batch 1000, ρ = 0.5, d = 100; τ = 0 picks τ*.
	r, _ := tables.ClippedMean(4, 3.78, 2, 0, 1000, 0.5, 100)
	fmt.Printf("τ* = %.4f: bias ≤ %.2e, MSE ≤ %.2e\n", r.TauOpt, r.BiasOpt, r.MSEOpt)
	// Output:
	// τ* = 8.7618: bias ≤ 1.01e-01, MSE ≤ 4.49e-02
}

func ExampleOutputPerturbation() {
	r, _ := tables.OutputPerturbation(0.5, 1e-5, 1, 1, 1000, 10)
	fmt.Printf("sensitivity %.4f; paper σ₀ %.5f gives ε = %.4f; exact σ %.5f\n", r.Sensitivity, r.PaperSigma, r.PaperSigmaEpsilon, r.AnalyticSigma)
	// Output:
	// sensitivity 0.0020; paper σ₀ 0.01357 gives ε = 0.5198; exact σ 0.01406
}
