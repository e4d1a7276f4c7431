package rdp

import (
	"math"
	"testing"
)

// tfOrders is TF-Privacy's compute_dp_sgd_privacy grid.
func tfOrders() []float64 {
	o := []float64{1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5}
	for a := 5; a < 64; a++ {
		o = append(o, float64(a))
	}
	return append(o, 128, 256, 512)
}

func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

// Values from Google dp_accounting's rdp_privacy_accountant_test
// (test_compute_rdp_poisson_sampled_gaussian): q = 0.01, z = 2.5, 50 steps.
func TestSampledGaussianPublished(t *testing.T) {
	c := Repeat(SampledGaussian{Q: 0.01, Z: 2.5}, 50)
	for _, tc := range []struct{ alpha, want float64 }{
		{1.5, 6.5007e-04}, {2.5, 1.0854e-03}, {5, 2.1808e-03}, {50, 2.3846e-02}, {100, 1.6742e+02},
	} {
		if got := c.Epsilon(tc.alpha); relErr(got, tc.want) > 1e-4 {
			t.Errorf("ε(%v) = %.6g, dp_accounting %.6g", tc.alpha, got, tc.want)
		}
	}
	if got := c.Epsilon(math.Inf(1)); !math.IsInf(got, 1) {
		t.Errorf("ε(∞) = %v, want +Inf", got)
	}
}

// logAIntegral computes ln A_α = ln ∫ N(x; 0, z²)·((1−q) + q·e^{(2x−1)/(2z²)})^α dx by
// composite Simpson's rule on a wide interval in log space — an independent
// route to the quantity the series compute.
func logAIntegral(q, z, alpha float64) float64 {
	logf := func(x float64) float64 {
		lmu0 := -x*x/(2*z*z) - math.Log(z*math.Sqrt(2*math.Pi))
		r := math.Log1p(q * math.Expm1((2*x-1)/(2*z*z))) // ln((1−q) + q e^{…})
		return lmu0 + alpha*r
	}
	// The integrand peaks near the maximiser of logf; integrate ±40 std around a
	// coarse maximiser.
	best, bx := math.Inf(-1), 0.0
	for x := -50 * z; x <= 50*z+alpha; x += z / 50 {
		if v := logf(x); v > best {
			best, bx = v, x
		}
	}
	lo, hi := bx-40*z, bx+40*z
	const n = 200000
	h := (hi - lo) / n
	var s float64
	for i := 0; i <= n; i++ {
		w := 2.0
		if i == 0 || i == n {
			w = 1
		} else if i%2 == 1 {
			w = 4
		}
		s += w * math.Exp(logf(lo+float64(i)*h)-best)
	}
	return best + math.Log(s*h/3)
}

func TestSampledGaussianAgainstIntegration(t *testing.T) {
	cases := []struct{ q, z, alpha float64 }{
		{1e-4, 1, 1.5}, {1e-3, 1, 2}, {0.01, 10, 20}, {0.1, 100, 20.5}, {0.01, 1.1, 8.8},
		{0.0043, 1.1, 7.37}, {0.2, 0.8, 3.3}, {0.5, 2, 12.25}, {0.99, 5, 4.5}, {0.05, 0.7, 2.718},
	}
	for _, tc := range cases {
		s := SampledGaussian{Q: tc.q, Z: tc.z}
		got := s.Epsilon(tc.alpha) * (tc.alpha - 1)
		want := logAIntegral(tc.q, tc.z, tc.alpha)
		if math.Abs(got-want) > 1e-7*math.Max(1, math.Abs(want)) && relErr(got, want) > 1e-6 {
			t.Errorf("q=%v z=%v α=%v: ln A = %.12g, integral %.12g", tc.q, tc.z, tc.alpha, got, want)
		}
	}
}

