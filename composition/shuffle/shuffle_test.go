package shuffle

import (
	"errors"
	"math"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// TestOneBatchIsTheGaussian: with one batch per epoch (n = b) the instance
// is the Gaussian pair itself (N(2, σ²) against N(1, σ²), or N(0, σ²)
// under replace-one) and the cubes are its optimal tests, so the lower
// bound meets the exact upper bound: the cube search and the multi-epoch
// composition are checked against Balle–Wang's closed form.
func TestOneBatchIsTheGaussian(t *testing.T) {
	for _, c := range []struct {
		z      float64
		epochs int64
		rel    dp.Relation
		tol    float64 // 1 epoch: the C search; more: the loss grid (≤ E·h)
	}{
		{0.5, 1, dp.AddRemove, 1e-6}, {1.1, 1, dp.AddRemove, 1e-6}, {2, 1, dp.ReplaceOne, 1e-6},
		{1.5, 4, dp.ReplaceOne, 0.01}, {1, 3, dp.AddRemove, 0.01},
	} {
		if testing.Short() && c.epochs > 1 { // TestEpochsBelowInstance covers the composition
			continue
		}
		r := Run{N: 100, Batch: 100, Epochs: c.epochs, Noise: c.z, Delta: 1e-5, Neighbours: c.rel}
		up, err := Upper(r)
		if err != nil {
			t.Fatal(err)
		}
		lo, _, err := Lower(r)
		if err != nil {
			t.Fatal(err)
		}
		if lo > up || up-lo > c.tol {
			t.Errorf("%+v: lower %v, upper (exact Gaussian) %v, tolerance %v", c, lo, up, c.tol)
		}
	}
}

// instanceDelta is the exact δ(ε) of one epoch of the instance (lower.go)
// with T batches: ∫ (p − e^ε q)_+ over R^T by the midpoint rule on
// [−7σ, 2 + 7σ]^T, P the mixture of N(2e_t, σ²I) and Q that of N(e_t, σ²I)
// (add/remove, the short batch anywhere) or N(0, σ²I) (replace-one). It
// does not use the cube sets: an independent computation.
func instanceDelta(sigma float64, T int, eps float64, replaceOne bool, k int) float64 {
	lo, hi := -7*sigma, 2+7*sigma
	h := (hi - lo) / float64(k)
	x := make([]float64, T)
	idx := make([]int, T)
	ee, s2 := math.Exp(eps), 2*sigma*sigma
	norm := math.Pow(h/math.Sqrt(math.Pi*s2), float64(T))
	total := 0.0
	for {
		for i := range x {
			x[i] = lo + (float64(idx[i])+0.5)*h
		}
		base := 0.0
		for _, v := range x {
			base += v * v
		}
		p, q := 0.0, 0.0
		for t := range x {
			p += math.Exp(-(base - x[t]*x[t] + (x[t]-2)*(x[t]-2)) / s2)
			if !replaceOne {
				q += math.Exp(-(base - x[t]*x[t] + (x[t]-1)*(x[t]-1)) / s2)
			}
		}
		p /= float64(T)
		if replaceOne {
			q = math.Exp(-base / s2)
		} else {
			q /= float64(T)
		}
		if d := p - ee*q; d > 0 {
			total += d
		}
		i := 0
		for ; i < T; i++ {
			if idx[i]++; idx[i] < k {
				break
			}
			idx[i] = 0
		}
		if i == T {
			break
		}
	}
	return total * norm
}

// TestLowerBelowInstance: the cube bound is at most the instance's exact
// δ (quadrature over R², R³), and that at most the upper bound's Gaussian
// δ: lower ≤ true ≤ upper where the truth is computable, up to the
// quadrature's error (margin; at T = 1 the same routine meets the
// Gaussian to 1e-4).
func TestLowerBelowInstance(t *testing.T) {
	k := map[int]int{1: 2000, 2: 400, 3: 200}
	// the midpoint rule's error, measured: at T = 3, σ = 0.5 the grid of
	// 120, 200, 300 points per axis gives 0.59749, 0.59800, 0.59790
	margin := map[int]float64{1: 1e-4, 2: 1e-4, 3: 3e-4}
	Ts := []int{1, 2, 3}
	if testing.Short() {
		k[3] = 0
		Ts = Ts[:2]
	}
	for _, T := range Ts {
		for _, c := range []struct {
			sigma, eps float64
			rep        bool
		}{{0.5, 0.5, false}, {1, 0.5, true}, {1, 0.2, false}, {0.7, 1, true}} {
			if T == 3 && c.sigma != 0.5 && c.eps != 0.5 { // two of four: 8 million points each
				continue
			}
			ex := instanceDelta(c.sigma, T, c.eps, c.rep, k[T])
			lb := cubeDelta(c.sigma, int64(T), c.eps, c.rep)
			mu := 1 / c.sigma
			if c.rep {
				mu = 2 / c.sigma
			}
			ub := composition.GaussianDelta(mu, c.eps)
			if lb > ex+margin[T] || ex > ub+margin[T] || (T == 1 && math.Abs(lb-ub) > 1e-4) {
				t.Errorf("T=%d %+v: cube %v, instance %v, Gaussian %v", T, c, lb, ex, ub)
			}
		}
	}
}

// epochLossDist is one epoch's loss distribution of the T = 2 instance by
// quadrature, losses rounded UP to h (so its δ is at least the
// instance's, up to the quadrature error), independent of the max slices.
func epochLossDist(sigma float64, replaceOne bool, h float64, k int) lossDist {
	lo, hi := -8*sigma, 2+8*sigma
	g := (hi - lo) / float64(k)
	s2 := 2 * sigma * sigma
	mass := map[int]float64{}
	for i := range k {
		for j := range k {
			x, y := lo+(float64(i)+0.5)*g, lo+(float64(j)+0.5)*g
			base := x*x + y*y
			p := (math.Exp(-(y*y+(x-2)*(x-2))/s2) + math.Exp(-(x*x+(y-2)*(y-2))/s2)) / 2
			q := math.Exp(-base / s2)
			if !replaceOne {
				q = (math.Exp(-(y*y+(x-1)*(x-1))/s2) + math.Exp(-(x*x+(y-1)*(y-1))/s2)) / 2
			}
			mass[int(math.Ceil(math.Log(p/q)/h))] += p * g * g / (math.Pi * s2)
		}
	}
	mn, mx := math.MaxInt, math.MinInt
	for l := range mass {
		mn, mx = min(mn, l), max(mx, l)
	}
	d := lossDist{h: h, lo: mn, p: make([]float64, mx-mn+1)}
	for l, p := range mass {
		d.p[l-mn] = p
	}
	return d
}

// TestEpochsBelowInstance: for 2 and 3 reshuffled epochs of T = 2 batches,
// the composed max-slice bound is at most the instance's exact composed δ
// (the full 2-D loss of each epoch by quadrature, composed), and at most
// the upper bound's Gaussian δ (μ = √E·Δ/σ).
func TestEpochsBelowInstance(t *testing.T) {
	k := 600
	cases := []struct {
		sigma float64
		E     int64
		rep   bool
	}{{0.8, 2, false}, {1, 3, false}, {1.2, 2, true}}
	if testing.Short() {
		k, cases = 250, cases[1:2]
	}
	for _, c := range cases {
		lb := composedDist(c.sigma, 2, c.E, c.rep, 1e-12)
		one := epochLossDist(c.sigma, c.rep, 2e-3, k)
		ex := one
		for i := int64(1); i < c.E; i++ {
			ex = convolve(ex, one)
		}
		mu := math.Sqrt(float64(c.E)) / c.sigma
		if c.rep {
			mu *= 2
		}
		for _, eps := range []float64{0.1, 0.5, 1, 2} {
			// ex.delta is at least the instance's δ (losses rounded up),
			// up to the quadrature's error (1e-4 covers it)
			if l, e, u := lb.delta(eps), ex.delta(eps)+1e-4, composition.GaussianDelta(mu, eps); l > e || l > u {
				t.Errorf("%+v ε=%v: lower %v, instance %v (+grid), Gaussian %v", c, eps, l, e, u)
			}
		}
	}
}

// TestLowerBelowUpper: over a grid of runs the lower bound never exceeds
// the upper bound, and grows with the number of epochs.
func TestLowerBelowUpper(t *testing.T) {
	zs, Ts, Es := []float64{0.4, 1.5, 3}, []int64{1, 4, 1000}, []int64{1, 3}
	if testing.Short() {
		zs, Ts, Es = []float64{1.5}, []int64{100}, []int64{1, 2}
	}
	for _, z := range zs {
		for _, T := range Ts {
			for _, rel := range []dp.Relation{dp.AddRemove, dp.ReplaceOne} {
				prev := -1.0
				for _, E := range Es {
					r := Run{N: 10 * T, Batch: 10, Epochs: E, Noise: z, Delta: 1e-6, Neighbours: rel}
					up, err := Upper(r)
					if err != nil {
						t.Fatal(err)
					}
					lo, _, err := Lower(r)
					if err != nil {
						t.Fatal(err)
					}
					if lo > up || lo < prev {
						t.Errorf("z=%v T=%d E=%d %v: lower %v upper %v (lower at fewer epochs %v)", z, T, E, rel, lo, up, prev)
					}
					prev = lo
				}
			}
		}
	}
}

// TestPersistentIsOneEpochAtReducedNoise: one order for all epochs is one
// epoch at z/√E.
func TestPersistentIsOneEpochAtReducedNoise(t *testing.T) {
	a, _, _ := Lower(Run{N: 1000, Batch: 10, Epochs: 4, Noise: 2, Delta: 1e-5, Persistent: true})
	b, _, _ := Lower(Run{N: 1000, Batch: 10, Epochs: 1, Noise: 1, Delta: 1e-5})
	if a != b || a <= 0 {
		t.Errorf("persistent %v, one epoch at z/2 %v", a, b)
	}
}

// TestRefusals: every field out of range is a *dp.Error naming it.
func TestRefusals(t *testing.T) {
	ok := Run{N: 1000, Batch: 10, Epochs: 2, Noise: 1, Delta: 1e-5}
	for name, r := range map[string]Run{
		"n":      {N: 1, Batch: 1, Epochs: 1, Noise: 1, Delta: 1e-5},
		"batch":  {N: 100, Batch: 101, Epochs: 1, Noise: 1, Delta: 1e-5},
		"epochs": {N: 100, Batch: 10, Epochs: 0, Noise: 1, Delta: 1e-5},
		"noise":  {N: 100, Batch: 10, Epochs: 1, Noise: math.Inf(1), Delta: 1e-5},
		"delta":  {N: 100, Batch: 10, Epochs: 1, Noise: 1, Delta: 1},
	} {
		var e *dp.Error
		if _, err := Account(r, ""); !errors.As(err, &e) || e.Field != name {
			t.Errorf("%s: %v", name, err)
		}
	}
	if ok.Validate() != nil {
		t.Error(ok.Validate())
	}
	for name, d := range map[string]rdp.DPSGD{
		"epochs":         {N: 1000, Batch: 10, Epochs: 1.5, Noise: 1, Delta: 1e-5},
		"batch":          {N: 1000, Batch: 10.5, Epochs: 1, Noise: 1, Delta: 1e-5},
		"steps":          {N: 1000, Batch: 10, Steps: 100, Noise: 1, Delta: 1e-5},
		"sampling_rate":  {SamplingRate: 0.01, Epochs: 1, Noise: 1, Delta: 1e-5},
		"target_epsilon": {N: 1000, Batch: 10, Epochs: 1, Calibrate: true, TargetEpsilon: 1, Delta: 1e-5},
	} {
		var e *dp.Error
		if _, err := FromDPSGD(d); !errors.As(err, &e) || e.Field != name {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestAccountMNIST: the MNIST-sized run of the dpsgd command's example
// (60,000 examples, batch 256, noise 1.1, δ = 1e-5) over 5 epochs: the
// Poisson ε people report is far below the lower bound for shuffled
// batches, which is below the upper bound. The lower bound's 4.2101 is also
// what the authors' reference code gives (reference_test.go); the papers'
// printed numbers could not be read here.
func TestAccountMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("the Poisson PLD takes about a second")
	}
	res, err := Account(Run{N: 60000, Batch: 256, Epochs: 5, Noise: 1.1, Delta: 1e-5}, "")
	if err != nil {
		t.Fatal(err)
	}
	lo, up, po := float64(res.EpsilonLower), float64(res.EpsilonUpper), float64(res.EpsilonPoisson)
	if !(po < lo && lo < up) || res.StepsPerEpoch != 235 || res.Steps != 1175 {
		t.Errorf("poisson %v, lower %v, upper %v, %+v", po, lo, up, res)
	}
	// the lower bound to its loss grid's resolution, the upper one exactly
	for _, c := range [][3]float64{{lo, 4.2101, 1e-3}, {up, 10.1998, 1e-4}} {
		if math.Abs(c[0]-c[1]) > c[2] {
			t.Errorf("got %v, want %v", c[0], c[1])
		}
	}
}

// TestExtremes: tiny noise (masses underflow: the first epoch's bound takes
// over), a billion records, huge noise and a thousand epochs all give
// 0 ≤ lower ≤ upper without error.
func TestExtremes(t *testing.T) {
	if testing.Short() {
		t.Skip("about 3 s")
	}
	for _, r := range []Run{
		{N: 1000, Batch: 10, Epochs: 3, Noise: 0.01, Delta: 1e-5},
		{N: 1e9, Batch: 2, Epochs: 2, Noise: 1, Delta: 1e-5},
		{N: 1000, Batch: 10, Epochs: 3, Noise: 100, Delta: 1e-5, Neighbours: dp.ReplaceOne},
		{N: 1000, Batch: 10, Epochs: 1000, Noise: 5, Delta: 1e-5},
	} {
		lo, _, err := Lower(r)
		up, err2 := Upper(r)
		if err != nil || err2 != nil || !(lo >= 0 && lo <= up) {
			t.Errorf("%+v: lower %v upper %v %v %v", r, lo, up, err, err2)
		}
	}
}
