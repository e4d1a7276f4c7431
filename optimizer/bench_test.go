package optimizer

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/shifted"
)

// benchDims are the dimensions of the speed target.
var benchDims = []int{10, 100, 1000, 10000}

func benchData(d int) (*dataset.Dataset, Objective) {
	n := 256
	g, _ := dataset.NewSynthetic("logistic", d, 1)
	return g.Sample(rand.New(rand.NewPCG(1, 1)), n), objectiveOf(g)
}

// BenchmarkPNSGD measures PNSGD steps per second (one example per step,
// logistic loss, projection on a ball).
func BenchmarkPNSGD(b *testing.B) {
	for _, d := range benchDims {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			data, obj := benchData(d)
			r, _ := NewRunner(Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 1, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 0.1}}, R: 1}, obj, data)
			n := data.N()
			b.ResetTimer()
			steps := 0
			for i := 0; steps < b.N; i++ {
				r.Run(uint64(i))
				steps += n
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(steps), "ns/step")
		})
	}
}

// BenchmarkNoiseFloor draws the same Gaussian noise as PNSGD (d normals per
// step from the same PCG generator) and adds it to a vector: the floor for
// the algorithm.
func BenchmarkNoiseFloor(b *testing.B) {
	for _, d := range benchDims {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			w := make([]float64, d)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range w {
					w[j] += 0.1 * rng.NormFloat64()
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N), "ns/step")
			if w[0] == 42 {
				b.Log(w[0])
			}
		})
	}
}
