// Package numeric holds the log-space arithmetic and special functions that
// privamp's accounting packages share: sums and differences of exponentials,
// logarithms of binomial coefficients and of the Gaussian tail, and a
// bracketing root finder. Every function is total: it returns ±Inf or NaN
// only where documented, never panics, and callers decide how to label them.
package numeric
