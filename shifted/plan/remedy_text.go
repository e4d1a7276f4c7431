package plan

import "fmt"

// Summary states a remedy in one line: the count of records it adds, the
// σ and utility bound it then gives (σ rounded up, dp.Noise, so the printed
// σ meets every budget too) and whether every target was recomputed as met.
func (rm Remedy) Summary() string {
	if !rm.Found {
		return "none (see the notes)"
	}
	s := fmt.Sprintf("%d (then σ = %s, utility bound %s)", rm.Count, rm.Sigma, rm.Utility.Bound.OrNone())
	if rm.Verified {
		return s + "; recomputed: every target met"
	}
	return s + "; " + rm.Reason
}
