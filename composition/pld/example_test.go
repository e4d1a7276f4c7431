package pld_test

import (
	"fmt"

	"github.com/privamp/privamp/composition/pld"
)

// The ε of DP-SGD on MNIST (60,000 examples, batches of 256, noise
// multiplier 1.1, 60 epochs = 14063 steps, δ = 1e-5) by the PLD
// accountant: the sound connect-the-dots bound, and the optimistic
// (rounded-down) estimate below the exact value.
func ExampleDPSGD() {
	r, err := pld.DPSGD(256.0/60000, 1.1, 14063, 1e-5, pld.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("ε ≤ %v (optimistic estimate %v, h = %v, %s)\n", r.Epsilon, r.EpsilonOptimistic, r.Discretization, r.Method)
	// Output: ε ≤ 2.38178 (optimistic estimate 1.67857, h = 0.0001, connect-the-dots)
}

// Composing different mechanisms: 10 Gaussian releases and 5 Laplace ones.
func ExamplePLD_Compose() {
	g, _ := pld.Gaussian(1, 5, pld.Options{})
	l, _ := pld.Laplace(1, 20, pld.Options{})
	g10, _ := g.SelfCompose(10)
	l5, _ := l.SelfCompose(5)
	both, err := g10.Compose(l5)
	if err != nil {
		panic(err)
	}
	eps, _ := both.Epsilon(1e-6)
	fmt.Printf("ε ≤ %.3f at δ = 1e-6\n", eps)
	// Output: ε ≤ 2.970 at δ = 1e-6
}

// The exact Gaussian mechanism's ε is matched to the grid's resolution.
func ExampleGaussian() {
	p, _ := pld.Gaussian(1, 1, pld.Options{})
	eps, _ := p.Epsilon(1e-5)
	fmt.Printf("%.4f\n", eps)
	// Output: 4.3772
}

// Replace-one neighbours with fixed-size batches of 256 drawn without
// replacement from 60,000 (γ = b/n), the MNIST run otherwise: the provable
// replace-one pair gives a far larger ε than Poisson add/remove (2.38).
func ExampleDPSGDReplaceOne() {
	r, err := pld.DPSGDReplaceOne(256.0/60000, 1.1, 14063, 1e-5, pld.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("ε ≤ %v\n", r.Epsilon)
	// Output: ε ≤ 18.4545
}
