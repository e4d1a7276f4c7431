package langevin

import (
	"fmt"
	"math"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/optimizer"
)

// benchN is the number of records: each Langevin step is a full-batch
// gradient, n·d multiply-adds, against d normal draws for the noise.
const benchN = 256

// BenchmarkStep measures Langevin steps per second (full-batch logistic
// gradient + ℓ2, N(0, 2ηI) noise, projection) for d = 10, 100, 1000.
func BenchmarkStep(b *testing.B) {
	for _, d := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			g, _ := dataset.NewSynthetic("logistic", d, 1)
			data := g.Sample(dataset.NewRand(1), benchN)
			ch := newChain(optimizer.Objective{Loss: optimizer.Logistic{}, L2: 0.1}, data, 10, 0.01, 5)
			rng := dataset.NewRand(2)
			w, xi := make([]float64, d), make([]float64, d)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ch.drawNoise(rng, xi)
				ch.step(w, xi)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
			if math.IsNaN(w[0]) {
				b.Fatal("NaN")
			}
		})
	}
}

// BenchmarkNoiseFloor draws the noise alone (d normals per step from the
// same generator, added to a vector): the floor for any step.
func BenchmarkNoiseFloor(b *testing.B) {
	for _, d := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			ch := &chain{s: math.Sqrt(0.02)}
			rng := dataset.NewRand(2)
			w, xi := make([]float64, d), make([]float64, d)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ch.drawNoise(rng, xi)
				for j := range w {
					w[j] += xi[j]
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
			if math.IsNaN(w[0]) {
				b.Fatal("NaN")
			}
		})
	}
}
