package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/privamp/privamp/composition"
	"github.com/spf13/cobra"
)

func init() { register(newComposeCmd) }

var composeMethods = []string{"basic", "advanced", "optimal", "filter", "best"}

// composeArgs are the parsed and validated flags of privamp compose.
type composeArgs struct {
	method                   string
	eps, delta               float64 // per mechanism (homogeneous)
	k                        int
	list                     []composition.Guarantee // heterogeneous
	deltaPrime, targetDelta  float64
	hasDeltaPrime, hasTarget bool
	targetEps                float64
	hasTargetEps             bool
}

func (c *composeArgs) homogeneous() bool { return c.list == nil }

func newComposeCmd(a *app) *cobra.Command {
	var (
		method     string
		eps, delta float64
		k          float64
		dPrime     float64
		target     float64
		targetEps  float64
		listFlag   string
		guarantees []string
	)
	cmd := &cobra.Command{
		Use:   "compose",
		Short: "(ε, δ) of composed (ε, δ)-DP mechanisms: basic, advanced, optimal, filter, or the best of them",
		Long: `The (ε, δ) guarantee of running several (ε, δ)-DP mechanisms on the same data, adaptively.

Homogeneous: k mechanisms, each (--epsilon, --delta)-DP. Heterogeneous: --list "e1:d1,e2:d2,..."
or repeated --guarantee e:d (an entry "e" alone means δ = 0).

Methods (--method, default best):
  basic     (Σε, Σδ)                                     Dwork–Roth 2014, Thm 3.16
  advanced  √(2k ln(1/δ'))ε + kε(e^ε − 1), δ = kδ + δ'    Dwork–Rothblum–Vadhan 2010 (seed 001, Lemma 2.3)
  optimal   exact optimal composition, δ(ε') in log space  Kairouz–Oh–Viswanath 2015, Thm 3.3
  filter    √(2 ln(1/δ') Σε²) + ½Σε², δ = δ' + Σδ         Whitehouse et al. 2023 (seed 003, Thm 3.5)
  best      every method that applies; the smallest ε is chosen

The total δ budget is --target-delta (δ' = target − Σδ is then left for advanced/filter), or
--delta-prime (target = Σδ + δ'). With --list and --method filter, --target-epsilon runs the
fully adaptive privacy filter over the list and reports which mechanisms it lets run
(δ' = --delta-prime for the ε budget, δ'' = --target-delta − δ' for Σδ_m).`,
		Args: cobra.NoArgs,
		Example: `  privamp compose --epsilon 0.1 --k 100 --target-delta 1e-5
  privamp compose --method advanced --epsilon 0.1 --k 100 --delta-prime 1e-5
  privamp compose --method optimal --epsilon 0.01 --delta 1e-9 --k 100000 --target-delta 1e-3 --json
  privamp compose --list "0.5:1e-6,0.2:0,1:1e-7" --target-delta 1e-5
  privamp compose --method filter --list "0.1:0,0.3:0,0.2:1e-7" --target-epsilon 1 --delta-prime 1e-5 --target-delta 2e-5`,
	}
	f := cmd.Flags()
	f.StringVar(&method, "method", "best", "basic, advanced, optimal, filter or best")
	f.Float64Var(&eps, "epsilon", 0, "ε of each mechanism (finite, ≥ 0)")
	f.Float64Var(&delta, "delta", 0, "δ of each mechanism, in [0, 1) (0 means pure DP)")
	f.Float64Var(&k, "k", 0, "number of mechanisms (whole number in [1, 10^7])")
	f.Float64Var(&dPrime, "delta-prime", 0, "δ' in (0, 1): the extra δ of advanced composition and of the filter")
	f.Float64Var(&target, "target-delta", 0, "total δ budget in (0, 1)")
	f.Float64Var(&targetEps, "target-epsilon", 0, "filter: target ε > 0 (with --list: run the filter over the list)")
	f.StringVar(&listFlag, "list", "", `heterogeneous guarantees "e1:d1,e2:d2,..."`)
	f.StringArrayVar(&guarantees, "guarantee", nil, "one guarantee e:d (repeatable)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		c := &composeArgs{method: method, eps: eps, delta: delta, deltaPrime: dPrime, targetDelta: target,
			hasDeltaPrime: changed(cmd, "delta-prime"), hasTarget: changed(cmd, "target-delta"),
			targetEps: targetEps, hasTargetEps: changed(cmd, "target-epsilon")}
		if err := parseCompose(cmd, c, k, listFlag, guarantees); err != nil {
			return err
		}
		r, err := composeReport(c)
		if err != nil {
			return err
		}
		return render(a.out, a.mode, r)
	}
	return cmd
}

