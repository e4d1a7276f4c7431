package audit

import (
	"fmt"
	"math"
	"slices"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
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
	// Upper, if set, is the upper bound (claimed or certified ε at δ =
	// Delta) the lower bound is set beside.
	Upper *Upper `json:"upper,omitempty"`
}

// DefaultOptions: 95% confidence, δ = 10⁻⁵.
func DefaultOptions() Options { return Options{Confidence: 0.95, Delta: 1e-5} }

// Upper is an upper bound on ε at Delta: a claim, or a certified guarantee.
type Upper struct {
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	Source  string  `json:"source"`
}

// Verdict compares an empirical lower bound with an upper bound. (Package
// claim's Verdict answers another question, whether privamp can prove a
// claim, so this is its own type.)
type Verdict int

const (
	// Consistent: the lower bound does not exceed the upper bound.
	Consistent Verdict = iota
	// Violated: the lower bound exceeds the upper bound, which is therefore
	// false with probability ≥ the confidence.
	Violated
)

func (v Verdict) String() string {
	if v == Violated {
		return "VIOLATED"
	}
	return "CONSISTENT"
}

// MarshalJSON encodes the verdict as its name ("CONSISTENT", "VIOLATED").
func (v Verdict) MarshalJSON() ([]byte, error) { return []byte(`"` + v.String() + `"`), nil }

// Comparison sets the lower bound beside an upper bound.
type Comparison struct {
	EpsilonUpper quantity.Loss `json:"epsilon_upper"`
	EpsilonLower quantity.Max  `json:"epsilon_lower"`
	Delta        float64       `json:"delta"`
	Source       string        `json:"source"`
	Verdict      Verdict       `json:"verdict"`
	// Gap is upper − lower (negative when Violated).
	Gap       quantity.Num `json:"gap"`
	Statement string       `json:"statement"`
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
	EpsilonLower quantity.Max    `json:"epsilon_lower"`
	Estimator    string          `json:"estimator"`
	Reason       string          `json:"reason,omitempty"`
	Threshold    *ThresholdBound `json:"threshold,omitempty"`
	GDP          *GDPBound       `json:"gdp,omitempty"`
	OneRun       *OneRunBound    `json:"one_run,omitempty"`
	Comparison   *Comparison     `json:"comparison,omitempty"`
	// Curve is the empirical trade-off curve of the threshold test's side
	// on the evaluation canaries; ClaimedCurve the (ε, δ)-DP curve of
	// Upper (FPR from 1/(2·non-members) to 1).
	Curve        []TradeoffPoint `json:"tradeoff_curve,omitempty"`
	ClaimedCurve []TradeoffPoint `json:"claimed_curve,omitempty"`
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
		if math.IsNaN(u.Epsilon) || u.Epsilon < 0 {
			return nil, field.New("upper.epsilon", u.Epsilon, "must be ≥ 0 (+Inf: no finite bound)")
		}
		if u.Delta != o.Delta {
			return nil, field.New("upper.delta", u.Delta, "must equal the δ of the lower bound (%g): bounds at different δ do not compare", o.Delta)
		}
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	ev := &Evaluation{Kind: c.Kind, Canaries: c.Rows, Members: c.NumMembers(), NonMembers: c.NumNonMembers(),
		Confidence: o.Confidence, Delta: o.Delta}
	type cand struct {
		name string
		eps  quantity.Max
	}
	var cands []cand
	switch c.Kind {
	case KindGuess:
		g := c.Guesses
		b, err := OneRun(g.Canaries, g.Guesses, g.Correct, o.Delta, o.Confidence)
		if err != nil {
			return nil, err
		}
		ev.OneRun = &b
		cands = append(cands, cand{EstimatorOneRun, b.EpsilonLower})
	case KindScore:
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
		cands = append(cands, cand{EstimatorThreshold, tb.EpsilonLower})
		if o.GDPInMax {
			cands = append(cands, cand{EstimatorGDP, gb.EpsilonLower})
		}
		ev.Curve = EmpiricalCurve(evIn, evOut, tb.Greater)
		if o.Upper != nil && len(evOut) > 0 {
			ev.ClaimedCurve = ClaimedCurve(o.Upper.Epsilon, o.Delta, 0.5/float64(len(evOut)), 200)
		}
	default:
		return nil, field.New("kind", c.Kind, "must be %q or %q", KindScore, KindGuess)
	}
	ev.Estimator = cands[0].name
	for _, k := range cands {
		if k.eps > ev.EpsilonLower {
			ev.EpsilonLower, ev.Estimator = k.eps, k.name
		}
	}
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
func Compare(lower float64, u Upper, conf float64) *Comparison {
	cmp := &Comparison{EpsilonUpper: quantity.Loss(u.Epsilon), EpsilonLower: quantity.Max(lower), Delta: u.Delta,
		Source: u.Source, Gap: quantity.Num(u.Epsilon - lower)}
	if lower > u.Epsilon {
		cmp.Verdict = Violated
		cmp.Statement = fmt.Sprintf("the lower bound ε ≥ %s exceeds the upper bound ε = %s at δ = %g by %s: with %g%% confidence the upper bound is false",
			quantity.Max(lower), quantity.Loss(u.Epsilon), u.Delta, quantity.Num(lower-u.Epsilon), 100*conf)
		return cmp
	}
	cmp.Verdict = Consistent
	cmp.Statement = fmt.Sprintf("the lower bound ε ≥ %s does not exceed the upper bound ε = %s at δ = %g: the gap is %s (if the upper bound is right, the true ε lies between them, the lower end holding with %g%% confidence)",
		quantity.Max(lower), quantity.Loss(u.Epsilon), u.Delta, quantity.Num(u.Epsilon-lower), 100*conf)
	return cmp
}
