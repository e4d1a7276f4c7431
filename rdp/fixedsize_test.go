package rdp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// logMix returns ln of the density at x of the equal mixture of N(m, z²)
// over the means ms.
func logMix(x, z float64, ms []float64) float64 {
	best := math.Inf(-1)
	ls := make([]float64, len(ms))
	for i, m := range ms {
		ls[i] = -(x - m) * (x - m) / (2 * z * z)
		best = math.Max(best, ls[i])
	}
	s := 0.0
	for _, l := range ls {
		s += math.Exp(l - best)
	}
	return best + math.Log(s/float64(len(ms))) - math.Log(z*math.Sqrt(2*math.Pi))
}

// renyi integrates D_α(U‖V) of two Gaussian mixtures (Simpson, log space).
func renyi(alpha, z float64, mu, mv []float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range append(append([]float64{}, mu...), mv...) {
		lo, hi = math.Min(lo, m), math.Max(hi, m)
	}
	w := 2*alpha*(hi-lo) + 16*z
	lo, hi = lo-w, hi+w
	n := 8000
	h := (hi - lo) / float64(n)
	ls := make([]float64, n+1)
	top := math.Inf(-1)
	for i := range ls {
		x := lo + float64(i)*h
		ls[i] = alpha*logMix(x, z, mu) + (1-alpha)*logMix(x, z, mv)
		top = math.Max(top, ls[i])
	}
	s := 0.0
	for i, l := range ls {
		c := 2.0
		switch {
		case i == 0 || i == n:
			c = 1
		case i%2 == 1:
			c = 4
		}
		s += c * math.Exp(l-top)
	}
	return (top + math.Log(s*h/3)) / (alpha - 1)
}

// The bound is checked against the algorithm: DP-SGD with batches of b
// records drawn without replacement from n = 3 (every batch enumerated),
// clipped gradients on a line (|g| ≤ 1), one record's gradient replaced;
// the Rényi divergence of the two output distributions, integrated
// numerically in both directions, never exceeds SampledGaussianFixedSize.
// 3 noise levels × 2 batch sizes × 5 orders × (4 extreme + 6 random)
// instances × 2 directions (one random instance under -short). The
// largest ratio, 0.9998 (z = 0.8, α = 32, g = (1, ±1, ±1) → g₀ = −1), is
// the ln 2/(α−1) of the bound: the worst instance meets R's own moment.
func TestFixedSizeRDPAboveMechanism(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 2))
	type inst struct {
		g  []float64
		g0 float64
	}
	insts := []inst{{[]float64{1, 0, 0}, -1}, {[]float64{1, 1, 1}, -1}, {[]float64{1, -1, -1}, -1}, {[]float64{1, 1, -1}, 0}}
	random := 6
	if testing.Short() {
		random = 1
	}
	for range random {
		insts = append(insts, inst{[]float64{2*rng.Float64() - 1, 2*rng.Float64() - 1, 2*rng.Float64() - 1}, 2*rng.Float64() - 1})
	}
	batches := map[int][][]int{1: {{0}, {1}, {2}}, 2: {{0, 1}, {0, 2}, {1, 2}}}
	checks, worst := 0, 0.0
	for _, z := range []float64{0.8, 1.5, 4} {
		for b, bs := range batches {
			s := SampledGaussianFixedSize{Gamma: float64(b) / 3, Z: z}
			for _, alpha := range []float64{1.5, 2, 4, 10, 32} {
				bound := s.Epsilon(alpha)
				for _, in := range insts {
					var mu, mv []float64
					for _, S := range bs {
						su, sv := 0.0, 0.0
						for _, i := range S {
							su += in.g[i]
							sv += in.g[i]
							if i == 0 {
								sv += in.g0 - in.g[0]
							}
						}
						mu, mv = append(mu, su), append(mv, sv)
					}
					for _, d := range []float64{renyi(alpha, z, mu, mv), renyi(alpha, z, mv, mu)} {
						checks++
						if !(d <= bound) {
							t.Errorf("z %v b %d α %v %v: D_α %v > bound %v", z, b, alpha, in, d, bound)
						}
						worst = math.Max(worst, d/bound)
					}
				}
			}
		}
	}
	t.Logf("%d checks; the largest D_α/bound %.4f", checks, worst)
}

// The bound at γ = 1 is the Gaussian with sensitivity 2, and below it it
// never exceeds the Poisson pair's moment bound by more than ln 2/(α−1).
func TestFixedSizeRDPShape(t *testing.T) {
	if got, want := (SampledGaussianFixedSize{Gamma: 1, Z: 2}).Epsilon(3), 1.5; math.Abs(got-want) > 1e-12 {
		t.Errorf("γ = 1: %v, want %v", got, want)
	}
	for _, alpha := range []float64{1.1, 2, 7.5, 64} {
		r := SampledGaussian{Q: 0.01, Z: 0.5}.Epsilon(alpha)
		e := SampledGaussianFixedSize{Gamma: 0.01, Z: 1}.Epsilon(alpha)
		if !(e >= r && e <= r+math.Ln2/(alpha-1)+1e-9) {
			t.Errorf("α %v: %v not in [%v, %v + ln2/(α−1)]", alpha, e, r, r)
		}
	}
}