// parseCompose validates every flag and fills c.
func parseCompose(cmd *cobra.Command, c *composeArgs, k float64, listFlag string, guarantees []string) error {
	valid := false
	for _, m := range composeMethods {
		valid = valid || c.method == m
	}
	if !valid {
		return badInput("--method must be one of %s, got %q", strings.Join(composeMethods, ", "), c.method)
	}
	hasList := changed(cmd, "list") || changed(cmd, "guarantee")
	hasHomog := changed(cmd, "epsilon") || changed(cmd, "k") || changed(cmd, "delta")
	switch {
	case hasList && hasHomog:
		return badInput("--list/--guarantee cannot be combined with --epsilon, --delta or --k")
	case !hasList && !hasHomog:
		return badInput("give --epsilon and --k (k mechanisms, each (ε, δ)-DP) or --list/--guarantee")
	}
	if hasList {
		var items []string
		if changed(cmd, "list") {
			items = strings.Split(listFlag, ",")
		}
		for i, it := range items {
			g, err := parseGuarantee(it)
			if err != nil {
				return badInput("--list item %d (%q): %v", i+1, strings.TrimSpace(it), err)
			}
			c.list = append(c.list, g)
		}
		for _, it := range guarantees {
			g, err := parseGuarantee(it)
			if err != nil {
				return badInput("--guarantee %q: %v", it, err)
			}
			c.list = append(c.list, g)
		}
		if len(c.list) == 0 {
			return badInput("--list needs at least one guarantee e:d")
		}
		if len(c.list) > composition.MaxK {
			return badInput("--list has %d guarantees; at most %d", len(c.list), composition.MaxK)
		}
		if c.method == "advanced" || c.method == "optimal" {
			return badInput("--method %s needs k equal mechanisms: use --epsilon, --delta and --k instead of --list", c.method)
		}
	} else {
		if !changed(cmd, "epsilon") {
			return badInput("--epsilon is required with --k (ε of each mechanism, finite and ≥ 0)")
		}
		if !changed(cmd, "k") {
			return badInput("--k is required with --epsilon (number of mechanisms, whole number in [1, 10000000])")
		}
		if err := firstErr(nonNegative("epsilon", c.eps), mechDelta("delta", c.delta), positiveInt("k", k, composition.MaxK)); err != nil {
			return err
		}
		c.k = int(k)
	}
	if c.hasDeltaPrime {
		if err := openUnit("delta-prime", c.deltaPrime); err != nil {
			return err
		}
	}
	if c.hasTarget {
		if err := openUnit("target-delta", c.targetDelta); err != nil {
			return err
		}
	}
	if c.hasTargetEps {
		if err := positive("target-epsilon", c.targetEps); err != nil {
			return err
		}
		if c.method != "filter" {
			return badInput("--target-epsilon applies only to --method filter, got --method %s", c.method)
		}
	}
	acceptance := c.hasTargetEps && !c.homogeneous()
	if acceptance {
		if !c.hasDeltaPrime || !c.hasTarget {
			return badInput("the filter check (--target-epsilon with --list) needs --delta-prime (δ' for the ε budget) and --target-delta (δ' + δ'')")
		}
		if !(c.targetDelta > c.deltaPrime) {
			return badInput("--target-delta (%v) must exceed --delta-prime (%v): δ'' = target − δ' must be > 0", c.targetDelta, c.deltaPrime)
		}
		return nil
	}
	if c.hasDeltaPrime && c.hasTarget {
		return badInput("give either --delta-prime or --target-delta, not both (target = Σδ + δ')")
	}
	return nil
}

