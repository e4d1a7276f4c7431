package composition

import (
	"errors"
	"math"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
)

// Query is one composition question: k equal (ε, δ)-DP mechanisms
// (Epsilon, Delta, Compositions) or a list of guarantees (List), a method,
// and the total δ budget, given as TargetDelta or as DeltaPrime (then the
// budget is Σδ + δ'). A nil pointer means "not given".
//
// With Method "filter" and TargetEpsilon: for a list, the fully adaptive
// filter is run over it in order (FilterRun); for k equal mechanisms, the
// largest per-step ε0 that meets TargetEpsilon is added (MaxStepEpsilon).
type Query struct {
	Method        string         // basic, advanced, optimal, filter or best ("" is best)
	Epsilon       float64        // ε of each of the k mechanisms, finite and ≥ 0
	Delta         float64        // δ of each mechanism, in [0, 1)
	Compositions  float64        // k, a whole number in [1, MaxK]; unused with List
	List          []dp.Guarantee // heterogeneous guarantees, in the order they run
	DeltaPrime    *float64       // δ' ∈ (0, 1) of advanced composition and of the filter
	TargetDelta   *float64       // total δ budget in (0, 1)
	TargetEpsilon *float64       // the filter's target ε > 0
	// Profile asks for δ(ε) of the composition (not of the filter): the
	// mechanisms as EpsilonDelta events, accounted by Tight (the PLD of the
	// worst (ε, δ)-DP pairs, Kairouz–Oh–Viswanath 2015, and RDP).
	Profile ProfileQuery
}

// Methods lists the values Query.Method accepts.
var Methods = []string{"basic", "advanced", "optimal", "filter", "pld", "best"}

// ListedGuarantee is one entry of a heterogeneous list.
type ListedGuarantee struct {
	Epsilon dp.Loss `json:"epsilon"`
	Delta   dp.Loss `json:"delta"`
}

// FilterStep is one mechanism offered to the filter.
type FilterStep struct {
	Step        int      `json:"step"`
	Epsilon     dp.Loss  `json:"epsilon"`
	Delta       dp.Loss  `json:"delta"`
	Allowed     bool     `json:"allowed"`
	Halted      bool     `json:"halted_before"`          // refused because an earlier one was
	FilterBound *dp.Loss `json:"filter_bound,omitempty"` // after this step, when allowed
	SumDelta    *dp.Loss `json:"sum_delta,omitempty"`
}

// FilterRun is the fully adaptive filter run over a list.
type FilterRun struct {
	DeltaDoublePrime dp.Num       `json:"delta_double_prime"`
	Allowed          int          `json:"allowed"`
	Halted           bool         `json:"halted"`
	FilterBound      dp.Loss      `json:"filter_bound"`
	SumDelta         dp.Loss      `json:"sum_delta"`
	Steps            []FilterStep `json:"filter_steps"`
}

// Composition is the answer to a Query.
type Composition struct {
	RequestedMethod string `json:"requested_method"`
	Method          string `json:"method"` // the chosen method
	dp.Guarantee
	Compositions     int               `json:"compositions"`
	MechanismEpsilon *dp.Num           `json:"mechanism_epsilon,omitempty"`
	MechanismDelta   *dp.Num           `json:"mechanism_delta,omitempty"`
	Guarantees       []ListedGuarantee `json:"guarantees,omitempty"`
	TargetDelta      *dp.Num           `json:"target_delta,omitempty"`
	DeltaPrime       *dp.Num           `json:"delta_prime,omitempty"`
	TargetEpsilon    *dp.Num           `json:"target_epsilon,omitempty"`
	Methods          []Method          `json:"methods,omitempty"`
	// MaxStepEpsilon is the largest per-step ε0 of k pure steps meeting
	// TargetEpsilon (exact inverse of FilterEpsilon; docs/accounting.md#fully-adaptive-filter),
	// at δ' (StepDelta); Cor36StepEpsilon is seed 003, Cor. 3.6's sufficient
	// ε0, or nil with Cor36Reason outside the corollary's range.
	MaxStepEpsilon   *dp.Max `json:"max_step_epsilon,omitempty"`
	Cor36StepEpsilon *dp.Max `json:"cor36_step_epsilon,omitempty"`
	Cor36Reason      string  `json:"cor36_reason,omitempty"`
	StepDelta        *dp.Num `json:"step_delta,omitempty"`
	*FilterRun
	// Profile is δ(ε) where asked (Query.Profile).
	*Profile
	Notes []string `json:"notes,omitempty"`
}

