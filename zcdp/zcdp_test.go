package zcdp

import (
	"math"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// docs/accounting.md#zcdp: ρ*(ε,δ) = (√(ln(1/δ)+ε) − √ln(1/δ))², and the shortcut
// ρ = ε²/(8 ln(1/δ)) is valid iff ε ≤ 8(1 − 1/√2) ln(1/δ).
func TestBunSteinkeInverse(t *testing.T) {
	for _, delta := range []float64{1e-10, 1e-5, 0.01} {
		L := math.Log(1 / delta)
		for _, eps := range []float64{0.01, 0.5, 1, 4, 20} {
			r, _ := RhoFor(eps, delta, BunSteinke)
			back, _ := Epsilon(r, delta, BunSteinke)
			if math.Abs(back-eps) > 1e-9*eps {
				t.Errorf("δ=%v ε=%v: ρ*=%v gives back %v", delta, eps, r, back)
			}
			short := eps * eps / (8 * L)
			valid := eps <= 8*(1-1/math.Sqrt2)*L
			if (short <= r*(1+1e-12)) != valid {
				t.Errorf("δ=%v ε=%v: shortcut %v vs ρ* %v, validity %v", delta, eps, short, r, valid)
			}
		}
	}
}

// The tight inverse: ρ*(ε, δ) certifies exactly ε, is larger than Bun–Steinke's,
// and a slightly larger ρ no longer certifies ε.
func TestRhoForTight(t *testing.T) {
	for _, delta := range []float64{1e-12, 1e-6, 1e-3, 0.2} {
		for _, eps := range []float64{0.05, 0.5, 1, 3, 10, 50} {
			r, err := RhoFor(eps, delta, RDP)
			if err != nil {
				t.Fatal(err)
			}
			bs, _ := RhoFor(eps, delta, BunSteinke)
			if r < bs {
				t.Errorf("δ=%v ε=%v: tight ρ %v below Bun–Steinke %v", delta, eps, r, bs)
			}
			got, _ := Epsilon(r, delta, RDP)
			if got > eps*(1+1e-9) {
				t.Errorf("δ=%v ε=%v: ρ*=%v gives ε=%v > target", delta, eps, r, got)
			}
			over, _ := Epsilon(r*(1+1e-9), delta, RDP)
			if over <= eps {
				t.Errorf("δ=%v ε=%v: ρ*·(1+1e-9) still meets the target (%v): not maximal", delta, eps, over)
			}
		}
	}
}

// Composition of k Gaussians is ρ-zCDP with ρ = kΔ²/(2σ²); the improved
// conversion is never worse than Bun–Steinke's.
func TestComposeAndConvert(t *testing.T) {
	rho := Compose(Gaussian(1, 4), Gaussian(1, 4), Gaussian(2, 8))
	if math.Abs(rho-3.0/32) > 1e-15 {
		t.Fatalf("ρ = %v, want 3/32", rho)
	}
	for _, delta := range []float64{1e-9, 1e-5, 0.1} {
		a, _ := Epsilon(rho, delta, RDP)
		b, _ := Epsilon(rho, delta, BunSteinke)
		if a > b {
			t.Errorf("δ=%v: RDP route %v > Bun–Steinke %v", delta, a, b)
		}
		d, _ := Delta(rho, a)
		if math.Abs(d-delta)/delta > 1e-4 {
			t.Errorf("δ(ε(δ)) = %v, want %v", d, delta)
		}
	}
	if FromPureDP(0.5) != 0.125 {
		t.Error("ε²/2")
	}
	if c := Curve(0.3); c.Epsilon(2) != 0.6 {
		t.Error("curve")
	}
	if _, err := Epsilon(1, 1, RDP); err == nil {
		t.Error("δ = 1 accepted")
	}
	if _, err := RhoFor(math.Inf(1), 1e-5, RDP); err == nil {
		t.Error("ε = ∞ accepted")
	}
	_ = rdp.Improved
}

func FuzzRhoFor(f *testing.F) {
	f.Add(1.0, 1e-5)
	f.Add(1e-4, 0.5)
	f.Add(300.0, 1e-300)
	f.Fuzz(func(t *testing.T, eps, delta float64) {
		if !(eps > 1e-6 && eps < 1e4 && delta > 1e-300 && delta < 1) {
			t.Skip()
		}
		r, err := RhoFor(eps, delta, RDP)
		if err != nil || math.IsNaN(r) || r < 0 || math.IsInf(r, 0) {
			t.Fatalf("ε=%v δ=%v: ρ=%v err=%v", eps, delta, r, err)
		}
		if got, _ := Epsilon(r, delta, RDP); got > eps*(1+1e-9)+1e-12 {
			t.Fatalf("ε=%v δ=%v: ρ*=%v gives %v", eps, delta, r, got)
		}
		if r2, _ := RhoFor(eps*1.1, delta, RDP); r2 < r {
			t.Fatalf("ρ* not monotone in ε: %v then %v", r, r2)
		}
		// The Bun–Steinke inverse also converts back to at most ε.
		b, _ := RhoFor(eps, delta, BunSteinke)
		if e, _ := Epsilon(b, delta, BunSteinke); e > eps || b > r*(1+1e-9) {
			t.Fatalf("ε=%v δ=%v: Bun–Steinke ρ*=%v converts to %v (tight ρ* %v)", eps, delta, b, e, r)
		}
	})
}

// dp_accounting's test_compute_epsilon_delta_gaussian: noise multiplier
// 4.530877117 gives exactly (1, 1e-6)-DP, so ρ*(1, 1e-6) = 1/(2·4.530877117²).
func TestRhoForPublished(t *testing.T) {
	r, _ := RhoFor(1, 1e-6, RDP)
	want := 1 / (2 * 4.530877117 * 4.530877117)
	if math.Abs(r-want)/want > 1e-6 {
		t.Errorf("ρ*(1, 1e-6) = %.10g, want %.10g", r, want)
	}
}

// docs/seeds.md#seed-004-test-vectors: ρ*(ε, δ) by the classic inverse, and ε(ρ) vectors.
func TestSeed004Vectors(t *testing.T) {
	for _, c := range []struct{ eps, delta, rho float64 }{
		{1, 1e-5, 0.020820}, {2, 1e-6, 0.067574}, {8, 1e-5, 1.049136},
	} {
		if r, _ := RhoFor(c.eps, c.delta, BunSteinke); math.Abs(r-c.rho) > 2e-5*c.rho+1e-6 {
			t.Errorf("ρ*(%v, %v) = %v, want %v", c.eps, c.delta, r, c.rho)
		}
	}
	for _, c := range []struct{ rho, delta, eps float64 }{{0.5, 1e-5, 5.298526}, {0.1, 1e-6, 2.450788}, {1, 1e-5, 7.786140}} {
		if e, _ := Epsilon(c.rho, c.delta, BunSteinke); math.Abs(e-c.eps) > 1e-6 {
			t.Errorf("ε(ρ=%v, δ=%v) = %v, want %v", c.rho, c.delta, e, c.eps)
		}
	}
}

// Extreme corners: ρ* is the maximum, not merely a valid ρ (the previous
// golden-section search returned 0.0309 at ε = 1e-6, δ = 0.5, where 0.386
// still converts back to ε ≤ 1e-6).
func TestRhoForCorners(t *testing.T) {
	for _, c := range []struct{ eps, delta float64 }{{1e-6, 0.5}, {1e-9, 0.9}, {50, 1e-300}, {1e4, 1e-3}, {1e-3, 1e-12}} {
		r, _ := RhoFor(c.eps, c.delta, RDP)
		if e, _ := Epsilon(r, c.delta, RDP); e > c.eps {
			t.Errorf("ε=%v δ=%v: ρ*=%v converts to %v", c.eps, c.delta, r, e)
		}
		if e, _ := Epsilon(r*(1+1e-6), c.delta, RDP); e <= c.eps {
			t.Errorf("ε=%v δ=%v: ρ*=%v is not maximal (1.000001ρ* gives %v)", c.eps, c.delta, r, e)
		}
	}
}
