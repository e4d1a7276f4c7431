package clipped

import (
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/optimizer"
)

// Output is what one execution of a plan returned.
type Output struct {
	W []float64 `json:"w"`
	// Clipped is the share of per-record gradients longer than τ.
	Clipped float64 `json:"clipped_share"`
	// NoiseDraws is the number of Gaussian vectors added (one per step).
	NoiseDraws int `json:"noise_draws"`
}

// Execute runs the plan on the records of data with objective obj (the
// per-record gradient ∇f(w; x, y) of optimizer.Objective.Grad), from w0 = 0,
// with its randomness from rng. One-pass plans use records 0..sT−1 in order,
// batch t being records ts..ts+s−1. Errors are *field.Error values.
func Execute(p Plan, obj optimizer.Objective, data *dataset.Dataset, rng *rand.Rand) (Output, error) {
	if data.N() != p.N || data.D != p.Dim {
		return Output{}, field.New("data", data.N(), "must have the plan's n = %d records of dimension %d", p.N, p.Dim)
	}
	e := &executor{p: p, obj: obj, data: data, rng: rng, g: make([]float64, p.Dim), tmp: make([]float64, p.Dim)}
	var w []float64
	switch p.Algorithm {
	case ACSA:
		w = e.acsa()
	case SGD:
		w = e.sgd()
	case ERM:
		w = e.erm()
	case PPL:
		w = e.ppl()
	default:
		return Output{}, field.New("algorithm", p.Algorithm, "must be %s, %s, %s or %s", ACSA, SGD, ERM, PPL)
	}
	return Output{W: w, Clipped: float64(e.clipped) / float64(max(e.evals, 1)), NoiseDraws: e.draws}, nil
}

type executor struct {
	p            Plan
	obj          optimizer.Objective
	data         *dataset.Dataset
	rng          *rand.Rand
	g, tmp       []float64
	clipped      int
	evals, draws int
}

// oracle writes into e.g MeanOracle1 of the gradients at w of records
// lo..hi−1: clipped at τ, summed, divided by the nominal batch, plus
// N(0, σ²I).
func (e *executor) oracle(w []float64, lo, hi int) {
	clear(e.g)
	for i := lo; i < hi; i++ {
		e.obj.Grad(e.tmp, w, e.data.Row(i), e.data.Y[i])
		if clipAdd(e.g, e.tmp, 1, e.p.Tau) {
			e.clipped++
		}
		e.evals++
	}
	s := float64(e.p.Batch)
	for j := range e.g {
		e.g[j] = e.g[j]/s + e.p.Sigma*e.rng.NormFloat64()
	}
	e.draws++
}

// project maps w onto the ball of radius R.
func project(w []float64, R float64) {
	if nw := numeric.Norm(w); nw > R {
		for i := range w {
			w[i] *= R / nw
		}
	}
}

// acsa is Algorithm 2 with the μ = 0 AC-SA schedule of Ghadimi–Lan (seed
// 004 notes §3 [R]): α_t = 2/(t+1), η_t = 4η/(t(t+1)), so the step α_t/η_t =
// t/(2η):
//
//	w_md = (1−α_t)w_ag + α_t w;  w ← Π_W(w − (t/(2η))·g_t(w_md));  w_ag ← α_t w + (1−α_t)w_ag.
func (e *executor) acsa() []float64 {
	d, s := e.p.Dim, e.p.Batch
	w, ag, md := make([]float64, d), make([]float64, d), make([]float64, d)
	for t := 1; t <= e.p.Steps; t++ {
		a := 2 / float64(t+1)
		for j := range md {
			md[j] = (1-a)*ag[j] + a*w[j]
		}
		e.oracle(md, (t-1)*s, t*s)
		step := float64(t) / (2 * e.p.Eta)
		for j := range w {
			w[j] -= step * e.g[j]
		}
		project(w, e.p.Radius)
		for j := range ag {
			ag[j] = a*w[j] + (1-a)*ag[j]
		}
	}
	return ag
}

// sgd is Algorithm 6 with Stich's step sizes and weights (Lemma 33 = [Sti19
// Lemma 3]) for a = μ, d' = 2β: if T ≤ d'/a, γ_t = 1/d' and weights
// (1 − aγ)^{−(t+1)}; otherwise γ_t = 1/d' with weight 0 for t < t₀ = ⌈T/2⌉
// and γ_t = 2/(a(κ' + t − t₀)) with weight (κ' + t − t₀)², κ' = 2d'/a, after.
// The output is the weighted average of the iterates w_t the oracle was
// called at.
func (e *executor) sgd() []float64 {
	d, s, T := e.p.Dim, e.p.Batch, e.p.Steps
	a, dp := e.p.Mu, 2*e.p.Beta
	w, avg := make([]float64, d), make([]float64, d)
	var wsum float64
	t0 := (T + 1) / 2
	kp := 2 * dp / a
	for t := 0; t < T; t++ {
		gamma, weight := 1/dp, 0.0
		switch {
		case float64(T) <= dp/a:
			weight = math.Pow(1-a*gamma, -float64(t+1))
		case t >= t0:
			gamma = 2 / (a * (kp + float64(t-t0)))
			weight = (kp + float64(t-t0)) * (kp + float64(t-t0))
		}
		if weight > 0 {
			for j := range avg {
				avg[j] += weight * w[j]
			}
			wsum += weight
		}
		e.oracle(w, t*s, (t+1)*s)
		for j := range w {
			w[j] -= gamma * e.g[j]
		}
		project(w, e.p.Radius)
	}
	for j := range avg {
		avg[j] /= wsum
	}
	return avg
}

// erm is Algorithm 3 from the anchor w0 = 0: g_t = MeanOracle over all n
// records of the clipped ∂f, plus λ(w_t − w0) (not clipped: it is the same
// for neighbours), w_{t+1} = Π_W(w_t − η g_t); it returns w_T.
func (e *executor) erm() []float64 {
	w := make([]float64, e.p.Dim)
	for t := 0; t < e.p.Steps; t++ {
		e.oracle(w, 0, e.p.N)
		for j := range w {
			w[j] -= e.p.Eta * (e.g[j] + e.p.Lambda*w[j])
		}
		project(w, e.p.Radius)
	}
	return w
}

// ppl is Algorithm 8 with f¹ the indicator of W: w_{t+1} = prox_{ηf¹}(w_t −
// η g_t) = Π_W(w_t − η g_t), η = 1/(2β), batch t the records ts..ts+s−1;
// it returns the last iterate w_T.
func (e *executor) ppl() []float64 {
	w := make([]float64, e.p.Dim)
	s := e.p.Batch
	for t := 0; t < e.p.Steps; t++ {
		e.oracle(w, t*s, (t+1)*s)
		for j := range w {
			w[j] -= e.p.Eta * e.g[j]
		}
		project(w, e.p.Radius)
	}
	return w
}
