package rdp

import (
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/privamp/privamp/internal/numeric"
)

// At t = 1 random allocation is the Gaussian mechanism: both directions
// are α/(2σ²), and the quadrature of the add direction must find it.
func TestAllocationOneStepIsGaussian(t *testing.T) {
	orders := []float64{2, 3, 5, 10}
	for _, z := range []float64{0.7, 1, 2} {
		rem := AllocationRemove(1, z, orders)
		out := []float64{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)}
		addQuadrature(1, z, orders, []int{0, 1, 2, 3}, out)
		for i, a := range orders {
			want := a / (2 * z * z)
			if !(rem[i] >= want) || rem[i] > want*(1+1e-8) {
				t.Errorf("z=%g α=%g: remove %.12g, want %.12g", z, a, rem[i], want)
			}
			if !(out[i] >= want) || out[i] > want*(1+1e-8) {
				t.Errorf("z=%g α=%g: add quadrature %.12g, want %.12g", z, a, out[i], want)
			}
		}
	}
}

// At α = 2 the remove direction has the closed form
// ln(1 + (e^{1/σ²} − 1)/t) (E_Q S² = 1 + (E e^{2Y} − 1)/t).
func TestAllocationRemoveOrderTwo(t *testing.T) {
	for _, steps := range []int64{2, 3, 10, 1000, 123457} {
		for _, z := range []float64{0.6, 1, 4} {
			got := AllocationRemove(steps, z, []float64{2})[0]
			want := math.Log1p(math.Expm1(1/(z*z)) / float64(steps))
			if !(got >= want) || got > want*(1+1e-8)+allocationMargin(steps, 2) {
				t.Errorf("t=%d z=%g: %.15g, want %.15g", steps, z, got, want)
			}
		}
	}
}

// The add direction never exceeds its closed-form (Jensen) bound, and the
// quadrature is stable: halving nothing changes by more than the margin
// covers (checked against the t-step Poisson composition's first-order
// term, which both directions approach for large t).
func TestAllocationAddBelowJensen(t *testing.T) {
	orders := []float64{2, 4, 8, 16, 32}
	for _, steps := range []int64{2, 10, 300} {
		for _, z := range []float64{0.8, 1.5, 5} {
			add := AllocationAdd(steps, z, orders, nil)
			for i, a := range orders {
				if j := AllocationJensen(steps, z, a); add[i] > j {
					t.Errorf("t=%d z=%g α=%g: add %g above the Jensen bound %g", steps, z, a, add[i], j)
				}
			}
		}
	}
}

// exactAllocationDelta is the exact privacy profile of one epoch of
// random allocation over t ∈ {2, 3} steps with the 1-D Gaussian (the
// record's contribution 1 in the step it is allocated to, noise σ): the
// larger of δ_remove(ε) = E_Q[(S − e^ε)_+] and δ_add(ε) = E_Q[(1 −
// e^ε S)_+], S = (1/t)Σ e^{Y_i}. The last coordinate is integrated in
// closed form (a call or put on a lognormal), the others by the trapezoid
// rule on a fine grid: an enumeration over the allocations (the mixture's
// t components) computed independently of the RDP code.
func exactAllocationDelta(steps int, z, eps float64) float64 {
	s := 1 / z
	tf := float64(steps)
	const h, lim = 0.004, 10.0
	n := int(lim / h)
	var rem, add numeric.Kahan
	w := func(x float64) float64 { return math.Exp(-x*x/2) * h / math.Sqrt(2*math.Pi) }
	ey := func(x float64) float64 { return math.Exp(-s*s/2 + s*x) }
	inner := func(c, wt float64) {
		// S = e^{Y_t}/t + c: remove E[(e^Y/t − (e^ε − c))_+] = E[(e^Y − k)_+]/t
		// with k = t(e^ε − c); add E[(1 − e^ε(e^Y/t + c))_+] =
		// (e^ε/t)·E[(k' − e^Y)_+] with k' = t(e^{−ε} − c).
		rem.Add(wt * numeric.LogNormalCall(tf*(math.Exp(eps)-c), s) / tf)
		add.Add(wt * math.Exp(eps) / tf * numeric.LogNormalPut(tf*(math.Exp(-eps)-c), s))
	}
	switch steps {
	case 2:
		for i := -n; i <= n; i++ {
			x := float64(i) * h
			inner(ey(x)/tf, w(x))
		}
	case 3:
		const h3 = 0.05
		m := int(lim / h3)
		w3 := func(x float64) float64 { return math.Exp(-x*x/2) * h3 / math.Sqrt(2*math.Pi) }
		for i := -m; i <= m; i++ {
			x1 := float64(i) * h3
			for j := -m; j <= m; j++ {
				x2 := float64(j) * h3
				inner((ey(x1)+ey(x2))/tf, w3(x1)*w3(x2))
			}
		}
	default:
		panic("steps")
	}
	return math.Max(rem.Sum(), add.Sum())
}

