package verify

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// Basis of a Check: how its value was established.
const (
	// BasisTrajectory: compared with a column of the claim's trajectory
	// and not contradicted (a necessary condition: a trajectory samples the
	// run, it cannot prove a constant).
	BasisTrajectory = "checked (trajectory)"
	// BasisArithmetic: decided by arithmetic on the declared values.
	BasisArithmetic = "checked (arithmetic)"
	// BasisTrust: declared by the claim; nothing it brings can contradict
	// the value.
	BasisTrust = "declared (taken on trust)"
)

// IndexVerdict compares a per-index claim with the certified ε.
type IndexVerdict struct {
	Index     int64   `json:"index"`
	Claimed   dp.Num  `json:"claimed_epsilon"`
	Certified dp.Loss `json:"certified_epsilon"`
	OK        bool    `json:"ok"`
}

// Verification is the result of Verify.
type Verification struct {
	Verdict dp.Verdict `json:"verdict"`
	// Via names the argument that decided: ViaAmplification,
	// ViaComposition, or ViaNone when a declared value is contradicted;
	// for a DP-SGD claim the accountant's name (Accountant.Name), or
	// ViaNoAccountant when no accountant covers its sampling.
	Via string `json:"via"`
	// Training is the run the claim describes (Claim.Training; absent for
	// a DP-SGD claim).
	Training shifted.Training `json:"training,omitzero"`
	// DPSGD is the run a DP-SGD claim describes (nil for the others).
	DPSGD *DPSGDRun `json:"dpsgd,omitempty"`
	// Shuffle is the interval of a DP-SGD claim on shuffled batches (nil
	// for the others).
	Shuffle *ShuffleBounds `json:"shuffle,omitempty"`
	// ClaimedEpsilon is the claimed worst-case ε (nil: per-index claims only).
	ClaimedEpsilon *dp.Num `json:"claimed_epsilon,omitempty"`
	// WorstEpsilon is the smallest worst-case ε (over private indices)
	// privamp certifies by amplification by iteration, attained at
	// WorstIndex (NaN, null in JSON, when it was not computed: a check
	// failed or an assumption is unmet).
	WorstEpsilon dp.Loss `json:"worst_epsilon"`
	WorstIndex   int64   `json:"worst_index"`
	// CompositionEpsilon is plain composition's ε (needs only ‖∇f‖ ≤ L);
	// +Inf when the trajectory contradicts L. For a DP-SGD claim it is the
	// accountant's ε of the composed steps (WorstEpsilon; NaN when the
	// sampling is not covered).
	CompositionEpsilon dp.Loss `json:"composition_epsilon"`
	// SigmaNeeded is the smallest σ that makes every claim true (dp.Invalid
	// only; NaN otherwise).
	SigmaNeeded dp.Noise `json:"sigma_needed,omitzero"`
	// NoiseMultiplierNeeded is, for a DP-SGD claim, the smallest noise
	// multiplier that makes the claim true (dp.Invalid only; NaN otherwise;
	// absent for the other claims).
	NoiseMultiplierNeeded dp.Noise   `json:"noise_multiplier_needed,omitzero"`
	Checks                []dp.Check `json:"checks"`
	// CrossChecked lists the declared values that were compared with the
	// trajectory or with each other and not contradicted; Trusted those
	// nothing in the claim could cross-check (σ when the trajectory has no
	// noise columns; L, β, m, η and σ when there is no trajectory). Both
	// are lists, empty rather than null.
	CrossChecked []string       `json:"cross_checked"`
	Trusted      []string       `json:"trusted"`
	PerIndex     []IndexVerdict `json:"per_index"`
	Source       string         `json:"source"`
	Assumptions  []string       `json:"assumptions"`
	Notes        []string       `json:"notes"`
}

// Failed lists the failed (dp.Fail) and unmet (dp.Unmet) checks, in words.
func (v Verification) Failed() []string {
	var out []string
	for _, ch := range v.Checks {
		if ch.Status == dp.Fail || ch.Status == dp.Unmet {
			out = append(out, ch.Name+": "+ch.Detail)
		}
	}
	return out
}

