package optimizer

import (
	"math"

	"github.com/privamp/privamp/dataset"
)

// RecordPair is the worst-case pair of records for one index of a run with
// declared bounds: a data set holds (XIn, YIn) there and its neighbour
// (XOut, YOut). Both features have norm X along the feature axis Axis.
type RecordPair struct {
	XIn, XOut []float64
	YIn, YOut float64
	Axis      int
}

// WorstCasePair builds the pair of norm X along the feature axis with the
// smallest mean square in the data (where the other records move the
// iterate least): for the linear loss x = ±X·e; for classification the same
// x with labels +1 and −1; for regression the same x with labels ±Y. The
// audit's canaries (audit.NewCanary) and langevin's coupling check use it.
func WorstCasePair(obj Objective, data *dataset.Dataset, X, Y float64) RecordPair {
	d := data.D
	best, bj := math.Inf(1), 0
	for j := 0; j < d; j++ {
		var s float64
		for i := 0; i < data.N(); i++ {
			v := data.X[i*d+j]
			s += v * v
		}
		if s < best {
			best, bj = s, j
		}
	}
	p := RecordPair{XIn: make([]float64, d), XOut: make([]float64, d), Axis: bj}
	p.XIn[bj] = X
	p.XOut[bj] = X
	_, linear := obj.Loss.(LinearLoss)
	switch {
	case linear:
		p.XOut[bj] = -X
	case obj.Loss.Classification():
		p.YIn, p.YOut = 1, -1
	default:
		p.YIn, p.YOut = Y, -Y
	}
	return p
}
