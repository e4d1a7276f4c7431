package verify

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dp"
)

// DeltaCheckName is the name of DeltaCheck's check.
const DeltaCheckName = "δ < 1/n"

// DeltaCheck checks that a guarantee's δ is below 1/n for n people: an
// (ε, δ) statement with δ ≥ 1/n is met by the mechanism that publishes each
// record in full with probability δ (it is (0, δ)-DP and publishes nδ ≥ 1
// records on average), so it protects nobody (Dwork and Roth 2014, §2.3).
// The check FAILs then, and every verification refuses the claim
// (dp.Unsupported, exit status 3): claims, DP-SGD claims and plans alike.
// With n unknown (a DP-SGD claim given by sample_rate) it is N/A.
func DeltaCheck(delta float64, n int64) dp.Check {
	nan := math.NaN()
	if n < 1 {
		return check(DeltaCheckName, dp.NA, delta, nan, BasisArithmetic,
			"the claim does not give the number of people n (sample_rate only), so δ cannot be compared with 1/n; a useful δ is far below 1/n")
	}
	inv := 1 / float64(n)
	ch := check(DeltaCheckName, dp.Pass, delta, inv, BasisArithmetic,
		fmt.Sprintf("δ = %g < 1/n = %.6g for n = %d people", delta, inv, n))
	if !(delta < inv) {
		ch.Status = dp.Fail
		ch.Detail = fmt.Sprintf("δ = %g ≥ 1/n = %.6g for n = %d people: an (ε, δ) guarantee with δ ≥ 1/n is met by publishing each record in full with probability δ (%.3g records on average), so it protects nobody; privamp does not certify it (give δ well below 1/n)",
			delta, inv, n, delta*float64(n))
	}
	return ch
}

// refuseDelta reports whether v's δ check failed, and if so says why in
// its notes.
func refuseDelta(v *Verification) bool {
	for _, ch := range v.Checks {
		if ch.Name == DeltaCheckName && ch.Status == dp.Fail {
			v.Notes = append(v.Notes, "refused: "+ch.Detail)
			return true
		}
	}
	return false
}