func ptr[T any](v T) *T { return &v }

// Compose answers q: with Method best, every method that applies (Best,
// BestList) and the smallest ε; with one method, that method alone: basic
// (Dwork–Roth 2014, Thm 3.16), advanced (Dwork–Rothblum–Vadhan 2010),
// optimal (Kairouz–Oh–Viswanath 2015, Thm 3.3) or the filter's closed form
// √(2 ln(1/δ') Σε²) + ½Σε² with total δ δ' + Σδ (Whitehouse et al. 2023,
// seed 003, Thm 3.5). Without a δ budget, best tries basic composition only.
// Bad input is a *field.Error naming the Query field in snake_case
// ("target_delta"; "guarantees" for List).
func Compose(q Query) (Composition, error) {
	if q.Method == "" {
		q.Method = "best"
	}
	if err := q.validate(); err != nil {
		return Composition{}, err
	}
	c := Composition{RequestedMethod: q.Method}
	sumDelta := float64(int(q.Compositions)) * q.Delta
	if q.List == nil {
		c.Compositions = int(q.Compositions)
		c.MechanismEpsilon, c.MechanismDelta = ptr(dp.Num(q.Epsilon)), ptr(dp.Num(q.Delta))
	} else {
		b, _ := Basic(q.List...)
		sumDelta, c.Compositions = float64(b.Delta), len(q.List)
		for _, g := range q.List {
			c.Guarantees = append(c.Guarantees, ListedGuarantee{g.Epsilon, g.Delta})
		}
	}
	if q.DeltaPrime != nil {
		c.DeltaPrime = ptr(dp.Num(*q.DeltaPrime))
	}
	if q.TargetEpsilon != nil {
		c.TargetEpsilon = ptr(dp.Num(*q.TargetEpsilon))
	}
	if q.TargetEpsilon != nil && q.List != nil {
		if q.Profile.At != nil {
			return c, field.New("at_epsilon", *q.Profile.At, "does not apply to a privacy filter (give no target ε for δ at a given ε of the composition)")
		}
		return c, q.runFilter(&c)
	}
	target, hasBudget := sumDelta, true
	switch {
	case q.TargetDelta != nil:
		target = *q.TargetDelta
	case q.DeltaPrime != nil:
		target += *q.DeltaPrime
		if !(target < 1) {
			return c, field.New("delta_prime", *q.DeltaPrime, "makes the total δ budget Σδ + δ' = %s; it must be < 1", field.FormatValue(target))
		}
	default:
		hasBudget = false
	}
	if hasBudget {
		c.TargetDelta = ptr(dp.Num(target))
	}
	var res Result
	var err error
	switch {
	case q.Method == "basic" || (q.Method == "best" && !hasBudget):
		res, err = q.basic()
		if q.Method == "best" {
			c.Notes = append(c.Notes, "only basic composition was tried: give a target delta (or delta') to try advanced, filter and optimal composition")
		}
	case q.Method == "best" && q.List == nil:
		res, err = Best(q.Epsilon, q.Delta, c.Compositions, target)
	case q.Method == "best":
		res, err = BestList(q.List, target)
	default:
		res, err = q.single(sumDelta, target, hasBudget)
	}
	if errors.Is(err, ErrNoMethod) {
		var reasons []string
		for _, m := range res.Methods {
			reasons = append(reasons, m.Name+": "+m.Reason)
		}
		return c, field.New("target_delta", target, "is met by no composition method (%s)", strings.Join(reasons, "; "))
	}
	if err != nil {
		return c, err
	}
	c.fill(res, q)
	if q.TargetEpsilon != nil {
		err = q.maxStep(&c, target-sumDelta)
	}
	if err == nil && q.Profile.Asked() {
		err = q.profile(&c)
	}
	return c, err
}

