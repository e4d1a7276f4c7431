package shifted_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

func rel(a, b float64) float64 { return math.Abs(a/b - 1) }

// TestUtilityTheoremsPrintedForms: at the theorems' own σ the bounds and
// step sizes equal the closed forms printed in FMTT18 Thm 29, 30, Cor 31
// and Thm 32 (with Cor 31's σ corrected by √2 and Thm 32's q with 1 + ln n),
// written out independently here.
func TestUtilityTheoremsPrintedForms(t *testing.T) {
	const (
		n        = 20000
		L, R     = 0.7, 2.0
		d        = 20
		eps, del = 0.5, 1e-6
		m        = 500
		k        = 3000
	)
	lg := math.Log(1.25 / del)
	l1 := math.Log(1 / del)
	q := math.Max(2*k*(1+math.Log(n))/n, 2*l1)
	cases := []struct {
		th                shifted.UtilityTheorem
		sigma, eta, bound float64
		public, tasks     int64
	}{
		{shifted.Thm29, 2 * L * math.Sqrt(2*lg) / eps, 2 * R / math.Sqrt(n*(L*L+d*8*L*L*lg/(eps*eps))),
			4 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(eps*eps)), 0, 1},
		{shifted.Thm30, 2 * L * math.Sqrt(2*lg) / eps, math.Sqrt(8) * R / math.Sqrt(n*(L*L+d*8*L*L*lg/(eps*eps))),
			4 * math.Sqrt2 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(eps*eps)), 0, 1},
		{shifted.Cor31, 2 * L * math.Sqrt(2*lg/m) / eps, math.Sqrt(8) * R / math.Sqrt(n*(L*L+d*8*L*L*lg/(m*eps*eps))),
			4 * math.Sqrt2 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(m*eps*eps)), m, 1},
		{shifted.Thm32, 4 * L * math.Sqrt(q*l1) / eps, 4 * R / math.Sqrt(n*(L*L+d*16*L*L*q*l1/(eps*eps))),
			4 * R * L / math.Sqrt(n) * math.Sqrt(1+16*d*q*l1/(eps*eps)), 0, k},
	}
	for _, c := range cases {
		sig, err := c.th.Sigma(shifted.UtilityTarget{Epsilon: eps, Delta: del, Lipschitz: L, N: n, Public: c.public, Tasks: c.tasks})
		if err != nil {
			t.Fatalf("%v: %v", c.th, err)
		}
		u := shifted.UtilityParams{Lipschitz: L, Radius: R, Dimension: d, Steps: n, Sigma: sig}
		if rel(sig, c.sigma) > 1e-13 || rel(c.th.Eta(u), c.eta) > 1e-13 || rel(c.th.Bound(u), c.bound) > 1e-13 {
			t.Errorf("%v: σ %v η %v bound %v, want %v %v %v", c.th, sig, c.th.Eta(u), c.th.Bound(u), c.sigma, c.eta, c.bound)
		}
		if c.th.String() == "" || c.th.SigmaFormula() == "" || c.th.EtaFormula() == "" || c.th.BoundFormula() == "" {
			t.Errorf("%d: missing description", c.th)
		}
	}
	if _, err := shifted.Cor31.Sigma(shifted.UtilityTarget{Epsilon: 1, Delta: 1e-5, Lipschitz: 1, N: 10}); err == nil {
		t.Error("Cor 31 without public records accepted")
	}
	if _, err := shifted.Thm29.Sigma(shifted.UtilityTarget{Epsilon: 1, Delta: 1, Lipschitz: 1, N: 10}); err == nil {
		t.Error("δ = 1 accepted")
	}
	if shifted.Thm29.Erratum() != "" || shifted.Cor31.Erratum() == "" || shifted.Thm32.Erratum() == "" {
		t.Error("errata")
	}
}

// TestThm32Q: the paper's q uses ln n for the harmonic number H_n that
// Thm 26's argument produces; ln n < H_n ≤ 1 + ln n for every n, so only the
// corrected q is an upper bound, and it is the one used.
func TestThm32Q(t *testing.T) {
	h := 0.0
	for n := 1; n <= 100000; n++ {
		h += 1 / float64(n)
		if ln := math.Log(float64(n)); !(h > ln) || h > 1+ln+1e-12 {
			t.Fatalf("n = %d: H_n = %v, ln n = %v", n, h, ln)
		}
	}
	// Many tasks: the first term of the max binds.
	n, k, del := int64(100), int64(100), 0.1
	want := 2 * 100 * (1 + math.Log(100)) / 100
	if got := shifted.Thm32Q(n, k, del); rel(got, want) > 1e-14 || got <= 2*100*math.Log(100)/100 {
		t.Errorf("q = %v, want %v (above the paper's)", got, want)
	}
	if got := shifted.Thm32Q(10000, 1, 1e-6); got != 2*math.Log(1e6) {
		t.Errorf("q = %v, want 2 ln(1/δ)", got)
	}
}

