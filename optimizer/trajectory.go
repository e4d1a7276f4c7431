package optimizer

import (
	"encoding/csv"
	"io"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
)

// Point is one recorded step of a trajectory.
type Point struct {
	Step int // steps done (1-based: the iterate after Step steps)
	// Loss is the mean objective over the evaluation rows at the iterate.
	Loss float64
	// GradNorm is the largest per-example gradient norm in the steps since
	// the previous point (so the maximum over points is the maximum over
	// the whole run).
	GradNorm float64
	// StepSize is η of the steps since the previous point.
	StepSize float64
	// Contraction is the largest ratio ‖ψ(u) − ψ(v)‖/‖u − v‖ measured for
	// this step's gradient map ψ(w) = w − η∇f_B(w) on random pairs of points
	// of K (pairs near the iterate, along the batch's feature vectors, and
	// across the ball). Theory: ≤ c = max(|1 − ηm|, |1 − ηβ|).
	Contraction float64
	// Dist is ‖w_t − w*‖ to the non-private optimum (NaN when unknown).
	Dist float64
	// NoiseSq is Σ‖Z_s‖² over the steps since the previous point: the
	// squared norms of the Gaussian noise Z_s ~ N(0, σ²I_d) added to the
	// gradient at each of those steps (w ← Π_K(w − η(g + Z))). Under the
	// run's σ, NoiseSq/σ² is χ² with NoiseDOF degrees of freedom, so a
	// verifier can test a claimed σ against it (package verify).
	NoiseSq float64
	// NoiseDOF is the number of Gaussian coordinates those steps drew:
	// (steps since the previous point) × d.
	NoiseDOF int
}

// Tracer records a decimated trajectory of a run: at most MaxPoints points
// (default 2000), evenly spaced, always including the last step.
type Tracer struct {
	MaxPoints int
	// Eval are the rows the loss is averaged over (nil: up to 2000 rows of
	// the training data, evenly spaced).
	Eval *dataset.Dataset
	// Opt is the non-private optimum (nil: Dist is NaN).
	Opt []float64
	// Pairs is the number of random pairs per contraction measurement
	// (default 12).
	Pairs int
	// OnPoint, if set, is called after each recorded point with the step
	// and the run's last step (for progress bars).
	OnPoint dp.Progress

	Points []Point

	r          *Runner
	every, end int
	prev       int // the step of the previous point (the run's start before the first)
	rng        *rand.Rand
	eval       *dataset.Dataset
	u, v, pu   []float64
	pv         []float64
}

func (t *Tracer) begin(r *Runner, seed uint64, start, end int) {
	t.r = r
	t.end = end
	t.prev = start
	t.Points = t.Points[:0]
	mp := t.MaxPoints
	if mp <= 0 {
		mp = 2000
	}
	t.every = max(1, (end-start+mp-1)/mp)
	t.rng = rand.New(rand.NewPCG(seed, 0x7ace))
	t.eval = t.Eval
	if t.eval == nil {
		n := r.data.N()
		if n <= 2000 {
			t.eval = r.data
		} else {
			idx := make([]int, 2000)
			for i := range idx {
				idx[i] = i * n / 2000
			}
			t.eval = r.data.Subset(idx)
		}
	}
	d := r.data.D
	t.u, t.v, t.pu, t.pv = make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
}

func (t *Tracer) due(step, end int) bool { return step%t.every == 0 || step == end }

// observe records the point after step; noiseSq is Σ‖Z_s‖² of the steps
// since the previous point.
func (t *Tracer) observe(step int, w []float64, gradNorm, noiseSq float64, lo, hi int) {
	p := Point{Step: step, GradNorm: gradNorm, StepSize: t.r.cfg.Loss.Eta, Dist: math.NaN(),
		NoiseSq: noiseSq, NoiseDOF: (step - t.prev) * t.r.data.D}
	t.prev = step
	p.Loss = EmpiricalRisk(t.r.obj, t.eval, w)
	if t.Opt != nil {
		var s float64
		for i, x := range w {
			dd := x - t.Opt[i]
			s += dd * dd
		}
		p.Dist = math.Sqrt(s)
	}
	p.Contraction = t.contraction(w, lo, hi)
	t.Points = append(t.Points, p)
	if t.OnPoint != nil {
		t.OnPoint(int64(step), int64(t.end))
	}
}