// Verification.Via values.
const (
	// ViaAmplification: the claim was decided by the per-person bound of
	// amplification by iteration (shifted.Training.Guarantee).
	ViaAmplification = "amplification by iteration"
	// ViaComposition: an assumption of amplification is unmet; plain
	// composition (shifted.Training.Composition) decided.
	ViaComposition = "composition"
	// ViaNone: a check failed; no argument is applied to a claim whose own
	// inputs contradict it.
	ViaNone = "none: the claim's own inputs contradict it"
	// ViaDelta: the claim's δ is ≥ 1/n (DeltaCheck failed): no argument is
	// applied to a guarantee that protects nobody.
	ViaDelta = "none: δ ≥ 1/n protects nobody"
)

// Verify recomputes the guarantee of a claim, cross-checks every constant
// it declares against everything the claim brings — the other constants
// (m ≤ β, L ≥ m·R) and each column of the trajectory (may be nil: steps,
// gradient norms against L, step sizes against η, the measured contraction
// against the c that β and m imply, loss changes against L, distances to
// the optimum against the radius) — and decides:
//
//   - a declared value is contradicted, or the trajectory cannot be evidence
//     (every gradient norm 0, non-finite values, steps that do not increase,
//     a column blanked on some rows): dp.Unsupported, whatever ε is claimed, via
//     ViaNone (no argument is applied to false constants);
//   - every assumption holds and each claimed ε is ≥ the certified one:
//     dp.Valid (via amplification by iteration, FMTT18 Thm 22 through
//     shifted.Training.Guarantee);
//   - every assumption holds but some claimed ε is smaller: dp.Invalid, with the
//     smallest certifiable ε and the σ that would make the claim true
//     (shifted.Training.CalibrateSigma);
//   - an assumption of amplification by iteration is unmet (η > 2/β, no β, a
//     reshuffled multi-epoch order): plain composition (which needs only
//     gradients bounded by L; FMTT18 Lemma 27, Mironov 2017 Prop. 1) is
//     tried; if it supports the claim the answer is dp.Valid (via composition),
//     else dp.Unsupported, naming the unmet assumptions and the composition ε.
//
// Each check says whether its value was checked or taken on trust (Basis);
// CrossChecked and Trusted list the declared values of each kind.
//
// The trajectory is Rows (ReadTrace) or a *TraceSummary (ScanTrace, made
// for this claim's L and η; another claim's summary is an error): both
// give the same verification, the summary in constant memory.
//
// A DP-SGD claim (c.DPSGD set) is decided by VerifyDPSGD with the default
// accountant; it takes no trajectory.
func Verify(c *Claim, trace Trajectory) (Verification, error) {
	return VerifyWith(c, trace, Options{})
}

