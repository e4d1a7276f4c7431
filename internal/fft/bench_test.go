package fft

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// BenchmarkForwardInverse compares one forward and one inverse transform
// with gonum's FFTPACK at the same power-of-two lengths. Run with
// -count 5 and compare medians (see BENCHMARKS.md).
func BenchmarkForwardInverse(b *testing.B) {
	for _, lg := range []int{14, 16, 18, 20, 21} {
		n := 1 << lg
		x := make([]float64, n)
		r := rand.New(rand.NewPCG(1, 2))
		for i := range x {
			x[i] = r.Float64()
		}
		c := make([]complex128, n/2+1)
		y := make([]float64, n)
		b.Run(fmt.Sprintf("n=2^%d/impl=fft", lg), func(b *testing.B) {
			t := New(n)
			for b.Loop() {
				t.Coefficients(c, x)
				t.Sequence(y, c)
			}
		})
		b.Run(fmt.Sprintf("n=2^%d/impl=gonum", lg), func(b *testing.B) {
			t := fourier.NewFFT(n)
			for b.Loop() {
				t.Coefficients(c, x)
				t.Sequence(y, c)
			}
		})
	}
}
