package pld

import (
	"errors"
	"math"
	"sync/atomic"

	"github.com/privamp/privamp/dp"
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
	// Progress, if not nil, hears how far CalibrateDPSGDWith is: the noise
	// levels accounted so far of an estimate of how many the search takes
	// (calibrationSteps, raised when passed), from 0 to the total at the end.
	Progress dp.Progress `json:"-"`
	// SoundOnly skips the optimistic estimate: the accountants then build
	// and compose the sound PLD alone (about a third less work for a DP-SGD
	// run), Result.EpsilonOptimistic is 0 (the trivial lower estimate, not
	// an estimate to print) and Accountant.PLDs returns a nil optimistic
	// PLD. The sound ε is the same bit for bit.
	SoundOnly bool
	// coarsen (set by accountBoth when Interval is left to its default)
	// lets discretize refuse a grid over autoPoints with a *coarserGrid
	// naming the interval that fits, which accountBoth then uses.
	coarsen bool
	// relCap is the largest relative error bound of a grid mass kept as
	// relative (see discretize); default 1e-10, set from the number of
	// compositions by tailFor.
	relCap float64
	// at asks accountOnce for δ at these ε from the PLDs it composes for
	// ε(δ) (Result.At), so that a caller that wants both builds them once.
	at []float64
}

// Default values of Options.
const (
	DefaultInterval  = 1e-4
	DefaultTailMass  = 1e-15
	DefaultMaxPoints = 1 << 24
)

// autoPoints is the most grid points of one discretized mechanism when the
// interval is left to its default (Options.coarsen): about 100 MB of
// tables, masses and FFT buffers per grid. A mechanism whose losses span
// more (a Gaussian with μ = 20 at δ = 1e-100 spans ±900; an (ε₀, δ₀)
// pair with ε₀ = 700 spans ±700) is discretized on the coarser interval
// that fits: connect-the-dots is sound on any grid, only less tight.
var autoPoints = 1 << 21 // a variable only so that a -short test can shrink it

// coarserGrid is discretize's refusal of a default-interval grid over
// autoPoints; H is the interval that fits.
type coarserGrid struct {
	Points, H float64
}

func (c *coarserGrid) Error() string {
	return field.New("discretization", c.Points, "grid points at the default interval exceed %d; an interval of %.3g fits", autoPoints, c.H).Error()
}

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
	if o.relCap == 0 {
		o.relCap = 1e-10
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
// +∞, an upper bound on truncated mass that is added to δ, and bounds on
// the floating-point error of p. In a sound pmf the exact PLD ω is
// dominated (after moving some of its mass to higher losses, which only
// increases δ(ε)) by
//
//	e^{lnR}·(p + e) + E,   ‖E‖₁ ≤ err1,   |e_s| ≤ ê_s·W_s + ě_s
//	with ‖ê‖₂ ≤ errL2, ‖ě‖₂ ≤ errL2u,
//
// pointwise, where W_s = 1 untilted and W_s = e^{tiltS − tiltT·l_s} after a
// tilted self-composition (see selfComposeAt); ě is the untilted part of a
// split composition (splitCompose).
type pmf struct {
	h    float64
	lo   int
	p    []float64
	inf  float64 // mass at +∞
	tail float64 // truncated mass (sound PLDs: added to δ)
	// below bounds the mass at losses below the grid (below l_0) that is
	// not kept on it. Such mass at a loss l < l_0 adds p(1 − e^{ε−l})_+ ≤
	// p(1 − e^{ε−l_0})_+ to δ(ε), so δ(ε) gains below·(1 − e^{ε−l_0}) for
	// ε < l_0 and nothing above: continuous in ε, and exact to solve.
	below float64
	err1  float64 // ℓ1 bound on the masses' absolute rounding error E (added to δ)
	lnR   float64 // relative rounding error of the masses: factor e^{lnR} ≥ 1
	errL2 float64 // ℓ2 bound on the FFTs' rounding error ê (added to δ via Cauchy–Schwarz)
	// tiltT and tiltS weight errL2 (W above); tiltT = 0: W = 1.
	tiltT, tiltS float64
	errL2u       float64 // ℓ2 bound on an unweighted FFT error ě (splitCompose)
	// stop, if set, is raised by accountOnce when the sound composition
	// beside this (optimistic) one has failed: its answer is then not
	// needed, and selfComposeAt gives up (errStopped) between passes.
	stop *atomic.Bool
}

// errStopped is selfComposeAt's answer once its stop flag is raised; it
// never reaches a caller (accountOnce returns the sound side's error).
var errStopped = errors.New("pld: optimistic composition stopped: the sound one failed")

func (f *pmf) stopped() bool { return f.stop != nil && f.stop.Load() }

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
	sound := d.opt.Discretization.Sound()
	if d.add != nil && len(d.add.p)+len(d.remove.p) >= 1<<17 {
		// Long grids: the two directions' walks in parallel.
		var ea float64
		done := make(chan struct{})
		go func() {
			defer close(done)
			ea = d.add.profile(sound).epsilon(delta)
		}()
		er := d.remove.profile(sound).epsilon(delta)
		<-done
		return math.Max(math.Max(0, er), ea), nil
	}
	best := 0.0
	for _, f := range d.dirs() {
		best = math.Max(best, f.profile(sound).epsilon(delta))
	}
	return best, nil
}

