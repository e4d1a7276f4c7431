package rdp

import (
	"sync"
	"testing"

	"github.com/privamp/privamp/dp"
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

// An accountant with Progress reports a long composition's orders from 1
// to total, never backwards from the listener's view (it keeps the
// largest), ends at done = total, and gives the same ε as without it. A
// short composition reports nothing.
func TestAccountProgressOnLongSums(t *testing.T) {
	var evs []dp.Event
	for i := range parallelSum + 6 {
		evs = append(evs, dp.PoissonSampled{SamplingProbability: 0.01, Event: dp.Gaussian{NoiseMultiplier: 1 + float64(i)/100}})
	}
	long := dp.Composed{Events: evs}
	plain, err := Accountant{}.Account(long, dp.AddRemove, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	var calls, first, last, total int64
	var mu sync.Mutex
	a := Accountant{Progress: func(done, tot int64) {
		mu.Lock()
		defer mu.Unlock()
		if calls == 0 {
			first = done
		}
		calls++
		last, total = max(last, done), tot
	}}
	got, err := a.Account(long, dp.AddRemove, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	if got != plain {
		t.Errorf("with progress %+v, without %+v", got, plain)
	}
	if calls < 100 || first != 1 || last != total || total <= 0 {
		t.Errorf("progress: %d calls, first %d, last %d of %d; want >= 100 calls from 1 to total", calls, first, last, total)
	}
	calls = 0
	if _, err := a.Account(dp.Composed{Events: evs[:3]}, dp.AddRemove, 1e-6); err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("a short composition reported progress %d times", calls)
	}
}