// TF-Privacy's compute_dp_sgd_privacy_lib_test: (n, batch, noise, epochs, δ) →
// ε at the optimal order of its grid, with the improved conversion.
func TestDPSGDMatchesTFPrivacy(t *testing.T) {
	cases := []struct {
		n, b, z, epochs, delta, eps, order float64
	}{
		{60000, 150, 1.3, 15, 1e-5, 0.7242234026109595, 19},
		{100000, 100, 1.0, 30, 1e-7, 1.4154988495444845, 13},
		{1e8, 1024, 0.1, 10, 1e-7, 5907982.31138195, 1.25},
	}
	for _, tc := range cases {
		steps := math.Ceil(tc.epochs * tc.n / tc.b)
		c := Repeat(SampledGaussian{Q: tc.b / tc.n, Z: tc.z}, steps)
		dp, err := EpsilonFor(Tabulate(c, tfOrders()), tc.delta, Improved)
		if err != nil {
			t.Fatal(err)
		}
		if relErr(dp.Epsilon, tc.eps) > 1e-8 || dp.Order != tc.order {
			t.Errorf("%v: ε = %.16g at α = %v; TF-Privacy %.16g at %v", tc, dp.Epsilon, dp.Order, tc.eps, tc.order)
		}
		// privamp's own default (finer grid, continuous α) is never worse.
		mine, _ := EpsilonFor(c, tc.delta, Improved)
		if mine.Epsilon > dp.Epsilon*(1+1e-12) {
			t.Errorf("%v: default ε %.10g above TF grid's %.10g", tc, mine.Epsilon, dp.Epsilon)
		}
	}
}

// dp_accounting test_compute_epsilon_delta_pure_dp: constant RDP 1.1 on orders
// 2..32 gives ε = 1.32783806176 at order 32 for δ = 1e-5, and back.
func TestConversionPublishedPureDP(t *testing.T) {
	var orders, eps []float64
	for a := 2; a <= 32; a++ {
		orders = append(orders, float64(a))
		eps = append(eps, 1.1)
	}
	c := NewTable(orders, eps)
	dp, _ := EpsilonFor(c, 1e-5, Improved)
	if relErr(dp.Epsilon, 1.32783806176) > 1e-10 || dp.Order != 32 {
		t.Errorf("ε = %.12g at %v, want 1.32783806176 at 32", dp.Epsilon, dp.Order)
	}
	d, _ := DeltaFor(c, 1.32783806176, Improved)
	if relErr(d.Delta, 1e-5) > 1e-8 || d.Order != 32 {
		t.Errorf("δ = %.12g at %v, want 1e-5 at 32", d.Delta, d.Order)
	}
}

// dp_accounting test_compute_epsilon_delta_gaussian: z = 4.530877117 gives
// exactly (1, 1e-6)-DP under the improved conversion with a fine order grid.
func TestConversionPublishedGaussian(t *testing.T) {
	z := 4.530877117
	e, _ := LinearEpsilon(1/(2*z*z), 1e-6, Improved)
	if math.Abs(e-1) > 1e-6 {
		t.Errorf("ε = %.10g, want 1", e)
	}
	d, _ := DeltaFor(Gaussian(1, z), 1, Improved)
	if relErr(d.Delta, 1e-6) > 1e-5 {
		t.Errorf("δ = %.10g, want 1e-6", d.Delta)
	}
}

// The O(1) conversion of linear curves agrees with the general optimiser.
func TestLinearEpsilonMatchesGeneral(t *testing.T) {
	for _, rho := range []float64{1e-8, 1e-4, 0.01, 0.5, 3, 100, 1e4} {
		for _, delta := range []float64{1e-12, 1e-6, 1e-3, 0.3} {
			for _, conv := range []Conversion{Improved, Classic} {
				fast, _ := LinearEpsilon(rho, delta, conv)
				// A sum wrapper hides the Linear type from EpsilonFor.
				gen, _ := EpsilonFor(&sum{curves: []Curve{Linear(rho)}}, delta, conv)
				if fast > gen.Epsilon*(1+1e-9)+1e-12 {
					t.Errorf("ρ=%v δ=%v %v: fast %.12g > general %.12g", rho, delta, conv, fast, gen.Epsilon)
				}
				if gen.Epsilon > fast*(1+1e-6)+1e-9 {
					t.Errorf("ρ=%v δ=%v %v: general %.12g ≫ fast %.12g", rho, delta, conv, gen.Epsilon, fast)
				}
			}
			imp, _ := LinearEpsilon(rho, delta, Improved)
			cl, _ := LinearEpsilon(rho, delta, Classic)
			if imp > cl*(1+1e-12) {
				t.Errorf("ρ=%v δ=%v: improved %v > classic %v", rho, delta, imp, cl)
			}
		}
	}
}

