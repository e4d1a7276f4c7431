package audit

import (
	"fmt"
	"math"
	"slices"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/field"
)

// Options of Evaluate.
type Options struct {
	// Confidence of each lower bound (e.g. 0.95).
	Confidence float64 `json:"confidence"`
	// Delta: the lower bounds are on ε at this δ (in [0, 1)).
	Delta float64 `json:"delta"`
	// Grid, if not empty, replaces the split into halves by a union bound
	// over these thresholds ("member" when score ≥ τ), fixed before the
	// scores were seen; every canary is then used for evaluation.
	Grid []float64 `json:"grid,omitempty"`
	// GDPInMax lets the Gaussian-DP estimate's ε enter EpsilonLower and the
	// verdict (it bounds ε only if the algorithm is μ-GDP, GDPAssumption).
	// The threshold and GDP estimates then run at confidence
	// 1 − (1 − Confidence)/2 each, so that their maximum holds at Confidence.
	GDPInMax bool `json:"gdp_in_max"`
	// Upper, if set, is the upper bound (a claimed or certified ε at δ =
	// Delta, with its source) the lower bound is set beside.
	Upper *dp.Guarantee `json:"upper,omitempty"`
}

// UpperBound is the upper bound a claim or a user states (ε at δ, and where
// it was stated), as Options.Upper takes it: a dp.Guarantee, not yet proved.
func UpperBound(epsilon, delta float64, source string) *dp.Guarantee {
	return &dp.Guarantee{Epsilon: dp.Loss(epsilon), Delta: dp.Loss(delta), Source: source}
}

// DefaultOptions: 95% confidence, δ = 10⁻⁵.
func DefaultOptions() Options { return Options{Confidence: 0.95, Delta: 1e-5} }

// Comparison sets the lower bound beside an upper bound.
type Comparison struct {
	EpsilonUpper dp.Loss    `json:"epsilon_upper"`
	EpsilonLower dp.Max     `json:"epsilon_lower"`
	Delta        float64    `json:"delta"`
	Source       string     `json:"source"`
	Verdict      dp.Verdict `json:"verdict"` // dp.Consistent or dp.Violated
	// Gap is upper − lower (negative when Violated).
	Gap       dp.Num `json:"gap"`
	Statement string `json:"statement"`
}

// Estimator names.
const (
	EstimatorThreshold = "threshold"
	EstimatorGDP       = "gdp"
	EstimatorOneRun    = "one_run"
)

// Evaluation is an audit of canary scores or guesses: every applicable
// estimator, the largest lower bound, and the comparison with an upper
// bound.
type Evaluation struct {
	Kind       string  `json:"kind"`
	Canaries   int     `json:"canaries"`
	Members    int     `json:"members"`
	NonMembers int     `json:"non_members"`
	Confidence float64 `json:"confidence"`
	Delta      float64 `json:"delta"`
	// EpsilonLower is the largest lower bound of the estimators that bound
	// ε (the threshold attack, one-run; GDP with GDPInMax), Estimator the
	// one that gave it; 0 with Reason when none is positive.
	EpsilonLower dp.Max          `json:"epsilon_lower"`
	Estimator    string          `json:"estimator"`
	Reason       string          `json:"reason,omitempty"`
	Threshold    *ThresholdBound `json:"threshold,omitempty"`
	GDP          *GDPBound       `json:"gdp,omitempty"`
	OneRun       *OneRunBound    `json:"one_run,omitempty"`
	Comparison   *Comparison     `json:"comparison,omitempty"`
	// Repeats: rows of a score file without ids that equal an earlier row.
	Repeats *Repeats `json:"repeated_rows,omitempty"`
	Notes   []string `json:"notes,omitempty"`
	// Curve is the empirical trade-off curve of the threshold test's side
	// on the evaluation canaries; ClaimedCurve the (ε, δ)-DP curve of
	// Upper (FPR from 1/(2·non-members) to 1).
	Curve        []TradeoffPoint `json:"tradeoff_curve,omitempty"`
	ClaimedCurve []TradeoffPoint `json:"claimed_curve,omitempty"`
}

// Verdict is the audit's verdict: its comparison's (dp.Violated or
// dp.Consistent), dp.Consistent when there is no upper bound to compare.
func (e *Evaluation) Verdict() dp.Verdict {
	if e.Comparison == nil {
		return dp.Consistent
	}
	return e.Comparison.Verdict
}

