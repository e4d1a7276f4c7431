package algorithms

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dp"
)

// Defaults an algorithm takes for a problem input the caller did not give
// (Input.Set): declared constants, never read from the records, so every
// pair of neighbouring data sets gets the same ones.
const (
	// DefaultL2 is the ℓ2 weight Δ of the algorithms that need a strongly
	// convex loss (output-perturbation, bst14-localize) when none is given:
	// seed 001 Algorithm 3 needs Δ > 0, and at the default problem (n =
	// 1000 synthetic logistic records, dimension 2 or 10, R = 1, ε = 1) this
	// weight makes both beat the data-free output θ = 0.
	DefaultL2 = 0.1
	// ExactSamplerDimension is the synthetic dimension of the algorithms
	// whose sampler is exact in one or two dimensions only (bst14-expmech,
	// bst14-localize) when no dimension is given: one, where the sampler
	// needs about εn/2 cells (0.1 s at n = 1000); in two it needs (εn/√2)²
	// (about 20 s).
	ExactSamplerDimension = 1
	// maxBreakEvenN is the largest n BreakEvenN searches.
	maxBreakEvenN = 1e8
)

// withSynthetic returns in with the synthetic data set kind when the caller
// gave neither a data file nor a synthetic kind, and the note saying so.
func withSynthetic(in Input, kind string) (Input, []string) {
	if in.Data.Path != "" || in.Data.Synthetic != "" || in.Set["synthetic"] {
		return in, nil
	}
	in.Data.Synthetic = kind
	return in, []string{fmt.Sprintf("no data given: the algorithm's own synthetic data %q (n = %d, dimension %d, data seed %d)", kind, in.Data.N, in.Data.Dimension, in.Data.Seed)}
}

// withL2 returns in with the ℓ2 weight DefaultL2 when the caller gave none,
// and the note saying so.
func withL2(in Input) (Input, []string) {
	if in.Loss.L2 != 0 || in.Set["l2"] {
		return in, nil
	}
	in.Loss.L2 = DefaultL2
	return in, []string{fmt.Sprintf("no ℓ2 weight given: the default l2 = %g (a declared constant: the algorithm needs a strongly convex loss; the output minimises the regularised loss)", DefaultL2)}
}

// withExactDimension returns in with ExactSamplerDimension for synthetic
// data when the caller gave no dimension, and the note saying so.
func withExactDimension(in Input) (Input, []string) {
	if in.Data.Path != "" || in.Set["dimension"] || in.Data.Dimension <= ExactSamplerDimension {
		return in, nil
	}
	in.Data.Dimension = ExactSamplerDimension
	return in, []string{fmt.Sprintf("no dimension given: synthetic dimension %d (the exact sampler works in one or two dimensions; give dimension 2 for the plane)", ExactSamplerDimension)}
}

// BreakEvenN returns the smallest n ≥ from (to 0.1%, rounded up) at which
// bound(n) ≤ target, for a bound that falls as n grows, found by the one
// bisection (dp.Search); false when not even n = 10^8 meets it.
func BreakEvenN(from int, bound func(n int) float64, target float64) (int, bool) {
	s := dp.Search{Guess: float64(from), Factor: 2, Min: float64(from), Max: maxBreakEvenN, RelTol: 1e-3}
	x, err := s.Solve(func(x float64) bool { return bound(int(math.Ceil(x))) <= target })
	if err != nil && err != dp.ErrBelowMin {
		return 0, false
	}
	return int(math.Ceil(x)), true
}

// worse reports whether a check of r found the output worse than the
// data-free output (dp.Worse).
func worse(r *Report) bool {
	for _, c := range r.Checks {
		if c.Status == dp.Worse {
			return true
		}
	}
	return false
}

// sayWorse adds, when a check of r found the output worse than the
// data-free one, the note that says so plainly and at which n the explicit
// bound (bound, of declared values and n only; named what) falls below the
// data-free output's measured value baseline: a measured number, as the
// baseline is, never part of the certificate. bound nil: the paper's
// bound has unknown constants (why says which), so no n is given.
func sayWorse(r *Report, n int, what string, bound func(n int) float64, baseline float64, why string) {
	if !worse(r) {
		return
	}
	msg := fmt.Sprintf("at n = %d and this ε the run does not beat the data-free output (verdict WORSE, exit 0): ", n)
	switch {
	case bound == nil:
		msg += why + ", so no n at which it would is given"
	default:
		at := bound(n)
		if m, ok := BreakEvenN(n, bound, baseline); ok {
			msg += fmt.Sprintf("%s is %.4g here and falls below the data-free output's measured %.4g at n ≈ %d (same ε, δ and dimensions, the algorithm's defaults at each n; measured, not covered by the certificate)", what, at, baseline, m)
		} else {
			msg += fmt.Sprintf("%s is %.4g here and stays above the data-free output's measured %.4g up to n = %.0g", what, at, baseline, float64(maxBreakEvenN))
		}
	}
	r.Notes = append(r.Notes, msg)
}