// VerifyWith is Verify with options: o's accountant decides DP-SGD claims.
func VerifyWith(c *Claim, trace Trajectory, o Options) (Verification, error) {
	if rs, ok := trace.(Rows); ok && rs == nil {
		trace = nil // no trajectory, as a nil slice always meant
	}
	if s, ok := trace.(*TraceSummary); ok && s == nil {
		trace = nil
	}
	if c.DPSGD != nil {
		if trace != nil {
			return Verification{}, &dp.Error{Where: dp.InputFile, Field: "trajectory", Reason: "a trajectory applies to pnsgd, skip and stop claims, not to dpsgd"}
		}
		return VerifyDPSGD(c.DPSGD, o)
	}
	tr := c.Training()
	nan := math.NaN()
	v := Verification{Training: tr, WorstEpsilon: dp.Loss(nan), SigmaNeeded: dp.Noise(nan), Via: ViaAmplification,
		CrossChecked: []string{}, Trusted: []string{}}
	if c.Epsilon != nil {
		e := dp.Num(*c.Epsilon)
		v.ClaimedEpsilon = &e
	}
	add := func(ch dp.Check) { v.Checks = append(v.Checks, ch) }
	checked := func(what string) { v.CrossChecked = append(v.CrossChecked, what) }
	trusted := func(what string) { v.Trusted = append(v.Trusted, what) }
	lipschitzOK := true

	// 1. The declared constants: in range, and consistent with each other;
	// δ below 1/n.
	consistencyChecks(c, add)
	add(DeltaCheck(c.Delta, int64(c.N)))

	// 2. The step contracts: η ≤ 2/β (Prop. 18), or c ≤ 1 when strongly convex.
	cc := optimizer.Constants{Beta: c.Smoothness, M: c.StrongConvexity}.Contraction(c.Eta)
	switch {
	case c.Smoothness == 0:
		add(check("smoothness β stated", dp.Unmet, nan, nan, BasisArithmetic,
			"no \"smoothness\" given: amplification by iteration needs β-smooth losses with η ≤ 2/β (Prop. 18); for a non-smooth loss smooth it first (Thm 33) and state the smoothed β"))
	default:
		ch := check("η ≤ 2/β (the step contracts)", dp.Pass, c.Eta, 2/c.Smoothness, BasisArithmetic,
			fmt.Sprintf("contraction c = max(|1 − ηm|, |1 − ηβ|) = %.6g", cc))
		if c.Eta*c.Smoothness > 2 {
			ch.Status = dp.Unmet
			ch.Detail = fmt.Sprintf("η = %g > 2/β = %g: the gradient step expands distances (c = %.6g > 1); Theorem 22 does not apply", c.Eta, 2/c.Smoothness, cc)
		}
		add(ch)
	}

	// 3. Data order (declared: nothing in a trajectory shows it).
	if c.Order == string(shifted.Shuffled) {
		switch {
		case c.Epochs > 1:
			add(check("fixed data order", dp.Unmet, nan, nan, BasisTrust,
				"a reshuffle every epoch puts a person at different positions in each pass; the analysis (Thm 35 and the engine) needs one fixed order"))
		case len(c.PerIndex) > 0:
			add(check("fixed data order", dp.Unmet, nan, nan, BasisTrust,
				"per-index claims need a fixed order: after a shuffle a person's position is random"))
		default:
			add(check("fixed data order", dp.Assumed, nan, nan, BasisTrust,
				"one pass after a data-independent shuffle: the worst case over positions still bounds every person (the guarantee holds conditionally on the permutation)"))
		}
	}

	// 4. The trajectory, column by column.
	var sum *TraceSummary
	if trace != nil {
		var err error
		if sum, err = trace.summary(c); err != nil {
			return Verification{}, err
		}
		lipschitzOK = trajectoryChecks(c, sum, cc, add, checked, trusted)
		if sum.degenerate() != "" {
			sum = nil // not evidence, for σ either
		}
	} else {
		add(check("trajectory", dp.NA, nan, nan, BasisTrust,
			"no trajectory given: L, β, m, η, σ and the number of steps are taken as declared (give \"trajectory\" to check them against the run)"))
		trusted(fmt.Sprintf("L = %g, β = %g, m = %g, η = %g, %s (no trajectory)", c.Lipschitz, c.Smoothness, c.StrongConvexity, c.Eta, quantity.Count(tr.Steps(), "step", "steps")))
	}
	// 5. σ against the noise the trajectory records (χ² test).
	if ch, ok := noiseCheck(c, sum); ok {
		checked(fmt.Sprintf("σ = %g (noise_sq column, χ² test at false-alarm probability %g)", c.Sigma, NoiseFalseAlarm))
		add(ch)
	} else {
		if ch.Status == dp.Assumed {
			trusted(fmt.Sprintf("σ = %g (no noise columns in the trajectory)", c.Sigma))
		}
		add(ch)
	}
	if c.Order == string(shifted.Shuffled) {
		trusted("the shuffle is data-independent and secret")
	}
	if c.Public > 0 {
		trusted(fmt.Sprintf("the %d examples after the n = %d private ones are public", c.Public, c.N))
	}
	if c.Tasks > 1 {
		trusted(fmt.Sprintf("%d tasks on the same data", c.Tasks))
	}

	// composition: always computed (as the reference)
	v.CompositionEpsilon = dp.Loss(math.Inf(1))
	if lipschitzOK && c.Lipschitz > 0 && c.Sigma > 0 && !math.IsInf(c.Lipschitz, 0) {
		v.CompositionEpsilon = dp.Loss(compositionEpsilon(tr))
	}
	claimedWorst := -1.0
	if c.Epsilon != nil {
		claimedWorst = *c.Epsilon
	}
	per := map[int64]float64{}
	for _, p := range c.PerIndex {
		per[int64(p.Index)] = p.Epsilon
	}

	// A contradicted value: no argument applies to the claim as declared.
	var contradicted []string
	for _, ch := range v.Checks {
		if ch.Status == dp.Fail && ch.Name != DeltaCheckName {
			contradicted = append(contradicted, ch.Name)
		}
	}
	if refuseDelta(&v) {
		v.Verdict, v.Via = dp.Unsupported, ViaDelta
	}
	if len(contradicted) > 0 {
		v.Verdict, v.Via = dp.Unsupported, ViaNone
	}
	if len(contradicted) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("the claim's own inputs contradict it (%s): neither amplification by iteration nor composition is applied to constants that do not hold; correct the claim (or the trajectory) and verify again", strings.Join(contradicted, "; ")))
		if !math.IsInf(float64(v.CompositionEpsilon), 1) {
			v.Notes = append(v.Notes, "the plain composition ε is for reference only: it assumes the declared L, and it did not decide")
		}
	}
	if v.Verdict == dp.Unsupported {
		return v, nil
	}

	unmet := false
	for _, ch := range v.Checks {
		unmet = unmet || ch.Status == dp.Unmet
	}
	if !unmet {
		g, err := tr.Guarantee()
		if err != nil {
			add(check("assumptions of the theorem", dp.Unmet, nan, nan, BasisArithmetic, err.Error()))
		} else {
			v.Source = g.Source()
			v.Assumptions = g.Assumptions()
			t := shifted.WorstIndex(g)
			e, err := epsilonOf(g, t, c.Delta)
			if err != nil {
				return v, err
			}
			v.WorstEpsilon, v.WorstIndex = dp.Loss(e), t
			ok := claimedWorst < 0 || claimedWorst >= e
			for _, i := range sortedKeys(per) {
				ce, err := epsilonOf(g, i, c.Delta)
				if err != nil {
					return v, err
				}
				iv := IndexVerdict{Index: i, Claimed: dp.Num(per[i]), Certified: dp.Loss(ce), OK: per[i] >= ce}
				ok = ok && iv.OK
				v.PerIndex = append(v.PerIndex, iv)
			}
			if ok {
				v.Verdict = dp.Valid
				return v, nil
			}
			v.Verdict = dp.Invalid
			sig, err := tr.CalibrateSigma(claimedWorst, per)
			v.SigmaNeeded = dp.Noise(sig)
			if err != nil {
				v.SigmaNeeded = dp.Noise(math.Inf(1))
				v.Notes = append(v.Notes, err.Error())
			}
			v.Notes = append(v.Notes, fmt.Sprintf("the smallest ε privamp certifies for these parameters is %s (worst case, index %d); with σ = %s the claim holds", v.WorstEpsilon, v.WorstIndex, v.SigmaNeeded))
			return v, nil
		}
	}
	// An assumption of amplification is unmet: fall back on composition.
	v.Via = ViaComposition
	v.Source = "plain composition of Gaussian steps (Mironov 2017 Prop. 7, Cor. 3; seed 002 Lemma 27)"
	comp := float64(v.CompositionEpsilon)
	okc := !math.IsInf(comp, 1) && (claimedWorst < 0 || claimedWorst >= comp)
	for _, i := range sortedKeys(per) {
		iv := IndexVerdict{Index: i, Claimed: dp.Num(per[i]), Certified: v.CompositionEpsilon, OK: per[i] >= comp}
		okc = okc && iv.OK
		v.PerIndex = append(v.PerIndex, iv)
	}
	if okc {
		v.Verdict = dp.Valid
		v.Notes = append(v.Notes, "amplification by iteration does not apply (see the unmet checks), but plain composition, which only needs gradients bounded by L, already supports the claim")
		return v, nil
	}
	v.Verdict = dp.Unsupported
	for _, f := range v.Failed() {
		v.Notes = append(v.Notes, "assumption of amplification by iteration unmet: "+f)
	}
	v.Notes = append(v.Notes, fmt.Sprintf("plain composition (every iterate released) gives ε = %s at δ = %g, which does not support the claim either", v.CompositionEpsilon, c.Delta))
	return v, nil
}

