package composition

import (
	"fmt"
	"math"
	"testing"

	"github.com/privamp/privamp/dp"
)

func TestBasic(t *testing.T) {
	g, err := Basic(gd(0.5, 1e-6), gd(0.25, 0), gd(1, 2e-6))
	if err != nil {
		t.Fatal(err)
	}
	if float64(g.Epsilon) != 1.75 || math.Abs(float64(g.Delta)-3e-6) > 1e-21 {
		t.Errorf("Basic = %+v, want (1.75, 3e-6)", g)
	}
	// Seed 001, Thm B.1: (ε/2, δ/2) + (ε/2, δ/2) = (ε, δ).
	g, _ = Basic(gd(0.5, 5e-6), gd(0.5, 5e-6))
	if g.Epsilon != 1 || g.Delta != 1e-5 {
		t.Errorf("halves = %+v, want (1, 1e-5)", g)
	}
	// Compensated summation: 10^6 copies of 0.1 sum to 10^5 to full precision.
	gs := make([]dp.Guarantee, 1_000_000)
	for i := range gs {
		gs[i] = gd(0.1, 1e-12)
	}
	g, _ = Basic(gs...)
	if math.Abs(float64(g.Epsilon)-1e5) > 1e-9 || math.Abs(float64(g.Delta)-1e-6) > 1e-20 {
		t.Errorf("sum of 1e6 × (0.1, 1e-12) = %+v", g)
	}
	r, _ := BasicRepeat(0.1, 1e-7, 1000)
	if math.Abs(float64(r.Epsilon)-100) > 1e-12 || math.Abs(float64(r.Delta)-1e-4) > 1e-18 {
		t.Errorf("BasicRepeat = %+v", r)
	}
	if g, _ := Basic(gd(math.Inf(1), 0), gd(1, 0)); !math.IsInf(float64(g.Epsilon), 1) {
		t.Errorf("Inf + 1 = %v", g.Epsilon)
	}
}

func TestBasicInvalid(t *testing.T) {
	bad := [][]dp.Guarantee{
		nil,
		{gd(-1, 0)},
		{gd(math.NaN(), 0)},
		{gd(1, -1e-9)},
		{gd(1, 1.5)},
		{gd(1, math.NaN())},
	}
	for _, gs := range bad {
		if _, err := Basic(gs...); err == nil {
			t.Errorf("Basic(%v): no error", gs)
		}
	}
	for _, c := range []struct {
		e, d float64
		k    int
	}{{1, 1, 2}, {1, 0, 0}, {1, 0, MaxK + 1}, {-1, 0, 1}} {
		if _, err := BasicRepeat(c.e, c.d, c.k); err == nil {
			t.Errorf("BasicRepeat(%v): no error", c)
		}
	}
}

func ExampleBasic() {
	g, _ := Basic(gd(0.5, 1e-6), gd(0.25, 0))
	fmt.Printf("(%g, %g)\n", g.Epsilon, g.Delta)
	// Output: (0.75, 1e-06)
}

// TestErrKText checks that ErrK's constant text states MaxK.
func TestErrKText(t *testing.T) {
	if want := fmt.Sprintf("k must be an integer in [1, %d]", MaxK); ErrK.Error() != want {
		t.Errorf("ErrK = %q, want %q", ErrK.Error(), want)
	}
}
