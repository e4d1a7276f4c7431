package shifted

import (
	"math"

	"github.com/privamp/privamp/rdp"
)

// orderSearch minimises the (ε, δ) bound of an RDP curve over the order α,
// working in y = ln(α − 1). Every order it evaluates gives a valid bound and
// it returns the best one seen, so a poor start costs tightness, never
// soundness.
type orderSearch struct {
	c     rdp.Curve
	delta float64
	conv  rdp.Conversion
	bestY float64
	bestF float64
	evals int
}

const (
	minY = -11.5 // α − 1 ≥ 1e-5
	maxY = 16.2  // α − 1 ≤ 1e7
)

// coarseGrid is ln(α − 1) at the orders scanned before a local search that
// has no trusted start: α − 1 from 0.0025 to 1.6e5.
var coarseGrid = []float64{-6, -4, -2, -1, 0, 1, 2, 3, 4, 6, 8, 10, 12}

func (o *orderSearch) f(y float64) float64 {
	y = math.Min(math.Max(y, minY), maxY)
	a := 1 + math.Exp(y)
	v := rdp.PointEpsilon(a, o.c.Epsilon(a), o.delta, o.conv)
	if math.IsNaN(v) {
		v = math.Inf(1)
	}
	o.evals++
	if v < o.bestF {
		o.bestY, o.bestF = y, v
	}
	return v
}

// optimizeOrder returns the smallest ε found and its order, starting from
// the order guess (> 1). With coarse set it first scans a geometric grid of
// orders so that a bad guess cannot trap the search.
func optimizeOrder(c rdp.Curve, delta float64, conv rdp.Conversion, guess float64, coarse bool) (eps, order float64) {
	o := &orderSearch{c: c, delta: delta, conv: conv, bestF: math.Inf(1), bestY: math.NaN()}
	y0 := math.Log(guess - 1)
	if !(guess > 1) || math.IsNaN(y0) || math.IsInf(y0, 0) {
		y0, coarse = 0, true
	}
	y0 = math.Min(math.Max(y0, minY), maxY)
	h := 0.02
	if coarse {
		o.f(y0)
		for _, y := range coarseGrid {
			o.f(y)
		}
		y0, h = o.bestY, 0.25
	}
	a, b := o.bracket(y0, h)
	o.brent(a, b, 1e-6)
	if math.IsInf(o.bestF, 1) {
		return math.Inf(1), math.NaN()
	}
	return math.Max(o.bestF, 0), 1 + math.Exp(o.bestY)
}

// bracket returns an interval around a local minimum near y0.
func (o *orderSearch) bracket(y0, h float64) (lo, hi float64) {
	f0 := o.f(y0)
	fl, fr := o.f(y0-h), o.f(y0+h)
	switch {
	case f0 <= fl && f0 <= fr:
		return y0 - h, y0 + h
	case fl < fr:
		// Walk left.
		prev, cur, fcur := y0, y0-h, fl
		for cur > minY {
			h *= 2
			next := math.Max(cur-h, minY)
			fn := o.f(next)
			if fn >= fcur {
				return next, prev
			}
			prev, cur, fcur = cur, next, fn
		}
		return minY, prev
	default:
		prev, cur, fcur := y0, y0+h, fr
		for cur < maxY {
			h *= 2
			next := math.Min(cur+h, maxY)
			fn := o.f(next)
			if fn >= fcur {
				return prev, next
			}
			prev, cur, fcur = cur, next, fn
		}
		return prev, maxY
	}
}

// brent is Brent's minimisation on [a, b] (golden section with parabolic
// steps), to absolute tolerance tol in y.
func (o *orderSearch) brent(a, b, tol float64) {
	const cgold = 0.3819660112501051
	x := o.bestY
	if !(x > a && x < b) {
		x = a + cgold*(b-a)
	}
	w, v := x, x
	fx := o.f(x)
	fw, fv := fx, fx
	var d, e float64
	for iter := 0; iter < 60; iter++ {
		xm := 0.5 * (a + b)
		tol1 := tol*math.Abs(x) + 1e-10
		tol2 := 2 * tol1
		if math.Abs(x-xm) <= tol2-0.5*(b-a) {
			return
		}
		useGolden := true
		if math.Abs(e) > tol1 && !math.IsInf(fx, 0) && !math.IsInf(fw, 0) && !math.IsInf(fv, 0) {
			r := (x - w) * (fx - fv)
			q := (x - v) * (fx - fw)
			p := (x-v)*q - (x-w)*r
			q = 2 * (q - r)
			if q > 0 {
				p = -p
			}
			q = math.Abs(q)
			etemp := e
			e = d
			if math.Abs(p) < math.Abs(0.5*q*etemp) && p > q*(a-x) && p < q*(b-x) {
				d = p / q
				u := x + d
				if u-a < tol2 || b-u < tol2 {
					d = math.Copysign(tol1, xm-x)
				}
				useGolden = false
			}
		}
		if useGolden {
			if x >= xm {
				e = a - x
			} else {
				e = b - x
			}
			d = cgold * e
		}
		u := x + d
		if math.Abs(d) < tol1 {
			u = x + math.Copysign(tol1, d)
		}
		fu := o.f(u)
		if fu <= fx {
			if u >= x {
				a = x
			} else {
				b = x
			}
			v, w, x = w, x, u
			fv, fw, fx = fw, fx, fu
		} else {
			if u < x {
				a = u
			} else {
				b = u
			}
			if fu <= fw || w == x {
				v, w = w, u
				fv, fw = fw, fu
			} else if fu <= fv || v == x || v == w {
				v, fv = u, fu
			}
		}
	}
}
