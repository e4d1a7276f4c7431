// Package numeric holds the log-space arithmetic and special functions that
// privamp's accounting packages share: sums and differences of exponentials,
// logarithms of binomial coefficients and of the Gaussian tail, and a
// bracketing root finder. Every function is total: it returns ±Inf or NaN
// only where documented, never panics, and callers decide how to label them.
//
// It also holds what keeps rounding on the safe side: Approx, a value with
// a bound on its absolute error carried through each operation (running
// error analysis), the error constants of the math library functions it
// rests on (re-measured by the tests), exactly upward-rounded +, × and ÷
// (AddUp, MulUp, DivUp), ExpUp, and Log, which unlike Go's amd64 math.Log
// is right for subnormal arguments. The subpackage hp is a 200-bit
// reference used only by tests.
package numeric
