package audit_test

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/privamp/privamp/audit"
	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
)

// Audit unprojected PNSGD on the linear loss −⟨w, x⟩, whose final iterate is
// Gaussian, so that the empirical lower bound can be set beside the exact ε.
func ExampleRun() {
	const n, d = 10, 2
	data := &dataset.Dataset{D: d, X: make([]float64, n*d), Y: make([]float64, n)}
	for i := 0; i < n; i++ {
		data.X[i*d+1] = 0.5
	}
	obj := optimizer.Objective{Loss: optimizer.LinearLoss{}}
	cfg := optimizer.Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 1 / math.Sqrt(10),
		Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.1}}, R: math.Inf(1)}

	c := audit.NewCanary(obj, data, 1, 0) // x = ±e_1 at index 1, ‖x‖ = 1
	S, Sp := c.Neighbours(data, 1)
	const delta = 0.05
	res, err := audit.Run(cfg, obj, S, Sp, c.Dir, audit.Config{Trials: 4000, Delta: delta, Confidence: 0.95, Seed: 1, Workers: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	rho, _ := optimizer.ExactRho(cfg, n, 0, 2, 1)
	exact := optimizer.GaussianShiftEpsilon(math.Sqrt(2*rho), delta)
	fmt.Printf("exact ε = %.2f; audit lower bound %.1f ≤ exact: %v\n", exact, res.Epsilon, res.Epsilon <= exact)
	// Output:
	// exact ε = 4.57; audit lower bound 3.8 ≤ exact: true
}

// Audit a training run from its canary scores: the lower bound on ε that
// the scores prove, beside the claimed ε.
func ExampleEvaluate() {
	f, err := os.Open("../examples/canary-scores.csv") // 4000 canaries, 1-GDP scores
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	c, err := audit.ReadCanaries(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	o := audit.DefaultOptions() // 95%, δ = 1e-5
	o.Upper = audit.UpperBound(0.5, o.Delta, "claimed")
	ev, err := audit.Evaluate(c, o)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d canaries: ε ≥ %s (%s), GDP μ ≥ %s\n", ev.Canaries, ev.EpsilonLower, ev.Estimator, ev.GDP.MuLower)
	fmt.Printf("claimed ε = 0.5: %v, gap %s\n", ev.Comparison.Verdict, ev.Comparison.Gap)
	// Output:
	// 4000 canaries: ε ≥ 1.11209 (threshold), GDP μ ≥ 0.671531
	// claimed ε = 0.5: VIOLATED, gap -0.612093
}

// One-run auditing from counts: Steinke, Nasr, Jagielski's (2023) Appendix D
// example, 1000 canaries, 100 guesses, 75 right, δ = 1e-4.
func ExampleOneRun() {
	b, err := audit.OneRun(1000, 100, 75, 1e-4, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("ε ≥ %.3f at 95%% confidence\n", float64(b.EpsilonLower))
	// Output:
	// ε ≥ 0.673 at 95% confidence
}

// Read member,guess canaries for one-run auditing.
func ExampleReadCanaries() {
	in := "member,guess,id\n1,1,a\n0,0,b\n1,abstain,c\n0,1,d\n"
	c, err := audit.ReadCanaries(strings.NewReader(in))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", *c.Guesses)
	_, err = audit.ReadCanaries(strings.NewReader("member,score\n1,0.3\n2,0.1\n"))
	fmt.Println(err)
	// Output:
	// {Canaries:4 Members:2 Guesses:3 Correct:2}
	// line 3: member must be 1 (in the training set) or 0 (not), got "2"
}