// contraction measures the step map of rows lo..hi on random pairs in K.
func (t *Tracer) contraction(w []float64, lo, hi int) float64 {
	r := t.r
	pairs := t.Pairs
	if pairs <= 0 {
		pairs = 12
	}
	R := r.cfg.R
	if math.IsInf(R, 1) {
		R = math.Max(1, 2*norm(w))
	}
	best := 0.0
	for k := 0; k < pairs; k++ {
		// u: near the iterate (k even) or random in K (k odd).
		if k%2 == 0 {
			copy(t.u, w)
		} else {
			randomInBall(t.rng, t.u, R)
		}
		// direction: along a batch example (k%3 == 0) or random.
		if k%3 == 0 {
			copy(t.v, r.data.Row(lo+t.rng.IntN(hi-lo)))
		} else {
			for j := range t.v {
				t.v[j] = t.rng.NormFloat64()
			}
		}
		nv := norm(t.v)
		if nv == 0 {
			continue
		}
		h := 1e-3 * R
		if k%4 == 3 {
			h = R // a far pair
		}
		for j := range t.v {
			t.v[j] = t.u[j] + h*t.v[j]/nv
		}
		// keep both in K
		projectBall(t.u, dot(t.u, t.u), R)
		projectBall(t.v, dot(t.v, t.v), R)
		t.stepMap(t.pu, t.u, lo, hi)
		t.stepMap(t.pv, t.v, lo, hi)
		var num, den float64
		for j := range t.u {
			a := t.pu[j] - t.pv[j]
			b := t.u[j] - t.v[j]
			num += a * a
			den += b * b
		}
		if den > 0 {
			best = math.Max(best, math.Sqrt(num/den))
		}
	}
	return best
}

// stepMap writes ψ(w) = w − η·((gradient sum over rows lo..hi)/b + λw) into
// dst: Run's noiseless step, whose sum is divided by the nominal batch b,
// the last, smaller batch of a pass included.
func (t *Tracer) stepMap(dst, w []float64, lo, hi int) {
	r := t.r
	d := r.data.D
	copy(dst, w)
	eta := r.cfg.Loss.Eta
	invB := 1 / float64(r.cfg.BatchSize())
	for i := lo; i < hi; i++ {
		x := r.data.Row(i)
		a := r.obj.Loss.Deriv(dot(w, x), r.data.Y[i])
		for j := 0; j < d; j++ {
			dst[j] -= eta * invB * a * x[j]
		}
	}
	for j := 0; j < d; j++ {
		dst[j] -= eta * r.obj.L2 * w[j]
	}
}

func randomInBall(rng *rand.Rand, dst []float64, R float64) {
	for j := range dst {
		dst[j] = rng.NormFloat64()
	}
	nd := norm(dst)
	rad := R * math.Pow(rng.Float64(), 1/float64(len(dst)))
	for j := range dst {
		dst[j] *= rad / nd
	}
}

// EmpiricalRisk is (1/n) Σ_i f(w; x_i, y_i).
func EmpiricalRisk(obj Objective, data *dataset.Dataset, w []float64) float64 {
	var s float64
	for i := 0; i < data.N(); i++ {
		s += obj.Loss.Phi(dot(w, data.Row(i)), data.Y[i])
	}
	s /= float64(data.N())
	if obj.L2 != 0 {
		s += 0.5 * obj.L2 * dot(w, w)
	}
	return s
}

// TraceHeader is the header of the trajectory CSV that WriteTrace writes and
// ReadTrace reads (verify's trajectory input). Its columns are the fields of
// Point: step (steps done), loss (the mean objective over training
// examples at the iterate), grad_norm (the largest per-example gradient
// norm since the previous row), step_size (η of those steps), contraction
// (the largest ‖ψ(u) − ψ(v)‖/‖u − v‖ measured for the step map) and
// dist_to_opt (‖w_t − w*‖, w* the non-private minimiser over K). Only step,
// grad_norm and step_size are required when reading; Verify cross-checks
// every column it is given against the claim's constants.
var TraceHeader = []string{"step", "loss", "grad_norm", "step_size", "contraction", "dist_to_opt", "noise_sq", "noise_dof"}

// WriteTrace writes points as CSV with TraceHeader. NaN values are written as
// empty fields.
func WriteTrace(w io.Writer, pts []Point) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(TraceHeader); err != nil {
		return err
	}
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', 10, 64)
	}
	for _, p := range pts {
		if err := cw.Write([]string{strconv.Itoa(p.Step), f(p.Loss), f(p.GradNorm), f(p.StepSize), f(p.Contraction), f(p.Dist), f(p.NoiseSq), strconv.Itoa(p.NoiseDOF)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
