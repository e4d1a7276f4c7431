package shifted

import (
	"errors"
	"math"
	"slices"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// Solution is the best bound FMTT18 Theorem 22 certifies for a schedule with
// Gaussian noise: D_α(X_T ‖ X'_T) ≤ α·K for every α > 1, that is K-zCDP for
// the person whose sensitivities the schedule holds.
type Solution struct {
	// K is the zCDP parameter; 0 when every s_t is 0 (or only steps wiped
	// out by a later c_t = 0 carry sensitivity).
	K float64
	// LogK is ln K, finite even where K underflows a float64; −Inf when K = 0.
	LogK float64
	// Steps is the schedule length T.
	Steps int64
	// Segments are the pieces of the greatest convex minorant in time order.
	// On a segment the optimal shift is a_t = exp(LogSlope)·v_t·D_t, where
	// D_t = Π_{i>t} c_i is the contraction still to come; the shift z_t
	// returns to 0 at the end of every segment (the taut string touches the
	// staircase there).
	Segments []Segment
	sched    Schedule
}

// Segment is a maximal range of steps on which the optimal allocation has
// one slope.
type Segment struct {
	First, Last int64 // 1-based, inclusive
	// LogSlope is ln λ with a_t = λ·v_t·D_t on the segment (D_t relative to
	// the final step); −Inf where no shift is spent (a_t = 0).
	LogSlope float64
	// K is this segment's share of Solution.K: Σ a_t²/(2v_t) over the
	// segment, which equals (ΔS)²/(2ΔV) in the rescaled coordinates.
	K float64
}

// Curve returns the RDP curve α·K.
func (s Solution) Curve() rdp.Linear { return rdp.Linear(s.K) }

// Epsilon returns the (ε, δ)-DP guarantee implied by K-zCDP, optimised over
// α, and the optimal order. It stays positive (and sound) when K underflows.
func (s Solution) Epsilon(delta float64, conv rdp.Conversion) (eps, order float64) {
	return epsFromLogRho(s.LogK, delta, conv)
}

// block is one element of the pool-adjacent-violators stack: an interval of
// runs with its summed rescaled variance and sensitivity (natural logs).
type block struct {
	logV, logS  float64
	first, last int64   // steps, 1-based
	runs        float64 // runs pooled into the block (for its error bound)
}

func (b block) slope() float64 {
	if math.IsInf(b.logS, -1) {
		return b.logS
	}
	return b.logS - b.logV
}

// lnGeom returns ln Σ_{k=0}^{m−1} e^{k·l} for l ≤ 0 and m ≥ 1, accurately for
// l near 0 (expm1) and for l = −Inf (the sum is 1).
func lnGeom(m float64, l float64) float64 {
	switch {
	case m == 1 || math.IsInf(l, -1):
		return 0
	case l == 0:
		return math.Log(m)
	}
	return math.Log(-math.Expm1(m*l)) - math.Log(-math.Expm1(l))
}

// ErrNoSchedule is returned by Solve for an empty schedule.
var ErrNoSchedule = errors.New("empty schedule")

// K and LogK are rounded up. The logs are computed in float64 through at
// most one pooling (numeric.LogAdd, 1-Lipschitz in its arguments) per run,
// each adding a few units of roundoff of the largest |log| involved (mag);
// a block pooled from r runs is within (32 + 8r)·u·(1 + mag) of its exact
// log, and each segment's ln K share is raised by three such bounds, the
// sum by LogSumExp's, before e^x is taken upward (numeric.ExpUp). Without
// it K = 0.1 printed as 0.09999999999999998 (variance 0.5, sensitivity 1,
// 10 steps), below the exact value.
//
// Solve returns the optimal Theorem 22 bound for the schedule (docs/amplification.md#optimal-shift-allocation):
// the minimum of Σ a_t²/(2v_t) over shifts a_t ≥ 0 with
// z_t = c_t z_{t−1} + s_t − a_t ≥ 0 and z_T = 0. It rescales every step by the
// contraction still to come, D_t = Π_{i>t} c_i (relative to the final step, in
// log space), so that the problem becomes the c = 1 problem, whose optimum is
// the greatest convex minorant of the points (Σ_{i≤t} v_i D_i², Σ_{i≤t} s_i D_i):
// K = Σ over its segments of (ΔS)²/(2ΔV). The minorant is found by
// pool-adjacent-violators from the last step backwards, one block per run,
// in O(number of runs). A step with c_t = 0 forgets everything before it, so
// the solver stops there.
func Solve(s Schedule) (Solution, error) {
	if len(s) == 0 {
		return Solution{}, ErrNoSchedule
	}
	if err := s.Validate(); err != nil {
		return Solution{}, err
	}
	total := s.Len()
	stack := make([]block, 0, 16)
	var logD numeric.Kahan // ln D at the end of the current run
	lastStep := total
	prevV, prevC, prevS := math.NaN(), math.NaN(), math.NaN()
	var lv, lc, ls float64
	mag := 0.0 // the largest |log| the blocks' logs were computed from
	for r := len(s) - 1; r >= 0; r-- {
		run := s[r]
		m := run.Count
		if run.Contraction == 0 {
			m = 1 // only the run's last step survives its own map
		}
		if run.Variance != prevV {
			prevV, lv = run.Variance, math.Log(run.Variance)
		}
		if run.Contraction != prevC {
			prevC, lc = run.Contraction, math.Log(run.Contraction)
		}
		if run.Sensitivity != prevS {
			prevS, ls = run.Sensitivity, math.Log(run.Sensitivity)
		}
		d := logD.Sum()
		b := block{first: lastStep - m + 1, last: lastStep, logS: math.Inf(-1), runs: 1}
		mf := float64(m)
		gv := lnGeom(mf, 2*lc)
		b.logV = lv + 2*d + gv
		mag = max(mag, math.Abs(lv), math.Abs(d), math.Abs(gv), math.Abs(b.logV))
		if run.Sensitivity > 0 {
			gs := lnGeom(mf, lc)
			b.logS = ls + d + gs
			mag = max(mag, math.Abs(ls), math.Abs(gs), math.Abs(b.logS))
		}
		stack = append(stack, b)
		// Time runs backwards here, so the slopes on the stack must not
		// increase from the top (earliest) down; pool violators.
		for n := len(stack); n >= 2; n = len(stack) {
			early, late := stack[n-1], stack[n-2]
			if early.slope() < late.slope() {
				break
			}
			stack[n-2] = block{
				logV:  numeric.LogAdd(early.logV, late.logV),
				logS:  numeric.LogAdd(early.logS, late.logS),
				first: early.first,
				last:  late.last,
				runs:  early.runs + late.runs,
			}
			if p := stack[n-2]; !math.IsInf(p.logS, -1) {
				mag = max(mag, math.Abs(p.logS))
			}
			stack = stack[:n-1]
		}
		if run.Contraction == 0 {
			break
		}
		logD.Add(float64(run.Count) * lc)
		lastStep -= run.Count
	}
	sol := Solution{Steps: total, sched: s, LogK: math.Inf(-1)}
	if first := stack[len(stack)-1].first; first > 1 {
		sol.Segments = append(sol.Segments, Segment{First: 1, Last: first - 1, LogSlope: math.Inf(-1)})
	}
	var terms []float64
	for i := len(stack) - 1; i >= 0; i-- {
		b := stack[i]
		seg := Segment{First: b.first, Last: b.last, LogSlope: b.slope()}
		if !math.IsInf(b.logS, -1) {
			lk := 2*b.logS - b.logV - math.Ln2
			lk += 3*(32+8*b.runs)*numeric.U*(1+mag) + 4*numeric.U*(1+math.Abs(lk)+2*mag)
			seg.K = numeric.ExpUp(lk)
			terms = append(terms, lk)
		}
		if n := len(sol.Segments); n > 0 && sol.Segments[n-1].LogSlope == seg.LogSlope {
			sol.Segments[n-1].Last = seg.Last
			sol.Segments[n-1].K = math.Nextafter(sol.Segments[n-1].K+seg.K, math.Inf(1))
			continue
		}
		sol.Segments = append(sol.Segments, seg)
	}
	if len(terms) > 0 {
		lk := numeric.LogSumExp(terms)
		sol.LogK = lk + float64(8+len(terms))*numeric.U*(2+math.Abs(slices.Max(terms))+3*math.Abs(lk))
		sol.K = numeric.ExpUp(sol.LogK)
	}
	return sol, nil
}

// segmentAt returns the index of the segment holding step t.
func (s Solution) segmentAt(t int64) int {
	lo, hi := 0, len(s.Segments)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if s.Segments[mid].Last < t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Shift returns the optimal shift a_t at step t ∈ [1, T] (0 outside).
// It costs O(number of runs).
func (s Solution) Shift(t int64) float64 {
	if t < 1 || t > s.Steps || len(s.Segments) == 0 {
		return 0
	}
	seg := s.Segments[s.segmentAt(t)]
	if math.IsInf(seg.LogSlope, -1) {
		return 0
	}
	// ln D_t = Σ_{i>t} ln c_i, and v_t.
	var logD numeric.Kahan
	var v float64
	end := s.Steps
	for r := len(s.sched) - 1; r >= 0; r-- {
		run := s.sched[r]
		start := end - run.Count + 1
		if t >= start {
			v = run.Variance
			if after := end - t; after > 0 {
				logD.Add(float64(after) * math.Log(run.Contraction))
			}
			break
		}
		logD.Add(float64(run.Count) * math.Log(run.Contraction))
		end = start - 1
	}
	return math.Exp(seg.LogSlope + math.Log(v) + logD.Sum())
}

// MaxAllocation is the largest schedule for which Shifts expands the whole
// allocation.
const MaxAllocation = 100_000_000

// Shifts returns the optimal allocation a_1, …, a_T. It refuses schedules
// longer than MaxAllocation steps; use Shift for single steps there.
func (s Solution) Shifts() ([]float64, error) {
	if s.Steps > MaxAllocation {
		return nil, errors.New("allocation too long to expand; use Shift(t)")
	}
	out := make([]float64, s.Steps)
	if len(s.Segments) == 0 {
		return out, nil
	}
	var logD numeric.Kahan
	t := s.Steps
	si := len(s.Segments) - 1
	for r := len(s.sched) - 1; r >= 0 && t >= 1; r-- {
		run := s.sched[r]
		lv, lc := math.Log(run.Variance), math.Log(run.Contraction)
		for k := int64(0); k < run.Count && t >= 1; k++ {
			for s.Segments[si].First > t {
				si--
			}
			if ls := s.Segments[si].LogSlope; !math.IsInf(ls, -1) {
				out[t-1] = math.Exp(ls + lv + logD.Sum())
			}
			if run.Contraction == 0 {
				return out, nil
			}
			logD.Add(lc)
			t--
		}
	}
	return out, nil
}
