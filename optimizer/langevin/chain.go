package langevin

import (
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/optimizer"
)

// chain is one Langevin chain θ ← Π_C(θ − h∇L(θ;D) + ξ), ξ ~ N(0, 2ηI),
// with h = ηβ: it allocates nothing per step.
type chain struct {
	obj  optimizer.Objective
	data *dataset.Dataset
	R    float64 // radius of C; +Inf: no projection
	h    float64 // ηβ
	s    float64 // √(2η), the noise's standard deviation
	grad []float64
	// thr is the threshold min L + ψ of the Rashomon sampler: the drift is
	// ∇L where L > thr and 0 where L ≤ thr (the gradient of L̃ = max{L,
	// thr}); +Inf: no threshold. val is L at the last gradient's point
	// (computed only with a threshold).
	thr, val float64
}

func newChain(obj optimizer.Objective, data *dataset.Dataset, R, eta, beta float64) *chain {
	return &chain{obj: obj, data: data, R: R, h: eta * beta, s: math.Sqrt(2 * eta), grad: make([]float64, data.D), thr: math.Inf(1)}
}

// gradient writes the drift ∇L(w;D) = (1/n)Σ∇f(w; x_i, y_i) into c.grad,
// or with a threshold ∇L̃(w;D).
func (c *chain) gradient(w []float64) {
	g := c.grad
	clear(g)
	n := c.data.N()
	thr := !math.IsInf(c.thr, 1)
	var v float64
	for i := 0; i < n; i++ {
		x := c.data.Row(i)
		u, y := numeric.Dot(w, x), c.data.Y[i]
		a := c.obj.Loss.Deriv(u, y)
		if thr {
			v += c.obj.Loss.Phi(u, y)
		}
		for j, xj := range x {
			g[j] += a * xj
		}
	}
	inv := 1 / float64(n)
	for j := range g {
		g[j] = g[j]*inv + c.obj.L2*w[j]
	}
	if thr {
		c.val = v*inv + 0.5*c.obj.L2*numeric.Dot(w, w)
		if c.val <= c.thr {
			clear(g)
		}
	}
}

// drawNoise fills xi with N(0, 2η) draws.
func (c *chain) drawNoise(rng *rand.Rand, xi []float64) {
	for j := range xi {
		xi[j] = c.s * rng.NormFloat64()
	}
}

// step moves w by one step with the given noise.
func (c *chain) step(w, xi []float64) {
	c.gradient(w)
	for j := range w {
		w[j] += xi[j] - c.h*c.grad[j]
	}
	project(w, c.R)
}

// project puts w onto the ball {‖w‖ ≤ R} (Π_C, 1-Lipschitz).
func project(w []float64, R float64) {
	if math.IsInf(R, 1) {
		return
	}
	if ss := numeric.Dot(w, w); ss > R*R {
		s := R / math.Sqrt(ss)
		for j := range w {
			w[j] *= s
		}
	}
}
