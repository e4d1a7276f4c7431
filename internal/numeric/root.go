package numeric

import (
	"errors"
	"math"
)

// ErrNoBracket is returned when a monotone function never crosses the target
// inside the search range.
var ErrNoBracket = errors.New("no solution inside the search range")

// Bisect finds the boundary of {x ∈ [lo, hi] : ok(x)} for a predicate that is
// monotone: false below some x* and true above it (or the reverse when
// increasing is false). It returns a point at which ok holds, within relTol
// (relative) of the boundary, so the answer is always on the safe side: a
// caller that asks "is the target met?" gets an x that meets it. Bisection is
// done on ln x when lo > 0, so brackets spanning decades converge quickly.
func Bisect(ok func(x float64) bool, lo, hi, relTol float64, increasing bool) (float64, error) {
	if !(lo < hi) || math.IsNaN(lo) || math.IsNaN(hi) {
		return math.NaN(), errors.New("bisect: need lo < hi")
	}
	good, bad := hi, lo
	if !increasing {
		good, bad = lo, hi
	}
	if !ok(good) {
		return math.NaN(), ErrNoBracket
	}
	if ok(bad) {
		return bad, nil
	}
	logScale := lo > 0
	for i := 0; i < 200; i++ {
		var mid float64
		if logScale {
			mid = math.Sqrt(good) * math.Sqrt(bad) // no overflow near MaxFloat64
		} else {
			mid = 0.5 * (good + bad)
		}
		if mid == good || mid == bad {
			break
		}
		if ok(mid) {
			good = mid
		} else {
			bad = mid
		}
		if math.Abs(good-bad) <= relTol*math.Abs(good) {
			break
		}
	}
	return good, nil
}

// MinimizeUnimodal minimises f on [lo, hi] by golden-section search and
// returns the best point seen and its value. f need not be unimodal for the
// answer to be useful to privamp: every point evaluated is a valid bound, and
// the minimum over the points seen is returned.
func MinimizeUnimodal(f func(float64) float64, lo, hi float64, iters int) (xBest, fBest float64) {
	const invPhi = 0.6180339887498949
	xBest, fBest = lo, f(lo)
	consider := func(x float64) float64 {
		v := f(x)
		if v < fBest || math.IsNaN(fBest) {
			xBest, fBest = x, v
		}
		return v
	}
	consider(hi)
	a, b := lo, hi
	c := b - invPhi*(b-a)
	d := a + invPhi*(b-a)
	fc, fd := consider(c), consider(d)
	for i := 0; i < iters; i++ {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - invPhi*(b-a)
			fc = consider(c)
		} else {
			a, c, fc = c, d, fd
			d = a + invPhi*(b-a)
			fd = consider(d)
		}
	}
	return xBest, fBest
}

// SolveUp returns the smallest x in [min, max] at which the predicate ok
// holds, for an ok that is false below some x* and true above it, to within
// relTol and on the safe side (ok holds at the answer, as in Bisect). The
// search starts from a guess x0 > 0 and brackets x* geometrically: by a
// factor f > 1, squared at every further step (capped at 16), so a guess
// that is off by decades costs a few steps and a close one (f near 1) a
// narrow bracket; then it bisects with Bisect. ok is called at most once
// per x. If ok(min) holds, min is returned with ErrBelowMin; if ok(max)
// fails, ErrNoBracket.
func SolveUp(ok func(x float64) bool, x0, f, min, max, relTol float64) (float64, error) {
	if !(0 < min && min < max && f > 1) || math.IsNaN(x0) {
		return math.NaN(), errors.New("solve: need 0 < min < max and f > 1")
	}
	memo := map[float64]bool{}
	okm := func(x float64) bool {
		v, seen := memo[x]
		if !seen {
			v = ok(x)
			memo[x] = v
		}
		return v
	}
	x0 = math.Min(math.Max(x0, min), max)
	var lo, hi float64
	if okm(x0) {
		hi = x0
		for g := f; ; g = math.Min(g*g, 16) {
			if hi <= min {
				return min, ErrBelowMin
			}
			if lo = math.Max(hi/g, min); !okm(lo) {
				break
			}
			hi = lo
		}
	} else {
		lo = x0
		for g := f; ; g = math.Min(g*g, 16) {
			if lo >= max {
				return math.NaN(), ErrNoBracket
			}
			if hi = math.Min(lo*g, max); okm(hi) {
				break
			}
			lo = hi
		}
	}
	return Bisect(okm, lo, hi, relTol, true)
}

// ErrBelowMin is returned by SolveUp when the predicate already holds at
// the bottom of the search range.
var ErrBelowMin = errors.New("the condition holds at the bottom of the search range")
