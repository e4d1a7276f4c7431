// Package quantity formats numbers for a person to read: to nearest, or
// rounded up or down so that the printed digits never cross the value in
// the unsafe direction. Package dp's rounding kinds (Loss, Max, Noise, Num)
// print through it.
package quantity

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// NoFinite is how an infinite privacy loss is printed.
const NoFinite = "no finite guarantee"

// Nearest formats x with 6 significant digits; ∞ for +Inf.
func Nearest(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "-∞"
	case math.IsNaN(x):
		return "undefined"
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// Up formats x with 6 significant digits, rounded toward +∞: the printed
// number is never below x.
func Up(x float64) string { return directed(x, 1) }

// Down formats x with 6 significant digits, rounded toward −∞: the printed
// number is never above x.
func Down(x float64) string { return directed(x, -1) }

// directed rounds the decimal mantissa, not the binary value: it prints the
// nearest 6-digit decimal and, if that lies on the wrong side of x, steps it
// by one unit in the last printed digit.
func directed(x float64, dir int) string {
	if math.IsInf(x, 0) || math.IsNaN(x) || x == 0 {
		return Nearest(x)
	}
	if x < 0 {
		return "-" + directed(-x, -dir)
	}
	s := strconv.FormatFloat(x, 'e', 5, 64) // d.ddddde±xx
	// Compare in float space: the decimal's float is within half an ulp of
	// it, and every value reaching here was rounded outward by its
	// computation's error bound (at least an ulp), so the printed digits
	// stay on the safe side of the real value. Comparing the decimal itself
	// would print δ = 1e-5 (whose float is 1.0000000000000000818e-5) as
	// 1.00001e-05.
	if v, _ := strconv.ParseFloat(s, 64); (dir > 0 && v >= x) || (dir < 0 && v <= x) {
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	mant, exp, _ := strings.Cut(s, "e")
	m, _ := strconv.Atoi(strings.Replace(mant, ".", "", 1))
	e, _ := strconv.Atoi(exp)
	m += dir
	switch m {
	case 1_000_000:
		m, e = 100_000, e+1
	case 99_999:
		m, e = 999_999, e-1
	}
	// Printing the float nearest to the stepped decimal with 6 digits gives
	// back that decimal's digits.
	v, _ := strconv.ParseFloat(strconv.Itoa(m)+"e"+strconv.Itoa(e-5), 64)
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// Int formats a whole number without exponent up to 10¹⁵.
func Int(x float64) string {
	if math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return Nearest(x)
}

// Count writes n with the singular or plural noun: "1 person", "2 people".
func Count[T ~int | ~int64](n T, one, many string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
