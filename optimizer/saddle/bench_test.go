package saddle

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSMDSteps measures Algorithm 1's steps per second on the shape of
// the shipped-data game (60 × 4, batch 8, K = 1) and a larger synthetic one.
func BenchmarkSMDSteps(b *testing.B) {
	for _, c := range []struct {
		name            string
		n, dx, dy, T, K int
	}{{"60x4-B8-K1", 569, 60, 4, 71, 1}, {"100x50-B3-K10", 3000, 100, 50, 1000, 10}} {
		g, err := SyntheticGame(c.n, c.dx, c.dy, 0.5, 1)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			for b.Loop() {
				RunSMD(g, c.T, c.K, 0.05, rng)
			}
			b.ReportMetric(float64(c.T)*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkSCOSteps measures Algorithm 5's steps per second on the shape of
// the shipped-data instance (d = 62, B = 14, K = 13, q = 3) and the
// synthetic one (d = 20, B = 10, K = 77, q = 26).
func BenchmarkSCOSteps(b *testing.B) {
	for _, c := range []struct {
		name          string
		n, d, T, K, q int
	}{{"d62-B14-K13", 569, 62, 40, 13, 3}, {"d20-B10-K77", 20000, 20, 1967, 77, 26}} {
		p, err := SyntheticSCO(c.n, c.d, 0.5, 1)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			for b.Loop() {
				RunSCO(p, c.T, c.K, c.q, 0.01, rng)
			}
			b.ReportMetric(float64(c.T)*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