// check builds a Check.
func check(name string, status dp.Status, value, bound float64, basis, detail string) dp.Check {
	return dp.Check{Name: name, Status: status, Value: dp.Num(value), Bound: dp.Num(bound), Basis: basis, Detail: detail}
}

// epsilonOf is index t's ε at δ through the improved conversion: the one
// per-index answer of package shifted.
func epsilonOf(g shifted.PerPerson, t int64, delta float64) (float64, error) {
	dp, err := shifted.Epsilon(g, t, delta, rdp.Improved)
	return dp.Epsilon, err
}

// compositionEpsilon is the ε of plain composition (every iterate
// released, shifted.Training.Composition); +Inf when it has none.
func compositionEpsilon(tr shifted.Training) float64 {
	e, err := epsilonOf(tr.Composition(), 1, tr.Delta)
	if err != nil {
		return math.Inf(1)
	}
	return e
}

func sortedKeys(m map[int64]float64) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// relTol is the relative slack of comparisons with measured values: a
// trajectory is written with 10 significant digits (WriteTrace), and the
// tracer's own contraction check allows 1e-6.
const relTol = 1e-6

// consistencyChecks checks the declared constants by arithmetic: each in
// its range, m ≤ β, and L ≥ m·R.
func consistencyChecks(c *Claim, add func(dp.Check)) {
	nan := math.NaN()
	var bad []string
	pos := func(name string, x float64) {
		if !(x > 0) || math.IsInf(x, 0) {
			bad = append(bad, fmt.Sprintf("%s = %v is not a finite number > 0", name, x))
		}
	}
	nonneg := func(name string, x float64) {
		if !(x >= 0) || math.IsInf(x, 0) {
			bad = append(bad, fmt.Sprintf("%s = %v is not a finite number ≥ 0", name, x))
		}
	}
	pos("L", c.Lipschitz)
	pos("η", c.Eta)
	pos("σ", c.Sigma)
	nonneg("β", c.Smoothness)
	nonneg("m", c.StrongConvexity)
	if !(c.Radius > 0) {
		bad = append(bad, fmt.Sprintf("R = %v is not > 0", c.Radius))
	}
	ch := dp.Check{Name: "declared constants in range", Status: dp.Pass, Value: dp.Num(nan), Bound: dp.Num(nan), Basis: BasisArithmetic,
		Detail: "L, η, σ finite and > 0; β, m finite and ≥ 0; R > 0"}
	if len(bad) > 0 {
		ch.Status, ch.Detail = dp.Fail, strings.Join(bad, "; ")
	}
	add(ch)
	beta, m, L, R := c.Smoothness, c.StrongConvexity, c.Lipschitz, c.Radius
	if beta > 0 && m > 0 {
		ch := dp.Check{Name: "m ≤ β (constants consistent)", Status: dp.Pass, Value: dp.Num(m), Bound: dp.Num(beta), Basis: BasisArithmetic,
			Detail: "a loss that is m-strongly convex and β-smooth has m ≤ β"}
		if m > beta {
			ch.Status = dp.Fail
			ch.Detail = fmt.Sprintf("m = %g exceeds β = %g: no function is both m-strongly convex and β-smooth", m, beta)
		}
		add(ch)
	}
	if m > 0 {
		// An m-strongly convex f has ‖∇f(u) − ∇f(v)‖ ≥ m‖u − v‖ (Nesterov
		// 2004, Thm 2.1.10); with u = R·e and v = −R·e in K = {‖w‖ ≤ R},
		// 2L ≥ ‖∇f(u)‖ + ‖∇f(v)‖ ≥ 2mR.
		ch := dp.Check{Name: "L ≥ m·R (constants consistent)", Status: dp.Pass, Value: dp.Num(L), Bound: dp.Num(m * R), Basis: BasisArithmetic,
			Detail: "an m-strongly convex loss on the ball of radius R has gradients of norm ≥ m·R at some point of it, so L ≥ m·R"}
		switch {
		case math.IsInf(R, 1):
			ch.Status = dp.Fail
			ch.Detail = fmt.Sprintf("m = %g > 0 with no radius: on an unbounded domain the gradients of an m-strongly convex loss are unbounded, so no finite L bounds them (state the radius R of the projection, with L ≥ m·R)", m)
		case L < m*R*(1-1e-12):
			ch.Status = dp.Fail
			ch.Detail = fmt.Sprintf("L = %g < m·R = %g: an m-strongly convex loss on the ball of radius %g has a gradient of norm ≥ m·R, so the declared L, m and R cannot all hold", L, m*R, R)
		}
		add(ch)
	}
}