// profile fills c.Profile: δ(ε) of k equal mechanisms by the exact optimal
// composition (OptimalDelta, Kairouz–Oh–Viswanath 2015, Thm 3.3; at most
// basic composition's kδ, else 1, where k·ε is beyond it), of a list by Tight with the mechanisms as
// EpsilonDelta events (the PLD of the worst pairs, and RDP) at the
// composition's δ (which tunes the PLD's grid only).
func (q Query) profile(c *Composition) error {
	if q.List == nil {
		var ds []DeltaAt
		for _, x := range q.Profile.Epsilons(float64(c.Epsilon)) {
			d, err := OptimalDelta(q.Epsilon, q.Delta, int(q.Compositions), x)
			switch {
			case err == nil:
			case x >= q.Compositions*q.Epsilon: // basic composition (Dwork–Roth 2014, Thm 3.16)
				d = math.Min(1, numeric.MulUp(q.Compositions, q.Delta))
			default:
				d = 1
			}
			ds = append(ds, DeltaAt{Epsilon: dp.Num(x), Delta: dp.Loss(d)})
		}
		c.Profile = q.Profile.Split(ds)
		return nil
	}
	var ev dp.Event = dp.SelfComposed{Event: dp.EpsilonDelta{Epsilon: q.Epsilon, Delta: q.Delta}, Count: int64(q.Compositions)}
	if q.List != nil {
		es := make([]dp.Event, len(q.List))
		for i, g := range q.List {
			es[i] = dp.EpsilonDelta{Epsilon: float64(g.Epsilon), Delta: float64(g.Delta)}
		}
		ev = dp.Composed{Events: es}
	}
	d := float64(c.Delta)
	if !(d > 0 && d < 1) {
		d = 1e-6
	}
	acc, err := Tightest().Account(ev, dp.AddRemove, d, q.Profile.Epsilons(float64(c.Epsilon)))
	c.Profile = q.Profile.Split(acc.Deltas)
	return err
}

func (q Query) validate() error {
	known := false
	for _, m := range Methods {
		known = known || q.Method == m
	}
	if !known {
		return field.New("method", q.Method, "must be one of %s", strings.Join(Methods, ", "))
	}
	if q.List != nil {
		if len(q.List) == 0 || len(q.List) > MaxK {
			return field.New("guarantees", len(q.List), "must hold 1 to %d guarantees", MaxK)
		}
		for i, g := range q.List {
			if e := float64(g.Epsilon); math.IsNaN(e) || math.IsInf(e, 0) || e < 0 {
				return field.New("guarantees", nil, "item %d: epsilon must be a finite number ≥ 0, got %v", i+1, g.Epsilon)
			}
			if !(g.Delta >= 0 && g.Delta < 1) {
				return field.New("guarantees", nil, "item %d: delta must be in [0, 1) (0 means pure DP), got %v", i+1, g.Delta)
			}
		}
		if q.Method == "advanced" || q.Method == "optimal" {
			return field.New("method", q.Method, "needs k equal mechanisms (epsilon, delta and a count), not a list")
		}
	} else {
		err := field.First(field.NonNegative("epsilon", q.Epsilon), wholeCount("compositions", q.Compositions, MaxK))
		if err == nil && !(q.Delta >= 0 && q.Delta < 1) {
			err = field.New("delta", q.Delta, "must be in [0, 1) (per-mechanism δ; 0 means pure DP)")
		}
		if err != nil {
			return err
		}
	}
	if q.DeltaPrime != nil {
		if err := field.OpenUnit("delta_prime", *q.DeltaPrime); err != nil {
			return err
		}
	}
	if q.TargetDelta != nil {
		if err := field.OpenUnit("target_delta", *q.TargetDelta); err != nil {
			return err
		}
	}
	if q.TargetEpsilon != nil {
		if err := field.Positive("target_epsilon", *q.TargetEpsilon); err != nil {
			return err
		}
		if q.Method != "filter" {
			return field.New("target_epsilon", *q.TargetEpsilon, "applies only to the filter method, not %s", q.Method)
		}
		if q.List != nil {
			switch {
			case q.DeltaPrime == nil:
				return field.New("delta_prime", nil, "is required by the filter check over a list (δ' of the ε budget)")
			case q.TargetDelta == nil:
				return field.New("target_delta", nil, "is required by the filter check over a list (δ' + δ'')")
			case !(*q.TargetDelta > *q.DeltaPrime):
				return field.New("target_delta", *q.TargetDelta, "must exceed delta' = %v: δ'' = target − δ' must be > 0", *q.DeltaPrime)
			}
			return nil
		}
	}
	if q.DeltaPrime != nil && q.TargetDelta != nil {
		return field.New("delta_prime", *q.DeltaPrime, "and a target delta cannot both be given (target = Σδ + δ')")
	}
	return nil
}

