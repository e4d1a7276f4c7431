package composition

import (
	"github.com/privamp/privamp/dp"
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

// Method is one composition method's answer: its guarantee (Epsilon +Inf:
// no finite guarantee; Delta the total δ it certifies with Epsilon; both
// NaN, null in JSON, when not Valid) with its source.
type Method struct {
	Name string `json:"method"`
	dp.Guarantee
	Valid  bool   `json:"valid"`            // false: the method does not apply; see Reason
	Chosen bool   `json:"chosen"`           // the smallest ε among the valid methods
	Reason string `json:"reason,omitempty"` // why the method does not apply (empty when Valid)
}

// Result is the composition's best sound guarantee (the chosen method's)
// and every method tried.
type Result struct {
	dp.Guarantee
	Method  string
	Methods []Method
}

// method is a valid method's answer.
func method(name, source string, eps, delta float64) Method {
	return Method{Name: name, Guarantee: dp.Guarantee{Epsilon: dp.Loss(eps), Delta: dp.Loss(delta), Source: source}, Valid: true}
}

func invalid(name, source, reason string) Method {
	return Method{Name: name, Guarantee: dp.Guarantee{Epsilon: dp.Loss(math.NaN()), Delta: dp.Loss(math.NaN()), Source: source}, Reason: reason}
}

// result is the answer whose guarantee is m's.
func result(m Method, ms []Method) Result {
	return Result{Guarantee: m.Guarantee, Method: m.Name, Methods: ms}
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
		ms = append(ms, method(MethodBasic, SourceBasic, kf*eps, b))
	} else {
		ms = append(ms, invalid(MethodBasic, SourceBasic,
			fmt.Sprintf("total delta k·delta = %.6g exceeds the target %g", b, targetDelta)))
	}
	dPrime := targetDelta - kf*delta
	src := SourceFilterApprox
	if delta == 0 {
		src = SourceFilterPure
	}
	if dPrime > 0 {
		a, _ := Advanced(eps, delta, k, dPrime)
		ms = append(ms, method(MethodAdvanced, SourceAdvanced, float64(a.Epsilon), targetDelta))
		ms = append(ms, method(MethodFilter, src, filterClosed(eps, kf, dPrime), targetDelta))
	} else {
		reason := fmt.Sprintf("needs delta' = target − k·delta > 0, got %.6g", dPrime)
		ms = append(ms, invalid(MethodAdvanced, SourceAdvanced, reason), invalid(MethodFilter, src, reason))
	}
	if e1, err := OptimalEpsilon(eps, delta, k, targetDelta); err == nil {
		ms = append(ms, method(MethodOptimal, SourceOptimal, e1, optimalDelta(eps, delta, k, e1)))
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
func BestList(gs []dp.Guarantee, targetDelta float64) (Result, error) {
	b, err := Basic(gs...)
	if err != nil {
		return Result{}, err
	}
	if err := checkOpenDelta("target delta", targetDelta); err != nil {
		return Result{}, err
	}
	homogeneous := len(gs) <= MaxK
	for i, g := range gs {
		if err := firstErr(checkEps(fmt.Sprintf("epsilon of guarantee %d", i+1), float64(g.Epsilon), false),
			checkMechDelta(fmt.Sprintf("delta of guarantee %d", i+1), float64(g.Delta))); err != nil {
			return Result{}, err
		}
		if pairOf(g) != pairOf(gs[0]) {
			homogeneous = false
		}
	}
	if homogeneous {
		return Best(float64(gs[0].Epsilon), float64(gs[0].Delta), len(gs), targetDelta)
	}
	var ms []Method
	bd := float64(b.Delta)
	if bd <= targetDelta {
		ms = append(ms, method(MethodBasic, SourceBasic, float64(b.Epsilon), bd))
	} else {
		ms = append(ms, invalid(MethodBasic, SourceBasic,
			fmt.Sprintf("total delta Σdelta_i = %.6g exceeds the target %g", bd, targetDelta)))
	}
	src := SourceFilterApprox
	if bd == 0 {
		src = SourceFilterPure
	}
	ms = append(ms, PLDList(gs, targetDelta))
	if dPrime := targetDelta - bd; dPrime > 0 {
		var s numeric.Kahan
		for _, g := range gs {
			s.Add(float64(g.Epsilon * g.Epsilon))
		}
		ms = append(ms, method(MethodFilter, src, filterValue(s.Sum(), numeric.NegLogUp(dPrime)), targetDelta))
	} else {
		ms = append(ms, invalid(MethodFilter, src, fmt.Sprintf("needs delta' = target − Σdelta_i > 0, got %.6g", dPrime)))
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
		return Result{Guarantee: dp.Guarantee{Epsilon: dp.Loss(math.Inf(1)), Delta: dp.Loss(math.NaN())}, Methods: ms}, ErrNoMethod
	}
	ms[best].Chosen = true
	return result(ms[best], ms), nil
}