// mechDelta checks a per-mechanism δ ∈ [0, 1); 0 is pure DP.
func mechDelta(flag string, v float64) error {
	if err := finite(flag, v); err != nil {
		return err
	}
	if !(v >= 0 && v < 1) {
		return badInput("--%s must be in [0, 1) (per-mechanism δ; 0 means pure DP), got %v", flag, v)
	}
	return nil
}

// parseGuarantee parses "e:d" or "e" (δ = 0).
func parseGuarantee(s string) (composition.Guarantee, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return composition.Guarantee{}, errors.New("empty; want e:d")
	}
	es, ds, hasD := strings.Cut(s, ":")
	e, err := strconv.ParseFloat(strings.TrimSpace(es), 64)
	if err != nil || math.IsNaN(e) || math.IsInf(e, 0) || e < 0 {
		return composition.Guarantee{}, fmt.Errorf("epsilon must be a finite number ≥ 0, got %q", es)
	}
	var d float64
	if hasD {
		d, err = strconv.ParseFloat(strings.TrimSpace(ds), 64)
		if err != nil || !(d >= 0 && d < 1) {
			return composition.Guarantee{}, fmt.Errorf("delta must be a number in [0, 1) (0 means pure DP), got %q", ds)
		}
	}
	return composition.Guarantee{Epsilon: e, Delta: d}, nil
}

// budget returns the total δ budget, if any: --target-delta, or Σδ + δ'.
func (c *composeArgs) budget(sumDelta float64) (float64, bool) {
	switch {
	case c.hasTarget:
		return c.targetDelta, true
	case c.hasDeltaPrime:
		return sumDelta + c.deltaPrime, true
	}
	return 0, false
}

func composeReport(c *composeArgs) (*report, error) {
	if c.hasTargetEps && !c.homogeneous() {
		return filterCheckReport(c)
	}
	var (
		sumDelta float64
		title    string
		mech     map[string]any
	)
	n := c.k
	if c.homogeneous() {
		sumDelta = float64(c.k) * c.delta
		title = fmt.Sprintf("Composition of k = %d mechanisms, each (%s, %s)-DP", c.k, fmtNum(c.eps), fmtNum(c.delta))
		mech = map[string]any{"k": c.k, "mechanism_epsilon": c.eps, "mechanism_delta": c.delta}
	} else {
		b, _ := composition.Basic(c.list...)
		sumDelta = b.Delta
		n = len(c.list)
		title = fmt.Sprintf("Composition of %d guarantees", n)
		gs := make([]map[string]any, len(c.list))
		for i, g := range c.list {
			gs[i] = map[string]any{"epsilon": g.Epsilon, "delta": g.Delta}
		}
		mech = map[string]any{"k": n, "guarantees": gs}
	}
	target, hasBudget := c.budget(sumDelta)
	if hasBudget && !(target < 1) {
		return nil, badInput("the total δ budget Σδ + --delta-prime = %v must be < 1", target)
	}
	var (
		res   composition.Result
		err   error
		notes []string
	)
	switch c.method {
	case "best":
		if !hasBudget {
			res, err = singleBasic(c)
			notes = append(notes, "only basic composition was tried: give --target-delta (or --delta-prime) to try advanced, filter and optimal composition")
		} else if c.homogeneous() {
			res, err = composition.Best(c.eps, c.delta, c.k, target)
		} else {
			res, err = composition.BestList(c.list, target)
		}
		if errors.Is(err, composition.ErrNoMethod) {
			reasons := make([]string, 0, len(res.Methods))
			for _, m := range res.Methods {
				reasons = append(reasons, m.Name+": "+m.Reason)
			}
			return nil, badInput("no composition method meets --target-delta %v (%s)", target, strings.Join(reasons, "; "))
		}
	case "basic":
		res, err = singleBasic(c)
	default:
		res, err = singleMethod(c, sumDelta, target, hasBudget)
	}
	if err != nil {
		return nil, err
	}
	if c.method == "filter" && c.homogeneous() && c.hasTargetEps {
		return filterInverseReport(c, res, title, mech, target)
	}
	r := methodsReport(title, res, mech, c, notes)
	if hasBudget {
		r.JSON["target_delta"] = target
	}
	if c.hasDeltaPrime {
		r.JSON["delta_prime"] = c.deltaPrime
	}
	return r, nil
}

