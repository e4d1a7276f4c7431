package optimizer

import (
	"fmt"
	"math"
	"sort"
)

// Verdict is the answer of Verify.
type Verdict int

const (
	// Valid: the claimed ε is at least a bound privamp can prove.
	Valid Verdict = iota
	// Invalid: the assumptions hold but the claimed ε is below the smallest
	// ε privamp can certify.
	Invalid
	// Unsupported: an assumption of the amplification-by-iteration analysis
	// fails (and plain composition does not support the claim either).
	Unsupported
)

func (v Verdict) String() string {
	switch v {
	case Invalid:
		return "INVALID"
	case Unsupported:
		return "UNSUPPORTED"
	}
	return "VALID"
}

// Status of a Check.
const (
	Pass = "PASS"
	Fail = "FAIL"
	NA   = "N/A"
)

// Check is one assumption or sanity check with its numbers.
type Check struct {
	Name   string
	Status string  // Pass, Fail or NA
	Value  float64 // measured or stated value (NaN: none)
	Bound  float64 // the bound it is compared with (NaN: none)
	Detail string
}

// IndexVerdict compares a per-index claim with the certified ε.
type IndexVerdict struct {
	Index              int
	Claimed, Certified float64
	OK                 bool
}

// Verification is the result of Verify.
type Verification struct {
	Verdict Verdict
	// Via names the argument that decided: "amplification by iteration"
	// or "composition".
	Via     string
	Checks  []Check
	Failed  []string // the assumptions that fail, in words
	Setting Setting
	// Certified is the smallest worst-case ε (over private indices) privamp
	// certifies by amplification by iteration, attained at WorstIndex (NaN
	// when an assumption fails).
	Certified  float64
	WorstIndex int
	PerIndex   []IndexVerdict
	// Composition is plain composition's ε (needs only ‖∇f‖ ≤ L); +Inf when
	// the Lipschitz check fails.
	Composition float64
	// SigmaNeeded is the smallest σ that makes every claim true (Invalid
	// only; NaN otherwise).
	SigmaNeeded float64
	Source      string
	Assumptions []string
	Notes       []string
}

// ClaimSetting is the accounting setting a claim describes.
func ClaimSetting(c *Claim) Setting {
	return Setting{Variant: c.Variant, N: c.N, Batch: c.Batch, Epochs: c.Epochs, Public: c.Public,
		Tasks: c.Tasks, Eta: c.Eta, Sigma: c.Sigma, L: c.Lipschitz, Beta: c.Smoothness, M: c.StrongConvexity}
}