// Laplace: the closed form against numerical integration of
// (1/(α−1)) ln ∫ p^α q^{1−α} for Lap(0, b) and Lap(1, b).
func TestLaplaceAgainstIntegration(t *testing.T) {
	for _, b := range []float64{0.5, 1, 3} {
		for _, alpha := range []float64{1.5, 2, 5, 17.3} {
			logp := func(x, mu float64) float64 { return -math.Abs(x-mu)/b - math.Log(2*b) }
			const n = 400000
			lo, hi := -60*b, 60*b
			h := (hi - lo) / n
			var s float64
			for i := 0; i <= n; i++ {
				x := lo + float64(i)*h
				w := 2.0
				if i == 0 || i == n {
					w = 1
				} else if i%2 == 1 {
					w = 4
				}
				s += w * math.Exp(alpha*logp(x, 0)+(1-alpha)*logp(x, 1))
			}
			want := math.Log(s*h/3) / (alpha - 1)
			if got := (Laplace{Scale: b}).Epsilon(alpha); relErr(got, want) > 1e-6 {
				t.Errorf("b=%v α=%v: %.10g, integral %.10g", b, alpha, got, want)
			}
		}
	}
}

// PureDP: equals the direct divergence of randomized response and lies below
// ε and αε²/2.
func TestPureDP(t *testing.T) {
	for _, e := range []float64{0.01, 0.5, 1, 3, 10, 30} {
		p := math.Exp(e) / (1 + math.Exp(e))
		for _, a := range []float64{1.01, 1.5, 2, 10, 100, 1e4} {
			got := PureDP{Eps: e}.Epsilon(a)
			if e < 10 && a < 100 {
				want := math.Log(math.Pow(p, a)*math.Pow(1-p, 1-a)+math.Pow(1-p, a)*math.Pow(p, 1-a)) / (a - 1)
				if relErr(got, want) > 1e-9 {
					t.Errorf("ε=%v α=%v: %v, direct %v", e, a, got, want)
				}
			}
			if got > e*(1+1e-12) || got > a*e*e/2*(1+1e-12) {
				t.Errorf("ε=%v α=%v: %v above min(ε, αε²/2)", e, a, got)
			}
		}
		if got := RandomizedResponse(p).Eps; e <= 10 && relErr(got, e) > 1e-9 {
			t.Errorf("RandomizedResponse(%v).Eps = %v, want %v", p, got, e)
		}
	}
}

func TestSampledGaussianProperties(t *testing.T) {
	for _, q := range []float64{1e-6, 1e-3, 0.01, 0.3, 0.9} {
		for _, z := range []float64{0.3, 0.7, 1, 4, 50} {
			s := SampledGaussian{Q: q, Z: z}
			prev := 0.0
			for _, a := range DefaultOrders() {
				e := s.Epsilon(a)
				if math.IsNaN(e) || e < 0 {
					t.Fatalf("q=%v z=%v α=%v: ε = %v", q, z, a, e)
				}
				// monotone in α, and never above the unsampled Gaussian
				// (absolute slack: ln A_α is accurate to ~1e-16 absolute, which
				// ε = ln A_α/(α−1) magnifies near α = 1)
				if e < prev*(1-1e-9)-1e-13 {
					t.Errorf("q=%v z=%v: ε(%v) = %v < previous %v", q, z, a, e, prev)
				}
				if e > a/(2*z*z)*(1+1e-9) {
					t.Errorf("q=%v z=%v α=%v: %v above Gaussian %v", q, z, a, e, a/(2*z*z))
				}
				prev = e
				if r := (SampledGaussianReplaceOne{Q: q, Z: z}).Epsilon(a); r < e {
					t.Errorf("replace-one %v below add/remove %v", r, e)
				}
			}
			// orders up to 10^4 stay finite
			if e := s.Epsilon(1e4); math.IsNaN(e) || math.IsInf(e, 0) {
				t.Errorf("q=%v z=%v: ε(1e4) = %v", q, z, e)
			}
			if e := s.Epsilon(9999.5); math.IsNaN(e) || math.IsInf(e, 0) {
				t.Errorf("q=%v z=%v: ε(9999.5) = %v", q, z, e)
			}
		}
	}
	if e := (SampledGaussian{Q: 1, Z: 2}).Epsilon(3); e != 3.0/8 {
		t.Errorf("q=1: %v, want 3/8", e)
	}
}

