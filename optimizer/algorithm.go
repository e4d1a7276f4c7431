package optimizer

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Variant is the output rule of projected noisy SGD (seed 002 §4).
type Variant int

const (
	// Final runs every step and outputs the last iterate: PNSGD (Alg. 1) for
	// one epoch, fixed-order multi-epoch PNMSGD (Alg. 2) for more.
	Final Variant = iota
	// Skip draws t0 uniformly from {0, …, ⌊S/2⌋} (S steps in all) and skips
	// the first t0 steps: Skip-PNSGD (Thm 24, Thm 30).
	Skip
	// Stop draws T uniformly from {1, …, S} and outputs w_T: Stop-PNSGD
	// (Thm 26, Thm 29).
	Stop
)

// VariantNames are the names ParseVariant accepts.
var VariantNames = []string{"pnsgd", "skip", "stop"}

func (v Variant) String() string {
	switch v {
	case Skip:
		return "skip"
	case Stop:
		return "stop"
	}
	return "pnsgd"
}

// ParseVariant parses "pnsgd" (also "final", "epochs"), "skip" or "stop".
func ParseVariant(s string) (Variant, error) {
	switch strings.ToLower(s) {
	case "pnsgd", "final", "epochs", "pnmsgd", "":
		return Final, nil
	case "skip":
		return Skip, nil
	case "stop":
		return Stop, nil
	}
	return 0, fmt.Errorf("unknown variant %q (allowed: %s)", s, strings.Join(VariantNames, ", "))
}

// Config are the parameters of one run of projected noisy SGD:
//
//	v_{t+1} = w_t − η·(g_t + Z_t),  Z_t ~ N(0, σ²I_d),  w_{t+1} = Π_K(v_{t+1}),
//
// where g_t is the sum of the loss gradients over the step's batch divided by
// the nominal batch size Batch, plus the ℓ2 term (consecutive blocks of
// Batch examples in the data order; the last block of an epoch may be
// smaller and is still divided by Batch, as DP-SGD divides by its expected
// batch size and as package shifted accounts) and K is the ball of radius R
// around 0.
type Config struct {
	Variant Variant
	Eta     float64   // step size η > 0
	Sigma   float64   // noise σ ≥ 0 (per coordinate, added to the gradient)
	Epochs  int       // passes over the data in a fixed order, ≥ 1
	Batch   int       // examples per step, ≥ 1
	R       float64   // radius of K; +Inf: no projection
	W0      []float64 // starting point in K (nil: 0)
	// Public is the number of examples at the end of the data that are
	// public (Cor. 31): the algorithm is unchanged, only the accounting is.
	Public int
}

// StepsPerEpoch is ⌈n/Batch⌉.
func (c Config) StepsPerEpoch(n int) int { return (n + c.Batch - 1) / c.Batch }

// Steps is the number of steps S = Epochs·⌈n/Batch⌉ of a full run.
func (c Config) Steps(n int) int { return c.Epochs * c.StepsPerEpoch(n) }

// Validate checks the configuration for n examples in dimension d.
func (c Config) Validate(n, d int) error {
	switch {
	case n < 1:
		return errors.New("the data set is empty")
	case !(c.Eta > 0) || math.IsInf(c.Eta, 0):
		return fmt.Errorf("η must be finite and > 0, got %v", c.Eta)
	case !(c.Sigma >= 0) || math.IsInf(c.Sigma, 0):
		return fmt.Errorf("σ must be finite and ≥ 0, got %v", c.Sigma)
	case c.Epochs < 1:
		return fmt.Errorf("epochs must be ≥ 1, got %d", c.Epochs)
	case c.Batch < 1 || c.Batch > n:
		return fmt.Errorf("batch must be in [1, n=%d], got %d", n, c.Batch)
	case !(c.R > 0):
		return fmt.Errorf("radius must be > 0, got %v", c.R)
	case c.Public < 0 || c.Public >= n:
		return fmt.Errorf("public examples must be in [0, n−1=%d], got %d", n-1, c.Public)
	case c.W0 != nil && len(c.W0) != d:
		return fmt.Errorf("starting point has dimension %d, the data %d", len(c.W0), d)
	case c.W0 != nil && norm(c.W0) > c.R*(1+1e-12):
		return fmt.Errorf("starting point has norm %v > R = %v", norm(c.W0), c.R)
	}
	if float64(c.Epochs)*float64(c.StepsPerEpoch(n)) > 1e12 {
		return fmt.Errorf("%d epochs of %d steps is too many steps", c.Epochs, c.StepsPerEpoch(n))
	}
	return nil
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
	data  *Dataset
	w, g  []float64
	xx    []float64 // ‖x_i‖²
	src   *rand.PCG
	rng   *rand.Rand
	trace *Tracer
}

// NewRunner checks cfg against the data and prepares the buffers.
func NewRunner(cfg Config, obj Objective, data *Dataset) (*Runner, error) {
	if obj.Loss == nil {
		return nil, errors.New("no loss")
	}
	if !(obj.L2 >= 0) || math.IsInf(obj.L2, 0) {
		return nil, fmt.Errorf("ℓ2 weight must be finite and ≥ 0, got %v", obj.L2)
	}
	if err := cfg.Validate(data.N(), data.D); err != nil {
		return nil, err
	}
	r := &Runner{cfg: cfg, obj: obj, data: data,
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
func (r *Runner) Data() *Dataset { return r.data }

// SetData swaps in a data set of the same size and dimension (for audits on
// neighbouring data sets).
func (r *Runner) SetData(d *Dataset) error {
	if d.N() != r.data.N() || d.D != r.data.D {
		return errors.New("SetData needs the same n and d")
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
	S := cfg.Steps(n)
	start, end := 0, S
	switch cfg.Variant {
	case Skip:
		start = rng.IntN(S/2 + 1)
	case Stop:
		end = 1 + rng.IntN(S)
	}
	w := r.w
	if cfg.W0 != nil {
		copy(w, cfg.W0)
	} else {
		clear(w)
	}
	ww := dot(w, w)
	spe := cfg.StepsPerEpoch(n)
	b := cfg.Batch
	eta, sigma, m, R := cfg.Eta, cfg.Sigma, r.obj.L2, cfg.R
	loss := r.obj.Loss
	var maxG2, winG2 float64
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
				v := w[j] - eta*(a*xj+m*w[j]+sigma*rng.NormFloat64())
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
				v := w[j] - eta*(gj*invB+m*w[j]+sigma*rng.NormFloat64())
				w[j] = v
				ss += v * v
			}
		}
		ww = projectBall(w, ss, R)
		if r.trace != nil && r.trace.due(s+1, end) {
			maxG2 = math.Max(maxG2, winG2)
			r.trace.observe(s+1, w, math.Sqrt(math.Max(winG2, 0)), lo, hi)
			winG2 = 0
		}
	}
	maxG2 = math.Max(maxG2, winG2)
	return Result{W: w, Start: start, End: end, MaxGradNorm: math.Sqrt(math.Max(maxG2, 0))}
}

// RunTasks runs Stop- (or any variant) PNSGD once per task with independent
// randomness (Thm 32: k tasks on the same people): task i uses data[i] (the
// same examples with the i-th task's labels) and its own seed stream. It
// returns copies of the k outputs.
func RunTasks(cfg Config, obj Objective, data []*Dataset, seed uint64) ([][]float64, error) {
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
