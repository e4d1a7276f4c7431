package dp

import (
	"math/rand/v2"
	"testing"
)

// A fixed-size rate is written as a fraction whose quotient is the rate
// itself, or (where none is small enough) one above it: never below.
func TestFraction(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(q float64) {
		m, n := fraction(q)
		r := SampledWithoutReplacement{SourceDatasetSize: n, SampleSize: m}.Rate()
		if m < 1 || m > n || n > fixedSizeDenominator || r < q {
			t.Fatalf("q = %v: %d/%d = %v", q, m, n, r)
		}
	}
	for _, q := range []float64{1, 0.5, 0.01, 256.0 / 60000, 1e-12, 0.1 + 0.2 - 0.2, 5e-324, 1 - 1e-16} {
		check(q)
	}
	for i := 0; i < 5000; i++ {
		n := rng.Int64N(1e12) + 1
		b := rng.Int64N(n) + 1
		q := float64(b) / float64(n)
		m, d := fraction(q)
		if float64(m)/float64(d) != q {
			t.Fatalf("%d/%d: %d/%d", b, n, m, d)
		}
		check(rng.Float64())
	}
}