const unit = 0x1p-53

// A query sums from the top of the grid down: with A_j = Σ_{i≥j} p_i and
// B_j = Σ_{i≥j} p_i e^{l_j−l_i}, for ε in [l_{j−1}, l_j)
//
//	δ(ε) = A_j − e^{ε−l_j} B_j + c_j,
//
// c_j the terms that do not depend on ε (see c). No arrays are allocated,
// and ε(δ) stops at the first grid point where δ is exceeded.
type profile struct {
	f     *pmf
	sound bool
	r     float64 // the factor e^{lnR} on the finite part of δ (1 unless sound)
}

func (f *pmf) profile(sound bool) profile {
	r := 1.0
	if sound {
		r = math.Exp(f.lnR) * (1 + 4*unit)
	}
	return profile{f, sound, r}
}

func (pr profile) loss(j int) float64 { return float64(pr.f.lo+j) * pr.f.h }

// scale is the factor e^{lnR} on the finite part of δ (1 unless sound).
func (pr profile) scale() float64 { return pr.r }

// c returns the constant terms at index j given A_j: the +∞ mass and,
// when sound, the truncated mass, the masses' ℓ1 error bound, the FFT
// error through Cauchy–Schwarz (weights in [0, 1], n−j of them, times
// W_s ≤ W_j: Σ_{s≥j} W_s² ≤ W_j² min(n−j, 1/(1 − e^{−2th}))), scaled by
// e^{lnR}, and the rounding of the sums. Below the grid (j = 0) the mass
// not kept there adds belowTerm, which depends on ε.
func (pr profile) c(j int, a float64) float64 {
	f := pr.f
	if !pr.sound {
		return f.inf
	}
	m := float64(len(f.p) - j)
	return f.inf + f.tail + f.err1 + pr.scale()*pr.fftTerm(j) + 4*unit*(m+2)*a
}

// belowTerm is what the mass under the grid adds to δ(ε) for ε < l_0:
// below·(1 − e^{ε−l_0}), rounded up (see pmf.below).
func (pr profile) belowTerm(eps float64) float64 {
	if !pr.sound || pr.f.below == 0 {
		return 0
	}
	return pr.f.below * math.Max(0, -math.Expm1(eps-pr.loss(0))) * (1 + 4*unit)
}

// fftTerm bounds Σ_{s≥j} |e_s| with the FFT error e (see c).
func (pr profile) fftTerm(j int) float64 {
	f := pr.f
	m := float64(len(f.p) - j)
	if f.tiltT > 0 && f.errL2 > 0 {
		g := math.Min(m, 1/-math.Expm1(-2*f.tiltT*f.h))
		return f.errL2*math.Exp(f.tiltS-f.tiltT*pr.loss(j))*math.Sqrt(g)*(1+1e-9) + f.errL2u*math.Sqrt(m)
	}
	return (f.errL2 + f.errL2u) * math.Sqrt(m)
}

// valid reports whether f's masses are finite and ≥ 0 and its error
// terms are not NaN (+∞ is a valid, vacuous bound). A NaN (e.g. from a
// composition tilted by a non-finite log-MGF) would otherwise fail every
// comparison δ(ε) > target and give ε = 0.
func (f *pmf) valid() bool {
	for _, v := range []float64{f.inf, f.tail, f.below, f.err1, f.errL2, f.errL2u, f.lnR, f.tiltT, f.tiltS, f.h} {
		if math.IsNaN(v) {
			return false
		}
	}
	if math.IsInf(f.tiltS, 0) || math.IsInf(f.tiltT, 0) || math.IsInf(f.lnR, 0) {
		return false
	}
	for _, v := range f.p {
		if !(v >= 0 && v <= math.MaxFloat64) { // NaN, < 0 or +∞
			return false
		}
	}
	return true
}

// delta evaluates the profile at ε (1 for a pmf that is not valid).
func (pr profile) delta(eps float64) float64 {
	f := pr.f
	if !f.valid() {
		return 1
	}
	n := len(f.p)
	eh := math.Exp(-f.h)
	a, b, j := 0.0, 0.0, n
	for j > 0 && pr.loss(j-1) > eps {
		j--
		a += f.p[j]
		b = f.p[j] + eh*b
	}
	if j == n {
		return math.Min(1, pr.c(n, 0))
	}
	d := pr.scale()*math.Max(0, a-math.Exp(eps-pr.loss(j))*b) + pr.c(j, a)
	if j == 0 {
		d += pr.belowTerm(eps)
	}
	return math.Min(1, d)
}