// Evaluate audits canaries: a score file gets the threshold attack (split
// halves, or Options.Grid) and the Gaussian-DP estimate; a guess file gets
// one-run auditing. It sorts the score halves of c in place. Errors are
// *field.Error values.
func Evaluate(c *Canaries, o Options) (*Evaluation, error) {
	if c == nil {
		return nil, field.New("canaries", nil, "are missing")
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return nil, field.New("confidence", o.Confidence, "must be in (0, 1)")
	}
	if !(o.Delta >= 0 && o.Delta < 1) {
		return nil, field.New("delta", o.Delta, "must be in [0, 1)")
	}
	for i, g := range o.Grid {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return nil, field.New(fmt.Sprintf("grid[%d]", i), g, "must be a finite threshold")
		}
	}
	if u := o.Upper; u != nil {
		if math.IsNaN(float64(u.Epsilon)) || u.Epsilon < 0 {
			return nil, field.New("upper.epsilon", u.Epsilon, "must be ≥ 0 (+Inf: no finite bound)")
		}
		if float64(u.Delta) != o.Delta {
			return nil, field.New("upper.delta", u.Delta, "must equal the δ of the lower bound (%g): bounds at different δ do not compare", o.Delta)
		}
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	ev := &Evaluation{Kind: c.Kind, Canaries: c.Rows, Members: c.NumMembers(), NonMembers: c.NumNonMembers(),
		Confidence: o.Confidence, Delta: o.Delta}
	switch c.Kind {
	case KindGuess:
		g := c.Guesses
		b, err := OneRun(g.Canaries, g.Guesses, g.Correct, o.Delta, o.Confidence)
		if err != nil {
			return nil, err
		}
		ev.OneRun = &b
		if !c.IDs {
			ev.Notes = append(ev.Notes, "the file has no id column, so a canary written on two lines cannot be detected: one-run auditing counts every line as an independent canary (give each canary an id to have repeats refused)")
		}
	case KindScore:
		scoreBounds(ev, c, o)
		if !c.IDs {
			if once, rep := c.countedOnce(); rep > 0 {
				repeatedRows(ev, once, rep, o)
			}
		}
	default:
		return nil, field.New("kind", c.Kind, "must be %q or %q", KindScore, KindGuess)
	}
	ev.EpsilonLower, ev.Estimator = best(ev, o.GDPInMax)
	if ev.EpsilonLower <= 0 {
		ev.EpsilonLower = 0
		switch {
		case ev.OneRun != nil:
			ev.Reason = ev.OneRun.Reason
		case ev.Threshold != nil:
			ev.Reason = ev.Threshold.Reason
		}
	}
	if o.Upper != nil {
		ev.Comparison = Compare(float64(ev.EpsilonLower), *o.Upper, o.Confidence)
	}
	return ev, nil
}

// Compare sets a lower bound (holding with probability ≥ conf) beside an
// upper bound at the same δ.
func Compare(lower float64, u dp.Guarantee, conf float64) *Comparison {
	up, delta := float64(u.Epsilon), float64(u.Delta)
	cmp := &Comparison{EpsilonUpper: u.Epsilon, EpsilonLower: dp.Max(lower), Delta: delta,
		Source: u.Source, Gap: dp.Num(up - lower)}
	if lower > up {
		cmp.Verdict = dp.Violated
		cmp.Statement = fmt.Sprintf("the lower bound ε ≥ %s exceeds the upper bound ε = %s at δ = %g by %s: with %g%% confidence the upper bound is false",
			dp.Max(lower), u.Epsilon, delta, dp.Num(lower-up), 100*conf)
		return cmp
	}
	cmp.Verdict = dp.Consistent
	cmp.Statement = fmt.Sprintf("the lower bound ε ≥ %s does not exceed the upper bound ε = %s at δ = %g: the gap is %s (if the upper bound is right, the true ε lies between them, the lower end holding with %g%% confidence)",
		dp.Max(lower), u.Epsilon, delta, dp.Num(up-lower), 100*conf)
	return cmp
}

