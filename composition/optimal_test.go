package composition

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/privamp/privamp/internal/numeric"
)

// bruteForce returns the hockey-stick divergence H_{e^ε'}(P^k ‖ Q^k) of the
// k-fold product of KOV's worst-case pair for (ε, δ)-DP (KOV15, Thm 2.3),
//
//	P = (δ, (1−δ)e^ε/(1+e^ε), (1−δ)/(1+e^ε), 0)
//	Q = (0, (1−δ)/(1+e^ε), (1−δ)e^ε/(1+e^ε), δ),
//
// by enumerating all 4^k output sequences: Σ_o max(0, P(o) − e^ε' Q(o)).
func bruteForce(eps, delta float64, k int, e1 float64) float64 {
	a := (1 - delta) * math.Exp(eps) / (1 + math.Exp(eps))
	b := (1 - delta) / (1 + math.Exp(eps))
	P := [4]float64{delta, a, b, 0}
	Q := [4]float64{0, b, a, delta}
	n := 1 << (2 * k)
	var s float64
	for code := 0; code < n; code++ {
		p, q := 1.0, 1.0
		c := code
		for i := 0; i < k; i++ {
			p *= P[c&3]
			q *= Q[c&3]
			c >>= 2
		}
		if v := p - math.Exp(e1)*q; v > 0 {
			s += v
		}
	}
	return s
}

// bruteForceRR is the same for pure ε (δ = 0) by enumerating the 2^k outputs
// of k-fold randomized response.
func bruteForceRR(eps float64, k int, e1 float64) float64 {
	p := math.Exp(eps) / (1 + math.Exp(eps))
	var s float64
	for code := 0; code < 1<<k; code++ {
		P, Q := 1.0, 1.0
		for i := 0; i < k; i++ {
			if code>>i&1 == 1 {
				P, Q = P*p, Q*(1-p)
			} else {
				P, Q = P*(1-p), Q*p
			}
		}
		if v := P - math.Exp(e1)*Q; v > 0 {
			s += v
		}
	}
	return s
}

func relClose(got, want, tol float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), 1e-300)
}

func TestOptimalBruteForce(t *testing.T) {
	for _, eps := range []float64{0.05, 0.3, 1, 2.5} {
		for _, delta := range []float64{0, 1e-4, 0.01} {
			ks := []int{1, 2, 5, 7}
			if testing.Short() {
				ks = ks[:3]
			}
			for _, k := range ks {
				for _, e1 := range []float64{0, 0.1, 0.5, 1.3, 3, float64(k) * eps * 0.77} {
					got, err := OptimalDelta(eps, delta, k, e1)
					if err != nil {
						t.Fatal(err)
					}
					want := bruteForce(eps, delta, k, e1)
					// Brute force sums up to 4^7 rounded products: ~1e-12.
					if !relClose(got, want, 1e-10) && math.Abs(got-want) > 1e-15 {
						t.Errorf("OptimalDelta(ε=%v, δ=%v, k=%d, ε'=%v) = %.15g, brute force %.15g", eps, delta, k, e1, got, want)
					}
					if got < want*(1-1e-12) {
						t.Errorf("below brute force: %.17g < %.17g", got, want)
					}
				}
			}
		}
	}
	for _, eps := range []float64{0.01, 0.2, 1} {
		ks := []int{10, 16, 20}
		if testing.Short() {
			ks = ks[:2]
		}
		for _, k := range ks {
			for _, f := range []float64{0, 0.1, 0.35, 0.6} {
				e1 := f * float64(k) * eps
				got, _ := OptimalDelta(eps, 0, k, e1)
				want := bruteForceRR(eps, k, e1)
				if !relClose(got, want, 1e-9) && math.Abs(got-want) > 1e-15 {
					t.Errorf("RR ε=%v k=%d ε'=%v: %.15g, brute force %.15g", eps, k, e1, got, want)
				}
			}
		}
	}
}

// TestOptimalKOVDiscrete compares with KOV15 Thm 3.3 as printed: at
// ε' = (k−2i)ε, δ_total = 1 − (1−δ)^k (1 − δ_i) with
// δ_i = Σ_{l=0}^{i−1} C(k,l)(e^{(k−l)ε} − e^{(k−2i+l)ε})/(1+e^ε)^k.
func TestOptimalKOVDiscrete(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		k          int
	}{{0.1, 1e-5, 30}, {0.5, 0, 20}, {1, 1e-3, 12}, {0.02, 1e-6, 50}} {
		for i := 0; i <= c.k/2; i++ {
			var di float64
			for l := 0; l < i; l++ {
				lb, _ := numeric.LogBinom(float64(c.k), l)
				di += math.Exp(lb) * (math.Exp(float64(c.k-l)*c.eps) - math.Exp(float64(c.k-2*i+l)*c.eps)) /
					math.Pow(1+math.Exp(c.eps), float64(c.k))
			}
			want := 1 - math.Pow(1-c.delta, float64(c.k))*(1-di)
			got, _ := OptimalDelta(c.eps, c.delta, c.k, float64(c.k-2*i)*c.eps)
			if !relClose(got, want, 1e-9) && math.Abs(got-want) > 1e-16 {
				t.Errorf("KOV ε=%v δ=%v k=%d i=%d: %.15g, want %.15g", c.eps, c.delta, c.k, i, got, want)
			}
		}
	}
}

// naiveLogDeltaPure sums every term of δ_pure (no window, no tail bound).
func naiveLogDeltaPure(eps float64, k int, e1 float64) float64 {
	var ts []float64
	for l := 0; l <= k; l++ {
		arg := e1 - float64(2*l-k)*eps
		if arg >= 0 {
			continue
		}
		lb, _ := numeric.LogBinom(float64(k), l)
		ts = append(ts, lb+float64(l)*eps-float64(k)*softplus(eps)+numeric.Log1mExp(arg))
	}
	return numeric.LogSumExp(ts)
}