func TestTableNextOrderUp(t *testing.T) {
	c := NewTable([]float64{4, 2, 8}, []float64{0.4, 0.2, 0.8})
	for _, tc := range []struct{ a, want float64 }{{1.5, 0.2}, {2, 0.2}, {2.1, 0.4}, {8, 0.8}, {9, math.Inf(1)}} {
		if got := c.Epsilon(tc.a); got != tc.want {
			t.Errorf("ε(%v) = %v, want %v", tc.a, got, tc.want)
		}
	}
	for _, bad := range [][2][]float64{{{1, 2}, {0, 0}}, {{2, 2}, {1, 1}}, {{2}, {-1}}, {{2}, {math.NaN()}}, {{2, 3}, {1}}} {
		if NewTable(bad[0], bad[1]) != nil {
			t.Errorf("NewTable(%v) accepted", bad)
		}
	}
	// Composition of gridded and analytic curves is gridded on the union.
	g := Compose(c, Linear(0.1), NewTable([]float64{3}, []float64{1}))
	if gg, ok := g.(Gridded); !ok || len(gg.Orders()) != 4 {
		t.Fatalf("Compose: %T", g)
	}
	if got, want := g.Epsilon(3), 0.4+0.3+1; math.Abs(got-want) > 1e-12 {
		t.Errorf("composed ε(3) = %v, want %v", got, want)
	}
}

func TestCalibrate(t *testing.T) {
	q, steps := 256.0/60000, math.Ceil(60*60000/256.0)
	curveFor := func(z float64) Curve { return Repeat(SampledGaussian{Q: q, Z: z}, steps) }
	for _, target := range []float64{0.5, 1, 3, 8} {
		z, dp, err := Calibrate(curveFor, target, 1e-5, Improved)
		if err != nil {
			t.Fatal(err)
		}
		if dp.Epsilon > target {
			t.Errorf("target %v: calibrated z=%v gives ε=%v", target, z, dp.Epsilon)
		}
		below, _ := EpsilonFor(curveFor(z*(1-1e-4)), 1e-5, Improved)
		if below.Epsilon <= target {
			t.Errorf("target %v: z=%v not minimal (z·(1−1e-4) gives %v)", target, z, below.Epsilon)
		}
	}
	if _, _, err := Calibrate(curveFor, 1, 1.5, Improved); err == nil {
		t.Error("δ = 1.5 accepted")
	}
}

func TestConversionMonotoneInDelta(t *testing.T) {
	c := Repeat(SampledGaussian{Q: 0.01, Z: 1}, 1000)
	prev := math.Inf(1)
	for _, d := range []float64{1e-15, 1e-10, 1e-6, 1e-3, 0.1, 0.5, 0.9} {
		dp, _ := EpsilonFor(c, d, Improved)
		if dp.Epsilon > prev {
			t.Errorf("ε(δ=%v) = %v > ε at smaller δ %v", d, dp.Epsilon, prev)
		}
		prev = dp.Epsilon
	}
}

// Tiny ρ: the optimal α is near 1/δ; the bound must reach it (ε = 0 there,
// since ρ/δ + ln(1 − δ) < 0 at α = 1/δ).
func TestLinearEpsilonTinyRho(t *testing.T) {
	for _, rho := range []float64{2.4e-73, 1e-30, 1e-16} {
		for _, delta := range []float64{1e-7, 1e-3} {
			if rho >= delta*delta {
				continue
			}
			if e, _ := LinearEpsilon(rho, delta, Improved); e != 0 {
				t.Errorf("ρ=%v δ=%v: ε = %v, want 0", rho, delta, e)
			}
		}
	}
}

// δ within 1e-16 of 1: the optimal order crowds against α = 1, where 1 + x
// rounds to 1; a huge ρ must still give a huge ε, never 0. (At ρ = 1, ε = 0
// is right: the Gaussian's total variation 0.52 is below δ.)
func TestLinearEpsilonDeltaNearOne(t *testing.T) {
	if e, _ := LinearEpsilon(1, 1-1e-16, Improved); e != 0 {
		t.Errorf("ρ=1: ε = %v, want 0", e)
	}
	for _, rho := range []float64{1e3, 1e300} {
		e, _ := LinearEpsilon(rho, 1-1e-16, Improved)
		if !(e > rho/2) {
			t.Errorf("ρ=%v δ=1−1e-16: ε = %v", rho, e)
		}
	}
	if e := PointEpsilon(1, 5, 0.5, Improved); !math.IsInf(e, 1) {
		t.Errorf("α = 1: ε = %v, want +Inf", e)
	}
}
