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

// BenchmarkWorkload compares gonum at the 2^a·3^b·5^c lengths that
// composition/pld chose most often under go test -short ./composition/...
// (and the MNIST example: 87480, 691200) with this FFT at the next power of
// two, the length composition/pld now uses.
func BenchmarkWorkload(b *testing.B) {
	for _, n := range []int{57600, 87480, 135000, 202500, 300000, 691200} {
		p := 1
		for p < n {
			p <<= 1
		}
		b.Run(fmt.Sprintf("n=%d/impl=gonum", n), func(b *testing.B) {
			x, c := make([]float64, n), make([]complex128, n/2+1)
			for i := range x {
				x[i] = 1 / float64(i+1)
			}
			t := fourier.NewFFT(n)
			for b.Loop() {
				t.Coefficients(c, x)
				t.Sequence(x, c)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=fft-%d", n, p), func(b *testing.B) {
			x, c := make([]float64, p), make([]complex128, p/2+1)
			for i := range x {
				x[i] = 1 / float64(i+1)
			}
			t := New(p)
			for b.Loop() {
				t.Coefficients(c, x)
				t.Sequence(x, c)
			}
		})
	}
}