func (q Query) basic() (Result, error) {
	var g dp.Guarantee
	var err error
	if q.List == nil {
		g, err = BasicRepeat(q.Epsilon, q.Delta, int(q.Compositions))
	} else {
		g, err = Basic(q.List...)
	}
	m := method(MethodBasic, SourceBasic, float64(g.Epsilon), float64(g.Delta))
	m.Chosen = true
	return result(m, []Method{m}), err
}

// single runs advanced, optimal or filter alone.
func (q Query) single(sumDelta, target float64, hasBudget bool) (Result, error) {
	k := int(q.Compositions)
	if !hasBudget && (q.Method == "optimal" || q.Method == MethodPLD) {
		return Result{}, field.New("target_delta", nil, "is required by %s composition", q.Method)
	} else if !hasBudget {
		return Result{}, field.New("delta_prime", nil, "is required by %s composition (or a target delta)", q.Method)
	}
	deltaPrime := target - sumDelta
	if q.DeltaPrime != nil {
		deltaPrime = *q.DeltaPrime
	}
	var m Method
	switch q.Method {
	case "advanced", "filter":
		if !(deltaPrime > 0) {
			return Result{}, field.New("target_delta", target, "must exceed the mechanisms' total δ %s: %s composition needs δ' = target − Σδ > 0", field.FormatValue(sumDelta), q.Method)
		}
		if q.Method == "advanced" {
			g, err := Advanced(q.Epsilon, q.Delta, k, deltaPrime)
			if err != nil {
				return Result{}, err
			}
			m = method(MethodAdvanced, SourceAdvanced, float64(g.Epsilon), float64(g.Delta))
			break
		}
		var sq numeric.Kahan
		if q.List == nil {
			sq.Add(float64(k) * q.Epsilon * q.Epsilon)
		}
		for _, g := range q.List {
			sq.Add(float64(g.Epsilon * g.Epsilon))
		}
		src := SourceFilterApprox
		if sumDelta == 0 {
			src = SourceFilterPure
		}
		m = method(MethodFilter, src, filterValue(sq.Sum(), -math.Log(deltaPrime)), deltaPrime+sumDelta)
	case MethodPLD:
		if q.List == nil {
			m = pldGroups([]group{{pair{q.Epsilon, q.Delta}, k}}, target)
		} else {
			m = PLDList(q.List, target)
		}
		if !m.Valid {
			return Result{}, field.New("target_delta", target, "cannot be met by PLD composition: %s", m.Reason)
		}
	case "optimal":
		e, err := OptimalEpsilon(q.Epsilon, q.Delta, k, target)
		if err != nil {
			return Result{}, field.New("target_delta", target, "cannot be met by optimal composition: %v", err)
		}
		d, _ := OptimalDelta(q.Epsilon, q.Delta, k, e)
		m = method(MethodOptimal, SourceOptimal, e, d)
	}
	m.Chosen = true
	return result(m, []Method{m}), nil
}

