package composition

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/numeric"
)

// PoissonSubsample returns the guarantee of running an (ε, δ)-DP mechanism on
// a Poisson subsample that keeps each record independently with probability q
// ∈ (0, 1], for add/remove-one neighbours (Li–Qardaji–Su 2012, Thm 1;
// Balle–Barthe–Gaboardi 2018, Thm 8):
//
//	ε_q = ln(1 + q(e^ε − 1)),  δ_q = qδ.
//
// It uses log1p/expm1 for small ε and ln((1−q) + q e^ε) in log space for
// large ε, so it never overflows; ε = +Inf gives +Inf.
func PoissonSubsample(g dp.Guarantee, q float64) (dp.Guarantee, error) {
	ge := float64(g.Epsilon)
	if err := firstErr(checkEps("epsilon", ge, true), checkMechDelta("delta", float64(g.Delta))); err != nil {
		return dp.Guarantee{}, err
	}
	if !(q > 0 && q <= 1) {
		return dp.Guarantee{}, fmt.Errorf("sampling rate q must be in (0, 1], got %v", q)
	}
	var e float64
	switch {
	case math.IsInf(ge, 1):
		e = ge
	case ge < 1:
		e = math.Log1p(q * math.Expm1(ge))
	default:
		e = numeric.LogAdd(math.Log1p(-q), numeric.Log(q)+ge)
	}
	return dp.Guarantee{Epsilon: dp.Loss(e), Delta: dp.Loss(q * float64(g.Delta)), Source: "Li–Qardaji–Su 2012, Thm 1; Balle–Barthe–Gaboardi 2018, Thm 8 (Poisson subsampling, add/remove)"}, nil
}

// SubsetSample returns 2γε', the guarantee of seed 001, Lemma 2.2 (Beimel,
// Brenner, Kasiviswanathan, Nissim 2014, Lemma 4): an ε'-DP algorithm run on a
// uniformly random subset of γn of the n entries (replace-one neighbours) is
// 2γε'-DP. The lemma holds only for ε' ≤ 1; outside [0, 1] it returns an
// error rather than a number no proof supports. γ must be in (0, 1]. (For
// γ > 1/2 the bound exceeds ε', which holds without any sampling.)
func SubsetSample(epsPrime, gamma float64) (float64, error) {
	if math.IsNaN(epsPrime) || epsPrime < 0 || epsPrime > 1 {
		return 0, fmt.Errorf("seed 001 Lemma 2.2 (Beimel et al.) holds only for epsilon' in [0, 1], got %v", epsPrime)
	}
	if !(gamma > 0 && gamma <= 1) {
		return 0, fmt.Errorf("sampling fraction gamma must be in (0, 1], got %v", gamma)
	}
	return 2 * gamma * epsPrime, nil
}
