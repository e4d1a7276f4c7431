package composition

import "github.com/privamp/privamp/dp"

// Advanced returns the advanced ("strong") composition of k adaptively chosen
// (ε, δ)-DP mechanisms (Dwork–Rothblum–Vadhan 2010, Thm III.3; Dwork–Roth
// 2014, Thm 3.20; the form of seed 001, Lemma 2.3):
//
//	ε' = √(2k ln(1/δ'))·ε + kε(e^ε − 1),  total δ = kδ + δ'.
//
// e^ε − 1 is computed with expm1. δ' must be in (0, 1), δ in [0, 1), ε ≥ 0
// and finite, k in [1, MaxK]. For large ε the second term makes ε' worse than
// basic composition (kε); Best reports the smaller.
func Advanced(eps, delta float64, k int, deltaPrime float64) (dp.Guarantee, error) {
	if err := firstErr(checkEps("epsilon", eps, false), checkMechDelta("delta", delta),
		checkK(k), checkOpenDelta("delta'", deltaPrime)); err != nil {
		return dp.Guarantee{}, err
	}
	kf := float64(k)
	return dp.Guarantee{Epsilon: dp.Loss(AdvancedEpsilon(eps, kf, deltaPrime)), Delta: dp.Loss(kf*delta + deltaPrime), Source: SourceAdvanced}, nil
}