// epsilon returns the smallest ε ≥ 0 with δ(ε) ≤ delta, rounded up; +∞
// for a pmf that is not a number (see valid): every comparison with NaN
// fails, so the walk below would pass every test and return 0.
func (pr profile) epsilon(delta float64) float64 {
	f := pr.f
	n := len(f.p)
	if !f.valid() || pr.c(n, 0) > delta {
		return math.Inf(1)
	}
	eh := math.Exp(-f.h)
	R := pr.scale()
	// Walk down: at step j, (a, b) = (A_{j+1}, B_{j+1}) and
	// δ(l_j) = A_{j+1} − e^{−h} B_{j+1} + c_{j+1}, non-increasing in j.
	// The FFT term grows as j falls; the walk first tests with its value
	// at the bottom of the current block of 64 indices (larger, so a pass
	// is a pass), and evaluates c exactly only where that test fails.
	a, b := 0.0, 0.0
	var base float64
	if pr.sound {
		base = f.inf + f.tail + f.err1
	} else {
		base = f.inf
	}
	// A whole block is first tried at once: the sums are run down to
	// its bottom index jb and the test made there alone (every term of it
	// grows as j falls, so it passing there means it passes in the
	// block); only a block where it fails is walked index by index. A
	// test passed is a bound verified at its index, whichever way reached.
	blk, fb := -1, 0.0
	for j := n - 1; j >= 0; j-- {
		if pr.sound && j > 0 {
			if bj := (j + 1) &^ 63; bj != blk {
				blk, fb = bj, R*pr.fftTerm(bj)
				if jb := max(bj-1, 1); jb < j && pr.loss(jb) >= 0 {
					a2, b2 := a, b
					for i := j; i > jb; i-- {
						a2 += f.p[i]
						b2 = f.p[i] + eh*b2
					}
					m := float64(n - jb - 1)
					if R*math.Max(0, a2-eh*b2)+base+fb+4*unit*(m+2)*a2 <= delta {
						a = a2 + f.p[jb]
						b = f.p[jb] + eh*b2
						j = jb
						continue
					}
				}
			}
			m := float64(n - j - 1)
			if R*math.Max(0, a-eh*b)+base+fb+4*unit*(m+2)*a <= delta && pr.loss(j) >= 0 {
				a += f.p[j]
				b = f.p[j] + eh*b
				continue
			}
		}
		dj := R*math.Max(0, a-eh*b) + pr.c(j+1, a) // δ(l_j)
		if pr.loss(j) < 0 {
			// 0 is in (l_j, l_{j+1}]: is δ(0) met?
			dj = R*math.Max(0, a-math.Exp(-pr.loss(j+1))*b) + pr.c(j+1, a)
			if dj <= delta {
				return 0
			}
		}
		if dj > delta {
			// ε lies in (l_j, l_{j+1}]: solve R(A − e^{ε−l_{j+1}}B) + c = δ,
			// verify, and fall back to l_{j+1} (which met δ).
			top := pr.loss(j + 1)
			if j+1 == n {
				return top
			}
			eps := top
			if b > 0 {
				if r := (a + (pr.c(j+1, a)-delta)/R) / b; r > 0 {
					e := top + math.Log(r)
					for _, up := range []float64{4 * unit, 1e-12, 1e-9} {
						if t := e + up*(math.Abs(e)+1); t > pr.loss(j) && t < eps &&
							R*math.Max(0, a-math.Exp(t-top)*b)+pr.c(j+1, a) <= delta {
							eps = t
							break
						}
					}
				}
			}
			return math.Max(eps, 0)
		}
		a += f.p[j]
		b = f.p[j] + eh*b
	}
	// δ(l_0) ≤ delta. Below l_0 (every grid loss above ε)
	// δ(ε) = R(A_0 − xB_0) + c_0 + below·(1 − x), x = e^{ε−l_0}, falls
	// continuously in x: 0 if δ(0) meets delta, else the x solving it.
	top := pr.loss(0)
	if top <= 0 {
		return 0
	}
	c0 := pr.c(0, a)
	at := func(e float64) bool {
		return R*math.Max(0, a-math.Exp(e-top)*b)+c0+pr.belowTerm(e) <= delta
	}
	if at(0) {
		return 0
	}
	below := 0.0
	if pr.sound {
		below = f.below * (1 + 4*unit)
	}
	if den := R*b + below; den > 0 {
		if x := (R*a + c0 + below - delta) / den; x > 0 && x < 1 {
			e := top + math.Log(x)
			for _, up := range []float64{4 * unit, 1e-12, 1e-9} {
				if t := e + up*(math.Abs(e)+1); t > 0 && t < top && at(t) {
					return t
				}
			}
		}
	}
	return top
}
