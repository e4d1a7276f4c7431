package clipped

import (
	"math/rand/v2"
	"testing"
)

func benchPlan(b *testing.B, name string) {
	h, _ := NewHeavyTailed(10, 3, 1, 1, 1)
	data := h.Sample(rand.New(rand.NewPCG(1, 1)), 100_000)
	p, err := planFor(name, Moments{K: 2.5, RK: h.MomentBound(2.5, 2), R2: h.SecondMoment(2)}, 100_000, 10, 2, 0.03)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	for b.Loop() {
		if _, err := Execute(p, h.Objective(), data, rng); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(p.GradientEvaluations), "grads/op")
}

// n = 100000, d = 10, ρ = 0.03.
func BenchmarkACSA(b *testing.B) { benchPlan(b, ACSA) }
func BenchmarkSGD(b *testing.B)  { benchPlan(b, SGD) }
func BenchmarkERM(b *testing.B)  { benchPlan(b, ERM) }

// The default comparison at one ε: four methods, 20 repeats, n = 2000.
func BenchmarkCompare(b *testing.B) {
	s := DefaultCompareSpec()
	s.Epsilons = []float64{1}
	for b.Loop() {
		if _, err := Compare(s); err != nil {
			b.Fatal(err)
		}
	}
}