// best is the largest lower bound of the estimators that bound ε, and its
// estimator's name (the first applicable one when none is positive).
func best(ev *Evaluation, gdp bool) (dp.Max, string) {
	var eps dp.Max
	name := ""
	try := func(n string, e dp.Max) {
		if name == "" || e > eps {
			eps, name = e, n
		}
	}
	if ev.OneRun != nil {
		try(EstimatorOneRun, ev.OneRun.EpsilonLower)
	}
	if ev.Threshold != nil {
		try(EstimatorThreshold, ev.Threshold.EpsilonLower)
	}
	if ev.GDP != nil && gdp {
		try(EstimatorGDP, ev.GDP.EpsilonLower)
	}
	return eps, name
}

// scoreBounds sets the threshold attack, the GDP estimate and the
// empirical curves of a score file.
func scoreBounds(ev *Evaluation, c *Canaries, o Options) {
	conf := o.Confidence
	if o.GDPInMax {
		conf = 1 - (1-o.Confidence)/2
	}
	var tb ThresholdBound
	var gb GDPBound
	var evIn, evOut []float64
	if len(o.Grid) > 0 {
		evIn = slices.Concat(c.Members[0], c.Members[1])
		evOut = slices.Concat(c.NonMembers[0], c.NonMembers[1])
		tb, gb = thresholdGrid(evIn, evOut, o.Grid, o.Delta, conf)
	} else {
		tb, gb = thresholdSplit(c.Members[0], c.NonMembers[0], c.Members[1], c.NonMembers[1], o.Delta, conf)
		evIn, evOut = c.Members[1], c.NonMembers[1]
	}
	ev.Threshold, ev.GDP = &tb, &gb
	ev.Curve = EmpiricalCurve(evIn, evOut, tb.Greater)
	ev.ClaimedCurve = nil
	if o.Upper != nil && len(evOut) > 0 {
		ev.ClaimedCurve = ClaimedCurve(float64(o.Upper.Epsilon), o.Delta, 0.5/float64(len(evOut)), 200)
	}
}

// Repeats are the rows of a score file without ids that equal an earlier
// row (member and score). Each such row is either a canary written twice
// (then counting it twice overstates the confidence) or a distinct canary
// that scored alike (then dropping it biases the sample); the file cannot
// say which, so every bound is the smaller of the two: the rows as given,
// and each distinct row once.
type Repeats struct {
	Rows           int    `json:"rows"`
	Distinct       int    `json:"distinct"`
	EpsilonAsGiven dp.Max `json:"epsilon_lower_as_given"`
	EpsilonOnce    dp.Max `json:"epsilon_lower_once"`
	Statement      string `json:"statement"`
}

// repeatedRows bounds ε again on once (each distinct row once) and keeps,
// for each estimator, the smaller bound (the GDP interval: the union), so
// that no bound counts a canary twice (max(min(a, a′), min(b, b′)) ≤
// min(max(a, b), max(a′, b′)): the largest of the kept bounds is at most
// either reading's).
func repeatedRows(ev *Evaluation, once *Canaries, rep int, o Options) {
	alt := &Evaluation{}
	scoreBounds(alt, once, o)
	asGiven, _ := best(ev, o.GDPInMax)
	onceEps, _ := best(alt, o.GDPInMax)
	if alt.Threshold.EpsilonLower < ev.Threshold.EpsilonLower {
		ev.Threshold, ev.Curve, ev.ClaimedCurve = alt.Threshold, alt.Curve, alt.ClaimedCurve
	}
	g, a := ev.GDP, alt.GDP
	if a.EpsilonLower < g.EpsilonLower {
		a.MuUpper, a.EpsilonUpper = max(a.MuUpper, g.MuUpper), max(a.EpsilonUpper, g.EpsilonUpper)
		ev.GDP = a
	} else {
		g.MuUpper, g.EpsilonUpper = max(a.MuUpper, g.MuUpper), max(a.EpsilonUpper, g.EpsilonUpper)
	}
	ev.Repeats = &Repeats{Rows: rep, Distinct: once.Rows, EpsilonAsGiven: asGiven, EpsilonOnce: onceEps,
		Statement: fmt.Sprintf("%d of %d rows repeat an earlier row exactly (member and score) and the file has no id column: a canary written twice cannot be told from two that scored alike, so each bound is the smaller of the rows as given (ε ≥ %s) and each distinct row once (ε ≥ %s); give each canary an id to count every row", rep, ev.Canaries, asGiven, onceEps)}
	ev.Notes = append(ev.Notes, ev.Repeats.Statement)
}
