package audit

import (
	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/optimizer"
)

// Canary is a worst-case pair of examples for an audit at one index: the
// data set S holds (XIn, YIn) there, its neighbour S' holds (XOut, YOut).
// Dir is the unit direction the test statistic ⟨w, Dir⟩ looks along.
type Canary struct {
	XIn, XOut []float64
	YIn, YOut float64
	Dir       []float64
}

// NewCanary builds a canary from optimizer.WorstCasePair: norm X along the
// feature axis with the smallest mean square in the data (where the other
// examples move the iterate least): for the linear loss x = ±X·e; for
// classification the same x with labels +1 and −1; for regression the same
// x with labels ±Y. Dir is that axis.
func NewCanary(obj optimizer.Objective, data *dataset.Dataset, X, Y float64) Canary {
	p := optimizer.WorstCasePair(obj, data, X, Y)
	e := make([]float64, data.D)
	e[p.Axis] = 1
	return Canary{Dir: e, XIn: p.XIn, XOut: p.XOut, YIn: p.YIn, YOut: p.YOut}
}

func isLinear(l optimizer.Loss) bool { _, ok := l.(optimizer.LinearLoss); return ok }

// Neighbours returns copies of data with the canary's two examples at index t
// (1-based).
func (c Canary) Neighbours(data *dataset.Dataset, t int) (S, Sp *dataset.Dataset) {
	S, Sp = data.Clone(), data.Clone()
	copy(S.Row(t-1), c.XIn)
	copy(Sp.Row(t-1), c.XOut)
	S.Y[t-1], Sp.Y[t-1] = c.YIn, c.YOut
	return
}
