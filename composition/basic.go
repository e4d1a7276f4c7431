package composition

import (
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/numeric"

	"errors"
	"fmt"
	"math"
)

// ErrK is returned when the number of compositions is not a positive integer
// in [1, MaxK].
// Its text is a constant (TestErrKText checks it against MaxK): formatting
// it at initialisation brought fmt's code into every privamp process's
// start-up (issue 27).
var ErrK = errors.New("k must be an integer in [1, 10000000]")

// MaxK is the largest number of compositions the package accepts.
const MaxK = 10_000_000

// checkEps reports ε that is negative or NaN (+Inf is allowed where noted).
func checkEps(name string, eps float64, allowInf bool) error {
	if math.IsNaN(eps) || eps < 0 || (!allowInf && math.IsInf(eps, 1)) {
		if allowInf {
			return fmt.Errorf("%s must be ≥ 0, got %v", name, eps)
		}
		return fmt.Errorf("%s must be finite and ≥ 0, got %v", name, eps)
	}
	return nil
}

// checkMechDelta reports a per-mechanism δ outside [0, 1); δ = 0 is pure DP.
func checkMechDelta(name string, d float64) error {
	if !(d >= 0 && d < 1) {
		return fmt.Errorf("%s must be in [0, 1) (0 means pure DP), got %v", name, d)
	}
	return nil
}

// checkOpenDelta reports δ outside (0, 1).
func checkOpenDelta(name string, d float64) error {
	if !(d > 0 && d < 1) {
		return fmt.Errorf("%s must be in (0, 1), got %v", name, d)
	}
	return nil
}

func checkK(k int) error {
	if k < 1 || k > MaxK {
		return ErrK
	}
	return nil
}

// Basic returns the basic composition of the guarantees: (Σε_i, Σδ_i)
// (Dwork–Roth 2014, Thm 3.16; used in seed 001, Thms 4.1 and B.1). It holds
// under adaptive composition. The sums are compensated (Neumaier), so a long
// list loses no precision; a total δ ≥ 1 is returned as is and is vacuous.
// Each ε must be ≥ 0 (+Inf allowed) and each δ in [0, 1].
func Basic(gs ...dp.Guarantee) (dp.Guarantee, error) {
	if len(gs) == 0 {
		return dp.Guarantee{}, errors.New("basic composition needs at least one guarantee")
	}
	var se, sd numeric.Kahan
	for i, g := range gs {
		if err := checkEps(fmt.Sprintf("epsilon of guarantee %d", i+1), float64(g.Epsilon), true); err != nil {
			return dp.Guarantee{}, err
		}
		if !(g.Delta >= 0 && g.Delta <= 1) {
			return dp.Guarantee{}, fmt.Errorf("delta of guarantee %d must be in [0, 1], got %v", i+1, g.Delta)
		}
		se.Add(float64(g.Epsilon))
		sd.Add(float64(g.Delta))
	}
	return dp.Guarantee{Epsilon: dp.Loss(se.Sum()), Delta: dp.Loss(sd.Sum()), Source: SourceBasic}, nil
}

// BasicRepeat returns the basic composition of k copies of (ε, δ): (kε, kδ).
func BasicRepeat(eps, delta float64, k int) (dp.Guarantee, error) {
	if err := firstErr(checkEps("epsilon", eps, true), checkMechDelta("delta", delta), checkK(k)); err != nil {
		return dp.Guarantee{}, err
	}
	return dp.Guarantee{Epsilon: dp.Loss(float64(k) * eps), Delta: dp.Loss(float64(k) * delta), Source: SourceBasic}, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
