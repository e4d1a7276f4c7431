package plan

import (
	"math"
	"testing"

	"github.com/privamp/privamp/shifted"
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
	base := Options{Training: shifted.Training{Loss: shifted.Loss{Lipschitz: L}, Delta: delta}, Radius: R, Dimension: d}
	// Thm 30 (Skip).
	s := base
	s.Training.Variant = Skip
	sig := 2 * L * math.Sqrt(2*lg) / eps
	want := 4 * math.Sqrt2 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(eps*eps))
	u := s.Utility(n, sig)
	if !relClose(float64(u.Bound), want, 1e-12) {
		t.Errorf("Thm 30: %v, want %v", float64(u.Bound), want)
	}
	if wantEta := math.Sqrt(8) * R / math.Sqrt(n*(L*L+d*sig*sig)); !relClose(float64(u.Eta), wantEta, 1e-12) {
		t.Errorf("Thm 30 η: %v, want %v", float64(u.Eta), wantEta)
	}
	// PNSGD reports Thm 30's bound (run as Skip).
	s.Training.Variant = PNSGD
	if v := float64(s.Utility(n, sig).Bound); !relClose(v, want, 1e-12) {
		t.Errorf("PNSGD: %v, want Thm 30's %v", v, want)
	}
	// Cor 31: m public records, S = n (the paper's n counts them), σ with √2.
	s.Training.Variant, s.Training.Public = Skip, 500
	m := float64(s.Training.Public)
	sig = 2 * L * math.Sqrt(2*lg/m) / eps
	want = 4 * math.Sqrt2 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(m*eps*eps))
	if v := float64(s.Utility(n-500, sig).Bound); !relClose(v, want, 1e-12) {
		t.Errorf("Cor 31: %v, want %v", v, want)
	}
	// Thm 29 (Stop).
	s = base
	s.Training.Variant = Stop
	sig = 2 * L * math.Sqrt(2*lg) / eps
	want = 4 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(eps*eps))
	if v := float64(s.Utility(n, sig).Bound); !relClose(v, want, 1e-12) {
		t.Errorf("Thm 29: %v, want %v", v, want)
	}
	// Thm 32 (k tasks).
	s.Training.Tasks = 5
	q := math.Max(2*5*(1+math.Log(n))/n, 2*math.Log(1/delta)) // 1 + ln n: the sound q
	sig = 4 * L * math.Sqrt(q*math.Log(1/delta)) / eps
	want = 4 * R * L / math.Sqrt(n) * math.Sqrt(1+16*d*q*math.Log(1/delta)/(eps*eps))
	u = s.Utility(n, sig)
	if !relClose(float64(u.Bound), want, 1e-12) {
		t.Errorf("Thm 32: %v, want %v", float64(u.Bound), want)
	}
	if wantEta := 4 * R / math.Sqrt(n*(L*L+d*sig*sig)); !relClose(float64(u.Eta), wantEta, 1e-12) {
		t.Errorf("Thm 32 η: %v, want %v", float64(u.Eta), wantEta)
	}
	// Several passes: no population bound.
	s = base
	s.Training.Variant, s.Training.Epochs = PNSGD, 3
	if v := float64(s.Utility(n, 1).Bound); !math.IsNaN(v) {
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
	s.Training.Loss.Eta = float64(paper.Eta)
	gen := s.Utility(n, sig)
	S := float64(n)
	T := math.Floor(S/2) + 1
	lg2 := 1 + 10*sig*sig
	want := 4/(2*s.Training.Loss.Eta*T) + s.Training.Loss.Eta*lg2/2 + 2/T
	if !relClose(float64(gen.Bound), want, 1e-12) || float64(gen.Bound) > float64(paper.Bound) {
		t.Errorf("general %v (want %v), paper %v", float64(gen.Bound), want, float64(paper.Bound))
	}
	// β small enough that the rule's η is lowered to 2/β.
	s.Training.Loss.Eta, s.Training.Loss.Smoothness = 0, 2/(float64(paper.Eta)/10)
	u := s.Utility(n, sig)
	if float64(u.Eta) != 2/s.Training.Loss.Smoothness {
		t.Errorf("η = %v, want 2/β = %v", float64(u.Eta), 2/s.Training.Loss.Smoothness)
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
		if u := float64(s.Utility(10000, sig).Bound); !(u <= target) || !relClose(u, target, 1e-9) {
			t.Errorf("%s: U(σ*) = %v, target %v", v, u, target)
		}
		if u := float64(s.Utility(10000, sig*1.001).Bound); u <= target {
			t.Errorf("%s: σ* is not the largest", v)
		}
		if _, ok := s.SigmaForUtility(10000, float64(s.Utility(10000, 0).Bound)*0.99); ok {
			t.Errorf("%s: a target below the noiseless bound accepted", v)
		}
	}
}