func singleBasic(c *composeArgs) (composition.Result, error) {
	var g composition.Guarantee
	var err error
	if c.homogeneous() {
		g, err = composition.BasicRepeat(c.eps, c.delta, c.k)
	} else {
		g, err = composition.Basic(c.list...)
	}
	if err != nil {
		return composition.Result{}, badInput("%v", err)
	}
	m := composition.Method{Name: composition.MethodBasic, Source: composition.SourceBasic,
		Epsilon: g.Epsilon, Delta: g.Delta, Valid: true, Chosen: true}
	return composition.Result{Epsilon: g.Epsilon, Delta: g.Delta, Method: m.Name, Methods: []composition.Method{m}}, nil
}

// singleMethod runs advanced, optimal or filter alone.
func singleMethod(c *composeArgs, sumDelta, target float64, hasBudget bool) (composition.Result, error) {
	if !hasBudget {
		return composition.Result{}, badInput("--method %s needs --delta-prime or --target-delta (the total δ budget)", c.method)
	}
	dp := target - sumDelta
	if c.hasDeltaPrime {
		dp = c.deltaPrime
	}
	var m composition.Method
	switch c.method {
	case "advanced", "filter":
		if !(dp > 0) {
			return composition.Result{}, badInput("--target-delta %v must exceed the mechanisms' total δ %v: %s composition needs δ' = target − Σδ > 0", target, sumDelta, c.method)
		}
		if c.method == "advanced" {
			g, err := composition.Advanced(c.eps, c.delta, c.k, dp)
			if err != nil {
				return composition.Result{}, badInput("%v", err)
			}
			m = composition.Method{Name: c.method, Source: composition.SourceAdvanced, Epsilon: g.Epsilon, Delta: g.Delta, Valid: true}
		} else {
			var sq float64
			if c.homogeneous() {
				sq = float64(c.k) * c.eps * c.eps
			} else {
				for _, g := range c.list {
					sq += g.Epsilon * g.Epsilon
				}
			}
			src := composition.SourceFilterApprox
			if sumDelta == 0 {
				src = composition.SourceFilterPure
			}
			e := math.Sqrt(2*-math.Log(dp)*sq) + sq/2
			m = composition.Method{Name: c.method, Source: src, Epsilon: e, Delta: dp + sumDelta, Valid: true}
		}
	case "optimal":
		e, err := composition.OptimalEpsilon(c.eps, c.delta, c.k, target)
		if err != nil {
			return composition.Result{}, badInput("--target-delta %v: %v", target, err)
		}
		d, _ := composition.OptimalDelta(c.eps, c.delta, c.k, e)
		m = composition.Method{Name: c.method, Source: composition.SourceOptimal, Epsilon: e, Delta: d, Valid: true}
	}
	m.Chosen = true
	return composition.Result{Epsilon: m.Epsilon, Delta: m.Delta, Method: m.Name, Methods: []composition.Method{m}}, nil
}

func composeAssumptions(res composition.Result) []string {
	as := []string{"every mechanism is (ε, δ)-DP for the same neighbouring relation, conditionally on the outputs of the earlier ones (adaptive composition); the result holds for that relation"}
	for _, m := range res.Methods {
		switch {
		case !m.Valid:
		case m.Name == composition.MethodFilter:
			as = append(as, "filter: the mechanisms' ε_m, δ_m may themselves be chosen adaptively (fully adaptive composition, Whitehouse et al. 2023)")
		case m.Name == composition.MethodOptimal:
			as = append(as, "optimal: all k mechanisms share the same (ε, δ); the value is the exact optimum over all such mechanisms (KOV 2015)")
		}
	}
	return as
}

