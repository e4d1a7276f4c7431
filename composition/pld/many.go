package pld

import (
	"math"

	"github.com/privamp/privamp/internal/field"
)

// pairwiseParts is the most mechanisms ComposeFor composes pairwise. The
// pairwise path convolves a growing PLD with each mechanism in turn: its
// window is the sum of the windows so far, so m mechanisms cost O(m²)
// points of FFT and the last PLD holds O(m·window) masses (2,000 distinct
// sampled Gaussians: over 10 minutes and 2.6 GB). Above it, composeMany
// composes every mechanism on one window at once.
const pairwiseParts = 4

// MaxDistinct is the most distinct mechanisms (after identical ones are
// grouped and Gaussians merged) the PLD accountant composes: each is
// discretized and transformed once, about 10 ms of work and 0.2 MB of
// masses kept while the window is chosen; beyond it the accountant says so
// and RDP answers.
const MaxDistinct = 5000

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
// A sound PLD at delta > 0 is composed on masses tilted for delta (as
// multiComposeAt tilts them, at most three tilts while the rounding term
// still weighs at the ε found; the one with the smallest ε is kept), then,
// if every tilt failed or gave no finite ε, untilted. An optimistic PLD,
// or delta 0 (no query to tune for), is composed untilted (t0 = 0: both
// window ends cut at windowTail, as composeTilted cuts them). What is added
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
		if opt.Discretization.Sound() && delta > 0 {
			if f := multiTilted(s, ks, opt.MaxPoints, delta, nil, math.Inf(1)); f != nil {
				if e, _ := weighsAt(f, delta); !math.IsInf(e, 1) {
					return f, nil
				}
			}
		}
		return composeTiltedMulti(s, ks, opt.MaxPoints, 0)
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

// manyRefusal is the PLD accountant's refusal of more than MaxDistinct
// distinct mechanisms.
func manyRefusal(n int) error {
	return field.New("events", n, "distinct mechanisms are more than the PLD accountant composes (%d): each is discretized and transformed apart", MaxDistinct)
}
