package pld

import (
	"fmt"
	"math"
	"sync"

	"github.com/privamp/privamp/dp"
)

// pairwiseParts is the most mechanisms ComposeFor composes pairwise. The
// pairwise path convolves a growing PLD with each mechanism in turn: its
// window is the sum of the windows so far, so m mechanisms cost O(m²)
// points of FFT and the last PLD holds O(m·window) masses (2,000 distinct
// sampled Gaussians: over 10 minutes and 2.6 GB). Above it, composeMany
// composes every mechanism on one window at once.
const pairwiseParts = 4

// tiltedWork is the most FFT points (window length × mechanisms) a tilted
// redo of composeMany may cost where the untilted answer gives at most
// 10⁻²δ to rounding: about a second of transforms.
const tiltedWork = 1 << 26

// MaxDistinct is the most distinct mechanisms (after identical ones are
// grouped and Gaussians merged) the PLD accountant composes: each is
// discretized twice (sound and optimistic) and transformed at least once
// per direction and PLD, about 20–25 ms of CPU for a sampled Gaussian at
// δ = 1e-6 and twice that at 1e-12, where the composition is redone
// tilted (200 distinct: 4.7 s at 1e-6, 9.3 s at 1e-12; 400: 10 s and 19 s;
// 2,000: 53 s and 0.42 GB at 1e-6, measured with the RDP accountant
// beside it), so that 200 stay within the 10 s that every accounting
// command answers in (docs/accounting.md, "Time and memory"). Beyond it
// the accountant refuses up front, saying so, and RDP answers.
const MaxDistinct = 200

// fresh reports whether every part is fresh from a discretization: no FFT
// rounding bound yet and nothing kept below its grid, as the one-window
// composition's bounds assume.
func fresh(parts []Part) bool {
	for _, p := range parts {
		for _, f := range p.PLD.dirs() {
			if f.errL2 != 0 || f.errL2u != 0 || f.tiltT != 0 || f.below != 0 {
				return false
			}
		}
	}
	return true
}

