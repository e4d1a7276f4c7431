package shifted

import (
	"fmt"
	"math"
)

// Limits on a schedule's size.
const (
	// MaxSteps is the largest number of steps a schedule may have.
	MaxSteps = int64(1) << 60
	// MaxRuns is the largest number of runs a schedule may hold in memory.
	MaxRuns = 50_000_000
)

// Step is one step of a contractive noisy iteration with Gaussian noise
// (FMTT18 Def. 19): X_t = ψ_t(X_{t−1}) + Z_t with Z_t ~ N(0, Variance·I).
type Step struct {
	// Variance v_t > 0 of each coordinate of the noise Z_t. For PNSGD with
	// step size η and gradient noise σ it is η²σ².
	Variance float64
	// Contraction c_t ∈ [0, 1] is the Lipschitz constant of ψ_t: 1 for a
	// projection or a gradient step on a convex β-smooth loss with η ≤ 2/β
	// (Prop. 17, 18), max(|1 − ηm|, |1 − ηβ|) for an m-strongly convex one.
	Contraction float64
	// Sensitivity s_t = sup_x ‖ψ_t(x) − ψ'_t(x)‖ ≥ 0 between the neighbouring
	// runs: 2ηL/b at a step whose batch of b examples holds the person
	// (replace-one neighbours, L-Lipschitz loss), 0 elsewhere.
	Sensitivity float64
}

// Run is Count consecutive copies of a Step.
type Run struct {
	Step
	Count int64 // ≥ 1
}

// Schedule is a sequence of runs in time order: the compact form of a
// contractive noisy iteration. The zero value is the empty schedule.
type Schedule []Run

// Append returns s with count copies of st appended, merged into the last run
// when the steps are identical.
func (s Schedule) Append(st Step, count int64) Schedule {
	if count <= 0 {
		return s
	}
	if n := len(s); n > 0 && s[n-1].Step == st && s[n-1].Count <= MaxSteps-count {
		s[n-1].Count += count
		return s
	}
	return append(s, Run{Step: st, Count: count})
}

// FromSteps returns the schedule of the given steps, with runs of identical
// consecutive steps merged.
func FromSteps(steps []Step) Schedule {
	var s Schedule
	for _, st := range steps {
		s = s.Append(st, 1)
	}
	return s
}

// Len returns the number of steps T (saturating at MaxSteps+1 if the counts
// overflow; Validate reports that).
func (s Schedule) Len() int64 {
	var n int64
	for _, r := range s {
		if r.Count > 0 {
			if n > MaxSteps+1-r.Count {
				return MaxSteps + 1
			}
			n += r.Count
		}
	}
	return n
}

// Validate checks every run: v_t > 0, 0 ≤ c_t ≤ 1, s_t ≥ 0, all finite,
// counts ≥ 1, and at most MaxSteps steps. The error names the run and the
// first step it covers.
func (s Schedule) Validate() error {
	if len(s) == 0 {
		return fmt.Errorf("empty schedule: at least one step is needed")
	}
	if len(s) > MaxRuns {
		return fmt.Errorf("schedule has %d runs, more than the %d allowed", len(s), MaxRuns)
	}
	var first int64 = 1
	for i, r := range s {
		if err := r.Step.check(); err != nil {
			return fmt.Errorf("run %d (step %d): %v", i+1, first, err)
		}
		if r.Count < 1 {
			return fmt.Errorf("run %d (step %d): count must be ≥ 1, got %d", i+1, first, r.Count)
		}
		if first-1 > MaxSteps-r.Count {
			return fmt.Errorf("schedule has more than %d steps", MaxSteps)
		}
		first += r.Count
	}
	return nil
}

func (st Step) check() error {
	v, c, sen := st.Variance, st.Contraction, st.Sensitivity
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || !(v > 0):
		return fmt.Errorf("variance must be a finite number > 0, got %v", v)
	case math.IsNaN(c) || math.IsInf(c, 0) || c < 0:
		return fmt.Errorf("contraction must be a finite number in [0, 1], got %v", c)
	case c > 1:
		return fmt.Errorf("contraction %v > 1: the step does not contract, so Theorem 22 (which needs 1-Lipschitz maps, c ≤ 1; docs/amplification.md §Contraction factor below one) does not apply", c)
	case math.IsNaN(sen) || math.IsInf(sen, 0) || sen < 0:
		return fmt.Errorf("sensitivity must be a finite number ≥ 0, got %v", sen)
	}
	return nil
}
