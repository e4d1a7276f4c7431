package optimizer

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// epsilonOf is index t's ε at δ through the improved conversion.
func epsilonOf(g shifted.Guarantee, t int64, delta float64) (float64, error) {
	if t < 1 || t > g.Len() {
		return 0, fmt.Errorf("index %d outside the private indices [1, %d]", t, g.Len())
	}
	dp, err := rdp.EpsilonFor(g.Curve(t), delta, rdp.Improved)
	if err != nil {
		return 0, err
	}
	return dp.Epsilon, nil
}

// worstIndex is an index where the guarantee is weakest.
func worstIndex(g shifted.Guarantee) int64 { return shifted.WorstIndex(g) }

// compositionEpsilon is the ε of plain composition (every iterate
// released, shifted.Training.Composition); +Inf when it has none.
func compositionEpsilon(tr shifted.Training, delta float64) float64 {
	e, err := epsilonOf(tr.Composition(), 1, delta)
	if err != nil {
		return math.Inf(1)
	}
	return e
}
