package optimizer

import (
	"strconv"

	"github.com/privamp/privamp/optimizer/dataset"
	"github.com/privamp/privamp/rdp"
)

func strconvFormat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// linearEps is the (ε, δ) of ρ-zCDP by the improved conversion (package rdp).
func linearEps(rho, delta float64) (float64, float64) {
	return rdp.LinearEpsilon(rho, delta, rdp.Improved)
}

// objectiveOf is the objective of the loss that generates g's labels, built
// from the name the generator gives (dataset.Synthetic.LossName).
func objectiveOf(g *dataset.Synthetic) Objective {
	l, l2, err := ParseLoss(g.LossName(), 0)
	if err != nil {
		panic(err)
	}
	return Objective{Loss: l, L2: l2}
}
