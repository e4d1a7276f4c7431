package optimizer

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/shifted"
)

// Config is one run of projected noisy SGD: the training run as package
// shifted describes it (variant, batch, epochs, public records, σ, and η in
// Loss.Eta) plus what only running it needs, the domain radius R and the
// starting point:
//
//	v_{t+1} = w_t − η·(g_t + Z_t),  Z_t ~ N(0, σ²I_d),  w_{t+1} = Π_K(v_{t+1}),
//
// where g_t is the sum of the loss gradients over the step's batch divided by
// the nominal batch size (consecutive blocks of Batch records in the data
// order; the last block of an epoch may be smaller and is still divided by
// Batch, as DP-SGD divides by its expected batch size and as package shifted
// accounts) plus the ℓ2 term, and K is the ball of radius R around 0.
// Training.N may be left 0: the runner sets it to the data's rows − Public.
type Config struct {
	shifted.Training
	R  float64   // radius of K; +Inf: no projection
	W0 []float64 // starting point in K (nil: 0)
}

// Eta is the step size η (Training.Loss.Eta).
func (c Config) Eta() float64 { return c.Loss.Eta }

// ValidateRun checks what running the configuration on n records in
// dimension d needs (the accounting is checked by Training.Validate).
// Errors are *dp.Error values.
func (c Config) ValidateRun(n, d int) error {
	if n < 1 {
		return field.New("n", n, "must be ≥ 1: the data set is empty")
	}
	if c.Variant != "" {
		if _, err := shifted.ParseVariant(string(c.Variant)); err != nil {
			return err
		}
	}
	eta, sigma := c.Loss.Eta, c.Sigma
	switch {
	case !(eta > 0) || math.IsInf(eta, 0):
		return field.New("eta", eta, "must be finite and > 0")
	case !(sigma >= 0) || math.IsInf(sigma, 0):
		return field.New("sigma", sigma, "must be finite and ≥ 0")
	case c.Epochs < 0:
		return field.New("epochs", c.Epochs, "must be ≥ 1")
	case c.Batch < 0 || c.BatchSize() > int64(n):
		return field.New("batch", c.Batch, "must be in [1, %d] (the records)", n)
	case !(c.R > 0):
		return field.New("radius", c.R, "must be > 0")
	case c.Public < 0 || c.Public >= int64(n):
		return field.New("public", c.Public, "must be in [0, %d] (fewer than the records)", n-1)
	case c.N != 0 && c.N+c.Public != int64(n):
		return field.New("n", c.N, "must be the %d records less the %d public ones", n, c.Public)
	case c.W0 != nil && len(c.W0) != d:
		return field.New("start", len(c.W0), "must have the data's dimension %d", d)
	case c.W0 != nil && norm(c.W0) > c.R*(1+1e-12):
		return field.New("start", norm(c.W0), "must lie in K: norm ≤ R = %v", c.R)
	}
	if s := float64(c.EpochCount()) * float64((int64(n)+c.BatchSize()-1)/c.BatchSize()); s > 1e12 {
		return field.New("epochs", c.Epochs, "gives %g steps, more than 10^12", s)
	}
	return nil
}

// forData returns the configuration with N set for n records.
func (c Config) forData(n int) Config {
	c.N = int64(n) - c.Public
	return c
}

// Result is the outcome of one run.
type Result struct {
	// W is the output. It is the runner's buffer: valid until its next Run.
	W []float64
	// Start is the first step executed (Skip's t0; 0 otherwise) and End the
	// number of steps after which the output was taken (Stop's T; S
	// otherwise). Steps are counted from 0: steps Start … End−1 ran.
	Start, End int
	// MaxGradNorm is the largest per-example gradient norm ‖∇f(w_t; x, y)‖
	// over every step that ran and every example in its batch, evaluated
	// exactly (not decimated).
	MaxGradNorm float64
}

// Runner runs one configuration on one data set repeatedly without
// allocating: Run reseeds its generator and reuses its buffers. A Runner is
// not safe for concurrent use; give each goroutine its own.
type Runner struct {
	cfg   Config
	obj   Objective
	data  *dataset.Dataset
	w, g  []float64
	xx    []float64 // ‖x_i‖²
	src   *rand.PCG
	rng   *rand.Rand
	trace *Tracer
}

// NewRunner checks cfg against the data and prepares the buffers.
func NewRunner(cfg Config, obj Objective, data *dataset.Dataset) (*Runner, error) {
	if obj.Loss == nil {
		return nil, errors.New("no loss")
	}
	if !(obj.L2 >= 0) || math.IsInf(obj.L2, 0) {
		return nil, fmt.Errorf("ℓ2 weight must be finite and ≥ 0, got %v", obj.L2)
	}
	if err := cfg.ValidateRun(data.N(), data.D); err != nil {
		return nil, err
	}
	r := &Runner{cfg: cfg.forData(data.N()), obj: obj, data: data,
		w: make([]float64, data.D), g: make([]float64, data.D), xx: make([]float64, data.N())}
	for i := range r.xx {
		x := data.Row(i)
		r.xx[i] = dot(x, x)
	}
	r.src = rand.NewPCG(0, 0)
	r.rng = rand.New(r.src)
	return r, nil
}

