package bst14

import (
	"testing"

	"github.com/privamp/privamp/dataset"
)

// BenchmarkSGD: n² = 250000 one-record steps on n = 500, p = 10 at a given σ.
func BenchmarkSGD(b *testing.B) {
	pr := problem(b, synth(500, 10, 0))
	for b.Loop() {
		sgdPath(pr, 250000, 100, RuleLipschitz, region{R: pr.Declared.Radius}, nil, dataset.NewRand(1), nil)
	}
}

// BenchmarkExpMechSampler2D: building the envelope (n = 500, ε = 1) and one
// exact draw.
func BenchmarkExpMechSampler2D(b *testing.B) {
	pr := problem(b, synth(500, 2, 0))
	temp := 1 / (2 * pr.Constants.L * 2)
	for b.Loop() {
		s, err := newSampler(pr, region{R: 1}, temp)
		if err != nil {
			b.Fatal(err)
		}
		s.draw(dataset.NewRand(1))
	}
}

// BenchmarkOutputSolver: the certified solver (Newton–CG, then projected
// gradient steps to distance 1e-9) on n = 500, p = 10, Δ = 0.01.
func BenchmarkOutputSolver(b *testing.B) {
	pr := problem(b, synth(500, 10, 0.01))
	for b.Loop() {
		solve(pr, 1e-9)
	}
}