// composeMany returns the PLD of running every part's mechanism Count
// times, composed on one common window (composeTiltedMulti): the window is
// where the Chernoff bounds of the whole sum put all but a tiny mass (not
// the sum of the mechanisms' windows), every mechanism's masses are
// transformed once by FFT on it, raised to its count and multiplied into
// one running spectrum, and one inverse FFT gives the composition. Memory
// is that window's (a few buffers), not O(m·window); time is m transforms
// of the window's length. Every part must be fresh (see fresh).
//
// Each direction is first composed untilted (t0 = 0: both window ends cut
// at windowTail, as composeTilted cuts them): that is the answer for an
// optimistic PLD, for delta 0 (no query to tune for), and for a sound PLD
// whose FFT rounding term does not weigh at the ε found for delta (at most
// 10⁻³δ: weighsAt). Otherwise (small δ) it is composed again on masses
// tilted for delta, as multiComposeAt tilts them (at most three tilts while
// the rounding term still weighs), and the one with the smallest ε at
// delta is kept. The untilted window is the shorter one where the parts'
// upper tails are heavy (tilting weighs them up: 2,000 sampled Gaussians
// at δ = 1e-6 need 85,615 points untilted, 310,018 tilted): where the
// untilted rounding term is at most 10⁻²δ at its ε, a tilted window over
// twice the untilted one is tried only if its transforms cost at most
// tiltedWork points in all. What is added
// to δ and the rounding bounds are composeTiltedMulti's, which at t0 = 0
// are the ones of an untilted FFT (weights W_s = 1).
//
// tick, if not nil, is called after each mechanism's transform (from two
// goroutines: the two directions are composed in parallel).
func composeMany(parts []Part, delta float64, tick func()) (*PLD, error) {
	opt := parts[0].PLD.opt
	symmetric := true
	for _, p := range parts {
		symmetric = symmetric && p.PLD.add == nil
	}
	ks := make([]int, len(parts))
	for j, p := range parts {
		ks[j] = p.Count
	}
	one := func(add bool) (*pmf, error) {
		fs := make([]*pmf, len(parts))
		for j, p := range parts {
			fs[j] = p.PLD.remove
			if add && p.PLD.add != nil {
				fs[j] = p.PLD.add
			}
		}
		s := newSumDist(fs, ks, tick)
		flat, err := composeTiltedMulti(s, ks, opt.MaxPoints, 0)
		if !opt.Discretization.Sound() || delta <= 0 {
			return flat, err
		}
		best, bestE, maxPoints := flat, math.Inf(1), opt.MaxPoints
		if err == nil {
			var term float64
			if bestE, term = roundingAt(flat, delta); term <= 1e-3*delta {
				return flat, nil
			}
			if term <= 1e-2*delta {
				// An untilted answer that gives at most 1% of δ to
				// rounding stands against tilted windows over twice its
				// length (heavy upper tails, tilted up) whose transforms
				// would take over tiltedWork points in all.
				maxPoints = min(maxPoints, max(2*len(flat.p), tiltedWork/len(parts)))
			}
		}
		if f := multiTilted(s, ks, maxPoints, delta, best, bestE); f != nil {
			return f, nil
		}
		return nil, err
	}
	out := &PLD{opt: opt}
	var errAdd error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if !symmetric {
			out.add, errAdd = one(true)
		}
	}()
	var err error
	out.remove, err = one(false)
	<-done
	if err == nil {
		err = errAdd
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// distinct is the number of distinct mechanisms composeAll composes for
// e (groupLeaves' groups, and one for all the unsampled Gaussians).
func distinct(e dp.Event) int {
	groups, gaussians := groupLeaves(e)
	return len(groups) + min(1, len(gaussians))
}

// leafGroup is one distinct mechanism of an event tree and how many times
// it runs in all.
type leafGroup struct {
	ev    dp.Event
	count float64
}

// groupLeaves flattens the checked tree e into its distinct mechanisms: a
// mechanism that appears several times (the same type and parameters) is
// one group whose count is the sum of its runs (the PLD of a composition is
// the convolution of its mechanisms' PLDs in any order, so identical ones
// are one self-composition), as long as that sum stays at most MaxRuns.
// Unsampled Gaussians are not grouped but returned apart with their runs.
func groupLeaves(e dp.Event) (groups []leafGroup, gaussians []leafGroup) {
	at := map[string]int{}
	_ = dp.Leaves(e, func(l dp.Event, k float64) error {
		if _, ok := l.(dp.Gaussian); ok {
			gaussians = append(gaussians, leafGroup{l, k})
			return nil
		}
		key := fmt.Sprintf("%T %+v", l, l)
		if i, ok := at[key]; ok && groups[i].count+k <= MaxRuns {
			groups[i].count += k
			return nil
		}
		at[key] = len(groups)
		groups = append(groups, leafGroup{l, k})
		return nil
	})
	return groups, gaussians
}

// gaussianSensitivity is the sensitivity s of the one Gaussian (noise
// multiplier 1, μ = s) that the unsampled Gaussians gs run their counts
// times compose to, under sensitivity sens: μ² = Σ k_i (sens/z_i)²
// (Dong–Roth–Su 2019, Cor. 3.3: Gaussian mechanisms compose exactly to the
// Gaussian with μ = √Σμ_i²), rounded up. One Gaussian run k times is kept
// as the tree builder writes it (sensitivity sens·√k, z as declared).
func gaussianSensitivity(gs []leafGroup, sens float64) (s, z float64) {
	if len(gs) == 1 {
		s, z = sens, gs[0].ev.(dp.Gaussian).NoiseMultiplier
		if gs[0].count > 1 {
			s = math.Nextafter(s*math.Sqrt(gs[0].count), math.Inf(1))
		}
		return s, z
	}
	m2 := 0.0
	for _, g := range gs {
		mu := sens / g.ev.(dp.Gaussian).NoiseMultiplier
		m2 += g.count * mu * mu
	}
	// Each of the 3 roundings per term and of the sum and the square root
	// is at most u relative: (4n + 4)u bounds the error of √m2.
	return math.Sqrt(m2) * (1 + float64(4*len(gs)+4)*unit), 1
}

// counter reports ticks from several goroutines to p as done of total,
// in order and short of total (more ticks than estimated stay at
// total − 1) until the caller reports the end.
type counter struct {
	mu          sync.Mutex
	done, total int64
	p           dp.Progress
}

func (c *counter) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done++
	c.p.Report(min(c.done, c.total-1), c.total)
}