// trajectoryChecks cross-checks the declared constants against every
// column of the trajectory. It reports whether the gradient norms are
// within L (false: not even composition holds).
func trajectoryChecks(c *Claim, trace *TraceSummary, cc float64, add func(dp.Check), checked, trusted func(string)) bool {
	nan := math.NaN()
	const name = "trajectory: usable as evidence"
	if reason := trace.degenerate(); reason != "" {
		add(dp.Check{Name: name, Status: dp.Fail, Value: dp.Num(nan), Bound: dp.Num(nan), Basis: BasisTrajectory,
			Detail: reason + ": such a trajectory cannot be evidence for the declared constants"})
		trusted(fmt.Sprintf("L = %g, β = %g, m = %g, η = %g (the trajectory is not usable)", c.Lipschitz, c.Smoothness, c.StrongConvexity, c.Eta))
		return true
	}
	add(dp.Check{Name: name, Status: dp.Pass, Value: dp.Num(float64(trace.rows)), Bound: dp.Num(nan), Basis: BasisTrajectory,
		Detail: "rows with increasing steps ≥ 1, finite values, gradient norms not all 0, no column blanked on some rows only"})

	// grad_norm against L
	maxG, gLine := trace.maxG, trace.gLine
	lipschitzOK := true
	ch := dp.Check{Name: "trajectory: max gradient norm ≤ L", Value: dp.Num(maxG), Bound: dp.Num(c.Lipschitz), Status: dp.Pass, Basis: BasisTrajectory,
		Detail: fmt.Sprintf("largest per-example gradient norm in the trajectory (line %d)", gLine)}
	if maxG > c.Lipschitz*(1+1e-9) {
		ch.Status = dp.Fail
		ch.Detail = fmt.Sprintf("line %d: gradient norm %g exceeds L = %g: the declared Lipschitz constant does not hold (clip gradients or state a larger L)", gLine, maxG, c.Lipschitz)
		lipschitzOK = false
	} else {
		checked(fmt.Sprintf("L = %g (grad_norm column)", c.Lipschitz))
	}
	add(ch)

	// step_size against η
	ch = dp.Check{Name: "trajectory: step size = η", Value: dp.Num(c.Eta), Bound: dp.Num(c.Eta), Status: dp.Pass, Basis: BasisTrajectory, Detail: "every row's step size equals the declared η"}
	if trace.hasBadEta {
		p := trace.badEta
		ch.Value, ch.Status = dp.Num(p.StepSize), dp.Fail
		ch.Detail = fmt.Sprintf("line %d: step size %g differs from the declared η = %g; the closed-form analysis assumes a constant step (a smaller late step also means less noise)", p.Line, p.StepSize, c.Eta)
	} else {
		checked(fmt.Sprintf("η = %g (step_size column)", c.Eta))
	}
	add(ch)

	// step against n, batch, epochs
	S := int(c.Training().Steps())
	last := trace.last
	ch = dp.Check{Name: "trajectory: number of steps", Value: dp.Num(float64(last)), Bound: dp.Num(float64(S)), Status: dp.Pass, Basis: BasisTrajectory,
		Detail: fmt.Sprintf("epochs·⌈(n + public)/batch⌉ = %s", quantity.Count(S, "step", "steps"))}
	switch {
	case last > S:
		ch.Status = dp.Fail
		ch.Detail = fmt.Sprintf("the trajectory has %d steps, more than the %d that n, public, batch and epochs give (epochs·⌈(n + public)/batch⌉)", last, S)
	case c.Variant != shifted.VariantStop && last != S:
		ch.Status = dp.Fail
		ch.Detail = fmt.Sprintf("the trajectory ends at step %d, but %s runs all %d steps that n, public, batch and epochs give (epochs·⌈(n + public)/batch⌉)", last, c.Variant, S)
	}
	if ch.Status == dp.Pass {
		checked(fmt.Sprintf("%s (step column)", quantity.Count(S, "step", "steps")))
	}
	add(ch)

	// contraction against the c that β and m imply
	if trace.cols[1].have > 0 {
		mc, cLine := trace.maxC, trace.cLine
		if c.Smoothness > 0 {
			ch := dp.Check{Name: "trajectory: measured contraction ≤ c", Value: dp.Num(mc), Bound: dp.Num(cc), Status: dp.Pass, Basis: BasisTrajectory,
				Detail: fmt.Sprintf("largest measured ‖ψ(u) − ψ(v)‖/‖u − v‖ of the step map (line %d) against c = max(|1 − ηm|, |1 − ηβ|) of the declared β = %g, m = %g (Prop. 18: a convex β-smooth, m-strongly convex loss never exceeds it)", cLine, c.Smoothness, c.StrongConvexity)}
			if mc > cc*(1+relTol) {
				ch.Status = dp.Fail
				ch.Detail = fmt.Sprintf("line %d: the measured contraction %.6g exceeds c = %.6g that the declared β = %g and m = %g imply: the declared β or m (or convexity) does not hold", cLine, mc, cc, c.Smoothness, c.StrongConvexity)
				if mc > 1 {
					ch.Detail += fmt.Sprintf("; a convex loss whose step expands by %.6g has β ≥ (1 + %.6g)/η = %.6g", mc, mc, (1+mc)/c.Eta)
				}
			} else {
				checked(fmt.Sprintf("β = %g, m = %g (contraction column; a sample of pairs, not a proof)", c.Smoothness, c.StrongConvexity))
			}
			add(ch)
		} else {
			add(dp.Check{Name: "trajectory: measured contraction", Status: dp.NA, Value: dp.Num(mc), Bound: dp.Num(nan), Basis: BasisTrajectory,
				Detail: fmt.Sprintf("no β declared, so there is no c to compare with; largest measured contraction %.6g (line %d)", mc, cLine)})
		}
	} else {
		add(dp.Check{Name: "trajectory: measured contraction ≤ c", Status: dp.NA, Value: dp.Num(nan), Bound: dp.Num(cc), Basis: BasisTrust,
			Detail: "no contraction column: β and m are taken as declared"})
		trusted(fmt.Sprintf("β = %g, m = %g (no contraction column)", c.Smoothness, c.StrongConvexity))
	}

	// loss against L: for iterates w_s, w_t in K, |F(w_s) − F(w_t)| ≤
	// L·‖w_s − w_t‖ ≤ L·min(d_s + d_t, 2R) (triangle inequality through w*).
	hasDist := trace.cols[2].have > 0
	if trace.cols[0].have > 0 && (hasDist || !math.IsInf(c.Radius, 1)) {
		ch := lossCheck(c, trace, hasDist)
		if ch.Status == dp.Pass {
			checked(fmt.Sprintf("L = %g (loss column)", c.Lipschitz))
		}
		add(ch)
	}

	// dist_to_opt against R: w_t and w* both lie in K, so d_t ≤ 2R.
	if hasDist && !math.IsInf(c.Radius, 1) {
		md, dLine := trace.maxD, trace.dLine
		ch := dp.Check{Name: "trajectory: distance to the optimum ≤ 2R", Value: dp.Num(md), Bound: dp.Num(2 * c.Radius), Status: dp.Pass, Basis: BasisTrajectory,
			Detail: fmt.Sprintf("iterate and minimiser both lie in K = {‖w‖ ≤ R}; largest ‖w_t − w*‖ on line %d", dLine)}
		if md > 2*c.Radius*(1+relTol) {
			ch.Status = dp.Fail
			ch.Detail = fmt.Sprintf("line %d: ‖w_t − w*‖ = %g exceeds the diameter 2R = %g of the declared domain: the iterates (or the optimum) are not in a ball of radius %g", dLine, md, 2*c.Radius, c.Radius)
		} else {
			checked(fmt.Sprintf("R = %g (dist_to_opt column)", c.Radius))
		}
		add(ch)
	}
	return lipschitzOK
}

