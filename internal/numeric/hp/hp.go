// Package hp is high-precision reference arithmetic for privamp's tests:
// logarithm, exponential, Gaussian tail and π on math/big floats, written
// from their textbook series so that tests can check the float64 accounting
// code against an independent computation with hundreds of bits.
//
// Nothing in privamp's accounting depends on this package; it is slow
// (microseconds to milliseconds per call) and exists to make tests that can
// fail. Every function takes the working precision in bits and returns a
// value accurate to about that many bits.
package hp

import (
	"math"
	"math/big"
	"sync"
)

// New returns x as a *big.Float with precision prec (exactly: every float64
// fits in 53 bits).
func New(x float64, prec uint) *big.Float {
	return new(big.Float).SetPrec(prec).SetFloat64(x)
}

func newF(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// Add returns a + b at precision prec.
func Add(prec uint, a, b *big.Float) *big.Float { return newF(prec).Add(a, b) }

// Sub returns a − b at precision prec.
func Sub(prec uint, a, b *big.Float) *big.Float { return newF(prec).Sub(a, b) }

// Mul returns a·b at precision prec.
func Mul(prec uint, a, b *big.Float) *big.Float { return newF(prec).Mul(a, b) }

// Quo returns a/b at precision prec.
func Quo(prec uint, a, b *big.Float) *big.Float { return newF(prec).Quo(a, b) }

// Float64 rounds x to the nearest float64.
func Float64(x *big.Float) float64 {
	f, _ := x.Float64()
	return f
}

var (
	constMu sync.Mutex
	ln2s    = map[uint]*big.Float{}
	pis     = map[uint]*big.Float{}
)

// atanhInv returns atanh(1/n) = Σ 1/((2k+1) n^{2k+1}) at precision prec.
func atanhInv(n int64, prec uint) *big.Float { return arcSeries(n, prec, false) }

// atanInv returns atan(1/n) = Σ (−1)^k/((2k+1) n^{2k+1}) at precision prec.
func atanInv(n int64, prec uint) *big.Float { return arcSeries(n, prec, true) }

// arcSeries sums Σ s_k/((2k+1) n^{2k+1}) with s_k = (−1)^k when alternate,
// else 1, until a term falls below 2^−(prec+32).
func arcSeries(n int64, prec uint, alternate bool) *big.Float {
	p := prec + 32
	x := newF(p).Quo(New(1, p), New(float64(n), p))
	n2 := New(float64(n*n), p)
	sum := newF(p).Set(x)
	pow := newF(p).Set(x)
	eps := newF(p).SetMantExp(New(1, p), -int(p))
	for k := int64(1); ; k++ {
		pow.Quo(pow, n2)
		t := newF(p).Quo(pow, New(float64(2*k+1), p))
		if alternate && k%2 == 1 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if t.Cmp(eps) < 0 {
			break
		}
	}
	return sum
}

// Ln2 returns ln 2 = 2 atanh(1/3).
func Ln2(prec uint) *big.Float {
	constMu.Lock()
	defer constMu.Unlock()
	if v, ok := ln2s[prec]; ok {
		return newF(prec).Set(v)
	}
	v := atanhInv(3, prec)
	v.Mul(v, New(2, prec+32))
	ln2s[prec] = v
	return newF(prec).Set(v)
}

// Pi returns π by Machin's formula 16 atan(1/5) − 4 atan(1/239).
func Pi(prec uint) *big.Float {
	constMu.Lock()
	defer constMu.Unlock()
	if v, ok := pis[prec]; ok {
		return newF(prec).Set(v)
	}
	p := prec + 32
	a := atanInv(5, prec)
	a.Mul(a, New(16, p))
	b := atanInv(239, prec)
	b.Mul(b, New(4, p))
	v := newF(p).Sub(a, b)
	pis[prec] = v
	return newF(prec).Set(v)
}

// atanhSeries returns 2 atanh(s) = 2 Σ s^{2k+1}/(2k+1) for |s| ≤ 1/2.
func atanhSeries(s *big.Float, p uint) *big.Float {
	sum := newF(p).Set(s)
	s2 := newF(p).Mul(s, s)
	pow := newF(p).Set(s)
	if s.Sign() == 0 {
		return sum
	}
	lim := new(big.Float).SetMantExp(New(1, p), s.MantExp(nil)-int(p)-2)
	for k := int64(1); ; k++ {
		pow.Mul(pow, s2)
		t := newF(p).Quo(pow, New(float64(2*k+1), p))
		sum.Add(sum, t)
		if new(big.Float).Abs(t).Cmp(lim) < 0 {
			break
		}
	}
	return sum.Mul(sum, New(2, p))
}

// Log returns ln x for x > 0 (NaN-free: it panics on x ≤ 0, a test bug).
func Log(x *big.Float, prec uint) *big.Float {
	if x.Sign() <= 0 {
		panic("hp.Log of a non-positive number")
	}
	p := prec + 64
	m := newF(p)
	e := x.MantExp(m) // x = m·2^e, m ∈ [0.5, 1)
	// ln m = 2 atanh((m−1)/(m+1)), |s| ≤ 1/3.
	s := newF(p).Quo(newF(p).Sub(m, New(1, p)), newF(p).Add(m, New(1, p)))
	r := atanhSeries(s, p)
	r.Add(r, newF(p).Mul(New(float64(e), p), Ln2(p)))
	return newF(prec).Set(r)
}

// Log1p returns ln(1 + x) for x > −1, without cancellation for small x:
// ln(1+x) = 2 atanh(x/(2+x)).
func Log1p(x *big.Float, prec uint) *big.Float {
	p := prec + 64
	if new(big.Float).Abs(x).Cmp(New(0.5, p)) > 0 {
		return Log(newF(p+uint(max(0, -x.MantExp(nil)))).Add(New(1, 64), x), prec)
	}
	s := newF(p).Quo(x, newF(p).Add(New(2, p), x))
	return newF(prec).Set(atanhSeries(s, p))
}

// Exp returns e^x for |x| < 2^40.
func Exp(x *big.Float, prec uint) *big.Float {
	p := prec + 64 + uint(max(0, x.MantExp(nil)))
	ln2 := Ln2(p)
	nf := newF(p).Quo(x, ln2)
	n, _ := nf.Int64()
	r := newF(p).Sub(x, newF(p).Mul(New(float64(n), p), ln2)) // |r| < ln 2
	const halvings = 20
	r.SetMantExp(r, -halvings)
	sum := New(1, p)
	term := New(1, p)
	lim := newF(p).SetMantExp(New(1, p), -int(p))
	for k := int64(1); ; k++ {
		term.Mul(term, r)
		term.Quo(term, New(float64(k), p))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(lim) < 0 {
			break
		}
	}
	for i := 0; i < halvings; i++ {
		sum.Mul(sum, sum)
	}
	sum.SetMantExp(sum, int(n))
	return newF(prec).Set(sum)
}

// Expm1 returns e^x − 1 without cancellation for small x.
func Expm1(x *big.Float, prec uint) *big.Float {
	if new(big.Float).Abs(x).Cmp(New(0.5, 64)) > 0 {
		e := Exp(x, prec+64)
		return newF(prec).Sub(e, New(1, prec))
	}
	p := prec + 64
	sum := newF(p).Set(x)
	term := newF(p).Set(x)
	if x.Sign() == 0 {
		return newF(prec)
	}
	lim := newF(p).SetMantExp(New(1, p), x.MantExp(nil)-int(p))
	for k := int64(2); ; k++ {
		term.Mul(term, x)
		term.Quo(term, New(float64(k), p))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(lim) < 0 {
			break
		}
	}
	return newF(prec).Set(sum)
}

// Sqrt returns √x for x ≥ 0.
func Sqrt(x *big.Float, prec uint) *big.Float { return newF(prec).Sqrt(x) }

// Erfc returns the complementary error function. For x < 8 it uses the
// Maclaurin series of erf with extra working precision for the series'
// cancellation (its largest term is about e^{x²}) and for 1 − erf; for
// x ≥ 8 the Laplace continued fraction
// erfc(x) = e^{−x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))),
// evaluated from the bottom with more terms until two depths agree.
func Erfc(x *big.Float, prec uint) *big.Float {
	if x.Sign() < 0 {
		nx := new(big.Float).Neg(x)
		return newF(prec).Sub(New(2, prec), Erfc(nx, prec+8))
	}
	xf := Float64(x)
	if xf < 8 {
		extra := uint(2*xf*xf*math.Log2E) + 64
		p := prec + extra
		xx := newF(p).Set(x)
		x2 := newF(p).Mul(xx, xx)
		// erf(x) = 2/√π Σ (−1)^n x^{2n+1}/(n!(2n+1))
		pow := newF(p).Set(xx) // x^{2n+1}/n!
		sum := newF(p).Set(xx)
		lim := newF(p).SetMantExp(New(1, p), -int(p))
		for n := int64(1); ; n++ {
			pow.Mul(pow, x2)
			pow.Quo(pow, New(float64(n), p))
			t := newF(p).Quo(pow, New(float64(2*n+1), p))
			if n%2 == 1 {
				sum.Sub(sum, t)
			} else {
				sum.Add(sum, t)
			}
			if n > int64(2*xf*xf)+2 && t.Cmp(lim) < 0 {
				break
			}
		}
		erf := newF(p).Quo(newF(p).Mul(sum, New(2, p)), Sqrt(Pi(p), p))
		return newF(prec).Sub(New(1, p), erf)
	}
	p := prec + 64
	cf := func(depth int) *big.Float {
		xx := newF(p).Set(x)
		t := newF(p).Set(xx)
		for n := depth; n >= 1; n-- {
			// t = x + (n/2)/t
			t = newF(p).Add(xx, newF(p).Quo(New(float64(n)/2, p), t))
		}
		return newF(p).Quo(New(1, p), t)
	}
	depth := 64
	prev := cf(depth)
	for {
		depth *= 2
		cur := cf(depth)
		d := newF(p).Sub(cur, prev)
		d.Abs(d)
		if d.Sign() == 0 || d.MantExp(nil) < cur.MantExp(nil)-int(prec)-8 || depth > 1<<16 {
			prev = cur
			break
		}
		prev = cur
	}
	xx := newF(p).Set(x)
	e := Exp(newF(p).Neg(newF(p).Mul(xx, xx)), p)
	r := newF(p).Quo(newF(p).Mul(e, prev), Sqrt(Pi(p), p))
	return newF(prec).Set(r)
}

// Phi returns the standard normal CDF Φ(x) = erfc(−x/√2)/2.
func Phi(x *big.Float, prec uint) *big.Float {
	p := prec + 16
	a := newF(p).Quo(newF(p).Neg(x), Sqrt(New(2, p), p))
	r := Erfc(a, p)
	return newF(prec).Mul(r, New(0.5, p))
}

// LogPhi returns ln Φ(x), through Log1p(−erfc(x/√2)/2) for x > 0 so that
// the upper tail keeps its relative precision.
func LogPhi(x *big.Float, prec uint) *big.Float {
	if x.Sign() <= 0 {
		return Log(Phi(x, prec+16), prec)
	}
	p := prec + 16
	a := newF(p).Quo(x, Sqrt(New(2, p), p))
	t := newF(p).Mul(Erfc(a, p), New(-0.5, p))
	return Log1p(t, prec)
}

// Neg returns −x.
func Neg(x *big.Float) *big.Float { return new(big.Float).Neg(x) }
