package plan

import (
	"math"
	"testing"
)

// TestUtilityMatchesTheorems: at the theorems' own σ the bounds equal the
// closed forms printed in FMTT18 Thm 29, 30, Cor 31 and Thm 32.
func TestUtilityMatchesTheorems(t *testing.T) {
	const (
		n     = 50000
		L, R  = 0.7, 2.0
		d     = 20
		eps   = 0.5
		delta = 1e-6
	)
	lg := math.Log(1.25 / delta)
	base := Setting{Lipschitz: L, Radius: R, Dimension: d, Delta: delta}
	// Thm 30 (Skip).
	s := base
	s.Variant = Skip
	sig := 2 * L * math.Sqrt(2*lg) / eps
	want := 4 * math.Sqrt2 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(eps*eps))
	u := s.Utility(n, sig)
	if !relClose(u.Bound, want, 1e-12) {
		t.Errorf("Thm 30: %v, want %v", u.Bound, want)
	}
	if wantEta := math.Sqrt(8) * R / math.Sqrt(n*(L*L+d*sig*sig)); !relClose(u.Eta, wantEta, 1e-12) {
		t.Errorf("Thm 30 η: %v, want %v", u.Eta, wantEta)
	}
	// PNSGD reports Thm 30's bound (run as Skip).
	s.Variant = PNSGD
	if v := s.Utility(n, sig).Bound; !relClose(v, want, 1e-12) {
		t.Errorf("PNSGD: %v, want Thm 30's %v", v, want)
	}
	// Cor 31: m public records, S = n (the paper's n counts them), σ with √2.
	s.Variant, s.Public = Skip, 500
	m := float64(s.Public)
	sig = 2 * L * math.Sqrt(2*lg/m) / eps
	want = 4 * math.Sqrt2 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(m*eps*eps))
	if v := s.Utility(n-500, sig).Bound; !relClose(v, want, 1e-12) {
		t.Errorf("Cor 31: %v, want %v", v, want)
	}
	// Thm 29 (Stop).
	s = base
	s.Variant = Stop
	sig = 2 * L * math.Sqrt(2*lg) / eps
	want = 4 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(eps*eps))
	if v := s.Utility(n, sig).Bound; !relClose(v, want, 1e-12) {
		t.Errorf("Thm 29: %v, want %v", v, want)
	}
	// Thm 32 (k tasks).
	s.Tasks = 5
	q := math.Max(2*5*(1+math.Log(n))/n, 2*math.Log(1/delta)) // 1 + ln n: the sound q
	sig = 4 * L * math.Sqrt(q*math.Log(1/delta)) / eps
	want = 4 * R * L / math.Sqrt(n) * math.Sqrt(1+16*d*q*math.Log(1/delta)/(eps*eps))
	u = s.Utility(n, sig)
	if !relClose(u.Bound, want, 1e-12) {
		t.Errorf("Thm 32: %v, want %v", u.Bound, want)
	}
	if wantEta := 4 * R / math.Sqrt(n*(L*L+d*sig*sig)); !relClose(u.Eta, wantEta, 1e-12) {
		t.Errorf("Thm 32 η: %v, want %v", u.Eta, wantEta)
	}
	// Several passes: no population bound.
	s = base
	s.Variant, s.Epochs = PNSGD, 3
	if v := s.Utility(n, 1).Bound; !math.IsNaN(v) {
		t.Errorf("epochs: %v, want NaN", v)
	}
}

// TestUtilityGeneralEta: with η fixed (or lowered to 2/β) the bound is Thm
// 28's regret argument, which at the theorem's η is below the theorem's
// stated value.
func TestUtilityGeneralEta(t *testing.T) {
	s := baseSetting(Skip)
	n := int64(10000)
	sig := 3.0
	paper := s.Utility(n, sig)
	s.Eta = paper.Eta
	gen := s.Utility(n, sig)
	S := float64(n)
	T := math.Floor(S/2) + 1
	lg2 := 1 + 10*sig*sig
	want := 4/(2*s.Eta*T) + s.Eta*lg2/2 + 2/T
	if !relClose(gen.Bound, want, 1e-12) || gen.Bound > paper.Bound {
		t.Errorf("general %v (want %v), paper %v", gen.Bound, want, paper.Bound)
	}
	// β small enough that the rule's η is lowered to 2/β.
	s.Eta, s.Smoothness = 0, 2/(paper.Eta/10)
	u := s.Utility(n, sig)
	if u.Eta != 2/s.Smoothness {
		t.Errorf("η = %v, want 2/β = %v", u.Eta, 2/s.Smoothness)
	}
}

func TestSigmaForUtility(t *testing.T) {
	for _, v := range []Variant{PNSGD, Skip, Stop} {
		s := baseSetting(v)
		target := 0.5
		sig, ok := s.SigmaForUtility(10000, target)
		if !ok {
			t.Fatal("no σ")
		}
		if u := s.Utility(10000, sig).Bound; !(u <= target) || !relClose(u, target, 1e-9) {
			t.Errorf("%s: U(σ*) = %v, target %v", v, u, target)
		}
		if u := s.Utility(10000, sig*1.001).Bound; u <= target {
			t.Errorf("%s: σ* is not the largest", v)
		}
		if _, ok := s.SigmaForUtility(10000, s.Utility(10000, 0).Bound*0.99); ok {
			t.Errorf("%s: a target below the noiseless bound accepted", v)
		}
	}
}
