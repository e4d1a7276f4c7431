package hp

import (
	"math"
	"math/big"
	"testing"
)

const prec = 200

func rel(got *big.Float, want float64) float64 {
	g := Float64(got)
	if want == 0 {
		return math.Abs(g)
	}
	return math.Abs(g-want) / math.Abs(want)
}

// Constants against their published decimal expansions.
func TestConstants(t *testing.T) {
	for _, c := range []struct {
		name string
		got  *big.Float
		want string
	}{
		{"ln2", Ln2(prec), "0.693147180559945309417232121458176568075500134360255254120680009493393621969694715605863326996418687542"},
		{"pi", Pi(prec), "3.141592653589793238462643383279502884197169399375105820974944592307816406286208998628034825342117067982"},
	} {
		w, _, err := big.ParseFloat(c.want, 10, prec, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		d := new(big.Float).Sub(c.got, w)
		if d.Sign() != 0 && d.MantExp(nil) > -190 {
			t.Errorf("%s = %s, want %s", c.name, c.got.Text('g', 60), c.want)
		}
	}
}

// Log, Exp, Log1p, Expm1, Erfc agree with the float64 library to about an
// ulp, and with each other to the working precision.
func TestAgainstFloat64(t *testing.T) {
	for _, x := range []float64{1e-300, 1e-10, 0.3, 1, 2.5, 1e10, 1e300} {
		if r := rel(Log(New(x, prec), prec), math.Log(x)); r > 4e-16 {
			t.Errorf("Log(%v): rel err %v", x, r)
		}
	}
	for _, x := range []float64{-700, -30, -1e-12, 0.5, 3, 700} {
		if r := rel(Exp(New(x, prec), prec), math.Exp(x)); r > 4e-16 {
			t.Errorf("Exp(%v): rel err %v", x, r)
		}
		if r := rel(Expm1(New(x, prec), prec), math.Expm1(x)); r > 4e-16 {
			t.Errorf("Expm1(%v): rel err %v", x, r)
		}
	}
	for _, x := range []float64{-0.9, -1e-20, 1e-300, 0.4, 0.6, 1e5} {
		if r := rel(Log1p(New(x, prec), prec), math.Log1p(x)); r > 4e-16 {
			t.Errorf("Log1p(%v): rel err %v", x, r)
		}
	}
	for _, x := range []float64{-3, -0.1, 0, 0.5, 2, 5, 7.99, 8, 12, 26} {
		if r := rel(Erfc(New(x, prec), prec), math.Erfc(x)); r > 1e-15 {
			t.Errorf("Erfc(%v) = %v, float64 %v", x, Float64(Erfc(New(x, prec), prec)), math.Erfc(x))
		}
	}
}

func TestIdentities(t *testing.T) {
	small := func(d *big.Float, scale int) bool { return d.Sign() == 0 || d.MantExp(nil) < scale-prec+12 }
	for _, x := range []float64{-50, -1, 1e-5, 0.7, 40} {
		bx := New(x, prec)
		back := Log(Exp(bx, prec), prec)
		if d := new(big.Float).Sub(back, bx); !small(d, bx.MantExp(nil)+6) {
			t.Errorf("ln e^%v − %v = %v", x, x, d)
		}
	}
	// The series and the continued fraction agree where they meet.
	a := Erfc(New(7.999999999999, prec), prec)
	b := Erfc(New(8.000000000001, prec), prec)
	ra := new(big.Float).Quo(a, b)
	// erfc(x)/erfc(x+h) ≈ e^{2xh}(1+h/x) for h = 2e-12 at x = 8.
	want := math.Exp(2*8*2e-12) * (1 + 2e-12/8)
	if math.Abs(Float64(ra)-want) > 1e-14 {
		t.Errorf("erfc across 8: ratio %v, want %v", Float64(ra), want)
	}
	// erfc(x) + erfc(−x) = 2.
	s := new(big.Float).Add(Erfc(New(1.3, prec), prec), Erfc(New(-1.3, prec), prec))
	if d := new(big.Float).Sub(s, New(2, prec)); !small(d, 1) {
		t.Errorf("erfc(1.3)+erfc(−1.3) − 2 = %v", d)
	}
	// Log1p of a tiny argument keeps every digit.
	l := Log1p(New(1e-30, prec), prec)
	d := new(big.Float).Sub(l, New(1e-30, prec))
	want2 := new(big.Float).Mul(New(-0.5e-30, prec), New(1e-30, prec))
	if r := new(big.Float).Quo(d, want2); math.Abs(Float64(r)-1) > 1e-12 {
		t.Errorf("log1p(1e-30) − 1e-30 = %v, want −5e-61", d)
	}
}
