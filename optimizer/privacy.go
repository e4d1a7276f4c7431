package optimizer

import (
	"math"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// epsilonOf is index t's ε at δ through the improved conversion: the one
// per-index answer of package shifted.
func epsilonOf(g shifted.PerPerson, t int64, delta float64) (float64, error) {
	dp, err := shifted.Epsilon(g, t, delta, rdp.Improved)
	return dp.Epsilon, err
}

// worstIndex is an index where the guarantee is weakest.
func worstIndex(g shifted.PerPerson) int64 { return shifted.WorstIndex(g) }

// compositionEpsilon is the ε of plain composition (every iterate
// released, shifted.Training.Composition); +Inf when it has none.
func compositionEpsilon(tr shifted.Training, delta float64) float64 {
	e, err := epsilonOf(tr.Composition(), 1, delta)
	if err != nil {
		return math.Inf(1)
	}
	return e
}