func methodsReport(title string, res composition.Result, mech map[string]any, c *composeArgs, notes []string) *report {
	chosen := res.Methods[0]
	for _, m := range res.Methods {
		if m.Chosen {
			chosen = m
		}
	}
	t := &table{Header: []string{"method", "epsilon", "delta", "valid", "chosen", "source", "reason"}}
	ms := make([]map[string]any, 0, len(res.Methods))
	for _, m := range res.Methods {
		es, ds := "not applicable", "—"
		if m.Valid {
			es, ds = fmtEps(m.Epsilon), fmtUp(m.Delta)
		}
		t.Rows = append(t.Rows, []string{m.Name, es, ds, strconv.FormatBool(m.Valid), strconv.FormatBool(m.Chosen), m.Source, m.Reason})
		jm := map[string]any{"method": m.Name, "valid": m.Valid, "chosen": m.Chosen, "source": m.Source,
			"epsilon": nil, "delta": nil}
		if m.Valid {
			epsJSON(jm, "epsilon", m.Epsilon)
			jm["delta"] = num(m.Delta)
		} else {
			jm["reason"] = m.Reason
		}
		ms = append(ms, jm)
	}
	for _, m := range res.Methods {
		if m.Valid && m.Name == composition.MethodAdvanced && c.homogeneous() && m.Epsilon > float64(c.k)*c.eps {
			notes = append(notes, "advanced composition is worse than basic composition here (kε(e^ε − 1) dominates for large ε)")
		}
	}
	if chosen.Name == composition.MethodFilter && chosen.Source == composition.SourceFilterPure {
		notes = append(notes, "with pure mechanisms the filter's closed form is exactly the zCDP route (ε-DP ⇒ ε²/2-zCDP, composition, conversion), so no δ'' is needed")
	}
	r := &report{
		Title: title,
		Rows: []row{
			{"ε", fmtEps(chosen.Epsilon), "", chosen.Source},
			{"total δ", fmtUp(chosen.Delta), "", chosen.Source},
			{"method", chosen.Name, "", map[bool]string{true: "smallest sound ε among the methods tried", false: "requested with --method"}[c.method == "best"]},
		},
		Table:       t,
		Assumptions: composeAssumptions(res),
		Notes:       notes,
	}
	obj := map[string]any{"command": "compose", "method": chosen.Name, "source": chosen.Source,
		"delta": num(chosen.Delta), "methods": ms, "requested_method": c.method}
	epsJSON(obj, "epsilon", chosen.Epsilon)
	for key, v := range mech {
		obj[key] = v
	}
	r.JSON = obj
	return r
}

// filterInverseReport adds, for k pure-equivalent steps and a target ε, the
// largest per-step ε0 (exact inverse) and seed 003 Cor. 3.6's sufficient ε0.
func filterInverseReport(c *composeArgs, res composition.Result, title string, mech map[string]any, target float64) (*report, error) {
	dp := target - float64(c.k)*c.delta
	if c.hasDeltaPrime {
		dp = c.deltaPrime
	}
	e0, err := composition.FilterMaxStep(c.targetEps, c.k, dp)
	if err != nil {
		return nil, badInput("%v", err)
	}
	r := methodsReport(title, res, mech, c, nil)
	cor, corErr := composition.Cor36Step(c.targetEps, c.k, dp)
	r.Rows = append(r.Rows,
		row{"largest per-step ε0 for --target-epsilon", fmtNum(e0), "at δ' = " + fmtNum(dp),
			"exact inverse of ε0√(2k ln(1/δ')) + kε0²/2 (seed 003 notes §1.2)"})
	r.JSON["target_epsilon"] = c.targetEps
	r.JSON["max_step_epsilon"] = e0
	if corErr == nil {
		r.Rows = append(r.Rows, row{"per-step ε0 by Cor. 3.6", fmtNum(cor), "at δ' = " + fmtNum(dp),
			"seed 003, Cor. 3.6: ε/(2√(2k ln(1/δ'))), sufficient only (about 2× conservative)"})
		r.JSON["cor36_step_epsilon"] = cor
	} else {
		r.Rows = append(r.Rows, row{"per-step ε0 by Cor. 3.6", "not applicable", "", corErr.Error()})
		r.JSON["cor36_step_epsilon"] = nil
		r.JSON["cor36_reason"] = corErr.Error()
	}
	if c.delta > 0 {
		r.Notes = append(r.Notes, "the per-step ε0 rows treat the steps' δ separately: the filter also needs Σδ_m ≤ δ''")
	}
	return r, nil
}