// lossCheck compares the loss column with what an L-Lipschitz loss allows:
// F(w_s) − F(w_t) ≤ L·b(s, t) for every pair of rows, b = d_s + d_t (the
// distances to the optimum, triangle inequality) and b = 2R (the diameter
// of K). For b = d_s + d_t a violating pair exists iff max_s (F_s − L·d_s) >
// min_t (F_t + L·d_t); for b = 2R iff max F − min F > 2RL: one pass each.
// The row reports the pair with the largest excess F_s − F_t − L·b.
func lossCheck(c *Claim, trace *TraceSummary, hasDist bool) dp.Check {
	L, R := c.Lipschitz, c.Radius
	type pair struct {
		s, t   TracePoint
		b      float64
		how    string
		excess float64
	}
	var best *pair
	consider := func(p pair) {
		p.excess = p.s.Loss - p.t.Loss - L*p.b
		if best == nil || p.excess > best.excess {
			best = &p
		}
	}
	if hasDist {
		hi, lo := trace.distHi, trace.distLo
		consider(pair{s: hi, t: lo, b: hi.Dist + lo.Dist, how: "d_s + d_t"})
	}
	if !math.IsInf(R, 1) {
		hi, lo := trace.lossHi, trace.lossLo
		consider(pair{s: hi, t: lo, b: 2 * R, how: "2R"})
	}
	p := *best
	change := p.s.Loss - p.t.Loss
	ch := dp.Check{Name: "trajectory: loss changes ≤ L·‖w_s − w_t‖", Value: dp.Num(change), Bound: dp.Num(L * p.b), Status: dp.Pass, Basis: BasisTrajectory,
		Detail: fmt.Sprintf("the mean loss of L-Lipschitz examples changes by at most L·‖w_s − w_t‖ ≤ L·(%s) between any two rows; closest pair: lines %d and %d", p.how, p.s.Line, p.t.Line)}
	slack := relTol * (math.Abs(p.s.Loss) + math.Abs(p.t.Loss) + L*p.b)
	if p.excess > slack {
		ch.Status = dp.Fail
		ch.Detail = fmt.Sprintf("lines %d and %d: the loss changes by %g, more than L·(%s) = %g allows: the declared L does not bound the gradients (or the loss column is not the training objective)", p.s.Line, p.t.Line, change, p.how, L*p.b)
	}
	return ch
}
