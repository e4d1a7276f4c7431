package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/privamp/privamp/internal/field"
)

// Synthetic is a seeded generator with a known population distribution P, so
// that the population risk F(w) = E_{(x,y)~P} f(w; x, y) and F* = min_K F can
// be estimated on a large fresh sample.
//
// Features: x = g/√d with g ~ N(0, I_d), scaled down to norm 1 when longer
// (so ‖x‖ ≤ 1 always). Labels, by Kind:
//
//	"logistic":  y = +1 with probability 1/(1 + e^{−⟨w*, x⟩}), else −1.
//	"linear":    y = ⟨w*, x⟩ + N(0, Noise²), clipped to |y| ≤ ‖w*‖ + 3·Noise.
//	"quadratic": y = 0 (the quadratic loss ignores it): F(w) = ½E‖w − x‖² + const,
//	             minimised at E[x] = 0 with F* − F(0) = 0.
//
// w* has norm WNorm along a fixed seeded direction.
type Synthetic struct {
	Kind  string  // "logistic", "linear" or "quadratic"
	Dim   int     // d ≥ 1
	WNorm float64 // ‖w*‖ (default 2)
	Noise float64 // label noise of "linear" (default 0.1)
	Seed  uint64  // seed of w*
	wstar []float64
}

// SyntheticKinds returns the kinds NewSynthetic accepts (a new slice).
func SyntheticKinds() []string { return []string{"logistic", "linear", "quadratic"} }

// NewSynthetic returns the generator of the given kind in dimension d.
// Errors are *field.Error values (fields "synthetic" and "dimension").
func NewSynthetic(kind string, d int, seed uint64) (*Synthetic, error) {
	kind = strings.ToLower(kind)
	switch kind {
	case "logistic", "linear", "quadratic":
	default:
		return nil, field.New("synthetic", kind, "must be one of %s", strings.Join(SyntheticKinds(), ", "))
	}
	if d < 1 || d > 1_000_000 {
		return nil, field.New("dimension", d, "must be in [1, 10^6]")
	}
	s := &Synthetic{Kind: kind, Dim: d, WNorm: 2, Noise: 0.1, Seed: seed}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	s.wstar = make([]float64, d)
	for i := range s.wstar {
		s.wstar[i] = rng.NormFloat64()
	}
	nw := norm(s.wstar)
	for i := range s.wstar {
		s.wstar[i] *= s.WNorm / nw
	}
	return s, nil
}

// WStar is the generating parameter vector (a copy).
func (s *Synthetic) WStar() []float64 { return append([]float64(nil), s.wstar...) }

// LabelBound is the largest |y| the generator produces.
func (s *Synthetic) LabelBound() float64 {
	switch s.Kind {
	case "logistic":
		return 1
	case "linear":
		return s.WNorm + 3*s.Noise
	}
	return 0
}

// Sample draws n i.i.d. examples with the random stream of rng.
func (s *Synthetic) Sample(rng *rand.Rand, n int) *Dataset {
	d := s.Dim
	ds := &Dataset{D: d, X: make([]float64, n*d), Y: make([]float64, n),
		Label: "y", Source: fmt.Sprintf("synthetic %s, d=%d, seed %d", s.Kind, d, s.Seed)}
	sd := 1 / math.Sqrt(float64(d))
	yb := s.LabelBound()
	for i := 0; i < n; i++ {
		x := ds.Row(i)
		for j := range x {
			x[j] = sd * rng.NormFloat64()
		}
		if nx := norm(x); nx > 1 {
			for j := range x {
				x[j] /= nx
			}
		}
		u := dot(x, s.wstar)
		switch s.Kind {
		case "logistic":
			if rng.Float64() < sigmoid(u) {
				ds.Y[i] = 1
			} else {
				ds.Y[i] = -1
			}
		case "linear":
			ds.Y[i] = math.Max(-yb, math.Min(yb, u+s.Noise*rng.NormFloat64()))
		}
	}
	return ds
}

// LossName is the name of the loss whose model generates the labels, as
// optimizer.ParseLoss and optimizer.LossSpec spell it: "logistic",
// "squared" (least squares) or "quadratic" (½‖w − x‖² + const). The
// generator only names the loss so that this package does not depend on the
// training code; package optimizer builds the objective from the name.
func (s *Synthetic) LossName() string {
	switch s.Kind {
	case "logistic":
		return "logistic"
	case "linear":
		return "squared"
	}
	return "quadratic"
}

// NewRand is the generator privamp draws data with (PCG, seeded).
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0xda7a)) }

// sigmoid is the logistic function 1/(1 + e^{−x}), computed without overflow.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}
