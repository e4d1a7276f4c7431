package pld

import (
	"math"
	"sort"

	"github.com/privamp/privamp/internal/field"
)

// Discretization selects how a continuous privacy loss is put on the grid.
type Discretization int

const (
	// ConnectDots is the tight dominating discretization of Doroshenko et
	// al. 2022 (sound, the default).
	ConnectDots Discretization = iota
	// Pessimistic rounds every loss up to the grid (sound).
	Pessimistic
	// Optimistic rounds every loss down to the grid (an estimate from
	// below, not a bound).
	Optimistic
)

func (d Discretization) String() string {
	switch d {
	case ConnectDots:
		return "connect-the-dots"
	case Pessimistic:
		return "pessimistic"
	case Optimistic:
		return "optimistic"
	}
	return "unknown"
}

// Sound reports whether the discretization gives upper bounds.
func (d Discretization) Sound() bool { return d == ConnectDots || d == Pessimistic }

// Options controls the grid.
type Options struct {
	// Interval is the grid spacing h of privacy losses (default 1e-4).
	Interval float64
	// Discretization (default ConnectDots).
	Discretization Discretization
	// TailMass is the mechanism's loss mass left off each end of the grid
	// (default 1e-15); above the grid it goes to the +∞ mass.
	TailMass float64
	// MaxPoints caps every grid and FFT length (default 2²⁴).
	MaxPoints int
}

// Default values of Options.
const (
	DefaultInterval  = 1e-4
	DefaultTailMass  = 1e-15
	DefaultMaxPoints = 1 << 24
)

func (o Options) withDefaults() (Options, error) {
	if o.Interval == 0 {
		o.Interval = DefaultInterval
	}
	if o.TailMass == 0 {
		o.TailMass = DefaultTailMass
	}
	if o.MaxPoints == 0 {
		o.MaxPoints = DefaultMaxPoints
	}
	if err := field.Positive("discretization", o.Interval); err != nil {
		return o, err
	}
	if err := field.OpenUnit("tail_mass", o.TailMass); err != nil {
		return o, err
	}
	if o.MaxPoints < 2 {
		return o, field.New("max_points", o.MaxPoints, "must be a whole number ≥ 2")
	}
	if o.Discretization < ConnectDots || o.Discretization > Optimistic {
		return o, field.New("discretization_method", int(o.Discretization), "must be connect-the-dots, pessimistic or optimistic")
	}
	return o, nil
}

// pmf is one direction of a PLD: masses p[j] at losses (lo+j)·h, a mass at
// +∞, an upper bound on truncated mass that is added to δ, and an ℓ2 bound
// on the floating-point error of p.
type pmf struct {
	h     float64
	lo    int
	p     []float64
	inf   float64 // mass at +∞
	tail  float64 // truncated mass (sound PLDs: added to δ)
	err1  float64 // ℓ1 bound on the masses' rounding error (added to δ)
	errL2 float64 // ℓ2 bound on the FFTs' rounding error (added to δ via Cauchy–Schwarz)
}

// PLD is a privacy loss distribution on a grid, one per direction of the
// neighbouring relation (add is nil for a symmetric mechanism).
type PLD struct {
	opt         Options
	remove, add *pmf
}

// Interval returns the grid spacing h.
func (d *PLD) Interval() float64 { return d.opt.Interval }

// Discretization returns how the PLD was discretized.
func (d *PLD) Discretization() Discretization { return d.opt.Discretization }

// Len returns the number of grid points (the larger direction).
func (d *PLD) Len() int {
	n := len(d.remove.p)
	if d.add != nil && len(d.add.p) > n {
		n = len(d.add.p)
	}
	return n
}

func (d *PLD) dirs() []*pmf {
	if d.add == nil {
		return []*pmf{d.remove}
	}
	return []*pmf{d.remove, d.add}
}

// InfinityMass returns the larger probability of an infinite loss (with the
// truncated tail mass that is counted with it in a sound PLD).
func (d *PLD) InfinityMass() float64 {
	m := 0.0
	for _, f := range d.dirs() {
		m = math.Max(m, f.inf+f.extra())
	}
	return m
}

// extra is what a sound pmf adds to δ regardless of ε.
func (f *pmf) extra() float64 { return f.tail }