// filterCheckReport runs the fully adaptive filter over the list in order.
func filterCheckReport(c *composeArgs) (*report, error) {
	dpp := c.targetDelta - c.deltaPrime
	f, err := composition.NewFilter(c.targetEps, c.deltaPrime, dpp)
	if err != nil {
		return nil, badInput("%v", err)
	}
	t := &table{Header: []string{"step", "epsilon", "delta", "filter bound", "sum delta", "allowed"}}
	steps := make([]map[string]any, 0, len(c.list))
	for i, g := range c.list {
		wasHalted := f.Halted()
		ok, err := f.Add(g.Epsilon, g.Delta)
		if err != nil {
			return nil, badInput("--list item %d: %v", i+1, err)
		}
		status := "yes"
		switch {
		case !ok && wasHalted:
			status = "no (filter halted earlier)"
		case !ok:
			status = "no: filter halts here"
		}
		var sq, sd float64
		bound, sumD := "—", "—"
		if ok {
			sq, sd = f.Spent(), f.SumDelta()
			bound, sumD = fmtUp(sq), fmtUp(sd)
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(i + 1), fmtNum(g.Epsilon), fmtNum(g.Delta), bound, sumD, status})
		st := map[string]any{"step": i + 1, "epsilon": g.Epsilon, "delta": g.Delta, "allowed": ok}
		if ok {
			st["filter_bound"] = sq
			st["sum_delta"] = sd
		}
		steps = append(steps, st)
	}
	tg := f.Target()
	r := &report{
		Title: fmt.Sprintf("Fully adaptive privacy filter over %d mechanisms", len(c.list)),
		Rows: []row{
			{"mechanisms allowed", strconv.Itoa(f.Count()), "of " + strconv.Itoa(len(c.list)), "stopping rule of seed 003, Thm 3.5 (Whitehouse et al. 2023)"},
			{"ε", fmtEps(tg.Epsilon), "target", composition.SourceFilterApprox},
			{"total δ", fmtNum(tg.Delta), "δ' + δ''", composition.SourceFilterApprox},
			{"filter bound used", fmtUp(f.Spent()), "√(2 ln(1/δ') Σε²) + ½Σε²", "seed 003, Thm 3.5"},
			{"Σδ used", fmtUp(f.SumDelta()), "of δ'' = " + fmtNum(dpp), "seed 003, Thm 3.5"},
		},
		Table: t,
		Assumptions: []string{
			"mechanism m is (ε_m, δ_m)-DP conditionally on the earlier outputs; ε_m, δ_m may be chosen adaptively",
			"the mechanisms run in the order listed and the first refused one stops the run: the ones allowed are (ε, δ' + δ'')-DP together",
		},
	}
	r.JSON = map[string]any{"command": "compose", "method": "filter", "source": composition.SourceFilterApprox,
		"delta": tg.Delta, "delta_prime": c.deltaPrime, "delta_double_prime": dpp, "target_epsilon": c.targetEps,
		"target_delta": c.targetDelta, "allowed": f.Count(), "halted": f.Halted(), "filter_bound": f.Spent(),
		"sum_delta": f.SumDelta(), "steps": steps, "k": len(c.list)}
	epsJSON(r.JSON, "epsilon", tg.Epsilon)
	return r, nil
}
