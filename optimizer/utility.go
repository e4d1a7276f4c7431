package optimizer

import (
	"errors"
	"github.com/privamp/privamp/dp"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/shifted"
	"gonum.org/v1/gonum/stat/distuv"
)

// UtilityBound bounds the expected excess population risk E[F(W)] − F* of
// the Stop and Skip variants for i.i.d. data at any step size η: seed 002
// Thm 28's regret argument (the engine of Thm 29, 30, Cor 31 and Thm 32),
// shifted.UtilityParams.Thm28,
//
//	E[F(W)] − F* ≤ D²/(2ηT) + η·L_G²/2 + D·L/T,   L_G² = L² + dσ²,
//
// where T is the number of iterates the output is drawn from uniformly
// (Stop: all S; Skip: the last ⌊S/2⌋ + 1, from a random start in K) and D
// bounds the distance of the start to w* (‖w0‖ + R for Stop, 2R for Skip).
// The Final variant has no bound in seed 002 (it returns +Inf).
func UtilityBound(v shifted.Variant, steps int, eta, sigma float64, d int, L, R, w0norm float64) float64 {
	u := shifted.UtilityParams{Lipschitz: L, Radius: R, Dimension: int64(d), Steps: int64(steps), Sigma: sigma}
	switch v {
	case shifted.VariantStop:
		return u.Thm28(eta, w0norm+R, false)
	case shifted.VariantSkip:
		return u.Thm28(eta, 2*R, true)
	}
	return math.Inf(1)
}

// UtilityStats summarises the excess risks of repeated runs.
type UtilityStats struct {
	Repeats      int
	Mean, SD     float64
	Lower, Upper float64 // two-sided confidence interval of the mean (Student t)
	Confidence   float64
	FStar        float64 // F* of the population used
	Population   string  // what F was computed on
}

// Population is the distribution excess risk is measured against. Sample
// draws a training set of size n from it; Risk is F(w); FStar is min_K F.
type Population interface {
	Sample(rng *rand.Rand, n int) *dataset.Dataset
	Risk(w []float64) float64
	FStar() float64
	Describe() string
}

// EmpiricalPopulation is the uniform distribution on the rows of a data set:
// training sets are bootstrap samples (i.i.d. with replacement), and F and F*
// are exact. The utility theorems hold for any distribution, this one
// included.
type EmpiricalPopulation struct {
	Data  *dataset.Dataset
	Obj   Objective
	R     float64
	fstar float64
}

// NewEmpiricalPopulation computes F* by Minimize.
func NewEmpiricalPopulation(data *dataset.Dataset, obj Objective, R float64) *EmpiricalPopulation {
	return &EmpiricalPopulation{Data: data, Obj: obj, R: R, fstar: Minimize(obj, data, R).F}
}

// Sample implements Population.
func (p *EmpiricalPopulation) Sample(rng *rand.Rand, n int) *dataset.Dataset {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = rng.IntN(p.Data.N())
	}
	return p.Data.Subset(idx)
}

// Risk implements Population.
func (p *EmpiricalPopulation) Risk(w []float64) float64 { return EmpiricalRisk(p.Obj, p.Data, w) }

// FStar implements Population.
func (p *EmpiricalPopulation) FStar() float64 { return p.fstar }

// Describe implements Population.
func (p *EmpiricalPopulation) Describe() string {
	return "the empirical distribution of the data (bootstrap training sets; F, F* exact)"
}

// SyntheticPopulation is a Synthetic generator with F and F* estimated on a
// large fixed evaluation sample.
type SyntheticPopulation struct {
	Gen   *dataset.Synthetic
	Obj   Objective
	R     float64
	Eval  *dataset.Dataset
	fstar float64
}

// NewSyntheticPopulation draws an evaluation sample of size m (seeded) and
// computes F* on it.
func NewSyntheticPopulation(g *dataset.Synthetic, obj Objective, R float64, m int, seed uint64) *SyntheticPopulation {
	ev := g.Sample(rand.New(rand.NewPCG(seed, 0xe7a1)), m)
	return &SyntheticPopulation{Gen: g, Obj: obj, R: R, Eval: ev, fstar: Minimize(obj, ev, R).F}
}

// Sample implements Population.
func (p *SyntheticPopulation) Sample(rng *rand.Rand, n int) *dataset.Dataset {
	return p.Gen.Sample(rng, n)
}

// Risk implements Population.
func (p *SyntheticPopulation) Risk(w []float64) float64 { return EmpiricalRisk(p.Obj, p.Eval, w) }

// FStar implements Population.
func (p *SyntheticPopulation) FStar() float64 { return p.fstar }

// Describe implements Population.
func (p *SyntheticPopulation) Describe() string {
	return "a fresh sample of " + strconv.Itoa(p.Eval.N()) + " points from the generator (F, F* estimated on it)"
}

// MeasureUtility draws repeats training sets of size n from pop, runs the
// algorithm on each (seed TaskSeed(seed, i)) and summarises F(W) − F*.
// progress, if not nil, is told after each repeat how many are done.
func MeasureUtility(cfg Config, obj Objective, pop Population, n, repeats int, seed uint64, conf float64, progress dp.Progress) (UtilityStats, error) {
	if repeats < 2 {
		return UtilityStats{}, errors.New("need at least 2 repeats")
	}
	ex := make([]float64, repeats)
	for i := range ex {
		rng := rand.New(rand.NewPCG(TaskSeed(seed, i), 0xda7a))
		S := pop.Sample(rng, n)
		r, err := NewRunner(cfg, obj, S)
		if err != nil {
			return UtilityStats{}, err
		}
		res := r.Run(TaskSeed(seed^0xabcdef, i))
		ex[i] = pop.Risk(res.W) - pop.FStar()
		if progress != nil {
			progress(int64(i+1), int64(repeats))
		}
	}
	m := mean(ex)
	var v float64
	for _, x := range ex {
		v += (x - m) * (x - m)
	}
	sd := math.Sqrt(v / float64(repeats-1))
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(repeats - 1)}.Quantile(0.5 + conf/2)
	h := tq * sd / math.Sqrt(float64(repeats))
	return UtilityStats{Repeats: repeats, Mean: m, SD: sd, Lower: m - h, Upper: m + h, Confidence: conf,
		FStar: pop.FStar(), Population: pop.Describe()}, nil
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
