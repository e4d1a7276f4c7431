package pld

import (
	"math"

	"github.com/privamp/privamp/internal/field"
)

// loss describes one direction of a mechanism by its privacy loss L:
// tails of P and Q on each side of a loss, each accurate where small.
type loss interface {
	// bounds returns losses lo < hi with P(L < lo), P(L > hi) ≤ tau.
	bounds(tau float64) (lo, hi float64)
	// tails returns P(L > l), P(L ≤ l), Q(L > l), Q(L ≤ l) (finite L),
	// and a bound r on their relative rounding errors (in units of 2⁻⁵³).
	tails(l float64) (pAbove, pBelow, qAbove, qBelow, r float64)
}

// between returns the mass of (l0, l1] from the two tails at each end,
// using the side where they are small (no cancellation near 1).
func between(above0, below0, above1, below1 float64) float64 {
	var m float64
	if above0 < below1 {
		m = above0 - above1
	} else {
		m = below1 - below0
	}
	return fmax(m, 0)
}

// tl is the four tails at one grid loss and their relative error bound.
type tl struct{ pa, pb, qa, qb, r float64 }

// discretize puts one direction of a mechanism on the grid. If cache is
// not nil, the tails are taken from it when it holds them for this grid
// and stored in it otherwise (the sound and optimistic grids share them).
func discretize(m loss, o Options, cache *[]tl) (*pmf, error) {
	h := o.Interval
	lo, hi := m.bounds(o.TailMass)
	iLo, iHi := math.Floor(lo/h), math.Ceil(hi/h)
	if iHi <= iLo {
		iHi = iLo + 1
	}
	if n := iHi - iLo + 1; o.coarsen && n > float64(autoPoints) {
		// The interval that fits, enlarged so that the top loss is a grid
		// point (an atom there, as ε₀ of an (ε₀, δ₀) pair, stays exact).
		c := (hi - lo) / float64(autoPoints-4)
		if m := math.Floor(hi / c); m >= 1 {
			c = hi / m
		}
		return nil, &coarserGrid{Points: n, H: c}
	}
	if n := iHi - iLo + 1; !(n <= float64(o.MaxPoints)) {
		return nil, gridError(h, n, lo, hi, o)
	}
	f := &pmf{h: h, lo: int(iLo)}
	n := int(iHi-iLo) + 1
	f.p = make([]float64, n)
	var tab []tl
	if cache != nil && len(*cache) == n {
		tab = *cache
	} else {
		tab = tailsTable(m, h, f.lo, n)
		if cache != nil {
			*cache = tab
		}
	}
	at := func(j int) tl { return tab[j] }
	// err bounds the absolute error of a mass formed from two tails (the
	// smaller side, as in between).
	err := func(t0, t1 tl) float64 {
		return unit * (t0.r*fmin(t0.pa, t0.pb) + t1.r*fmin(t1.pa, t1.pb) + 2*fmin(t0.pa, t1.pb))
	}
	qerr := func(t0, t1 tl) float64 {
		return unit * (t0.r*fmin(t0.qa, t0.qb) + t1.r*fmin(t1.qa, t1.qb) + 2*fmin(t0.qa, t1.qb))
	}
	// Each interval's computed P-mass ã carries an error of at most ea.
	// Where ea ≤ relCap·ã (Options.relCap) the error is kept as relative: the exact
	// interval mass a ≤ ã(1 + ρ), ρ = ea/ã, and if the share α̃ left at
	// the lower end is also scaled by 1 − ρ (moving that much mass up,
	// which only increases δ), the exact masses with α' = α̃·a/ã ≤ α are
	// (a/ã) times the computed ones: pointwise at most (1 + ρ) times. The
	// largest ρ gives lnR. Elsewhere ea goes to the absolute ℓ1 bound e1
	// (the exact mass at the interval's top end is at most ã − α̃ + ea).
	e1, rho := 0.0, 0.0
	classify := func(a, ea float64) bool {
		if a > 0 && ea <= o.relCap*a {
			rho = fmax(rho, ea/a)
			return true
		}
		e1 += ea
		return false
	}
	prev := at(0)
	switch o.Discretization {
	case Optimistic:
		// Round down: (l_{j−1}, l_j] → l_{j−1}; above the top → the top.
		for j := 1; j < n; j++ {
			cur := at(j)
			f.p[j-1] += between(prev.pa, prev.pb, cur.pa, cur.pb)
			prev = cur
		}
		lowest := at(0)
		f.p[0] += lowest.pb
		f.p[n-1] += prev.pa
	case Pessimistic:
		// Round up: (l_{j−1}, l_j] → l_j; below the bottom → the bottom;
		// above the top → +∞.
		f.p[0] = prev.pb
		classify(f.p[0], unit*(prev.r+1)*prev.pb)
		for j := 1; j < n; j++ {
			cur := at(j)
			f.p[j] = between(prev.pa, prev.pb, cur.pa, cur.pb)
			classify(f.p[j], err(prev, cur))
			prev = cur
		}
		f.tail = prev.pa * (1 + unit*(prev.r+2)) // rounded up
	case ConnectDots:
		// Split each interval's P-mass a and Q-mass b between its ends,
		// keeping both (Doroshenko et al. 2022, connect-the-dots):
		// α = (b e^{l_j} − a)/(e^h − 1) at l_{j−1}, β = a − α at l_j.
		f.p[0] = prev.pb
		classify(f.p[0], unit*(prev.r+1)*prev.pb)
		den := math.Expm1(h)
		for j := 1; j < n; j++ {
			cur := at(j)
			a := between(prev.pa, prev.pb, cur.pa, cur.pb)
			b := between(prev.qa, prev.qb, cur.qa, cur.qb)
			elj := math.Exp(float64(f.lo+j) * h) // e^{l_j}
			alpha := (b*elj - a) / den
			// Rounding can only be allowed to move mass up: bias α down
			// by a bound on its evaluation error, and clamp to [0, a];
			// what is left is the error of a.
			ea := err(prev, cur)
			alpha -= (ea + elj*qerr(prev, cur) + 8*unit*(b*elj+a)) / den
			if classify(a, ea) {
				alpha *= 1 - ea/a // see classify
			}
			alpha = fmin(fmax(alpha, 0), a)
			f.p[j-1] += alpha
			f.p[j] += a - alpha
			prev = cur
		}
		f.tail = prev.pa * (1 + unit*(prev.r+2)) // rounded up
	}
	dropped := 0.0
	for j, v := range f.p {
		f.p[j] = flush(v, &dropped)
	}
	if o.Discretization.Sound() {
		f.tail += dropped
	}
	// The masses' rounding errors, from the tails' (mechanism-supplied)
	// relative error bounds; see the package documentation.
	f.err1 = e1 + 4*unit*float64(n)*math.SmallestNonzeroFloat64
	f.lnR = math.Log1p(rho) * (1 + 4*unit)
	return f, nil
}

