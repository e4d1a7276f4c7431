package numeric

import "math"

// LogErfc returns ln erfc(x), accurate for all finite x, including x > 26.5
// where erfc itself underflows.
func LogErfc(x float64) float64 {
	v, _ := LogErfcErr(x)
	return v
}

// asymptotic series of erfc: erfc(x) = e^{−x²}/(x√π) · (Σ_{k<8} (−1)^k
// (2k−1)!!/(2x²)^k + R) with |R| ≤ 15!!/(2x²)^8 (Abramowitz–Stegun 7.1.23;
// the remainder of this alternating asymptotic series is bounded by the
// first omitted term), used from x = 26 on, where |R| < 2·10^−19.
const erfcAsymptoticFrom = 26

// LogErfcErr returns ln erfc(x) and a bound on the error of its evaluation
// (x taken as exact): math.Erfc below x = 26, the asymptotic series above
// (math.Erfc is subnormal from x ≈ 26.55 and 0 from 27.3).
func LogErfcErr(x float64) (v, e float64) {
	if math.IsNaN(x) {
		return x, 0
	}
	if x < erfcAsymptoticFrom {
		v = math.Log(math.Erfc(x))
		return v, ErrErfc*(1+ErrErfc) + ErrLog*math.Abs(v)
	}
	x2 := x * x
	y := 1 / (2 * x2)
	// Horner: Σ_{k<8} c_k y^k with c_k = (−1)^k (2k−1)!!.
	s := 1 + y*(-1+y*(3+y*(-15+y*(105+y*(-945+y*(10395+y*(-135135)))))))
	r := 2027025 * y * y * y * y * y * y * y * y // |R| ≤ 15!! y^8
	ls := math.Log(s)
	lx := math.Log(x)
	v = -x2 - lx - 0.5*math.Log(math.Pi) + ls
	e = U*x2 + ErrLog*lx + 2*U + (16*U+r)/(s-r) + ErrLog*math.Abs(ls) + 4*U*math.Abs(v)
	return v, e
}

// LogPhi returns ln Φ(x), the log of the standard normal CDF, for all x:
// ln(erfc(−x/√2)/2) for x ≤ 0 and ln(1 − erfc(x/√2)/2) by Log1p for x > 0,
// so both tails keep their relative accuracy.
func LogPhi(x float64) float64 { return LogPhiApprox(Exact(x)).V }

// millsBound bounds d ln Φ(t)/dt = φ(t)/Φ(t) on [x − e, x + e] for x ≤ 0
// (or x − e ≤ 0): it is decreasing, and below |t| + 1 for t < 0 (Birnbaum's
// bound on the Mills ratio, φ(t)/Φ̄(t) ≤ (t + √(t² + 4))/2) and below
// φ(0)/Φ(0) < 0.8 for t ≥ 0.
func millsBound(x, e float64) float64 {
	return math.Max(e-x, 0) + 1
}

// LogPhiApprox returns ln Φ(a) with its error: that of the evaluation plus
// a's own error through the slope φ/Φ.
func LogPhiApprox(a Approx) Approx {
	x := a.V
	y := x / math.Sqrt2         // relative error ≤ 2U (the constant and the division)
	ex := a.E + 2*U*math.Abs(x) // the error in x that y stands for
	if x > ex {
		// ln Φ(x) = log1p(−t), t = Φ̄(x) = erfc(y)/2 ≤ 1/2. The slope
		// φ/Φ ≤ 2φ is largest at x − ex, where φ(x − ex) ≤ φ(x)e^{x·ex},
		// and φ(x) ≤ (x + 1)Φ̄(x) (Birnbaum), so it is below
		// 2(x + 1)t·e^{x·ex}; e^{x·ex} ≤ 1 + 2x·ex for x·ex ≤ 1/2.
		t := 0.5 * math.Erfc(y)
		if t == 0 {
			return Approx{0, 0x1p-1074}
		}
		v := math.Log1p(-t)
		xe := x * ex
		grow := 1 + 2*xe
		if xe > 0.5 {
			grow = math.Exp(xe)
		}
		slope := 2 * (x + 1) * t * (1 + ErrErfc) * grow
		return Approx{v, 2*t*ErrErfc + ErrLog1p*math.Abs(v) + slope*ex}
	}
	prop := millsBound(x, a.E) * ex
	v, e := LogErfcErr(-y)
	v -= math.Ln2
	return Approx{v, e + U + U*math.Abs(v) + prop}
}

// Phi is the standard normal CDF.
func Phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// LogNormalCall is E[(e^Y − k)₊] and LogNormalPut is E[(k − e^Y)₊] for
// Y ~ N(−s²/2, s²), so that E e^Y = 1 (the Black–Scholes formulas). The
// hockey-stick divergences of Gaussian privacy-loss pairs are of this form;
// tests use them as exact values.
func LogNormalCall(k, s float64) float64 {
	if k <= 0 {
		return 1 - k
	}
	d1 := (-math.Log(k) + s*s/2) / s
	return Phi(d1) - k*Phi(d1-s)
}

// LogNormalPut is E[(k − e^Y)₊] for Y ~ N(−s²/2, s²) (see LogNormalCall).
func LogNormalPut(k, s float64) float64 {
	if k <= 0 {
		return 0
	}
	d1 := (-math.Log(k) + s*s/2) / s
	return k*Phi(-(d1-s)) - Phi(-d1)
}
