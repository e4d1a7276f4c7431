package rdp

import (
	"errors"
	"math"

	"github.com/privamp/privamp/dp"
)

// ErrUnreachable is returned when no noise level in [1e-3, 1e6] meets the
// target.
var ErrUnreachable = errors.New("target not reachable for noise in [1e-3, 1e6]")

// Calibrate returns the smallest noise (to relative precision 1e-6) for which
// curveFor(noise) implies (targetEps, delta)-DP under conv, and the guarantee
// at that noise. curveFor must give curves whose ε decreases as the noise
// grows. The returned noise always meets the target: bisection keeps the
// upper end of the bracket, at which the target was verified.
func Calibrate(curveFor func(noise float64) Curve, targetEps, delta float64, conv Conversion) (float64, DP, error) {
	if !(delta > 0 && delta < 1) {
		return 0, DP{}, ErrDelta
	}
	if !(targetEps > 0) || math.IsInf(targetEps, 1) {
		return 0, DP{}, errors.New("target epsilon must be finite and > 0")
	}
	ok := func(noise float64) bool {
		dp, err := EpsilonFor(curveFor(noise), delta, conv)
		return err == nil && dp.Epsilon <= targetEps
	}
	noise, err := CalibrationSearch.Solve(ok)
	if err != nil && err != dp.ErrBelowMin {
		return 0, DP{}, ErrUnreachable
	}
	r, _ := EpsilonFor(curveFor(noise), delta, conv)
	return noise, r, nil
}

// CalibrationSearch is where RDP calibrations look for the noise: from 1
// (where practical noise levels live, so the search never visits extreme
// noise it does not need: tiny noise makes the subsampled Gaussian's
// fractional series slow), in [1e-3, 1e6], to a relative 1e-6.
var CalibrationSearch = dp.Search{Guess: 1, Factor: 2, Min: 1e-3, Max: 1e6, RelTol: 1e-6}