// exactAllocationEpsilon is the smallest ε with exactAllocationDelta ≤ δ.
func exactAllocationEpsilon(steps int, z, delta float64) float64 {
	lo, hi := 0.0, 50.0
	if exactAllocationDelta(steps, z, 0) <= delta {
		return 0
	}
	for k := 0; k < 30; k++ {
		mid := (lo + hi) / 2
		if exactAllocationDelta(steps, z, mid) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// The exact profile itself is right where it is known: at t = 1 it would
// be the Gaussian's; here, at t = 2 and ε = 0, δ(0) is the total variation
// distance, which both directions share.
func TestExactAllocationProfileSelfCheck(t *testing.T) {
	for _, z := range []float64{0.8, 2} {
		var rem, add numeric.Kahan
		// δ_remove(0) = δ_add(0) = TV; recompute each direction separately.
		s, h := 1/z, 0.004
		for i := -2500; i <= 2500; i++ {
			x := float64(i) * h
			wt := math.Exp(-x*x/2) * h / math.Sqrt(2*math.Pi)
			c := math.Exp(-s*s/2+s*x) / 2
			rem.Add(wt * numeric.LogNormalCall(2*(1-c), s) / 2)
			add.Add(wt / 2 * numeric.LogNormalPut(2*(1-c), s))
		}
		if d := math.Abs(rem.Sum() - add.Sum()); d > 1e-9 {
			t.Errorf("z=%g: δ_remove(0) = %g, δ_add(0) = %g", z, rem.Sum(), add.Sum())
		}
	}
}

// The certificate is checked against the algorithm: for one epoch over
// t = 2 and 3 steps, the exact δ of the mixture at the RDP accountant's ε
// is at most the δ it certified (equivalently: the exact ε(δ) is never
// above the accounted one; printed with -v outside -short).
func TestAllocationNeverBelowExact(t *testing.T) {
	type cfg struct {
		steps int
		z     float64
		delta float64
	}
	cfgs := []cfg{{2, 0.8, 1e-5}, {2, 1, 1e-5}, {2, 2, 1e-3}, {2, 4, 1e-6}, {3, 1, 1e-5}, {3, 2.5, 1e-4}}
	if testing.Short() {
		cfgs = []cfg{{2, 1, 1e-5}, {2, 4, 1e-6}}
	}
	for _, c := range cfgs {
		got, err := EpsilonFor(&RandomAllocation{Steps: int64(c.steps), Z: c.z}, c.delta, Improved)
		if err != nil {
			t.Fatal(err)
		}
		if d := exactAllocationDelta(c.steps, c.z, got.Epsilon); !(d <= c.delta) {
			t.Errorf("t=%d z=%g: at the accounted ε %.6f the exact δ is %g > %g", c.steps, c.z, got.Epsilon, d, c.delta)
		}
		// The check can fail: half the accounted ε is refuted by the exact δ.
		if d := exactAllocationDelta(c.steps, c.z, got.Epsilon/2); !(d > c.delta) {
			t.Errorf("t=%d z=%g: the exact check does not refute ε = %g (δ %g)", c.steps, c.z, got.Epsilon/2, d)
		}
		if !testing.Short() {
			t.Logf("t=%d z=%g δ=%g: exact ε %.5f, RDP ε %.5f (order %g)", c.steps, c.z, c.delta,
				exactAllocationEpsilon(c.steps, c.z, c.delta), got.Epsilon, got.Order)
		}
	}
}

// Feldman & Shenfeld's form of the remove direction: E_Q[S^α] as the sum
// over the integer partitions λ of α into at most t parts of
// t!/((t−m)!·Π_j c_j!) · α!/Π λ_i! · exp((Σλ_i² − α)/(2σ²)) / t^α (m parts,
// c_j parts of each size j), computed here independently of the doubling.
func TestAllocationRemoveIsPartitionSum(t *testing.T) {
	lf := func(n int) float64 { v, _ := math.Lgamma(float64(n) + 1); return v }
	parts := func(n, maxPart int, f func([]int)) {
		var rec func(n, maxPart int, acc []int)
		rec = func(n, maxPart int, acc []int) {
			if n == 0 {
				f(acc)
				return
			}
			for p := min(n, maxPart); p >= 1; p-- {
				rec(n-p, p, append(acc, p))
			}
		}
		rec(n, maxPart, nil)
	}
	for _, steps := range []int{2, 3, 7, 50} {
		for _, z := range []float64{0.7, 1.3} {
			orders := []int{2, 3, 6, 11, 25}
			if !testing.Short() {
				orders = append(orders, 40) // 37338 partitions; skipped terms in the convolutions
			}
			for _, a := range orders {
				var terms []float64
				parts(a, a, func(l []int) {
					if len(l) > steps {
						return
					}
					counts := map[int]int{}
					sq := 0
					for _, p := range l {
						counts[p]++
						sq += p * p
					}
					v := lf(steps) - lf(steps-len(l)) + lf(a) + float64(sq-a)/(2*z*z)
					for _, c := range counts {
						v -= lf(c)
					}
					for _, p := range l {
						v -= lf(p)
					}
					terms = append(terms, v)
				})
				want := (numeric.LogSumExp(terms) - float64(a)*math.Log(float64(steps))) / float64(a-1)
				got := AllocationRemove(int64(steps), z, []float64{float64(a)})[0]
				if !(got >= want*(1-1e-12)) || got > want*(1+1e-8)+allocationMargin(int64(steps), float64(a)) {
					t.Errorf("t=%d z=%g α=%d: %.15g, the partition sum %.15g", steps, z, a, got, want)
				}
			}
		}
	}
}

// Feldman & Shenfeld's headline (arXiv 2502.08202, abstract): random
// allocation of 1 out of t steps is about as private as Poisson sampling
// at rate 1/t (rate (1+o(1))/t). Under the same RDP conversion the
// balls-in-bins ε of a DP-SGD-sized run is within 5% of Poisson's at the
// same expected batch size, and not above it here (the MNIST
// configuration: 234 steps an epoch, z = 1.1, 60 epochs, δ = 1e-5).
func TestAllocationNearPoisson(t *testing.T) {
	epochs, steps := 60.0, int64(234)
	if testing.Short() {
		epochs = 10
	}
	ra, err := EpsilonFor(Repeat(&RandomAllocation{Steps: steps, Z: 1.1}, epochs), 1e-5, Improved)
	if err != nil {
		t.Fatal(err)
	}
	po, _ := EpsilonFor(Repeat(SampledGaussian{Q: 1 / float64(steps), Z: 1.1}, epochs*float64(steps)), 1e-5, Improved)
	t.Logf("balls-in-bins ε %.5f, Poisson ε %.5f", ra.Epsilon, po.Epsilon)
	if ra.Epsilon > po.Epsilon*1.05 || ra.Epsilon < po.Epsilon*0.8 {
		t.Errorf("balls-in-bins ε %g, Poisson ε %g", ra.Epsilon, po.Epsilon)
	}
}

// With much noise the best order of a run lies above 256: the grid then
// extends (to 1024, then 2048), so small ε are reachable.
func TestAllocationHighOrders(t *testing.T) {
	if o := (&RandomAllocation{Steps: 240, Z: 1.1}).Orders(); o[len(o)-1] != 256 {
		t.Errorf("z = 1.1: grid up to %g, want 256", o[len(o)-1])
	}
	c := &RandomAllocation{Steps: 240, Z: 20}
	if o := c.Orders(); o[len(o)-1] < 1024 {
		t.Errorf("z = 20: grid up to %g, want ≥ 1024", o[len(o)-1])
	}
	p, _ := EpsilonFor(Repeat(c.Table(), 10), 1e-5, Improved)
	po, _ := EpsilonFor(Repeat(SampledGaussian{Q: 1.0 / 240, Z: 20}, 2400), 1e-5, Improved)
	if p.Order <= 256 || p.Epsilon > po.Epsilon*1.05 {
		t.Errorf("z = 20, 10 epochs: ε %g at order %g; Poisson %g", p.Epsilon, p.Order, po.Epsilon)
	}
}

// The add direction's quadrature against a direct two-dimensional
// integration of E_Q[S^{−(α−1)}] at t = 2 (S = (e^{Y₁} + e^{Y₂})/2): the
// accounted value is never below it, and within 1e-6 relative above it.
func TestAllocationAddTwoSteps(t *testing.T) {
	cases := [][2]float64{{0.8, 2}, {0.8, 6}, {1.5, 3}, {1.5, 10}, {3, 4}}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		z, a := c[0], c[1]
		s, b := 1/z, a-1
		h := 0.02
		lo, hi := -12-b*s, 12.0
		n := int((hi - lo) / h)
		var sum numeric.Kahan
		for i := 0; i <= n; i++ {
			x1 := lo + float64(i)*h
			for j := 0; j <= n; j++ {
				x2 := lo + float64(j)*h
				lS := numeric.LogAdd(s*x1, s*x2) - s*s/2 - math.Ln2
				sum.Add(math.Exp(-(x1*x1+x2*x2)/2 - b*lS))
			}
		}
		want := math.Log(sum.Sum()*h*h/(2*math.Pi)) / b
		out := []float64{math.Inf(1)}
		addQuadrature(2, z, []float64{a}, []int{0}, out)
		if !(out[0] >= want) || out[0] > want*(1+1e-6)+1e-12 {
			t.Errorf("z=%g α=%g: quadrature %.12g, direct %.12g", z, a, out[0], want)
		}
	}
}

// lossAtoms is the privacy loss of one epoch of random allocation over two
// steps (1-D Gaussian, noise σ = z) in the remove (add = false) or add
// direction, under the first distribution of the pair, as atoms on a grid
// of width 1e-3 with each loss rounded up (which can only raise δ), from a
// trapezoid rule on the two coordinates; missing is the mass the grid
// leaves out, counted in δ as a whole.
func lossAtoms(z float64, add bool) (loss, mass []float64, missing float64) {
	s, h, lim := 1/z, 0.02, 9.0
	n := int(lim / h)
	atoms := map[int64]float64{}
	var tot numeric.Kahan
	for i := -n; i <= n; i++ {
		x1 := float64(i) * h
		for j := -n; j <= n; j++ {
			x2 := float64(j) * h
			w := math.Exp(-(x1*x1+x2*x2)/2) * h * h / (2 * math.Pi)
			lS := numeric.LogAdd(s*x1, s*x2) - s*s/2 - math.Ln2
			l := lS
			if add {
				l = -lS // under Q
			} else {
				w *= math.Exp(lS) // under P: dP = S·dQ
			}
			atoms[int64(math.Ceil(l*1000))] += w
			tot.Add(w)
		}
	}
	keys := make([]int64, 0, len(atoms))
	for k := range atoms {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		loss, mass = append(loss, float64(k)/1000), append(mass, atoms[k])
	}
	return loss, mass, math.Max(0, 1-tot.Sum())
}

// twoEpochDelta is δ(ε) of two epochs composed, from lossAtoms: Σ_{i,j}
// p_i p_j (1 − e^{ε − l_i − l_j})_+, by suffix sums.
func twoEpochDelta(loss, mass []float64, missing, eps float64) float64 {
	k := len(loss)
	a, b := make([]float64, k+1), make([]float64, k+1)
	for m := k - 1; m >= 0; m-- {
		a[m], b[m] = a[m+1]+mass[m], b[m+1]+mass[m]*math.Exp(-loss[m])
	}
	var d numeric.Kahan
	for i := range loss {
		c := eps - loss[i]
		m := sort.SearchFloat64s(loss, math.Nextafter(c, math.Inf(1)))
		d.Add(mass[i] * (a[m] - math.Exp(c)*b[m]))
	}
	return d.Sum() + 2*missing
}

// Two epochs of random allocation over two steps: the δ of the composed
// pair at the accounted ε is at most the δ certified (both directions), and
// at half that ε it is not (the check can fail).
func TestAllocationTwoEpochs(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2-D grid of 810 000 points per direction")
	}
	for _, c := range [][2]float64{{1, 1e-5}, {2.5, 1e-6}} {
		z, delta := c[0], c[1]
		got, err := EpsilonFor(Repeat((&RandomAllocation{Steps: 2, Z: z}).Table(), 2), delta, Improved)
		if err != nil {
			t.Fatal(err)
		}
		worst, half := 0.0, 0.0
		for _, add := range []bool{false, true} {
			l, m, miss := lossAtoms(z, add)
			worst = math.Max(worst, twoEpochDelta(l, m, miss, got.Epsilon))
			half = math.Max(half, twoEpochDelta(l, m, miss, got.Epsilon/2))
		}
		t.Logf("z=%g: accounted ε %.5f (δ %g): δ of the pair there %.3g, at ε/2 %.3g", z, got.Epsilon, delta, worst, half)
		if !(worst <= delta) || !(half > delta) {
			t.Errorf("z=%g: at ε %g the pair's δ is %g (certified %g); at ε/2 %g", z, got.Epsilon, worst, delta, half)
		}
	}
}
