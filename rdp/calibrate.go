package rdp

import (
	"errors"
	"math"

	"github.com/privamp/privamp/internal/numeric"
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
	// Bracket outward from noise 1 (where practical noise levels live), so
	// the search never visits extreme noise it does not need: tiny noise
	// makes the subsampled Gaussian's fractional series slow.
	lo, hi := 0.5, 2.0
	for !ok(hi) {
		if hi >= 1e6 {
			return 0, DP{}, ErrUnreachable
		}
		lo, hi = hi, math.Min(hi*4, 1e6)
	}
	for lo > 1e-3 && ok(lo) {
		hi, lo = lo, math.Max(lo/4, 1e-3)
	}
	if ok(lo) { // even the smallest noise meets the target
		hi = lo
	}
	noise, err := numeric.Bisect(ok, lo, hi, 1e-6, true)
	if err != nil {
		return 0, DP{}, ErrUnreachable
	}
	dp, _ := EpsilonFor(curveFor(noise), delta, conv)
	return noise, dp, nil
}
