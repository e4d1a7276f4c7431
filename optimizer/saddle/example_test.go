package saddle_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/privamp/privamp/optimizer/saddle"
)

// The exact duality gap and the LP value of rock-paper-scissors.
func ExampleGame_Gap() {
	g := &saddle.Game{DX: 3, DY: 3, Mean: []float64{0, 1, -1, -1, 0, 1, 1, -1, 0}}
	third := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	rock := []float64{1, 0, 0}
	e, _ := g.Solve()
	fmt.Printf("gap(uniform, uniform) = %.3f\n", g.Gap(third, third))
	fmt.Printf("gap(rock, uniform) = %.3f\n", g.Gap(rock, third))
	fmt.Printf("value = %.3f\n", e.Value)
	// Output:
	// gap(uniform, uniform) = 0.000
	// gap(rock, uniform) = 1.000
	// value = 0.000
}

// Prop. 3.3's accounting of Algorithm 1: the step size a target (ε, δ)
// allows, the paper's sufficient one, and what each spends.
func ExampleSMDPrivacy() {
	n, T, K, a, delta := 100000, 1000, 1, 1.0, 1e-5
	tau, _ := saddle.SMDMaxStep(n, T, K, a, 1, delta)
	paper, _ := saddle.PaperSMDStep(n, T, K, a, 1, delta)
	p, _ := saddle.SMDPrivacy(n, T, K, a, tau, delta)
	q, _ := saddle.SMDPrivacy(n, T, K, a, paper, delta)
	fmt.Printf("exact τ = %.5f (ε = %.4f), Prop. 3.3's τ = %.5f (ε = %.4f), k = %d vertices\n", tau, p.Epsilon, paper, q.Epsilon, p.Samples)
	// Output:
	// exact τ = 0.08066 (ε = 1.0000), Prop. 3.3's τ = 0.04119 (ε = 0.5054), k = 4000 vertices
}

// One run of Algorithm 1 on a synthetic game: the released point is the
// mean of T vertices.
func ExampleRunSMD() {
	g, _ := saddle.SyntheticGame(2000, 30, 10, 0.5, 1)
	T := 200
	xt, yt, _, _ := saddle.RunSMD(g, T, 1, 0.05, rand.New(rand.NewPCG(1, 1)))
	nz := 0
	for _, v := range append(xt, yt...) {
		if v != 0 {
			nz++
		}
	}
	fmt.Println("nonzeros ≤ 2T:", nz <= 2*T, "gap < 0.5:", g.Gap(xt, yt) < 0.5)
	// Output:
	// nonzeros ≤ 2T: true gap < 0.5: true
}

// Algorithm 5's certificate (Prop. 4.3) at Thm 4.2's setting for n = 20000
// records on Δ20 at ε = 1, δ = 1e-5.
func ExampleSCOPrivacy() {
	n, d, eps, delta := 20000, 20, 1.0, 1e-5
	T, q, K := saddle.SCOPlan(n, d, eps, delta)
	tau, _ := saddle.SCOMaxStep(n, T, K, q, 2.5, eps, delta)
	p, _ := saddle.SCOPrivacy(n, T, K, q, 2.5, tau, delta)
	fmt.Printf("T = %d, q = %d, K = %d, k = %d, τ = %.5f, ε = %.4f\n", T, q, K, p.Samples, tau, p.Epsilon)
	// Output:
	// T = 1967, q = 26, K = 77, k = 7777, τ = 0.00231, ε = 1.0000
}
