package audit

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
)

// BenchmarkAudit measures audit throughput (runs per second) with 1 and 2
// workers on the shipped-size problem (n = 569, d = 30).
func BenchmarkAudit(b *testing.B) {
	g, _ := dataset.NewSynthetic("logistic", 30, 1)
	data, obj := g.Sample(rand.New(rand.NewPCG(1, 1)), 569), optimizer.Objective{Loss: optimizer.Logistic{}}
	c := NewCanary(obj, data, 1, 1)
	S, Sp := c.Neighbours(data, 569)
	cfg := optimizer.Config{Training: shifted.Training{Variant: shifted.VariantPNSGD, Sigma: 1, Epochs: 1, Batch: 1, Loss: shifted.Loss{Eta: 1}}, R: 1}
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			const trials = 200
			for i := 0; i < b.N; i++ {
				if _, err := Run(cfg, obj, S, Sp, c.Dir, Config{Trials: trials, Delta: 1e-3, Confidence: 0.95, Workers: w, Seed: uint64(i)}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(2*trials*b.N)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}

// canaryCSV is a member,score file of n Gaussian canaries (μ = 1).
func canaryCSV(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 0, 24*n)
	b = append(b, "member,score\n"...)
	for i := 0; i < n; i++ {
		m := rng.IntN(2)
		s := rng.NormFloat64() + float64(m)
		b = append(b, byte('0'+m), ',')
		b = strconv.AppendFloat(b, s, 'g', 8, 64)
		b = append(b, '\n')
	}
	return b
}

// BenchmarkCanaries reads and evaluates n canary scores (the work of
// privamp audit --scores) and reports the time per file.
func BenchmarkCanaries(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		data := canaryCSV(n)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				c, err := ReadCanaries(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Evaluate(c, DefaultOptions()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("read-only/rows=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := ReadCanaries(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