// fill copies res into c with the assumptions and notes its methods need.
func (c *Composition) fill(res Result, q Query) {
	c.Assumptions = []string{"every mechanism is (ε, δ)-DP for the same neighbouring relation, conditionally on the outputs of the earlier ones (adaptive composition); the result holds for that relation"}
	for _, m := range res.Methods {
		c.Methods = append(c.Methods, m)
		switch {
		case !m.Valid:
		case m.Name == MethodFilter:
			c.Assumptions = append(c.Assumptions, "filter: the mechanisms' ε_m, δ_m may themselves be chosen adaptively (fully adaptive composition, Whitehouse et al. 2023)")
		case m.Name == MethodOptimal:
			c.Assumptions = append(c.Assumptions, "optimal: all k mechanisms share the same (ε, δ); the value is the exact optimum over all such mechanisms (KOV 2015)")
		case m.Name == MethodAdvanced && q.List == nil && float64(m.Epsilon) > q.Compositions*q.Epsilon:
			c.Notes = append(c.Notes, "advanced composition is worse than basic composition here (kε(e^ε − 1) dominates for large ε)")
		}
		if m.Chosen {
			c.Method, c.Source, c.Epsilon, c.Delta = m.Name, m.Source, m.Epsilon, m.Delta
		}
	}
	if c.Method == MethodFilter && c.Source == SourceFilterPure {
		c.Notes = append(c.Notes, "with pure mechanisms the filter's closed form is exactly the zCDP route (ε-DP ⇒ ε²/2-zCDP, composition, conversion), so no δ'' is needed")
	}
}

// maxStep adds, for k equal steps and TargetEpsilon, the largest per-step
// ε0 (FilterMaxStep) and seed 003, Cor. 3.6's sufficient one (Cor36Step).
func (q Query) maxStep(c *Composition, deltaPrime float64) error {
	if q.DeltaPrime != nil {
		deltaPrime = *q.DeltaPrime
	}
	k := int(q.Compositions)
	e0, err := FilterMaxStep(*q.TargetEpsilon, k, deltaPrime)
	if err != nil {
		return field.New("target_epsilon", *q.TargetEpsilon, "%v", err)
	}
	c.MaxStepEpsilon, c.StepDelta = ptr(dp.Max(e0)), ptr(dp.Num(deltaPrime))
	if cor, err := Cor36Step(*q.TargetEpsilon, k, deltaPrime); err == nil {
		c.Cor36StepEpsilon = ptr(dp.Max(cor))
	} else {
		c.Cor36Reason = err.Error()
	}
	if q.Delta > 0 {
		c.Notes = append(c.Notes, "the per-step ε0 values treat the steps' δ separately: the filter also needs Σδ_m ≤ δ''")
	}
	return nil
}

// runFilter runs the fully adaptive filter (Whitehouse et al. 2023, seed
// 003, Thm 3.5) over the list in order: the mechanisms allowed are
// (TargetEpsilon, δ' + δ”)-DP together.
func (q Query) runFilter(c *Composition) error {
	dpp := *q.TargetDelta - *q.DeltaPrime
	f, err := NewFilter(*q.TargetEpsilon, *q.DeltaPrime, dpp)
	if err != nil {
		return field.New("target_delta", *q.TargetDelta, "%v", err)
	}
	run := &FilterRun{DeltaDoublePrime: dp.Num(dpp)}
	for i, g := range q.List {
		was := f.Halted()
		ok, err := f.Add(float64(g.Epsilon), float64(g.Delta))
		if err != nil {
			return field.New("guarantees", nil, "item %d: %v", i+1, err)
		}
		st := FilterStep{Step: i + 1, Epsilon: dp.Loss(g.Epsilon), Delta: dp.Loss(g.Delta), Allowed: ok, Halted: was}
		if ok {
			st.FilterBound, st.SumDelta = ptr(dp.Loss(f.Spent())), ptr(dp.Loss(f.SumDelta()))
		}
		run.Steps = append(run.Steps, st)
	}
	tg := f.Target()
	run.Allowed, run.Halted, run.FilterBound, run.SumDelta = f.Count(), f.Halted(), dp.Loss(f.Spent()), dp.Loss(f.SumDelta())
	c.FilterRun, c.Method, c.Source = run, MethodFilter, SourceFilterApprox
	c.Epsilon, c.Delta = dp.Loss(tg.Epsilon), dp.Loss(tg.Delta)
	c.TargetDelta = ptr(dp.Num(*q.TargetDelta))
	c.Assumptions = []string{
		"mechanism m is (ε_m, δ_m)-DP conditionally on the earlier outputs; ε_m, δ_m may be chosen adaptively",
		"the mechanisms run in the order listed and the first refused one stops the run: the ones allowed are (ε, δ' + δ'')-DP together",
	}
	return nil
}
