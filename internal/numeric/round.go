package numeric

import "math"

// U is the unit roundoff of float64, 2^−53: a correctly rounded operation
// (+, −, ×, ÷, √, FMA) returns x(1 + η) with |η| ≤ U.
const U = 0x1p-53

// Relative error bounds of the Go math library functions privamp's bounds
// are built from: |f̂(x) − f(x)| ≤ Err·|f(x)| for every float64 x in the
// domain. Go documents none of them; they are twice the largest error
// measured against 300-bit references on random arguments over the whole
// range (TestLibraryErrorBounds re-measures them, so a platform whose
// library is worse fails that test): Log 0.52 ulp, Log1p 0.70, Expm1 0.73,
// Erf 0.61, Exp 1.54 (the amd64 assembly) and Erfc 3.65 (near x = 0.84,
// where erfc = 1 − erf loses bits). One ulp is at most 2U relative.
const (
	ErrLog   = 3 * U
	ErrLog1p = 3 * U
	ErrExpm1 = 3 * U
	ErrErf   = 3 * U
	ErrExp   = 6 * U
	ErrErfc  = 16 * U
)

// errOfErr inflates a computed error bound for the rounding of its own
// computation (a few U relative): bounds are evaluated in float64 too.
const errOfErr = 1 + 0x1p-20

// Log returns ln x like math.Log, but also for subnormal x, where Go's
// amd64 math.Log returns about −709.09 for every x below 2^−1022 (the true
// ln 10^−310 is −713.8): a subnormal is scaled by 2^54 first. Its error is
// within ErrLog·|ln x| everywhere.
func Log(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// NegLogUp returns an upper bound on ln(1/x) for x in (0, 1], valid for
// subnormal x: the L = ln(1/δ) every conversion needs, rounded so that the
// ε computed from it is never optimistic.
func NegLogUp(x float64) float64 {
	l := -Log(x)
	return Up(l, ErrLog*math.Abs(l))
}

// Up returns a float64 ≥ v + e (exact real sum), for an error bound e ≥ 0:
// the value a computation with absolute error at most e may be short of.
// e is inflated by 2^−20 relative for its own rounding. Up(v, 0) = v.
func Up(v, e float64) float64 {
	if e == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	if math.IsNaN(e) || math.IsInf(e, 1) {
		return math.Inf(1)
	}
	return math.Nextafter(v+e*errOfErr, math.Inf(1))
}

// Down returns a float64 ≤ v − e: the mirror image of Up.
func Down(v, e float64) float64 { return -Up(-v, e) }

// AddUp returns the smallest float64 ≥ a + b (exact sum), using Knuth's
// error-free TwoSum to see on which side a + b was rounded.
func AddUp(a, b float64) float64 {
	s := a + b
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return overflowUp(s, a, b)
	}
	bb := s - a
	if (a-(s-bb))+(b-bb) > 0 {
		return math.Nextafter(s, math.Inf(1))
	}
	return s
}

// MulUp returns the smallest float64 ≥ a·b (exact product): the FMA gives
// the exact residual a·b − fl(a·b). Products below 2^−960, where the
// residual itself may underflow, are moved up one ulp unless a or b is 0.
func MulUp(a, b float64) float64 {
	p := a * b
	if math.IsInf(p, 0) || math.IsNaN(p) {
		return overflowUp(p, a, b)
	}
	if math.Abs(p) < 0x1p-960 {
		if a == 0 || b == 0 {
			return p
		}
		return math.Nextafter(p, math.Inf(1))
	}
	if math.FMA(a, b, -p) > 0 {
		return math.Nextafter(p, math.Inf(1))
	}
	return p
}

// DivUp returns the smallest float64 ≥ a/b (exact quotient) for b ≠ 0: the
// remainder a − q·b is exact (FMA), and its sign against b's tells on which
// side q lies (operands below 2^−900 are first scaled by 2^600, exactly,
// so that the remainder is representable). Quotients below 2^−960 are
// moved up one ulp unless exact zero.
func DivUp(a, b float64) float64 {
	q := a / b
	if math.IsInf(q, 0) || math.IsNaN(q) {
		if b == 0 {
			return q
		}
		return overflowUp(q, a, b)
	}
	if (math.Abs(a) < 0x1p-900 || math.Abs(b) < 0x1p-900) && math.Abs(b) < 0x1p400 && math.Abs(a) < 0x1p400 {
		a, b = a*0x1p600, b*0x1p600 // exact; makes the remainder below exact
	}
	if math.Abs(q) < 0x1p-960 || math.Abs(b) > 0x1p960 {
		if a == 0 {
			return q
		}
		return math.Nextafter(q, math.Inf(1))
	}
	r := math.FMA(-q, b, a) // a − q·b, exact
	if (r > 0) == (b > 0) && r != 0 {
		return math.Nextafter(q, math.Inf(1))
	}
	return q
}

// overflowUp maps a −Inf that finite operands overflowed to (an exact value
// below −MaxFloat64) to −MaxFloat64, which is above it.
func overflowUp(r, a, b float64) float64 {
	if math.IsInf(r, -1) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		return -math.MaxFloat64
	}
	return r
}

// ExpUp returns a float64 ≥ e^x (exact x). In the subnormal range, where
// math.Exp rounds a normal intermediate once to a multiple of 2^−1074, it
// is the next multiple up (so e^x below 2^−1075 gives 2^−1074, the
// smallest positive float64, not 0).
func ExpUp(x float64) float64 {
	v := math.Exp(x)
	if math.IsNaN(v) || math.IsInf(v, 1) {
		return v
	}
	if v >= 0x1p-1022 {
		return Up(v, ErrExp*v)
	}
	return v + 0x1p-1074 // exact: a subnormal plus one subnormal ulp
}
