package plan

import (
	"math"

	"github.com/privamp/privamp/shifted"
)

// EvaluateAllMax is the most positions whose ε Make and Verify compute one
// by one. A longer plan whose people share one δ, with few budget groups
// (byEnds: their end windows hold at most an eighth of the positions), is
// decided at each group's two ends instead (evals), which is exact by the
// monotonicity of ε_t in t:
//
// Claim. Let a group hold positions f..l, all with the target (ε, δ), and
// let the guarantee's curves satisfy ε_t(α) ≤ ε_l(α) for every order α and
// f ≤ t ≤ l (PerPerson.Monotone() = +1; with −1 the same holds with f in
// place of l, with 0 every position has one curve). Then every person of
// the group is (ε_l(δ), δ)-DP, where ε_l(δ) is the value package shifted
// computes at l.
//
// Proof. The conversion ε_t(δ) = min_α [ε_t(α) + c_δ(α)] is a minimum of
// functions each at most the corresponding one of position l, so
// ε_t(δ) ≤ ε_l(δ) for the exact conversions; package shifted's value at l is
// the conversion evaluated at one order with rounding upward, so it is at
// least the exact ε_l(δ). ∎
//
// Monotone() is proved for every guarantee the planner uses: FMTT18's ρ_t
// (SGD: ρ_t = κ_j·F with F non-increasing in the steps after the record's
// last use), the bounded-domain minimum of it and of window costs that are
// non-increasing in those steps (Domain; docs/amplification.md, "Monotone in
// the index"), Skip's mixture (skip probability and ρ_t both non-decreasing)
// and Stop's (−1: an early record is seen by more stopping times); the
// tests TestSGDMonotone, TestDomainMonotone and the PerPerson tests check
// the declared direction, and TestEndsMatchEveryPosition checks that the
// groups' summaries, the largest achieved/target and the verification
// decided at the ends are bit for bit those of every position.
//
// The values at the ends are shifted.EpsilonsAllAt's: the numbers
// EpsilonsAll gives those positions, so a plan's file and report are the
// same whichever way it was decided.
const EvaluateAllMax = int64(1) << 20

// evaluateAllMax is EvaluateAllMax, lowered by tests.
var evaluateAllMax = EvaluateAllMax

// evals is every private position's ε at one σ (all), or, for a plan
// decided at its groups' ends, ε at those ends and at a few other
// positions (at).
type evals struct {
	all   []float64
	at    map[int64]float64
	sigma float64
}

// eps returns ε at position t; on the ends path t must have been
// evaluated.
func (e *evals) eps(t int64) float64 {
	if e.all != nil {
		return e.all[t-1]
	}
	v, ok := e.at[t]
	if !ok {
		panic("plan: ε not evaluated at this position")
	}
	return v
}

// byEnds reports whether the problem is decided at its groups' ends:
// more than evaluateAllMax positions, one δ, and groups whose end windows
// hold at most an eighth of the positions (10⁷ people with 10⁷ different
// budgets are computed at every position, as before).
func (p *problem) byEnds() bool {
	n := p.total()
	if !p.oneDelta || n <= evaluateAllMax || n > shifted.MaxAll || int64(len(p.groups)) > n/16 {
		return false
	}
	var w int64
	for r := range p.groups {
		for _, last := range [2]bool{false, true} {
			lo, hi := p.endWindow(r, last)
			w += hi - lo + 1
		}
	}
	return w <= n/8
}

// evaluate returns ε at σ: at every position, or on the ends path at
// each group's end windows (endWindow) and at the positions extra.
func (p *problem) evaluate(sigma float64, extra ...int64) (*evals, error) {
	if !p.byEnds() {
		all, err := p.achieved(sigma)
		return &evals{all: all, sigma: sigma}, err
	}
	var ts []int64
	for r := range p.groups {
		for _, last := range [2]bool{false, true} {
			lo, hi := p.endWindow(r, last)
			for t := lo; t <= hi; t++ {
				ts = append(ts, t)
			}
		}
	}
	for _, t := range extra {
		if t >= 1 && t <= p.total() {
			ts = append(ts, t)
		}
	}
	e := &evals{at: make(map[int64]float64, len(ts)), sigma: sigma}
	if err := p.evaluateAt(e, ts); err != nil {
		return nil, err
	}
	return e, nil
}

// endWindow returns the positions of group r that share a step with its
// first (last: false) or last (true) position: a batch's records share
// their ρ_t, and package shifted's values for them may differ in the last
// bits, so the group's extremes are taken over these windows, as a scan of
// every position finds them.
func (p *problem) endWindow(r int, last bool) (int64, int64) {
	f, l := p.firstPos(r), p.lastPos(r)
	b := max(p.s.Training.BatchSize(), 1)
	if last {
		return max(f, (l-1)/b*b+1), l
	}
	return f, min(l, ((f-1)/b+1)*b)
}