// gridError says why a mechanism does not fit the grid. A loss range
// without finite ends (a mechanism whose loss is infinite with probability
// above the tail mass, e.g. almost no noise) is said as such, never as
// "NaN grid points for losses in [+Inf, +Inf]".
func gridError(h, n, lo, hi float64, o Options) error {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) || math.IsNaN(n) {
		return field.New("discretization", h, "cannot hold this mechanism: its privacy loss has no finite bound outside a tail of mass %g (the mechanism is too close to non-private for a PLD grid)", o.TailMass)
	}
	return field.New("discretization", h, "needs %.3g grid points for losses in [%.4g, %.4g], more than the cap of %d; use a coarser interval", n, lo, hi, o.MaxPoints)
}

// gridOf returns the first index and the number of points of the grid
// discretize lays for m under o (n = 0 where it would refuse the grid).
func gridOf(m loss, o Options) (lo, n int) {
	h := o.Interval
	l, u := m.bounds(o.TailMass)
	iLo, iHi := math.Floor(l/h), math.Ceil(u/h)
	if iHi <= iLo {
		iHi = iLo + 1
	}
	if k := iHi - iLo + 1; !(k <= float64(o.MaxPoints)) || o.coarsen && k > float64(autoPoints) {
		return 0, 0
	}
	return int(iLo), int(iHi-iLo) + 1
}

// tailsTable returns m's tails at the n grid losses (lo+j)·h. Each entry
// is computed alone, so the two halves, filled in parallel, are the same
// bit for bit as one pass.
func tailsTable(m loss, h float64, lo, n int) []tl {
	tab := make([]tl, n)
	fill := func(from, to int) {
		for j := from; j < to; j++ {
			pa, pb, qa, qb, r := m.tails(float64(lo+j) * h)
			tab[j] = tl{pa, pb, qa, qb, r}
		}
	}
	if half := n / 2; n >= 1<<12 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			fill(half, n)
		}()
		fill(0, half)
		<-done
	} else {
		fill(0, n)
	}
	return tab
}

// fmax and fmin are math.Max and math.Min, the same result for every
// input, with the common case (two different ordered numbers) decided by
// one comparison inline: equal operands (±0) and NaN go to math's.
func fmax(x, y float64) float64 {
	if x > y {
		return x
	}
	if y > x {
		return y
	}
	return math.Max(x, y)
}

func fmin(x, y float64) float64 {
	if x < y {
		return x
	}
	if y < x {
		return y
	}
	return math.Min(x, y)
}
