package composition

import (
	"fmt"
	"sort"

	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

// MethodPLD names the privacy-loss-distribution composition of
// (ε, δ)-DP guarantees.
const MethodPLD = "pld"

// SourcePLD cites it.
const SourcePLD = "worst (ε, δ)-DP pairs (Kairouz–Oh–Viswanath 2015, Thm 2.1) composed as privacy loss distributions (Doroshenko et al. 2022)"

// PLDList bounds the adaptive composition of the guarantees gs within a
// total δ budget targetDelta by composing the privacy loss distributions of
// their worst-case pairs (pld.PrivacyParameters): every (ε_i, δ_i)-DP
// mechanism is dominated by that pair, so the composed PLD's ε at
// targetDelta is a sound upper bound. It is the heterogeneous counterpart
// of optimal composition (exact for equal guarantees, #P-hard in general;
// Murtagh–Vadhan 2016), tight to within the grid's discretization error.
// Equal guarantees are self-composed once (one FFT power), then the groups
// are composed. A grid that would exceed the PLD's memory cap makes the
// method inapplicable, with the reason.
func PLDList(gs []dp.Guarantee, targetDelta float64) Method {
	count := map[pair]int{}
	for _, g := range gs {
		count[pairOf(g)]++
	}
	groups := make([]group, 0, len(count))
	for g, k := range count {
		groups = append(groups, group{g, k})
	}
	sort.Slice(groups, func(i, j int) bool { // a fixed order: results do not depend on map order
		a, b := groups[i].g, groups[j].g
		return a.eps < b.eps || (a.eps == b.eps && a.delta < b.delta)
	})
	return pldGroups(groups, targetDelta)
}

// pair is a guarantee's (ε, δ), comparable: PLDList groups equal ones.
type pair struct{ eps, delta float64 }

func pairOf(g dp.Guarantee) pair { return pair{float64(g.Epsilon), float64(g.Delta)} }

// group is k equal guarantees.
type group struct {
	g pair
	k int
}

func pldGroups(groups []group, targetDelta float64) Method {
	res, err := pld.Account(targetDelta, pld.Options{}, func(o pld.Options) (*pld.PLD, error) {
		var all *pld.PLD
		for _, gr := range groups {
			p, err := pld.PrivacyParameters(gr.g.eps, gr.g.delta, o)
			if err == nil && gr.k > 1 {
				p, err = p.SelfCompose(gr.k)
			}
			if err == nil && all != nil {
				p, err = all.Compose(p)
			}
			if err != nil {
				return nil, err
			}
			all = p
		}
		return all, nil
	})
	if err != nil {
		return invalid(MethodPLD, SourcePLD, err.Error())
	}
	if e := float64(res.Epsilon); e < 1e300 {
		src := SourcePLD
		if float64(res.Discretization) != pld.DefaultInterval { // coarsened to bound the grid (see res.Source)
			src += fmt.Sprintf("; grid interval %.4g (coarsened from %g to keep the grid small; sound)", float64(res.Discretization), pld.DefaultInterval)
		}
		return method(MethodPLD, src, e, targetDelta)
	}
	return invalid(MethodPLD, SourcePLD, pldNoEpsilon(groups, targetDelta))
}

// pldNoEpsilon says why the composed PLD has no finite ε at targetDelta:
// the guarantees' own δ's add up to at least the target, or (when they do
// not, e.g. all are 0) the bounds on the grid's truncated mass and FFT
// error, which the PLD adds to δ, do.
func pldNoEpsilon(groups []group, targetDelta float64) string {
	var sum float64
	for _, g := range groups {
		sum += float64(g.k) * g.g.delta
	}
	if sum >= targetDelta {
		return fmt.Sprintf("the guarantees' total δ %s is not below the target %s", field.FormatValue(sum), field.FormatValue(targetDelta))
	}
	return fmt.Sprintf("the guarantees' total δ (%s) is below the target %s, but the bounds on the PLD grid's truncated mass and FFT error, which count toward δ, are not: no finite ε at this δ by PLD", field.FormatValue(sum), field.FormatValue(targetDelta))
}
