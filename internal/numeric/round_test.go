package numeric

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/privamp/privamp/internal/numeric/hp"
)

const refPrec = 240

// relErrTo returns |got − want|/|want| for a high-precision want.
func relErrTo(got float64, want *big.Float) float64 {
	d := new(big.Float).Sub(hp.New(got, refPrec), want)
	if want.Sign() == 0 {
		return math.Abs(hp.Float64(d))
	}
	return math.Abs(hp.Float64(new(big.Float).Quo(d, want)))
}

// The error constants privamp's bounds rest on, re-measured on this
// platform's math library against 240-bit references: every sampled error
// must be within the constant. (The constants have about 2x headroom over
// the largest errors seen on amd64.)
func TestLibraryErrorBounds(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var worst [6]float64
	check := func(i int, name string, x, got float64, want *big.Float, bound float64) {
		e := relErrTo(got, want)
		worst[i] = math.Max(worst[i], e/bound)
		if e > bound {
			t.Errorf("%s(%v): relative error %.3g > %.3g", name, x, e, bound)
		}
	}
	for i := 0; i < 3000; i++ {
		x := math.Exp(r.Float64()*1400 - 700)
		check(0, "Log", x, Log(x), hp.Log(hp.New(x, refPrec), refPrec), ErrLog)
		y := (r.Float64()*2 - 1) * math.Exp(r.Float64()*40-35)
		y = math.Max(y, -1+0x1p-40)
		check(1, "Log1p", y, math.Log1p(y), hp.Log1p(hp.New(y, refPrec), refPrec), ErrLog1p)
		e := r.Float64()*1400 - 700
		if i%2 == 0 {
			e = (r.Float64()*2 - 1) * math.Exp(r.Float64()*30-28)
		}
		check(2, "Exp", e, math.Exp(e), hp.Exp(hp.New(e, refPrec), refPrec), ErrExp)
		check(3, "Expm1", e, math.Expm1(e), hp.Expm1(hp.New(e, refPrec), refPrec), ErrExpm1)
		if i%4 == 0 {
			c := r.Float64()*32 - 6 // erfc is normal up to 26.5
			if c < 26.5 {
				ec := hp.Erfc(hp.New(c, refPrec), refPrec)
				check(4, "Erfc", c, math.Erfc(c), ec, ErrErfc)
				check(5, "Erf", c, math.Erf(c), hp.Sub(refPrec, hp.New(1, refPrec), ec), ErrErf)
			}
		}
	}
	// Where Go's Erfc is worst (1 − erf near 0.84) and Exp near its worst.
	for _, c := range []float64{0.8348774484980163, 0.8430572948932354, 2.5987532820459203} {
		check(4, "Erfc", c, math.Erfc(c), hp.Erfc(hp.New(c, refPrec), refPrec), ErrErfc)
	}
	check(2, "Exp", -302.5741340732904, math.Exp(-302.5741340732904), hp.Exp(hp.New(-302.5741340732904, refPrec), refPrec), ErrExp)
	t.Logf("largest error / bound: log %.2f log1p %.2f exp %.2f expm1 %.2f erfc %.2f erf %.2f",
		worst[0], worst[1], worst[2], worst[3], worst[4], worst[5])
}

// Go's amd64 math.Log is wrong below 2^−1022 (it returns ≈ −709.09 for
// every subnormal); Log is not.
func TestLogSubnormal(t *testing.T) {
	for _, x := range []float64{0x1p-1022, 2e-308, 1e-310, 1e-320, 5e-324, 1e-300} {
		want := hp.Log(hp.New(x, refPrec), refPrec)
		if e := relErrTo(Log(x), want); e > ErrLog {
			t.Errorf("Log(%v) = %v, want %v", x, Log(x), hp.Float64(want))
		}
		if l := NegLogUp(x); hp.New(-l, refPrec).Cmp(want) > 0 {
			t.Errorf("NegLogUp(%v) = %v below −ln x = %v", x, l, -hp.Float64(want))
		}
	}
}

