package optimizer

import (
	"github.com/privamp/privamp/dataset"
)

// objectiveOf is the objective of the loss that generates g's labels, built
// from the name the generator gives (dataset.Synthetic.LossName).
func objectiveOf(g *dataset.Synthetic) Objective {
	l, l2, err := ParseLoss(g.LossName(), 0)
	if err != nil {
		panic(err)
	}
	return Objective{Loss: l, L2: l2}
}