// worstWindow returns the end window of group r that holds its least
// private position.
func (p *problem) worstWindow(r int) (int64, int64) {
	return p.endWindow(r, p.mono >= 0)
}

// evaluateAt adds ε at the positions ts to e (ends path).
func (p *problem) evaluateAt(e *evals, ts []int64) error {
	g, err := p.guarantee(e.sigma)
	if err != nil {
		return err
	}
	v, err := shifted.EpsilonsAllAt(g, ts, p.s.Training.Delta, p.s.Conversion)
	if err != nil {
		return err
	}
	for i, t := range ts {
		e.at[t] = v[i]
	}
	return nil
}

// scan returns the smallest and largest ε over positions lo..hi and the
// first position attaining the largest (a NaN counts as the largest).
func (e *evals) scan(lo, hi int64) (mn, mx float64, at int64) {
	mn, mx = math.Inf(1), math.Inf(-1)
	for t := lo; t <= hi; t++ {
		v := e.eps(t)
		mn = math.Min(mn, v)
		if at == 0 || v > mx || (math.IsNaN(v) && !math.IsNaN(mx)) {
			mx, at = v, t
		}
	}
	return mn, mx, at
}

// extremes returns the smallest and largest ε of group r: over every
// position, or on the ends path over its two end windows.
func (p *problem) extremes(e *evals, r int) (lo, hi float64) {
	lo, hi = math.Inf(1), 0.0
	if e.all != nil {
		for t := p.firstPos(r); t <= p.lastPos(r); t++ {
			lo, hi = math.Min(lo, e.all[t-1]), math.Max(hi, e.all[t-1])
		}
		return lo, hi
	}
	for _, last := range [2]bool{false, true} {
		mn, mx, _ := e.scan(p.endWindow(r, last))
		lo, hi = math.Min(lo, mn), math.Max(hi, mx)
	}
	return lo, hi
}

// exceeds reports whether some position of the problem has ε above
// limit(group) (NaN counts as above): every position, or on the ends path
// each group's least private window.
func (p *problem) exceeds(e *evals, limit func(gr group) float64) bool {
	for r, gr := range p.groups {
		b := limit(gr)
		if e.all == nil {
			if _, mx, _ := e.scan(p.worstWindow(r)); !(mx <= b) {
				return true
			}
			continue
		}
		for t := p.firstPos(r); t <= p.lastPos(r); t++ {
			if !(e.all[t-1] <= b) {
				return true
			}
		}
	}
	return false
}

// binding returns the largest ε/target over the positions and the first
// position that attains it (0, 0 when every ratio is 0). On the ends path
// a group's largest ratio is in its least private window; when ε_t is
// non-decreasing, a run of positions with that same ε may start before
// the window, and it is followed back.
func (p *problem) binding(e *evals) (float64, int64, error) {
	best, pos := 0.0, int64(0)
	if e.all != nil {
		for r, gr := range p.groups {
			for t := p.firstPos(r); t <= p.lastPos(r); t++ {
				if v := e.all[t-1] / gr.eps; v > best || math.IsNaN(v) {
					best, pos = v, t
				}
			}
		}
		return best, pos, nil
	}
	br := -1
	for r, gr := range p.groups {
		_, mx, t := e.scan(p.worstWindow(r))
		if p.mono == 0 {
			t = p.firstPos(r)
		}
		if v := mx / gr.eps; v > best || math.IsNaN(v) {
			best, pos, br = v, t, r
		}
	}
	if br < 0 || p.mono <= 0 {
		return best, pos, nil
	}
	v, first, from := e.eps(pos), p.firstPos(br), pos
	for pos > first {
		if from-pos > 1<<16 {
			// A long run of equal ε (not met in practice): every position,
			// as the other path does, rather than chunk by chunk.
			all, err := p.achieved(e.sigma)
			if err != nil {
				return 0, 0, err
			}
			return p.binding(&evals{all: all, sigma: e.sigma})
		}
		lo := max(first, pos-4096)
		ts := make([]int64, 0, pos-lo)
		for t := lo; t < pos; t++ {
			ts = append(ts, t)
		}
		if err := p.evaluateAt(e, ts); err != nil {
			return 0, 0, err
		}
		for pos > lo && e.eps(pos-1) == v {
			pos--
		}
		if pos > lo {
			break
		}
	}
	return best, pos, nil
}