// SetTracer attaches a tracer (nil detaches it). Tracing draws from its own
// random stream, so the run's output does not depend on it.
func (r *Runner) SetTracer(t *Tracer) { r.trace = t }

// Config returns the runner's configuration.
func (r *Runner) Config() Config { return r.cfg }

// Data returns the runner's data set.
func (r *Runner) Data() *dataset.Dataset { return r.data }

// SetData swaps in a data set of the same size and dimension (for audits on
// neighbouring data sets).
func (r *Runner) SetData(d *dataset.Dataset) error {
	if d.N() != r.data.N() || d.D != r.data.D {
		return field.New("data", d.N(), "must have the runner's %d records in dimension %d", r.data.N(), r.data.D)
	}
	r.data = d
	for i := range r.xx {
		x := d.Row(i)
		r.xx[i] = dot(x, x)
	}
	return nil
}

// seedStream is the PCG stream of the algorithm's own randomness.
const seedStream = 0x9e3779b97f4a7c15

// Run executes the algorithm with the given seed. The same seed gives the
// same output bit for bit.
func (r *Runner) Run(seed uint64) Result {
	cfg, data := r.cfg, r.data
	n, d := data.N(), data.D
	r.src.Seed(seed, seedStream)
	rng := r.rng
	S := int(cfg.Steps())
	start, end := 0, S
	switch cfg.Variant {
	case shifted.VariantSkip:
		start = rng.IntN(S/2 + 1)
	case shifted.VariantStop:
		end = 1 + rng.IntN(S)
	}
	w := r.w
	if cfg.W0 != nil {
		copy(w, cfg.W0)
	} else {
		clear(w)
	}
	ww := dot(w, w)
	spe := int(cfg.StepsPerEpoch())
	b := int(cfg.BatchSize())
	eta, sigma, m, R := cfg.Loss.Eta, cfg.Sigma, r.obj.L2, cfg.R
	loss := r.obj.Loss
	var maxG2, winG2 float64
	var noise2 float64 // Σ‖Z_s‖² since the last traced point
	if r.trace != nil {
		r.trace.begin(r, seed, start, end)
	}
	for s := start; s < end; s++ {
		lo := (s % spe) * b
		hi := min(lo+b, n)
		var ss float64
		if b == 1 {
			x := data.X[lo*d : lo*d+d : lo*d+d]
			u := dot(w, x)
			a := loss.Deriv(u, data.Y[lo])
			g2 := a*a*r.xx[lo] + 2*a*m*u + m*m*ww
			winG2 = math.Max(winG2, g2)
			w = w[:len(x)]
			for j, xj := range x {
				z := sigma * rng.NormFloat64()
				noise2 += z * z
				v := w[j] - eta*(a*xj+m*w[j]+z)
				w[j] = v
				ss += v * v
			}
		} else {
			g := r.g[:d]
			clear(g)
			invB := 1 / float64(b) // the nominal batch, also for a smaller last batch (as DP-SGD)
			for i := lo; i < hi; i++ {
				x := data.X[i*d : i*d+d : i*d+d]
				u := dot(w, x)
				a := loss.Deriv(u, data.Y[i])
				g2 := a*a*r.xx[i] + 2*a*m*u + m*m*ww
				winG2 = math.Max(winG2, g2)
				for j, xj := range x {
					g[j] += a * xj
				}
			}
			w = w[:len(g)]
			for j, gj := range g {
				z := sigma * rng.NormFloat64()
				noise2 += z * z
				v := w[j] - eta*(gj*invB+m*w[j]+z)
				w[j] = v
				ss += v * v
			}
		}
		ww = projectBall(w, ss, R)
		if r.trace != nil && r.trace.due(s+1, end) {
			maxG2 = math.Max(maxG2, winG2)
			r.trace.observe(s+1, w, math.Sqrt(math.Max(winG2, 0)), noise2, lo, hi)
			winG2, noise2 = 0, 0
		}
	}
	maxG2 = math.Max(maxG2, winG2)
	return Result{W: w, Start: start, End: end, MaxGradNorm: math.Sqrt(math.Max(maxG2, 0))}
}

// RunTasks runs Stop- (or any variant) PNSGD once per task with independent
// randomness (Thm 32: k tasks on the same people): task i uses data[i] (the
// same examples with the i-th task's labels) and its own seed stream. It
// returns copies of the k outputs.
func RunTasks(cfg Config, obj Objective, data []*dataset.Dataset, seed uint64) ([][]float64, error) {
	if len(data) == 0 {
		return nil, errors.New("no tasks")
	}
	out := make([][]float64, len(data))
	for i, ds := range data {
		r, err := NewRunner(cfg, obj, ds)
		if err != nil {
			return nil, fmt.Errorf("task %d: %w", i+1, err)
		}
		res := r.Run(TaskSeed(seed, i))
		out[i] = append([]float64(nil), res.W...)
	}
	return out, nil
}

// TaskSeed derives the seed of task (or repeat, or audit trial) i from a base
// seed with a SplitMix64 step, so streams do not overlap.
func TaskSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
