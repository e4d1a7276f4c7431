package composition

import (
	"github.com/privamp/privamp/internal/numeric"

	"errors"
	"fmt"
	"math"
)

// Method names, as Best reports them.
const (
	MethodBasic    = "basic"
	MethodAdvanced = "advanced"
	MethodFilter   = "filter"
	MethodOptimal  = "optimal"
)

// Sources of the composition methods.
const (
	SourceBasic        = "Dwork–Roth 2014, Thm 3.16 (seed 001, Thms 4.1, B.1)"
	SourceAdvanced     = "Dwork–Rothblum–Vadhan 2010 (Dwork–Roth Thm 3.20; seed 001, Lemma 2.3)"
	SourceFilterPure   = "Whitehouse et al. 2023 (seed 003, Thm 3.5) = zCDP route, Bun–Steinke 2016, Props 1.3, 1.4"
	SourceFilterApprox = "Whitehouse et al. 2023 (seed 003, Thm 3.5), δ'' = Σδ_m"
	SourceOptimal      = "Kairouz–Oh–Viswanath 2015, Thm 3.3; Murtagh–Vadhan 2016 (exact)"
)

// Method is one composition method's answer.
type Method struct {
	Name    string
	Source  string
	Epsilon float64 // +Inf: no finite guarantee; NaN when not Valid
	Delta   float64 // the total δ the method certifies with Epsilon; NaN when not Valid
	Valid   bool    // false: the method does not apply; see Reason
	Reason  string  // why the method does not apply (empty when Valid)
	Chosen  bool    // the smallest ε among the valid methods
}

// Result is the composition's best sound guarantee and every method tried.
type Result struct {
	Epsilon float64
	Delta   float64
	Method  string
	Methods []Method
}

func invalid(name, source, reason string) Method {
	return Method{Name: name, Source: source, Epsilon: math.NaN(), Delta: math.NaN(), Reason: reason}
}

// Best composes k adaptively chosen (ε, δ)-DP mechanisms within a total δ
// budget targetDelta and returns every applicable method's ε with its
// source, the smallest flagged as chosen:
//
//   - basic (kε, kδ), valid when kδ ≤ targetDelta;
//   - advanced (DRV10) with δ' = targetDelta − kδ, valid when δ' > 0;
//   - filter: ε√(2k ln(1/δ')) + kε²/2 with the same δ' (seed 003, Thm 3.5
//     with δ” = kδ; for pure mechanisms it is the zCDP route at δ');
//   - optimal (KOV15), the smallest ε' with δ_total(ε') ≤ targetDelta, valid
//     when targetDelta ≥ 1 − (1−δ)^k.
//
// A method outside its validity range is listed with Valid = false and the
// reason, never with a number. ε must be finite and ≥ 0, δ in [0, 1), k in
// [1, MaxK], targetDelta in (0, 1).
func Best(eps, delta float64, k int, targetDelta float64) (Result, error) {
	if err := firstErr(checkEps("epsilon", eps, false), checkMechDelta("delta", delta),
		checkK(k), checkOpenDelta("target delta", targetDelta)); err != nil {
		return Result{}, err
	}
	kf := float64(k)
	var ms []Method
	if b := kf * delta; b <= targetDelta {
		ms = append(ms, Method{Name: MethodBasic, Source: SourceBasic, Epsilon: kf * eps, Delta: b, Valid: true})
	} else {
		ms = append(ms, invalid(MethodBasic, SourceBasic,
			fmt.Sprintf("total delta k·delta = %.6g exceeds the target %g", b, targetDelta)))
	}
	dp := targetDelta - kf*delta
	src := SourceFilterApprox
	if delta == 0 {
		src = SourceFilterPure
	}
	if dp > 0 {
		a, _ := Advanced(eps, delta, k, dp)
		ms = append(ms, Method{Name: MethodAdvanced, Source: SourceAdvanced, Epsilon: a.Epsilon, Delta: targetDelta, Valid: true})
		ms = append(ms, Method{Name: MethodFilter, Source: src, Epsilon: filterClosed(eps, kf, dp), Delta: targetDelta, Valid: true})
	} else {
		reason := fmt.Sprintf("needs delta' = target − k·delta > 0, got %.6g", dp)
		ms = append(ms, invalid(MethodAdvanced, SourceAdvanced, reason), invalid(MethodFilter, src, reason))
	}
	if e1, err := OptimalEpsilon(eps, delta, k, targetDelta); err == nil {
		ms = append(ms, Method{Name: MethodOptimal, Source: SourceOptimal, Epsilon: e1,
			Delta: optimalDelta(eps, delta, k, e1), Valid: true})
	} else {
		ms = append(ms, invalid(MethodOptimal, SourceOptimal, err.Error()))
	}
	return choose(ms)
}