// TestThm28: the regret bound is minimised at η* = D/(L_G√T), where it is
// D·L_G/√T + D·L/T, inside Theorem 28's 2D·L_G/√T; at the step sizes of
// Thm 29 and 30 (D = 2R) it never exceeds those theorems' bounds.
func TestThm28(t *testing.T) {
	for _, u := range []shifted.UtilityParams{
		{Lipschitz: 1, Radius: 1, Dimension: 10, Steps: 10000, Sigma: 3},
		{Lipschitz: 0.3, Radius: 5, Dimension: 1, Steps: 7, Sigma: 0.01},
		{Lipschitz: 2, Radius: 0.5, Dimension: 1000, Steps: 1_000_000, Sigma: 40},
	} {
		lg := math.Sqrt(u.Lipschitz*u.Lipschitz + float64(u.Dimension)*u.Sigma*u.Sigma)
		if rel(u.GradientMoment(), lg) > 1e-15 {
			t.Fatalf("L_G = %v, want %v", u.GradientMoment(), lg)
		}
		D := 2 * u.Radius
		for _, skip := range []bool{false, true} {
			T := float64(u.Steps)
			if skip {
				T = math.Floor(T/2) + 1
			}
			opt := D / (lg * math.Sqrt(T))
			at := u.Thm28(opt, D, skip)
			if want := D*lg/math.Sqrt(T) + D*u.Lipschitz/T; rel(at, want) > 1e-12 || at > 2*D*lg/math.Sqrt(T)+1e-15 {
				t.Errorf("%+v skip=%v: at η* %v, want %v (Thm 28: ≤ %v)", u, skip, at, want, 2*D*lg/math.Sqrt(T))
			}
			for _, f := range []float64{0.5, 0.99, 1.01, 3} {
				if u.Thm28(opt*f, D, skip) < at {
					t.Errorf("%+v skip=%v: η*·%v gives less than η*", u, skip, f)
				}
			}
		}
		if b := u.Thm28(shifted.Thm29.Eta(u), D, false); b > shifted.Thm29.Bound(u) {
			t.Errorf("%+v: Thm 28 at Thm 29's η %v > Thm 29's bound %v", u, b, shifted.Thm29.Bound(u))
		}
		if b := u.Thm28(shifted.Thm30.Eta(u), D, true); b > shifted.Thm30.Bound(u) {
			t.Errorf("%+v: Thm 28 at Thm 30's η %v > Thm 30's bound %v", u, b, shifted.Thm30.Bound(u))
		}
	}
}

// TestCor31Correction: with the σ Cor 31 prints the last private index — a
// Gaussian mechanism of sensitivity 2L with noise σ√(m + 1) — misses the
// target even by the exact Gaussian profile; with the corrected σ the sound
// per-index bound of package shifted meets it.
func TestCor31Correction(t *testing.T) {
	const n, m, eps, del, L = 5000, 400, 0.8, 1e-5, 1.0
	sig, err := shifted.Cor31.Sigma(shifted.UtilityTarget{Epsilon: eps, Delta: del, Lipschitz: L, N: n + m, Public: m})
	if err != nil {
		t.Fatal(err)
	}
	g := shifted.SGD{N: n, Public: m, Sigma: sig, Loss: shifted.Loss{Lipschitz: L}}
	got, err := shifted.Epsilon(g, n, del, rdp.Improved)
	if err != nil || got.Epsilon > eps {
		t.Fatalf("corrected σ: sound ε %v > target %v (%v)", got.Epsilon, eps, err)
	}
	printed := sig / math.Sqrt2
	exact, err := composition.GaussianEpsilon(2*L/(printed*math.Sqrt(m+1)), del)
	if err != nil || exact <= eps {
		t.Fatalf("printed σ: exact Gaussian ε %v ≤ target %v (expected above; %v)", exact, eps, err)
	}
}

// Skip-PNSGD over 10 000 records at ε = 1, δ = 10⁻⁵ (Thm 30).
func ExampleUtilityTheorem() {
	th := shifted.Thm30
	sigma, _ := th.Sigma(shifted.UtilityTarget{Epsilon: 1, Delta: 1e-5, Lipschitz: 1, N: 10000})
	u := shifted.UtilityParams{Lipschitz: 1, Radius: 1, Dimension: 10, Steps: 10000, Sigma: sigma}
	fmt.Printf("%v: %s = %.4f\n", th, th.SigmaFormula(), sigma)
	fmt.Printf("%s = %.6f\n", th.EtaFormula(), th.Eta(u))
	fmt.Printf("E[F(W)] − F* ≤ %s = %.4f\n", th.BoundFormula(), th.Bound(u))
	fmt.Printf("Thm 28 at that η, D = 2R: %.4f\n", u.Thm28(th.Eta(u), 2, true))
	// Output:
	// FMTT18 Thm 30: σ = 2L√(2 ln(1.25/δ))/ε = 9.6896
	// η = √8·R/√(S(L² + dσ²)) = 0.000923
	// E[F(W)] − F* ≤ 4√2·R·√(L² + dσ²)/√S = 1.7343
	// Thm 28 at that η, D = 2R: 0.8674
}
