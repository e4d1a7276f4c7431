package numeric

import (
	"math"
	"testing"
)

func TestLogAddSub(t *testing.T) {
	for _, tc := range []struct{ a, b float64 }{{0, 0}, {1, -1}, {-700, -710}, {700, 690}, {-1e-10, -30}} {
		want := math.Log(math.Exp(tc.a) + math.Exp(tc.b))
		if got := LogAdd(tc.a, tc.b); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("LogAdd(%v,%v) = %v, want %v", tc.a, tc.b, got, want)
		}
		if tc.a > tc.b {
			want := math.Log(math.Exp(tc.a) - math.Exp(tc.b))
			if got := LogSub(tc.a, tc.b); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("LogSub(%v,%v) = %v, want %v", tc.a, tc.b, got, want)
			}
		}
	}
	if LogAdd(math.Inf(-1), 3) != 3 || LogSub(2, 2) != math.Inf(-1) || !math.IsNaN(LogSub(1, 2)) {
		t.Error("edge cases")
	}
	// Far outside exp's range.
	if got := LogAdd(1000, 1000); math.Abs(got-(1000+math.Ln2)) > 1e-12 {
		t.Errorf("LogAdd(1000,1000) = %v", got)
	}
	if got := LogSumExp([]float64{1000, 1000, 1000}); math.Abs(got-(1000+math.Log(3))) > 1e-12 {
		t.Errorf("LogSumExp = %v", got)
	}
}

func TestLog1mExp(t *testing.T) {
	for _, x := range []float64{-1e-300, -1e-10, -0.1, -0.69, -0.7, -5, -50} {
		want := math.Log(-math.Expm1(x))
		if got := Log1mExp(x); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("Log1mExp(%v) = %v, want %v", x, got, want)
		}
	}
}

// LogErfc against math.Erfc where it is representable, and continuity at the
// switch to the asymptotic series.
func TestLogErfc(t *testing.T) {
	for _, x := range []float64{-5, -1, 0, 0.5, 3, 10, 19.99, 20, 25, 26.5} {
		want := math.Log(math.Erfc(x))
		if got := LogErfc(x); math.Abs(got-want) > 1e-11*math.Abs(want)+1e-14 {
			t.Errorf("LogErfc(%v) = %.15g, want %.15g", x, got, want)
		}
	}
	// Beyond erfc's range: erfc(x)·x·√π·e^{x²} → 1.
	for _, x := range []float64{30, 100, 1e4} {
		got := LogErfc(x) + x*x + math.Log(x) + 0.5*math.Log(math.Pi)
		if math.Abs(got) > 1/(2*x*x)+4e-16*x*x {
			t.Errorf("LogErfc(%v) off its asymptote by %v", x, got)
		}
	}
	if math.Abs(LogPhi(0)-math.Log(0.5)) > 1e-15 || math.Abs(Phi(1.959963984540054)-0.975) > 1e-12 {
		t.Error("Φ")
	}
}

func TestLogBinom(t *testing.T) {
	lb, s := LogBinom(10, 3)
	if math.Abs(lb-math.Log(120)) > 1e-12 || s != 1 {
		t.Errorf("C(10,3): %v %v", lb, s)
	}
	if lb, s := LogBinom(5, 7); !math.IsInf(lb, -1) || s != 0 {
		t.Errorf("C(5,7) = %v %v", lb, s)
	}
	// C(2.5, 4) = 2.5·1.5·0.5·(−0.5)/24 < 0
	lb, s = LogBinom(2.5, 4)
	if want := math.Log(2.5 * 1.5 * 0.5 * 0.5 / 24); math.Abs(lb-want) > 1e-12 || s != -1 {
		t.Errorf("C(2.5,4) = %v %v, want %v -1", lb, s, want)
	}
}

func TestBisectSafeSide(t *testing.T) {
	// Smallest x with x² ≥ 2, increasing predicate.
	x, err := Bisect(func(x float64) bool { return x*x >= 2 }, 1e-3, 1e3, 1e-12, true)
	if err != nil || x*x < 2 || x > math.Sqrt2*(1+1e-11) {
		t.Errorf("got %v, %v", x, err)
	}
	// Largest x with x ≤ 7 (decreasing predicate).
	x, _ = Bisect(func(x float64) bool { return x <= 7 }, 1, 1e300, 1e-12, false)
	if x > 7 || x < 7*(1-1e-11) {
		t.Errorf("decreasing: %v", x)
	}
	// Brackets near MaxFloat64 must not overflow.
	x, err = Bisect(func(x float64) bool { return x >= 1e307 }, 1e300, math.MaxFloat64, 1e-9, true)
	if err != nil || x < 1e307 || math.IsInf(x, 0) {
		t.Errorf("huge bracket: %v %v", x, err)
	}
	if _, err := Bisect(func(float64) bool { return false }, 1, 2, 1e-9, true); err != ErrNoBracket {
		t.Errorf("unreachable: %v", err)
	}
}

func TestMinimizeUnimodal(t *testing.T) {
	x, f := MinimizeUnimodal(func(x float64) float64 { return (x - 0.3) * (x - 0.3) }, -5, 5, 80)
	if math.Abs(x-0.3) > 1e-8 || f > 1e-15 {
		t.Errorf("x=%v f=%v", x, f)
	}
}

func TestKahan(t *testing.T) {
	var k Kahan
	k.Add(1)
	for i := 0; i < 1e6; i++ {
		k.Add(1e-16)
	}
	if got := k.Sum(); math.Abs(got-(1+1e-10)) > 1e-15 {
		t.Errorf("Kahan = %.17g", got)
	}
	k.Add(math.Inf(1))
	k.Add(1)
	if got := k.Sum(); !math.IsInf(got, 1) {
		t.Errorf("Inf + 1 = %v", got)
	}
}

// SolveUp finds x* from guesses decades off on either side, on the safe
// side, calls ok once per point, and reports the two ends of the range.
func TestSolveUp(t *testing.T) {
	for _, want := range []float64{1e-3, 0.37, 1, 12.5, 4e4} {
		for _, x0 := range []float64{1e-4, 0.5, 1, 3, 1e5} {
			calls := map[float64]int{}
			ok := func(x float64) bool { calls[x]++; return x >= want }
			x, err := SolveUp(ok, x0, 1.01, 1e-6, 1e6, 1e-6)
			if err != nil || x < want || x > want*(1+2e-6) {
				t.Errorf("x* %v from %v: %v %v", want, x0, x, err)
			}
			for p, n := range calls {
				if n > 1 {
					t.Errorf("x* %v from %v: ok(%v) called %d times", want, x0, p, n)
				}
			}
			if len(calls) > 80 {
				t.Errorf("x* %v from %v: %d calls", want, x0, len(calls))
			}
		}
	}
	if x, err := SolveUp(func(float64) bool { return true }, 1, 2, 1e-3, 10, 1e-3); x != 1e-3 || err != ErrBelowMin {
		t.Errorf("always true: %v %v", x, err)
	}
	if _, err := SolveUp(func(float64) bool { return false }, 1, 2, 1e-3, 10, 1e-3); err != ErrNoBracket {
		t.Errorf("never true: %v", err)
	}
}