// BestList composes heterogeneous guarantees (ε_i, δ_i), run adaptively in
// any order, within a total δ budget: basic composition (valid when Σδ_i ≤
// targetDelta) and the filter bound √(2 ln(1/δ') Σε_i²) + ½Σε_i² with
// δ' = targetDelta − Σδ_i (seed 003, Thm 3.5 with δ” = Σδ_i; for pure
// guarantees the zCDP route, Bun–Steinke 2016). When all guarantees are
// equal it also tries advanced and optimal composition, as Best does.
func BestList(gs []Guarantee, targetDelta float64) (Result, error) {
	b, err := Basic(gs...)
	if err != nil {
		return Result{}, err
	}
	if err := checkOpenDelta("target delta", targetDelta); err != nil {
		return Result{}, err
	}
	homogeneous := len(gs) <= MaxK
	for i, g := range gs {
		if err := firstErr(checkEps(fmt.Sprintf("epsilon of guarantee %d", i+1), g.Epsilon, false),
			checkMechDelta(fmt.Sprintf("delta of guarantee %d", i+1), g.Delta)); err != nil {
			return Result{}, err
		}
		if g != gs[0] {
			homogeneous = false
		}
	}
	if homogeneous {
		return Best(gs[0].Epsilon, gs[0].Delta, len(gs), targetDelta)
	}
	var ms []Method
	if b.Delta <= targetDelta {
		ms = append(ms, Method{Name: MethodBasic, Source: SourceBasic, Epsilon: b.Epsilon, Delta: b.Delta, Valid: true})
	} else {
		ms = append(ms, invalid(MethodBasic, SourceBasic,
			fmt.Sprintf("total delta Σdelta_i = %.6g exceeds the target %g", b.Delta, targetDelta)))
	}
	src := SourceFilterApprox
	if b.Delta == 0 {
		src = SourceFilterPure
	}
	ms = append(ms, PLDList(gs, targetDelta))
	if dp := targetDelta - b.Delta; dp > 0 {
		var s numeric.Kahan
		for _, g := range gs {
			s.Add(g.Epsilon * g.Epsilon)
		}
		ms = append(ms, Method{Name: MethodFilter, Source: src, Epsilon: filterValue(s.Sum(), numeric.NegLogUp(dp)), Delta: targetDelta, Valid: true})
	} else {
		ms = append(ms, invalid(MethodFilter, src, fmt.Sprintf("needs delta' = target − Σdelta_i > 0, got %.6g", dp)))
	}
	return choose(ms)
}

// ErrNoMethod is returned when no composition method meets the target.
var ErrNoMethod = errors.New("no composition method meets the target delta")

func choose(ms []Method) (Result, error) {
	best := -1
	for i, m := range ms {
		if m.Valid && (best < 0 || m.Epsilon < ms[best].Epsilon) {
			best = i
		}
	}
	if best < 0 {
		return Result{Epsilon: math.Inf(1), Delta: math.NaN(), Methods: ms}, ErrNoMethod
	}
	ms[best].Chosen = true
	return Result{Epsilon: ms[best].Epsilon, Delta: ms[best].Delta, Method: ms[best].Name, Methods: ms}, nil
}
