package verify

import (
	"fmt"
	"math"
	"strings"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
)

// PlanVerification is verify's answer for a plan file: the recomputation
// of every position (plan.Verification) and the checks a claim gets, made
// the same way: δ < 1/n (DeltaCheck), the smoothness that amplification by
// iteration needs, and the file's summary against its recomputation.
type PlanVerification struct {
	Verdict dp.Verdict `json:"verdict"`
	// Via is ViaAmplification, ViaComposition (no β: the step's
	// contraction is not established, so plain composition decides, as for
	// a claim without "smoothness") or ViaDelta.
	Via    string     `json:"via"`
	Checks []dp.Check `json:"checks"`
	// CompositionEpsilon is plain composition's ε at the plan's δ (every
	// iterate released; needs only ‖∇f‖ ≤ L): the same for every person.
	CompositionEpsilon dp.Loss `json:"composition_epsilon"`
	// CompositionShort counts the people whose target ε is below
	// composition's at their δ (Via ViaComposition only).
	CompositionShort int64 `json:"composition_short"`
	// SigmaNeeded is the σ that meets every target (privamp plan on the
	// same budgets and setting, η fixed), when a position is above its
	// target; nil otherwise.
	SigmaNeeded  *dp.Noise          `json:"sigma_needed,omitempty"`
	Verification *plan.Verification `json:"verification"`
	Notes        []string           `json:"notes"`
}

// VerifyPlan verifies a plan file as Verify verifies a claim: it
// recomputes every position's ε (plan.Plan.VerifyProgress; progress may be
// nil) and decides:
//
//   - a target δ ≥ 1/n: dp.Unsupported via ViaDelta (DeltaCheck);
//   - no smoothness β ("smoothness": 0, what privamp plan writes when
//     --smoothness is not given): η ≤ 2/β, which amplification by iteration
//     needs, is not established (check dp.Unmet, as for a claim without
//     "smoothness"); plain composition decides: dp.Valid via ViaComposition
//     when it meets every target, else dp.Unsupported;
//   - else dp.Valid when every position is within its target, dp.Invalid
//     otherwise (with the σ that would meet every target);
//   - a summary that the recomputation contradicts (an edited
//     max_achieved_ratio or achieved_max): dp.Invalid, naming the fields,
//     whatever else holds.
func VerifyPlan(p *plan.Plan, progress dp.Progress) (*PlanVerification, error) {
	v, err := p.VerifyProgress(progress)
	if err != nil {
		return nil, err
	}
	nan := math.NaN()
	pv := &PlanVerification{Via: ViaAmplification, Verification: v, CompositionEpsilon: dp.Loss(nan), Checks: []dp.Check{}, Notes: []string{}}
	claims := p.Claims()
	maxDelta := 0.0
	for _, c := range claims {
		maxDelta = math.Max(maxDelta, c.Delta)
	}
	dc := DeltaCheck(maxDelta, p.N)
	dc.Detail = "largest target δ of the plan: " + dc.Detail
	pv.Checks = append(pv.Checks, dc)
	if p.Smoothness == 0 {
		pv.Checks = append(pv.Checks, check("smoothness β stated", dp.Unmet, nan, nan, BasisArithmetic,
			"the plan has \"smoothness\": 0 (no β given to privamp plan): amplification by iteration needs β-smooth losses with η ≤ 2/β (Prop. 18), which is then not established; plain composition, which needs only ‖∇f‖ ≤ L, decides (give the loss's smoothness β when planning to use amplification)"))
	} else {
		pv.Checks = append(pv.Checks, check("η ≤ 2/β (the step contracts)", dp.Pass, p.Eta, 2/p.Smoothness, BasisArithmetic,
			fmt.Sprintf("η·β = %.6g ≤ 2", p.Eta*p.Smoothness)))
	}
	sc := check("summary = recomputation", dp.Pass, nan, nan, BasisArithmetic,
		"max_achieved_ratio, binding_position, optimal, order_note, every group's achieved ε and slack, the uniform plan and the utility bounds agree with the recomputation (relative 1e-9)")
	if len(v.Summary) > 0 {
		var fs []string
		for _, m := range v.Summary {
			fs = append(fs, m.String())
		}
		sc.Status, sc.Detail = dp.Fail, "the file's summary is not what its plan gives (edited or stale): "+strings.Join(fs, "; ")
	}
	pv.Checks = append(pv.Checks, sc)
	tr := p.Training()
	conv, err := rdp.ParseConversion(p.Conversion)
	if err != nil {
		return nil, err
	}
	comp := map[float64]float64{}
	compAt := func(delta float64) float64 {
		e, ok := comp[delta]
		if !ok {
			e = math.Inf(1)
			if dp, err := shifted.Epsilon(tr.Composition(), 1, delta, conv); err == nil {
				e = dp.Epsilon
			}
			comp[delta] = e
		}
		return e
	}
	pv.CompositionEpsilon = dp.Loss(compAt(p.Delta))
	if !v.OK && v.ViolationCount > 0 {
		if s, err := p.Options(); err == nil {
			if mk, err := plan.Make(s, plan.Budgets{People: p.People, Tiers: p.Tiers}); err == nil && mk.Plan != nil {
				need := dp.Noise(mk.Plan.Sigma)
				pv.SigmaNeeded = &need
			}
		}
	}
	switch {
	case refuseDeltaChecks(pv.Checks, &pv.Notes):
		pv.Verdict, pv.Via = dp.Unsupported, ViaDelta
	case p.Smoothness == 0:
		pv.Via = ViaComposition
		for _, c := range claims {
			if compAt(c.Delta) > c.Epsilon {
				pv.CompositionShort += c.Last - c.First + 1
			}
		}
		pv.Verdict = dp.Valid
		if pv.CompositionShort > 0 {
			pv.Verdict = dp.Unsupported
			pv.Notes = append(pv.Notes, fmt.Sprintf("no smoothness β: amplification by iteration does not apply, and plain composition (ε = %s at δ = %g for every person) is above the target of %s", pv.CompositionEpsilon, p.Delta, quantity.Count(pv.CompositionShort, "person", "people")))
		} else {
			pv.Notes = append(pv.Notes, "no smoothness β: amplification by iteration does not apply, but plain composition meets every target")
		}
	case v.ViolationCount > 0:
		pv.Verdict = dp.Invalid
	default:
		pv.Verdict = dp.Valid
	}
	if len(v.Summary) > 0 && pv.Verdict != dp.Unsupported {
		pv.Verdict = dp.Invalid
		pv.Notes = append(pv.Notes, "the file's summary contradicts its recomputation: "+sc.Detail)
	}
	pv.Notes = append(pv.Notes, "VALID means every recomputed ε ≤ its target (by amplification by iteration, or by plain composition when the plan states no smoothness); plans written by privamp plan keep a relative margin of 5e-10 below each target")
	return pv, nil
}

// refuseDeltaChecks reports whether the δ check of checks failed, and if
// so says why in notes.
func refuseDeltaChecks(checks []dp.Check, notes *[]string) bool {
	v := Verification{Checks: checks}
	if !refuseDelta(&v) {
		return false
	}
	*notes = append(*notes, v.Notes...)
	return true
}
