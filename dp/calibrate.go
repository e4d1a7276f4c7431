package dp

import (
	"errors"
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// Search says where a calibration looks for the noise level: it starts at
// Guess (> 0; 1 if unset), brackets the answer geometrically by Factor (> 1;
// 2 if unset), squared at each further step, within [Min, Max], and bisects
// the bracket to relative tolerance RelTol, keeping the end at which the
// target was verified.
type Search struct {
	Guess, Factor, Min, Max, RelTol float64
}

// ErrBelowMin is Search.Solve's answer when the target is already met at
// Min (the returned noise is Min, which meets it).
var ErrBelowMin = numeric.ErrBelowMin

// ErrNoNoise is Search.Solve's answer when not even Max meets the target.
var ErrNoNoise = errors.New("the target is not met at the largest noise searched")

// Solve returns the smallest noise z in [Min, Max], to within RelTol and on
// the safe side, at which ok holds, for an ok that fails below some z* and
// holds above it (more noise, less privacy loss): the one bisection
// (internal/numeric.SolveUp, numeric.Bisect) every calibration of privamp
// runs. ok is called at most once per z.
func (s Search) Solve(ok func(z float64) bool) (float64, error) {
	if !(s.Guess > 0) || math.IsInf(s.Guess, 0) {
		s.Guess = 1
	}
	if !(s.Factor > 1) {
		s.Factor = 2
	}
	z, err := numeric.SolveUp(ok, s.Guess, s.Factor, s.Min, s.Max, s.RelTol)
	switch {
	case err == ErrBelowMin:
		return z, err
	case err != nil:
		return math.NaN(), ErrNoNoise
	}
	return z, nil
}

// Calibrate returns the smallest noise z found by s at which the
// accountant a certifies ε ≤ target at delta for the event family(z) under
// r (an event whose ε falls as z grows, such as DPSGD with z the noise
// multiplier), and a's guarantee there: the answer always meets the target.
// Where the target is met at s.Min it returns s.Min with ErrBelowMin; where
// not even at s.Max, ErrNoNoise.
func Calibrate(a Accountant, family func(z float64) Event, r Relation, delta, target float64, s Search) (float64, Guarantee, error) {
	memo := map[float64]Guarantee{}
	ok := func(z float64) bool {
		g, err := a.Epsilon(family(z), r, delta)
		if err != nil {
			g.Epsilon = Loss(math.Inf(1))
		}
		memo[z] = g
		return float64(g.Epsilon) <= target
	}
	z, err := s.Solve(ok)
	if err != nil && err != ErrBelowMin {
		return 0, Guarantee{}, err
	}
	g, seen := memo[z]
	if !seen {
		ok(z)
		g = memo[z]
	}
	if !(float64(g.Epsilon) <= target) { // never an uncertified answer, whatever the search did
		return 0, Guarantee{}, ErrNoNoise
	}
	return z, g, err
}