// Verify recomputes the guarantee of a claim, checks every assumption it
// needs against the stated constants and the trajectory (may be nil), and
// decides:
//
//   - every assumption holds and each claimed ε is ≥ the certified one:
//     Valid (via amplification by iteration);
//   - every assumption holds but some claimed ε is smaller: Invalid, with the
//     smallest certifiable ε and the σ that would make the claim true;
//   - an assumption fails: plain composition (which needs only gradients
//     bounded by L) is tried; if it supports the claim the answer is Valid
//     (via composition), else Unsupported, naming the failed assumptions and
//     the composition ε.
func Verify(c *Claim, trace []TracePoint) (Verification, error) {
	s := ClaimSetting(c)
	v := Verification{Setting: s, Certified: math.NaN(), SigmaNeeded: math.NaN(), Via: "amplification by iteration"}
	nan := math.NaN()
	add := func(ch Check) {
		v.Checks = append(v.Checks, ch)
		if ch.Status == Fail {
			v.Failed = append(v.Failed, ch.Name+": "+ch.Detail)
		}
	}
	lipschitzOK := true

	// 1. The step contracts: η ≤ 2/β (Prop. 18), or c ≤ 1 when strongly convex.
	switch {
	case c.Smoothness == 0:
		add(Check{Name: "smoothness β stated", Status: Fail, Value: nan, Bound: nan,
			Detail: "no \"smoothness\" given: amplification by iteration needs β-smooth losses with η ≤ 2/β (Prop. 18); for a non-smooth loss smooth it first (Thm 33) and state the smoothed β"})
	default:
		cc := Constants{Beta: c.Smoothness, M: c.StrongConvexity}.Contraction(c.Eta)
		ch := Check{Name: "η ≤ 2/β (the step contracts)", Value: c.Eta, Bound: 2 / c.Smoothness,
			Detail: fmt.Sprintf("contraction c = max(|1 − ηm|, |1 − ηβ|) = %.6g", cc)}
		ch.Status = Pass
		if c.Eta*c.Smoothness > 2 {
			ch.Status = Fail
			ch.Detail = fmt.Sprintf("η = %g > 2/β = %g: the gradient step expands distances (c = %.6g > 1); Theorem 22 does not apply", c.Eta, 2/c.Smoothness, cc)
		}
		add(ch)
	}

	// 2. Data order.
	if c.Order == "shuffled" {
		switch {
		case c.Epochs > 1:
			add(Check{Name: "fixed data order", Status: Fail, Value: nan, Bound: nan,
				Detail: "a reshuffle every epoch puts a person at different positions in each pass; the analysis (Thm 35 and the engine) needs one fixed order"})
		case len(c.PerIndex) > 0:
			add(Check{Name: "fixed data order", Status: Fail, Value: nan, Bound: nan,
				Detail: "per-index claims need a fixed order: after a shuffle a person's position is random"})
		default:
			add(Check{Name: "fixed data order", Status: Pass, Value: nan, Bound: nan,
				Detail: "one pass after a data-independent shuffle: the worst case over positions still bounds every person (the guarantee holds conditionally on the permutation)"})
		}
	}

	// 3. Trajectory.
	if trace != nil {
		S := c.Steps()
		var maxG float64
		gLine := 0
		badEta := 0
		for _, p := range trace {
			if p.GradNorm > maxG {
				maxG, gLine = p.GradNorm, p.Line
			}
			if badEta == 0 && math.Abs(p.StepSize-c.Eta) > 1e-9*c.Eta {
				badEta = p.Line
			}
		}
		ch := Check{Name: "trajectory: max gradient norm ≤ L", Value: maxG, Bound: c.Lipschitz, Status: Pass,
			Detail: fmt.Sprintf("largest per-example gradient norm in the trajectory (line %d)", gLine)}
		if maxG > c.Lipschitz*(1+1e-9) {
			ch.Status = Fail
			ch.Detail = fmt.Sprintf("line %d: gradient norm %g exceeds L = %g: the stated Lipschitz constant does not hold (clip gradients or state a larger L)", gLine, maxG, c.Lipschitz)
			lipschitzOK = false
		}
		add(ch)
		ch = Check{Name: "trajectory: step size = η", Value: nan, Bound: c.Eta, Status: Pass, Detail: "every row's step size equals the claimed η"}
		if badEta > 0 {
			for _, p := range trace {
				if p.Line == badEta {
					ch.Value = p.StepSize
				}
			}
			ch.Status = Fail
			ch.Detail = fmt.Sprintf("line %d: step size %g differs from the claimed η = %g; the closed-form analysis assumes a constant step (a smaller late step also means less noise)", badEta, ch.Value, c.Eta)
		}
		add(ch)
		last := trace[len(trace)-1].Step
		ch = Check{Name: "trajectory: number of steps", Value: float64(last), Bound: float64(S), Status: Pass,
			Detail: fmt.Sprintf("epochs·⌈n/batch⌉ = %d steps", S)}
		switch {
		case last > S:
			ch.Status = Fail
			ch.Detail = fmt.Sprintf("the trajectory has %d steps, more than the %d that n, batch and epochs give", last, S)
		case c.Variant == Final && last != S:
			ch.Status = Fail
			ch.Detail = fmt.Sprintf("the trajectory ends at step %d, but %s runs all %d steps", last, c.Variant, S)
		}
		add(ch)
	} else {
		add(Check{Name: "trajectory", Status: NA, Value: nan, Bound: nan,
			Detail: "no trajectory given: L, β and η are taken as stated (give \"trajectory\" to check them against the run)"})
	}

	// composition: always computed (as the reference)
	v.Composition = math.Inf(1)
	if lipschitzOK {
		v.Composition = CompositionEpsilon(s, c.Delta)
	}
	claimedWorst := -1.0
	if c.Epsilon != nil {
		claimedWorst = *c.Epsilon
	}
	per := map[int]float64{}
	for _, p := range c.PerIndex {
		per[p.Index] = p.Epsilon
	}

	if len(v.Failed) == 0 {
		p, err := PrivacyOf(s)
		if err != nil {
			if err == ErrNoAccountant {
				return v, err
			}
			add(Check{Name: "assumptions of the theorem", Status: Fail, Value: nan, Bound: nan, Detail: err.Error()})
		} else {
			v.Source = p.Source()
			v.Assumptions = p.Assumptions()
			t, e, err := p.Worst(c.Delta)
			if err != nil {
				return v, err
			}
			v.Certified, v.WorstIndex = e, t
			ok := claimedWorst < 0 || claimedWorst >= e
			idx := make([]int, 0, len(per))
			for i := range per {
				idx = append(idx, i)
			}
			sort.Ints(idx)
			for _, i := range idx {
				ce, err := p.Epsilon(i, c.Delta)
				if err != nil {
					return v, err
				}
				iv := IndexVerdict{Index: i, Claimed: per[i], Certified: ce, OK: per[i] >= ce}
				ok = ok && iv.OK
				v.PerIndex = append(v.PerIndex, iv)
			}
			if ok {
				v.Verdict = Valid
				return v, nil
			}
			v.Verdict = Invalid
			sig, err := CalibrateSigma(s, c.Delta, claimedWorst, per)
			if err == nil {
				v.SigmaNeeded = sig
			} else {
				v.SigmaNeeded = math.Inf(1)
				v.Notes = append(v.Notes, err.Error())
			}
			return v, nil
		}
	}
	// An assumption failed: fall back on composition.
	v.Via = "composition"
	v.Source = "plain composition of Gaussian steps (Mironov 2017 Prop. 7, Cor. 3; seed 002 Lemma 27)"
	okc := !math.IsInf(v.Composition, 1) && (claimedWorst < 0 || claimedWorst >= v.Composition)
	for _, i := range sortedKeys(per) {
		iv := IndexVerdict{Index: i, Claimed: per[i], Certified: v.Composition, OK: per[i] >= v.Composition}
		okc = okc && iv.OK
		v.PerIndex = append(v.PerIndex, iv)
	}
	if okc {
		v.Verdict = Valid
		v.Notes = append(v.Notes, "amplification by iteration does not apply (see the failed checks), but plain composition, which only needs gradients bounded by L, already supports the claim")
		return v, nil
	}
	v.Verdict = Unsupported
	if math.IsInf(v.Composition, 1) {
		v.Notes = append(v.Notes, "no sound bound: the gradient norms exceed the stated L, so not even plain composition applies")
	}
	return v, nil
}

func sortedKeys(m map[int]float64) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
