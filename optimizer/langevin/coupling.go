package langevin

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/optimizer"
)

// Coupling is the coupled-trajectory stability check (GTU proof of Thm 2.5,
// eq. 3; implementation notes of seed 000, §2 A4): the run repeated on a
// neighbour with the same noise, and the distance of the two paths at every
// step against the bound.
type Coupling struct {
	// Neighbour says which record was replaced and by what.
	Neighbour string `json:"neighbour"`
	// Contraction c = max(|1 − hm|, |1 − hM|) of the drift step, h = ηβ.
	Contraction float64 `json:"contraction"`
	// Bound is Δ/m = 2·Sens/(mn) (≤ 2L/(mn), GTU eq. 3), the limit of the
	// per-step bound hΔ(1 − c^k)/(1 − c) when h ≤ 2/(m + M); +Inf (null) when
	// c ≥ 1.
	Bound dp.Num `json:"bound"`
	// MaxDistance is the largest ‖θ_k − θ′_k‖ and MaxDistanceStep its step.
	MaxDistance     float64 `json:"max_distance"`
	MaxDistanceStep int64   `json:"max_distance_step"`
	// MaxRatio is the largest ‖θ_k − θ′_k‖ / B_k over the steps with B_k =
	// hΔ(1 − c^k)/(1 − c) > 0, at step MaxRatioStep; > 1 fails.
	MaxRatio     float64 `json:"max_ratio"`
	MaxRatioStep int64   `json:"max_ratio_step"`
	// Distances is ‖θ_k − θ′_k‖ for k = 1..T, decimated to at most 1000
	// points (each the largest over its block, so no maximum is lost).
	Distances []float64 `json:"distances"`
	// Check is the check's verdict.
	Check dp.Check `json:"check"`

	delta, h, m float64
	every       int64
	steps       int64
}

// coupler runs the neighbour's chain beside the main one.
type coupler struct {
	ch *chain
	w  []float64
	r  Coupling
}

// neighbour returns data with its first record replaced by the record of
// optimizer.WorstCasePair (norm X along the least-used feature axis, label
// ±Y or ±1, the audit's canary) that is farther from it.
func neighbour(pr *optimizer.Problem) (*dataset.Dataset, string) {
	data := pr.Data
	cn := optimizer.WorstCasePair(pr.Objective, data, pr.Declared.FeatureBound, pr.Declared.LabelBound)
	x0, y0 := data.Row(0), data.Y[0]
	dist := func(x []float64, y float64) float64 {
		var s float64
		for j := range x {
			s += (x[j] - x0[j]) * (x[j] - x0[j])
		}
		return s + (y-y0)*(y-y0)
	}
	x, y := cn.XOut, cn.YOut
	if dist(cn.XIn, cn.YIn) > dist(x, y) {
		x, y = cn.XIn, cn.YIn
	}
	out := data.Clone()
	copy(out.Row(0), x)
	out.Y[0] = y
	return out, fmt.Sprintf("record 1 replaced by the canary record (‖x‖ = %g along one feature axis, label %g; optimizer.WorstCasePair)", numeric.Norm(x), y)
}

func newCoupler(pr *optimizer.Problem, R, eta, beta, m, delta float64) *coupler {
	nd, desc := neighbour(pr)
	h := eta * beta
	c := math.Max(math.Abs(1-h*m), math.Abs(1-h*pr.Constants.Beta))
	cp := &coupler{ch: newChain(pr.Objective, nd, R, eta, beta), w: make([]float64, nd.D)}
	cp.r = Coupling{Neighbour: desc, Contraction: c, Bound: dp.Num(math.Inf(1)), delta: delta, h: h, m: m, every: 1}
	if m > 0 && c < 1 {
		cp.r.Bound = dp.Num(h * delta / (1 - c))
	}
	return cp
}

// step moves the neighbour's chain with the same noise xi and compares it
// with the main chain's iterate w after step k (1-based).
func (cp *coupler) step(k int64, w, xi []float64) {
	cp.ch.step(cp.w, xi)
	var s float64
	for j := range w {
		t := w[j] - cp.w[j]
		s += t * t
	}
	dk := math.Sqrt(s)
	r := &cp.r
	r.steps = k
	if dk > r.MaxDistance || k == 1 {
		r.MaxDistance, r.MaxDistanceStep = dk, k
	}
	if c := r.Contraction; r.m > 0 && c < 1 {
		bk := r.h * r.delta * -math.Expm1(float64(k)*math.Log1p(-(1-c))) / (1 - c)
		if c == 0 {
			bk = r.h * r.delta
		}
		if bk > 0 && (dk/bk > r.MaxRatio || k == 1) {
			r.MaxRatio, r.MaxRatioStep = dk/bk, k
		}
	}
	// decimate: point i holds the largest distance over steps
	// i·every+1..(i+1)·every; at most 1000 points.
	i := int((k - 1) / r.every)
	if i == 1000 {
		for j := 0; j < 500; j++ {
			r.Distances[j] = math.Max(r.Distances[2*j], r.Distances[2*j+1])
		}
		r.Distances = r.Distances[:500]
		r.every *= 2
		i = int((k - 1) / r.every)
	}
	if i == len(r.Distances) {
		r.Distances = append(r.Distances, dk)
	} else {
		r.Distances[i] = math.Max(r.Distances[i], dk)
	}
}

// result finishes the check.
func (cp *coupler) result() *Coupling {
	r := &cp.r
	ch := dp.Check{Name: "coupled paths ‖θ_k − θ′_k‖ ≤ hΔ(1 − c^k)/(1 − c) ≤ Δ/m", Value: dp.Num(r.MaxRatio), Bound: 1}
	switch {
	case cp.ch.thr < math.Inf(1):
		ch.Status, ch.Value, ch.Bound = dp.NA, dp.Num(math.NaN()), dp.Num(math.NaN())
		ch.Detail = fmt.Sprintf("the thresholded loss L̃ (ψ > 0) is not strongly convex; its coupling bound 4√(2ψ/m) + 2L/(mn) (GTU Thm 2.5, continuous time) is not checked; largest measured distance %.6g at step %d", r.MaxDistance, r.MaxDistanceStep)
	case !(r.m > 0):
		ch.Status, ch.Value, ch.Bound = dp.NA, dp.Num(math.NaN()), dp.Num(math.NaN())
		ch.Detail = fmt.Sprintf("needs a strongly convex loss (m > 0); largest measured distance %.6g at step %d", r.MaxDistance, r.MaxDistanceStep)
	case !(r.Contraction < 1):
		ch.Status, ch.Value, ch.Bound = dp.NA, dp.Num(math.NaN()), dp.Num(math.NaN())
		ch.Detail = fmt.Sprintf("the drift step does not contract (c = %.6g ≥ 1: ηβ ≥ 2/M); largest measured distance %.6g at step %d", r.Contraction, r.MaxDistance, r.MaxDistanceStep)
	default:
		ch.Status = dp.Pass
		if !(r.MaxRatio <= 1+1e-9) {
			ch.Status = dp.Fail
		}
		ch.Detail = fmt.Sprintf("largest ratio of measured distance to the per-step bound %.6g at step %d (shared noise, same θ₀ = 0); largest distance %.6g at step %d against Δ/m = 2·Sens/(mn) = %.6g (GTU Thm 2.5 eq. 3); a failure means the loss is not m-strongly convex and M-smooth as declared",
			r.MaxRatio, r.MaxRatioStep, r.MaxDistance, r.MaxDistanceStep, float64(r.Bound))
	}
	r.Check = ch
	return r
}
