package shifted

import (
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// calibrateMaxSigma is the largest σ CalibrateSigma tries.
const calibrateMaxSigma = 1e12

// CalibrateSigma returns the smallest σ for which the run's guarantee
// (Guarantee, with every other field as given and δ = r.Delta) meets the
// targets: the worst-case ε over the private indices is ≤ worst (when
// worst ≥ 0; a negative worst sets no worst-case target) and ε_t ≤ per[t]
// for every index t in per. It is privamp's one calibration of σ for a run:
// the σ a plan-free run calibrates (package optimizer) and the σ that would
// make a claim true (package verify).
//
// ε_t is the RDP curve of index t (FMTT18 Thm 22 through Guarantee)
// converted at δ by the improved conversion (Balle et al. 2020, Thm 21;
// Epsilon, optimised over real orders; every order is a valid bound). Each ε_t is
// non-increasing in σ, so the set of σ that meet the targets is an interval
// [σ*, ∞); σ* is found by bisection on ln σ to relative precision 1e-7 and
// the answer is always on the safe side: the targets hold at the returned σ.
// Errors are *dp.Error: the run does not validate (at σ = 1 when r.Sigma
// is 0), or no σ ≤ 10¹² meets the targets (field "sigma").
func (r Training) CalibrateSigma(worst float64, per map[int64]float64) (float64, error) {
	probe := r
	if !(probe.Sigma > 0) {
		probe.Sigma = 1
	}
	if err := probe.Validate(); err != nil {
		return math.NaN(), err
	}
	ok := func(sigma float64) bool {
		t := r
		t.Sigma = sigma
		g, err := t.Guarantee()
		if err != nil {
			return false
		}
		if worst >= 0 {
			if e, err := indexEpsilon(g, WorstIndex(g), r.Delta); err != nil || e > worst {
				return false
			}
		}
		for i, want := range per {
			if e, err := indexEpsilon(g, i, r.Delta); err != nil || e > want {
				return false
			}
		}
		return true
	}
	hi := math.Max(probe.Sigma, 1e-6)
	for !ok(hi) {
		hi *= 4
		if hi > calibrateMaxSigma {
			return math.Inf(1), field.New("sigma", math.Inf(1), "no σ ≤ %g meets the target ε", calibrateMaxSigma)
		}
	}
	sigma, err := numeric.Bisect(ok, hi*1e-9, hi, 1e-7, true)
	if err != nil {
		return hi, nil
	}
	return sigma, nil
}

// WorstIndex returns an index where g is weakest: ε_t is monotone in t
// (PerPerson.Monotone), so it is the last index when ε_t increases and the
// first otherwise.
func WorstIndex(g PerPerson) int64 {
	if g.Monotone() == 1 {
		return g.Len()
	}
	return 1
}

// indexEpsilon is index t's ε at δ by the improved conversion: Epsilon, the
// same per-index answer every command reports, so a calibrated σ meets the
// target as the target is then checked.
func indexEpsilon(g PerPerson, t int64, delta float64) (float64, error) {
	dp, err := Epsilon(g, t, delta, rdp.Improved)
	return dp.Epsilon, err
}