func TestOptimalLargeK(t *testing.T) {
	ks := []int{1000, 100_000}
	if !testing.Short() {
		ks = append(ks, 1_000_000)
	}
	for _, k := range ks {
		for _, eps := range []float64{1e-3, 0.01, 0.1, 1} {
			for _, f := range []float64{0, 0.01, 0.05, 0.2} {
				e1 := f * float64(k) * eps
				got := logDeltaPure(eps, k, e1)
				want := naiveLogDeltaPure(eps, k, e1)
				if math.IsInf(want, -1) && got < -700 {
					continue
				}
				if got < want || got-want > 1e-6 {
					t.Errorf("k=%d ε=%v ε'=%v: ln δ_pure = %.12g, all-terms sum %.12g", k, eps, e1, got, want)
				}
			}
		}
	}
}

func TestOptimalMonotoneAndBounds(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		k          int
	}{{0.1, 0, 100}, {0.01, 1e-8, 10000}, {1, 1e-6, 50}, {0.5, 0, 100_000}, {3, 0, 7}} {
		prev := 2.0
		top := float64(c.k) * c.eps * 1.1
		for i := 0; i <= 200; i++ {
			e1 := top * float64(i) / 200
			d, err := OptimalDelta(c.eps, c.delta, c.k, e1)
			if err != nil || math.IsNaN(d) || d < 0 || d > 1 {
				t.Fatalf("%+v ε'=%v: δ = %v, %v", c, e1, d, err)
			}
			if d > prev {
				t.Errorf("%+v: δ increases at ε'=%v: %v > %v", c, e1, d, prev)
			}
			prev = d
		}
		floor := -math.Expm1(float64(c.k) * math.Log1p(-c.delta))
		if !relClose(prev, floor, 1e-12) && prev-floor > 1e-300 {
			t.Errorf("%+v: δ(ε' ≥ kε) = %v, want 1−(1−δ)^k = %v", c, prev, floor)
		}
	}
}

func TestOptimalEpsilon(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		k          int
		target     float64
	}{
		{0.1, 0, 100, 1e-5}, {0.01, 1e-10, 10000, 1e-5}, {1, 0, 10, 1e-5}, {0.5, 1e-7, 1000, 1e-3},
		{0.001, 0, 100_000, 1e-6}, {2, 0, 3, 0.5}, {0.1, 1e-3, 20, 0.05},
	} {
		e1, err := OptimalEpsilon(c.eps, c.delta, c.k, c.target)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if d, _ := OptimalDelta(c.eps, c.delta, c.k, e1); d > c.target {
			t.Errorf("%+v: δ(ε'=%v) = %v > target", c, e1, d)
		}
		if e1 > 0 {
			if d, _ := OptimalDelta(c.eps, c.delta, c.k, e1*(1-1e-8)); d <= c.target {
				t.Errorf("%+v: ε'=%v is not the smallest (δ just below is %v)", c, e1, d)
			}
		}
		// Optimal is below basic, advanced and the filter form wherever they apply.
		kf := float64(c.k)
		if kf*c.delta <= c.target && e1 > kf*c.eps*(1+1e-12) {
			t.Errorf("%+v: optimal %v > basic %v", c, e1, kf*c.eps)
		}
		if dp := c.target - kf*c.delta; dp > 0 {
			a, _ := Advanced(c.eps, c.delta, c.k, dp)
			if e1 > float64(a.Epsilon) {
				t.Errorf("%+v: optimal %v > advanced %v", c, e1, a.Epsilon)
			}
			if f := filterClosed(c.eps, kf, dp); e1 > f {
				t.Errorf("%+v: optimal %v > filter %v", c, e1, f)
			}
		}
	}
	// ε = 0 or a generous target: ε' = 0.
	if e, _ := OptimalEpsilon(0, 1e-6, 10, 1e-4); e != 0 {
		t.Errorf("ε = 0: ε' = %v", e)
	}
	// Below 1 − (1−δ)^k no ε' works.
	if _, err := OptimalEpsilon(0.1, 0.1, 10, 0.5); !errors.Is(err, ErrUnreachable) {
		t.Errorf("target below 1−(1−δ)^k: err = %v", err)
	}
}

func TestOptimalInvalid(t *testing.T) {
	for _, c := range []struct {
		e, d float64
		k    int
		x    float64
	}{{-1, 0, 1, 1}, {math.NaN(), 0, 1, 1}, {1, 1, 1, 1}, {1, 0, 0, 1}, {1, 0, 1, -1}, {1, 0, 1, math.NaN()}} {
		if _, err := OptimalDelta(c.e, c.d, c.k, c.x); err == nil {
			t.Errorf("OptimalDelta(%v): no error", c)
		}
		if _, err := OptimalEpsilon(c.e, c.d, c.k, 1e-5); err == nil && (c.x >= 0) {
			t.Errorf("OptimalEpsilon(%v): no error", c)
		}
	}
	for _, target := range []float64{0, 1, -1, math.NaN()} {
		if _, err := OptimalEpsilon(1, 0, 10, target); err == nil {
			t.Errorf("target %v: no error", target)
		}
	}
}

func ExampleOptimalEpsilon() {
	// 100 pure 0.1-DP mechanisms, total δ = 1e-5.
	e, _ := OptimalEpsilon(0.1, 0, 100, 1e-5)
	a, _ := Advanced(0.1, 0, 100, 1e-5)
	fmt.Printf("optimal %.4f, advanced %.4f, basic %.1f\n", e, a.Epsilon, 100*0.1)
	// Output: optimal 4.3068, advanced 5.8502, basic 10.0
}
