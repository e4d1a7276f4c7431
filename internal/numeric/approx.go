package numeric

import "math"

// Approx is a float64 value with a bound on its absolute error: the exact
// real quantity it stands for lies in [V − E, V + E]. The arithmetic below
// propagates the bound through each operation and adds the operation's own
// rounding (U for +, −, ×, ÷, √; the Err constants for library functions),
// so a formula written with Approx yields a rigorous enclosure of its exact
// value, to first order in U (second-order terms are covered by the
// constants' headroom). Up turns the result into a float64 upper bound.
//
// It is the running error analysis of Higham, "Accuracy and Stability of
// Numerical Algorithms" (2002), §3.3, done at run time.
type Approx struct{ V, E float64 }

// Exact is an Approx with no error: a float64 input taken at face value.
func Exact(x float64) Approx { return Approx{V: x} }

// Up returns a float64 ≥ the exact value.
func (a Approx) Up() float64 { return Up(a.V, a.E) }

// Down returns a float64 ≤ the exact value.
func (a Approx) Down() float64 { return Down(a.V, a.E) }

func rnd(v float64) float64 { return U * math.Abs(v) }

// Add returns a + b.
func (a Approx) Add(b Approx) Approx {
	v := a.V + b.V
	return Approx{v, a.E + b.E + rnd(v)}
}

// Sub returns a − b.
func (a Approx) Sub(b Approx) Approx {
	v := a.V - b.V
	return Approx{v, a.E + b.E + rnd(v)}
}

// Neg returns −a, exactly.
func (a Approx) Neg() Approx { return Approx{-a.V, a.E} }

// Mul returns a·b.
func (a Approx) Mul(b Approx) Approx {
	v := a.V * b.V
	return Approx{v, math.Abs(a.V)*b.E + math.Abs(b.V)*a.E + a.E*b.E + rnd(v)}
}

// Scale returns a·c for an exact constant c.
func (a Approx) Scale(c float64) Approx {
	v := a.V * c
	return Approx{v, math.Abs(c)*a.E + rnd(v)}
}

// Div returns a/b; the error is +Inf when b's enclosure contains 0.
func (a Approx) Div(b Approx) Approx {
	v := a.V / b.V
	d := math.Abs(b.V) - b.E
	if !(d > 0) {
		return Approx{v, math.Inf(1)}
	}
	return Approx{v, (a.E+math.Abs(v)*b.E)/d + rnd(v)}
}

// Log returns ln a (error +Inf when a's enclosure reaches 0). Subnormal a
// is handled as in Log.
func (a Approx) Log() Approx {
	v := Log(a.V)
	d := a.V - a.E
	if !(d > 0) {
		return Approx{v, math.Inf(1)}
	}
	return Approx{v, a.E/d + ErrLog*math.Abs(v)}
}

// Log1p returns ln(1 + a).
func (a Approx) Log1p() Approx {
	v := math.Log1p(a.V)
	d := 1 + a.V - a.E
	if !(d > 0) {
		return Approx{v, math.Inf(1)}
	}
	return Approx{v, a.E/d + ErrLog1p*math.Abs(v)}
}

// Exp returns e^a. Below 2^−1022 the result is subnormal and only
// absolutely accurate: 2^−1074 is added to the bound.
func (a Approx) Exp() Approx {
	v := math.Exp(a.V)
	if a.E > 1 {
		return Approx{v, math.Inf(1)}
	}
	return Approx{v, (ErrExp+a.E*(1+a.E))*v*(1+ErrExp) + 0x1p-1074}
}

// Expm1 returns e^a − 1.
func (a Approx) Expm1() Approx {
	v := math.Expm1(a.V)
	if a.E > 1 {
		return Approx{v, math.Inf(1)}
	}
	// e^V = 1 + expm1(V) ≤ 1 + v + ErrExpm1·|v|
	return Approx{v, (1+v+ErrExpm1*math.Abs(v))*a.E*(1+a.E)*(1+ErrExpm1) + ErrExpm1*math.Abs(v)}
}

// Sqrt returns √a for a ≥ 0.
func (a Approx) Sqrt() Approx {
	v := math.Sqrt(a.V)
	if a.V > a.E {
		return Approx{v, a.E/(v+math.Sqrt(a.V-a.E)) + rnd(v)}
	}
	return Approx{v, math.Sqrt(a.V+a.E) + rnd(v)}
}
