package shifted_test

import (
	"fmt"
	"strings"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// A person whose record is used at step 1 000 of a 10⁶-step noisy iteration
// with contracting maps: the engine finds the optimal shift allocation.
func ExampleSolve() {
	var sch shifted.Schedule
	step := shifted.Step{Variance: 0.01, Contraction: 1}
	sch = sch.Append(step, 999)
	sch = sch.Append(shifted.Step{Variance: 0.01, Contraction: 1, Sensitivity: 0.2}, 1)
	sch = sch.Append(step, 999_000)
	sol, err := shifted.Solve(sch)
	if err != nil {
		panic(err)
	}
	eps, _ := sol.Epsilon(1e-6, rdp.Improved)
	fmt.Printf("K = %.6g (Thm 23: %.6g)\n", sol.K, 0.2*0.2/(2*0.01*999_001))
	fmt.Printf("ε(δ = 1e-6) = %.4f\n", eps)
	fmt.Printf("segments: %d, shift at step 1000: %.3g\n", len(sol.Segments), sol.Shift(1000))
	// Output:
	// K = 2.002e-06 (Thm 23: 2.002e-06)
	// ε(δ = 1e-6) = 0.0066
	// segments: 2, shift at step 1000: 2e-07
}

// Per-person (ε, δ) of PNSGD (FMTT18 Thm 23): early records are protected by
// the noise of all later steps.
func ExampleSGD() {
	g := shifted.SGD{N: 1_000_000, Sigma: 2, Loss: shifted.Loss{Lipschitz: 1}}
	for _, t := range []int64{1, 500_000, 999_000, 1_000_000} {
		dp, _ := shifted.Epsilon(g, t, 1e-6, rdp.Improved)
		fmt.Printf("index %7d: ρ = %.3g, ε = %.4f\n", t, g.Rho(t), dp.Epsilon)
	}
	// Output:
	// index       1: ρ = 5e-07, ε = 0.0031
	// index  500000: ρ = 1e-06, ε = 0.0045
	// index  999000: ρ = 0.0005, ε = 0.1265
	// index 1000000: ρ = 0.5, ε = 5.2215
}

// The distribution of ε_t over a billion records, from monotonicity in t.
func ExampleSummarize() {
	g := shifted.Skip{N: 1_000_000_000, Sigma: 5, Loss: shifted.Loss{Lipschitz: 1}}
	s, _ := shifted.Summarize(g, 1e-9, rdp.Improved, 0.01)
	fmt.Printf("best index %d: ε = %.3g\n", s.Best.Index, s.Best.Epsilon)
	fmt.Printf("median index %d: ε = %.3g\n", s.Median().Index, s.Median().Epsilon)
	fmt.Printf("worst index %d: ε = %.3g\n", s.Worst.Index, s.Worst.Epsilon)
	fmt.Printf("%.4f%% of the records have ε ≤ 0.01\n", 100*s.ShareUnder)
	// Output:
	// best index 1: ε = 1.42e-05
	// median index 500000000: ε = 6.89e-05
	// worst index 1000000000: ε = 2.41
	// 99.9962% of the records have ε ≤ 0.01
}

// Amplification by iteration against amplification by sampling (FMTT18 Table 1).
func ExampleCompare() {
	run := shifted.SGD{N: 100_000, Sigma: 4, Loss: shifted.Loss{Lipschitz: 1}}
	c, _ := shifted.Compare(run, 1e-5, rdp.Improved)
	fmt.Printf("iteration: median ε = %.4f, worst ε = %.4f\n", c.Iteration.Median().Epsilon, c.Iteration.Worst.Epsilon)
	fmt.Printf("sampling (replace-one): ε = %.4f; iteration wins for %.1f%% of the records\n",
		c.SamplingReplaceOne.Epsilon, 100*float64(c.IterationWins)/float64(run.N))
	// Output:
	// iteration: median ε = 0.0058, worst ε = 2.1657
	// sampling (replace-one): ε = 0.0162; iteration wins for 92.0% of the records
}

func ExampleParseSchedule() {
	sch, err := shifted.ParseSchedule(strings.NewReader(`{
	  "variance": 0.01,
	  "steps": [{"count": 99}, {"sensitivity": 0.2}, {"count": 900}]
	}`))
	if err != nil {
		panic(err)
	}
	sol, _ := shifted.Solve(sch)
	fmt.Printf("%d steps in %d runs, K = %.4g\n", sch.Len(), len(sch), sol.K)
	// Output:
	// 1000 steps in 3 runs, K = 0.00222
}

// Stop-PNSGD at order α = 2: the exact mixture over the stopping time, the
// repaired form of Thm 26's argument (Lemma 25 with the actual c), the sum
// the proof reaches before its last step, 4αL²H_n/(nσ²), and the claimed
// 4αL² ln n/(nσ²), which is below that sum: the last step is wrong.
func ExampleStop() {
	s := shifted.Stop{N: 10_000, Sigma: 4, Loss: shifted.Loss{Lipschitz: 1}}
	const a = 2.0
	hn := 0.0
	for j := 1; j <= 10_000; j++ {
		hn += 1 / float64(j)
	}
	fmt.Printf("exact mixture      %.4g\n", s.Curve(1).Epsilon(a))
	fmt.Printf("Lemma 25, actual c %.4g\n", s.HarmonicCurve(1).Epsilon(a))
	fmt.Printf("proof's sum        %.4g\n", 4*a*hn/(10_000*16))
	fmt.Printf("paper's claim      %.4g (not sound)\n", a*s.PaperClaimRho())
	dp, _ := shifted.Epsilon(s, 1, 1e-6, rdp.Improved)
	fmt.Printf("(ε, δ = 1e-6) at index 1: ε = %.4f at α = %.3g\n", dp.Epsilon, dp.Order)
	// Output:
	// exact mixture      0.0002501
	// Lemma 25, actual c 0.0003059
	// proof's sum        0.0004894
	// paper's claim      0.0004605 (not sound)
	// (ε, δ = 1e-6) at index 1: ε = 1.3946 at α = 9.44
}
