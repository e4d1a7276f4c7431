package fft

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

func TestAgainstGonum(t *testing.T) {
	for lg := 1; lg <= 12; lg++ {
		n := 1 << lg
		x := make([]float64, n)
		r := rand.New(rand.NewPCG(uint64(lg), 2))
		for i := range x {
			x[i] = r.NormFloat64()
		}
		g := fourier.NewFFT(n)
		want := g.Coefficients(nil, x)
		f := New(n)
		got := f.Coefficients(nil, x)
		d := 0.0
		for k := range want {
			d = math.Max(d, cmplx.Abs(got[k]-want[k]))
		}
		y := f.Sequence(nil, got)
		yw := g.Sequence(nil, want)
		e := 0.0
		for i := range y {
			e = math.Max(e, math.Abs(y[i]-yw[i]))
		}
		if d > 1e-12*float64(n) || e > 1e-12*float64(n*n) {
			t.Errorf("n=%d: coeff diff %g, seq diff %g", n, d, e)
		}
	}
}
