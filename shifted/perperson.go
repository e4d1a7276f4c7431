package shifted

import (
	"encoding/json"
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"
	"sort"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// MaxAll is the largest n for which EpsilonsAll expands every index.
const MaxAll = int64(200_000_000)

func checkDelta(delta float64) error {
	if !(delta > 0 && delta < 1) {
		return rdp.ErrDelta
	}
	return nil
}

// Epsilon returns the (ε, δ)-DP guarantee of index t, optimised over the
// order α. zCDP guarantees convert in O(1) (rdp.LinearEpsilon's optimum);
// the mixtures (Skip, Stop, Tasks) by Brent's method on ln(α − 1) after a
// coarse scan and a start from the zCDP curve through ε(2) — never worse
// than rdp.EpsilonFor's grid search in the tests, and every order tried is a
// valid bound.
func Epsilon(g PerPerson, t int64, delta float64, conv rdp.Conversion) (rdp.DP, error) {
	if err := checkDelta(delta); err != nil {
		return rdp.DP{}, err
	}
	if err := checkIndex(g, t); err != nil {
		return rdp.DP{}, err
	}
	e, a := epsilonAt(g, t, delta, conv, 0, true)
	return rdp.DP{Epsilon: e, Delta: delta, Order: a, Conversion: conv}, nil
}

// epsilonAt converts index t with an order guess (0: none).
func epsilonAt(g PerPerson, t int64, delta float64, conv rdp.Conversion, guess float64, coarse bool) (eps, order float64) {
	if z, ok := g.(ZCDP); ok {
		lr := z.LogRho(t)
		if lr > -700 && guess > 1 {
			e, x := rdp.LinearEpsilonWarm(numeric.ExpUp(lr), numeric.NegLogUp(delta), conv, guess-1)
			return e, 1 + x
		}
		return epsFromLogRho(lr, delta, conv)
	}
	c := g.Curve(t)
	if sc, ok := c.(skipCurve); ok && sc.p == 0 {
		return epsFromLogRho(math.Log(sc.rho), delta, conv)
	}
	if sc, ok := c.(stopCurve); ok && sc.lq < 0 {
		return stopContractedOrder(sc, delta, conv, guess, coarse)
	}
	if !(guess > 1) {
		guess = linearGuess(c, delta, conv)
	}
	return optimizeOrder(c, delta, conv, guess, coarse)
}

// stopContractedOrder converts a Stop curve with c < 1: the order is
// optimised on the c = 1 curve (fast sums), then refined by a local search
// from there on the curve itself (the smaller of the two mixtures). Every
// order gives a valid bound and the result is never above the c = 1
// optimum (TestStopContractionOrder).
func stopContractedOrder(sc stopCurve, delta float64, conv rdp.Conversion, guess float64, coarse bool) (eps, order float64) {
	c1 := sc
	c1.lq = 0
	if !(guess > 1) {
		guess = linearGuess(c1, delta, conv)
	}
	e, a := optimizeOrder(c1, delta, conv, guess, coarse)
	if math.IsInf(e, 1) || math.IsNaN(a) {
		return e, a
	}
	o := &orderSearch{c: sc, delta: delta, conv: conv, bestF: math.Inf(1), bestY: math.NaN()}
	lo, hi := o.bracket(math.Log(a-1), 0.02)
	o.brent(lo, hi, 1e-6)
	if o.bestF < e {
		return math.Max(o.bestF, 0), 1 + math.Exp(o.bestY)
	}
	return e, a
}

// linearGuess returns the optimal order of the zCDP curve through the
// curve's value at α = 2: a good start for mixtures that are close to linear
// where it matters.
func linearGuess(c rdp.Curve, delta float64, conv rdp.Conversion) float64 {
	rho := c.Epsilon(2) / 2
	if !(rho > 0) || math.IsInf(rho, 0) {
		return 2
	}
	_, x := rdp.LinearEpsilonWarm(rho, numeric.NegLogUp(delta), conv, 0)
	return 1 + x
}

// Epsilons returns ε_t(δ) for each index in ts, in the same order, reusing
// each answer's order as the next one's starting point (sort ts for speed).
func Epsilons(g PerPerson, ts []int64, delta float64, conv rdp.Conversion) ([]float64, error) {
	if err := checkDelta(delta); err != nil {
		return nil, err
	}
	for _, t := range ts {
		if err := checkIndex(g, t); err != nil {
			return nil, err
		}
	}
	out := make([]float64, len(ts))
	guess := 0.0
	for i, t := range ts {
		e, a := epsilonAt(g, t, delta, conv, guess, guess == 0)
		out[i] = e
		if a > 1 && !math.IsInf(a, 0) {
			guess = a
		}
	}
	return out, nil
}

// Point is one index and its guarantee.
type Point struct {
	Index   int64
	Epsilon float64
	Order   float64
}

// Quantile is the ε below or at which a share Q of the indices lie.
type Quantile struct {
	Q       float64
	Index   int64
	Epsilon float64
}

// Summary describes the distribution of ε_t over the n indices.
type Summary struct {
	N           int64
	Delta       float64
	Worst, Best Point
	Quantiles   []Quantile // 1%, 10%, 25%, 50% (median), 75%, 90%, 99%
	// Target, when > 0, and the number and share of indices with ε_t ≤ Target.
	Target     float64
	CountUnder int64
	ShareUnder float64
}

// Median returns the 50% quantile.
func (s Summary) Median() Quantile {
	for _, q := range s.Quantiles {
		if q.Q == 0.5 {
			return q
		}
	}
	return Quantile{}
}

// MarshalJSON encodes the summary with privamp's key names (worst_index,
// worst_epsilon, …; ε without a finite guarantee as null).
func (s Summary) MarshalJSON() ([]byte, error) {
	type quantile struct {
		Q       float64 `json:"q"`
		Index   int64   `json:"index"`
		Epsilon dp.Loss `json:"epsilon"`
	}
	out := struct {
		N             int64      `json:"n"`
		Delta         float64    `json:"delta"`
		WorstIndex    int64      `json:"worst_index"`
		WorstEpsilon  dp.Loss    `json:"worst_epsilon"`
		WorstOrder    dp.Num     `json:"worst_order"`
		MedianIndex   int64      `json:"median_index"`
		MedianEpsilon dp.Loss    `json:"median_epsilon"`
		BestIndex     int64      `json:"best_index"`
		BestEpsilon   dp.Loss    `json:"best_epsilon"`
		Quantiles     []quantile `json:"quantiles"`
		Target        *dp.Num    `json:"target_epsilon,omitempty"`
		CountUnder    *int64     `json:"count_under_target,omitempty"`
		ShareUnder    *float64   `json:"share_under_target,omitempty"`
	}{N: s.N, Delta: s.Delta, WorstIndex: s.Worst.Index, WorstEpsilon: dp.Loss(s.Worst.Epsilon), WorstOrder: dp.Num(s.Worst.Order),
		MedianIndex: s.Median().Index, MedianEpsilon: dp.Loss(s.Median().Epsilon),
		BestIndex: s.Best.Index, BestEpsilon: dp.Loss(s.Best.Epsilon)}
	for _, q := range s.Quantiles {
		out.Quantiles = append(out.Quantiles, quantile{q.Q, q.Index, dp.Loss(q.Epsilon)})
	}
	if s.Target > 0 {
		target := dp.Num(s.Target)
		out.Target, out.CountUnder, out.ShareUnder = &target, &s.CountUnder, &s.ShareUnder
	}
	return json.Marshal(out)
}

// DefaultQuantiles are the shares Summarize reports.
var DefaultQuantiles = []float64{0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99}

// Summarize describes ε_t(δ) over all indices using the guarantee's
// monotonicity in t: the rank-r smallest ε is at a known index, so quantiles
// cost one conversion each and the count under target a binary search
// (O(log n) conversions), for n up to MaxN.
func Summarize(g PerPerson, delta float64, conv rdp.Conversion, target float64) (Summary, error) {
	if err := checkDelta(delta); err != nil {
		return Summary{}, err
	}
	if math.IsNaN(target) || target < 0 {
		return Summary{}, fmt.Errorf("target ε must be ≥ 0, got %v", target)
	}
	n := g.Len()
	// rank r (1 = smallest ε) → index
	idx := func(r int64) int64 {
		switch g.Monotone() {
		case 1:
			return r
		case -1:
			return n - r + 1
		}
		return 1
	}
	at := func(r int64) Point {
		t := idx(r)
		e, a := epsilonAt(g, t, delta, conv, 0, true)
		return Point{Index: t, Epsilon: e, Order: a}
	}
	s := Summary{N: n, Delta: delta, Best: at(1), Worst: at(n), Target: target}
	for _, q := range DefaultQuantiles {
		r := max(1, int64(math.Ceil(q*float64(n))))
		p := at(r)
		s.Quantiles = append(s.Quantiles, Quantile{Q: q, Index: p.Index, Epsilon: p.Epsilon})
	}
	if target > 0 {
		// Largest rank r with ε ≤ target (0 if none).
		cnt := sort.Search(int(min(n, math.MaxInt)), func(i int) bool {
			return at(int64(i)+1).Epsilon > target
		})
		s.CountUnder = int64(cnt)
		s.ShareUnder = float64(s.CountUnder) / float64(n)
	}
	return s, nil
}

// LogSpaced returns about points indices in [1, n], increasing, including 1
// and n, spaced geometrically both in t and in n − t + 1 (the steps after the
// record), so both ends of the curve are resolved.
func LogSpaced(n int64, points int) []int64 {
	if n < 1 {
		return nil
	}
	if points < 2 {
		points = 2
	}
	set := map[int64]bool{1: true, n: true}
	half := max(points/2, 1)
	for i := 0; i <= half; i++ {
		m := int64(math.Round(math.Pow(float64(n), float64(i)/float64(half))))
		m = min(max(m, 1), n)
		set[m] = true     // t = m
		set[n-m+1] = true // n − t + 1 = m
	}
	out := make([]int64, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Highlight is one labelled point of a Summary.
type Highlight struct {
	Label   string
	Index   int64
	Epsilon float64
}

// Highlights returns the worst record, the 90th percentile, the median, the
// 10th percentile and the best record, in that order.
func (s Summary) Highlights() []Highlight {
	out := []Highlight{{"worst record", s.Worst.Index, s.Worst.Epsilon}}
	for _, q := range []struct {
		q     float64
		label string
	}{{0.9, "90th percentile"}, {0.5, "median"}, {0.1, "10th percentile"}} {
		for _, x := range s.Quantiles {
			if x.Q == q.q {
				out = append(out, Highlight{q.label, x.Index, x.Epsilon})
			}
		}
	}
	return append(out, Highlight{"best record", s.Best.Index, s.Best.Epsilon})
}