// Directed rounding: the result is ≥ the exact value and its predecessor is
// below it (so it is the smallest such float64).
func TestDirectedRounding(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	rnd := func() float64 {
		switch r.Intn(5) {
		case 0:
			return float64(r.Intn(9) - 4)
		case 1:
			return math.Ldexp(r.Float64(), -1060+r.Intn(40)) // near and below 2^−1022
		}
		return (r.Float64()*2 - 1) * math.Exp(r.NormFloat64()*20)
	}
	for i := 0; i < 20000; i++ {
		a, b := rnd(), rnd()
		ba, bb := hp.New(a, 4000), hp.New(b, 4000)
		cases := []struct {
			name  string
			got   float64
			exact *big.Float
		}{
			{"AddUp", AddUp(a, b), new(big.Float).SetPrec(4000).Add(ba, bb)},
			{"MulUp", MulUp(a, b), new(big.Float).SetPrec(4000).Mul(ba, bb)},
		}
		if b != 0 {
			cases = append(cases, struct {
				name  string
				got   float64
				exact *big.Float
			}{"DivUp", DivUp(a, b), new(big.Float).SetPrec(4000).Quo(ba, bb)})
		}
		for _, c := range cases {
			g := hp.New(c.got, 4000)
			if g.Cmp(c.exact) < 0 {
				t.Fatalf("%s(%v, %v) = %v below the exact %v", c.name, a, b, c.got, c.exact.Text('g', 25))
			}
			// At most one ulp above (the predecessor is below the exact
			// value), except the documented tiny-range move.
			p := math.Nextafter(c.got, math.Inf(-1))
			if hp.New(p, 4000).Cmp(c.exact) >= 0 && math.Abs(c.got) > 0x1p-900 {
				t.Fatalf("%s(%v, %v) = %v is not the smallest upper bound", c.name, a, b, c.got)
			}
		}
	}
	if MulUp(3, 0.125) != 0.375 || DivUp(3, 8) != 0.375 || AddUp(0.5, 0.25) != 0.75 {
		t.Error("exact results must not move")
	}
}

// Approx: chains of operations enclose the exact value of the formula they
// spell, checked against 240-bit evaluation.
func TestApproxEncloses(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	P := uint(refPrec)
	for i := 0; i < 2000; i++ {
		x := math.Exp(r.NormFloat64() * 10)
		y := r.Float64()*2 - 1
		// f = ln(x)·e^y / (1 + √x) − log1p(x·1e-3) + expm1(y·1e-5)
		a := Exact(x).Log().Mul(Exact(y).Exp()).Div(Exact(1).Add(Exact(x).Sqrt())).
			Sub(Exact(x).Scale(1e-3).Log1p()).Add(Exact(y).Scale(1e-5).Expm1())
		bx, by := hp.New(x, P), hp.New(y, P)
		one := hp.New(1, P)
		f := hp.Quo(P, hp.Mul(P, hp.Log(bx, P), hp.Exp(by, P)), hp.Add(P, one, hp.Sqrt(bx, P)))
		f = hp.Sub(P, f, hp.Log1p(hp.Mul(P, bx, hp.New(1e-3, P)), P))
		f = hp.Add(P, f, hp.Expm1(hp.Mul(P, by, hp.New(1e-5, P)), P))
		if hp.New(a.Up(), P).Cmp(f) < 0 || hp.New(a.Down(), P).Cmp(f) > 0 {
			t.Fatalf("x=%v y=%v: [%v, %v] misses %v", x, y, a.Down(), a.Up(), f.Text('g', 20))
		}
		if a.E > 1e-13*math.Max(1, math.Abs(a.V)) {
			t.Fatalf("x=%v y=%v: error bound %v is loose", x, y, a.E)
		}
	}
}

// LogPhiApprox and LogErfcErr enclose ln Φ and ln erfc over both tails and
// across the switch to the asymptotic series.
func TestLogPhiEncloses(t *testing.T) {
	P := uint(refPrec)
	for _, x := range []float64{-1e4, -300, -37.7, -36.7, -36, -20, -5, -0.3, 0, 1e-9, 0.3, 2, 8, 30} {
		a := LogPhiApprox(Exact(x))
		want := hp.LogPhi(hp.New(x, P), P)
		if hp.New(a.Up(), P).Cmp(want) < 0 || hp.New(a.Down(), P).Cmp(want) > 0 {
			t.Errorf("ln Φ(%v): [%v, %v] misses %v", x, a.Down(), a.Up(), want.Text('g', 20))
		}
		if w := hp.Float64(want); math.Abs(a.V-w) > 1e-15*(1+x*x)*math.Abs(w)+1e-300 {
			t.Errorf("ln Φ(%v) = %v, want %v", x, a.V, w)
		}
	}
}

// ExpUp is ≥ e^x everywhere, and one subnormal step above math.Exp below
// 2^−1022 (so that e^x < 2^−1075 still meets δ = 2^−1074).
func TestExpUp(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	for i := 0; i < 3000; i++ {
		x := -760 + 1470*r.Float64()
		if i%2 == 0 {
			x = -760 + 60*r.Float64() // the subnormal range
		}
		want := hp.Exp(hp.New(x, refPrec), refPrec)
		if got := ExpUp(x); hp.New(got, refPrec).Cmp(want) < 0 {
			t.Fatalf("ExpUp(%v) = %v below e^x = %v", x, got, want.Text('g', 20))
		}
	}
	if ExpUp(-746) != 0x1p-1074 {
		t.Errorf("ExpUp(−746) = %v, want 2^−1074", ExpUp(-746))
	}
}