// Delta returns δ(ε), the hockey-stick divergence of the PLD, the larger of
// the two directions. For a sound PLD it is an upper bound on the exact
// profile (it includes the +∞ mass, truncated tails and a bound on the
// FFTs' rounding error); for an Optimistic one it is an estimate. ε < 0 is
// treated as written (the profile is defined for every real ε).
func (d *PLD) Delta(eps float64) float64 {
	best := 0.0
	for _, f := range d.dirs() {
		best = math.Max(best, f.profile(d.opt.Discretization.Sound()).delta(eps))
	}
	return math.Min(best, 1)
}

// Epsilon returns the smallest ε ≥ 0 with Delta(ε) ≤ δ (+Inf if none: the
// +∞ mass exceeds δ). For a sound PLD it is an upper bound on the exact ε.
func (d *PLD) Epsilon(delta float64) (float64, error) {
	if err := field.OpenUnit("delta", delta); err != nil {
		return 0, err
	}
	best := 0.0
	for _, f := range d.dirs() {
		best = math.Max(best, f.profile(d.opt.Discretization.Sound()).epsilon(delta))
	}
	return best, nil
}

// profile holds suffix sums for O(log N) queries: for ε in [l_{j−1}, l_j),
// δ(ε) = A_j − e^{ε−l_j} B_j + c_j with A_j = Σ_{i≥j} p_i,
// B_j = Σ_{i≥j} p_i e^{l_j−l_i} and c_j the constant terms.
type profile struct {
	h     float64
	lo    int
	a, b  []float64
	sound bool
	// constant terms: inf + tail + err1, and the per-index ones.
	c0, errL2 float64
}

const unit = 0x1p-53

func (f *pmf) profile(sound bool) *profile {
	n := len(f.p)
	pr := &profile{h: f.h, lo: f.lo, a: make([]float64, n+1), b: make([]float64, n+1), sound: sound, c0: f.inf}
	eh := math.Exp(-f.h)
	for j := n - 1; j >= 0; j-- {
		pr.a[j] = pr.a[j+1] + f.p[j]
		pr.b[j] = f.p[j] + eh*pr.b[j+1]
	}
	if sound {
		pr.c0 += f.tail + f.err1
		pr.errL2 = f.errL2
	}
	return pr
}

// c returns the constant terms at index j: the +∞ mass and, when sound,
// the truncated mass, the masses' ℓ1 error, the FFT error through
// Cauchy–Schwarz (weights in [0, 1], n−j of them) and the rounding of the
// sums.
func (pr *profile) c(j int) float64 {
	if !pr.sound {
		return pr.c0
	}
	m := float64(len(pr.a) - 1 - j)
	return pr.c0 + pr.errL2*math.Sqrt(m) + 4*unit*(m+2)*pr.a[j]
}

func (pr *profile) loss(j int) float64 { return float64(pr.lo+j) * pr.h }

// delta evaluates the profile at ε.
func (pr *profile) delta(eps float64) float64 {
	n := len(pr.a) - 1
	// j = the first index with l_j > ε.
	j := sort.Search(n, func(i int) bool { return pr.loss(i) > eps })
	if j == n {
		return math.Min(1, pr.c(n))
	}
	return math.Min(1, math.Max(0, pr.a[j]-math.Exp(eps-pr.loss(j))*pr.b[j])+pr.c(j))
}

// epsilon solves δ(ε) = δ exactly on the piecewise form, rounding up.
func (pr *profile) epsilon(delta float64) float64 {
	n := len(pr.a) - 1
	if pr.c(n) > delta {
		return math.Inf(1)
	}
	if pr.delta(0) <= delta {
		return 0
	}
	// δ at the grid points is non-increasing; find the first j with
	// δ(l_j) ≤ δ (δ(l_j) = A_{j+1} − e^{−h}B_{j+1} + c_{j+1}).
	atGrid := func(j int) float64 { return pr.delta(pr.loss(j)) }
	j := sort.Search(n, func(i int) bool { return atGrid(i) <= delta })
	if j == n {
		return math.Inf(1)
	}
	// ε lies in (l_{j−1}, l_j]: solve A_j + c_j − e^{ε−l_j}B_j = δ, then
	// verify (l_j itself met δ in the search, so it is the fallback).
	eps := pr.loss(j)
	if j > 0 && pr.b[j] > 0 {
		r := (pr.a[j] + pr.c(j) - delta) / pr.b[j]
		if r > 0 {
			e := pr.loss(j) + math.Log(r)
			for _, up := range []float64{4 * unit, 1e-12, 1e-9} {
				if c := e + up*(math.Abs(e)+1); c > pr.loss(j-1) && c < eps && pr.delta(c) <= delta {
					eps = c
					break
				}
			}
		}
	}
	return math.Max(eps, 0)
}
