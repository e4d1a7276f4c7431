package rdp

import (
	"testing"

	"github.com/privamp/privamp/internal/numeric"
)

// A sum of many curves, evaluated on two goroutines, is the sequential sum
// bit for bit (the order of the additions is kept).
func TestSumParallelSameBits(t *testing.T) {
	var cs []Curve
	for i := range 3 * parallelSum {
		cs = append(cs, SampledGaussian{Q: 0.01, Z: 1 + float64(i)/200})
		if i%7 == 0 {
			cs = append(cs, Laplace{Scale: 3 + float64(i)})
		}
	}
	s := Compose(cs...)
	if _, ok := s.(*sum); !ok {
		t.Fatalf("Compose gave %T, want *sum", s)
	}
	for _, a := range []float64{1.5, 2, 3.25, 8, 32, 200} {
		var want float64
		for _, c := range cs {
			want = numeric.AddUp(want, c.Epsilon(a))
		}
		if got := s.Epsilon(a); got != want {
			t.Errorf("α = %g: parallel sum %v, sequential %v", a, got, want)
		}
	}
}
