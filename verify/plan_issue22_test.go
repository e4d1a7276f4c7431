package verify

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
)

// loadPlanText reads a plan file's text (plan.Load).
func loadPlanText(t *testing.T, text string) *plan.Plan {
	t.Helper()
	p, err := plan.Load(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func verifyPlanText(t *testing.T, text string) *PlanVerification {
	t.Helper()
	pv, err := VerifyPlan(loadPlanText(t, text), nil)
	if err != nil {
		t.Fatal(err)
	}
	return pv
}

func planCheck(pv *PlanVerification, name string) dp.Check {
	for _, c := range pv.Checks {
		if c.Name == name {
			return c
		}
	}
	return dp.Check{}
}

// TestIssue22PlanSummary (hole 4e): a plan file whose stored summary was
// edited verified VALID with output identical to the untouched plan; now
// the summary is recomputed and an edit beyond rounding is INVALID, naming
// the field.
func TestIssue22PlanSummary(t *testing.T) {
	raw, err := os.ReadFile("../examples/plan/breast-cancer-plan.json")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	pv := verifyPlanText(t, text)
	if pv.Verdict != dp.Valid || planCheck(pv, "summary = recomputation").Status != dp.Pass {
		t.Fatalf("untouched: %v %+v", pv.Verdict, pv.Checks)
	}
	edits := []struct{ old, new, field string }{
		{`"max_achieved_ratio": 0.99999999`, `"max_achieved_ratio": 0.5`, "summary.max_achieved_ratio"},
		{`"achieved_max": 0.10752135087594095`, `"achieved_max": 0.05`, "summary.groups[0].achieved_max"},
		{`"uniform_sigma": 29.`, `"uniform_sigma": 9.`, "summary.uniform_sigma"},
		{`"optimal": true`, `"optimal": false`, "summary.optimal"},
	}
	for _, e := range edits {
		if !strings.Contains(text, e.old) {
			t.Fatalf("the example has no %q", e.old)
		}
		pv := verifyPlanText(t, strings.Replace(text, e.old, e.new, 1))
		ch := planCheck(pv, "summary = recomputation")
		if pv.Verdict != dp.Invalid || ch.Status != dp.Fail || !strings.Contains(ch.Detail, e.field) {
			t.Errorf("%s edited: %v, %q %s", e.field, pv.Verdict, ch.Status, ch.Detail)
		}
	}
}

// TestIssue22PlanSummaryNoFalseAlarm: the summary of plans as privamp plan
// writes them (tiers and people, each variant, epochs, public records, a
// given η, per-person δ, strong convexity) agrees with the recomputation
// after a round trip through the file.
func TestIssue22PlanSummaryNoFalseAlarm(t *testing.T) {
	tiers, _, err := plan.ResolveTiers([]plan.TierSpec{{Size: 0.1, Epsilon: 0.5}, {Size: 0.3, Epsilon: 1}, {Size: 0.6, Epsilon: 4, Delta: 1e-7}}, 200)
	if err != nil {
		t.Fatal(err)
	}
	people := &plan.People{ID: plan.NewIDs("a", "b", "c", "d", "e", "f"), Epsilon: []float64{2, 0.5, 1, 4, 1, 3}, Delta: []float64{1e-6, 1e-6, 1e-8, 1e-6, 1e-6, 1e-7}}
	base := shifted.Training{Variant: shifted.VariantPNSGD, Loss: shifted.Loss{Lipschitz: 1, Smoothness: 0.25}, Delta: 1e-6}
	var cases []shifted.Training
	for _, v := range shifted.Variants {
		tr := base
		tr.Variant = v
		cases = append(cases, tr)
	}
	tr := base
	tr.Epochs, tr.Batch = 3, 4
	cases = append(cases, tr)
	tr = base
	tr.Public = 20
	cases = append(cases, tr)
	tr = base
	tr.Loss.Eta = 0.5
	cases = append(cases, tr)
	tr = base
	tr.Loss = shifted.Loss{Lipschitz: 2, Smoothness: 1, StrongConvexity: 0.5, Eta: 0.3}
	cases = append(cases, tr)
	tr = base
	tr.Loss.Smoothness = 0
	cases = append(cases, tr)
	for _, tr := range cases {
		for _, b := range []plan.Budgets{{Tiers: tiers}, {People: people}} {
			name := fmt.Sprintf("%s e=%d b=%d public=%d %+v people=%v", tr.Variant, tr.Epochs, tr.Batch, tr.Public, tr.Loss, b.People != nil)
			if b.People != nil {
				cp := *people
				cp.ID, cp.Epsilon, cp.Delta = plan.NewIDs(people.ID.Strings()...), append([]float64(nil), people.Epsilon...), append([]float64(nil), people.Delta...)
				b.People = &cp
			}
			res, err := plan.Make(plan.Options{Training: tr, Radius: 2, Dimension: 5, Conversion: rdp.Improved}, b)
			if err != nil || res.Plan == nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			var buf bytes.Buffer
			if _, err := res.Plan.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			pv := verifyPlanText(t, buf.String())
			if ch := planCheck(pv, "summary = recomputation"); ch.Status != dp.Pass {
				t.Errorf("%s: %s", name, ch.Detail)
			}
		}
	}
}

// TestIssue22PlanSmoothness (hole 8a): a plan with "smoothness": 0 was
// VALID with any η (1e300 tried) while a claim without β is UNMET; now both
// fall back to composition: the example plan (composition above ten
// people's targets) and the same with η = 1e300 are UNSUPPORTED via
// composition, a plan whose targets composition meets is VALID via
// composition, and with β amplification decides.
func TestIssue22PlanSmoothness(t *testing.T) {
	raw, err := os.ReadFile("../examples/plan/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	eta := `"eta": 0.008416669203670301`
	if !strings.Contains(text, eta) {
		t.Fatalf("the example has no %s", eta)
	}
	for _, txt := range []string{text, strings.Replace(text, eta, `"eta": 1e300`, 1)} {
		pv := verifyPlanText(t, txt)
		if pv.Verdict != dp.Unsupported || pv.Via != ViaComposition || planCheck(pv, "smoothness β stated").Status != dp.Unmet || pv.CompositionShort != 10 {
			t.Errorf("no β: %v via %s, %+v, short %d", pv.Verdict, pv.Via, pv.Checks, pv.CompositionShort)
		}
	}
	// targets composition meets
	tiers, _, _ := plan.ResolveTiers([]plan.TierSpec{{Size: 1, Epsilon: 5}}, 50)
	res, err := plan.Make(plan.Options{Training: shifted.Training{Variant: shifted.VariantPNSGD, Loss: shifted.Loss{Lipschitz: 1}, Delta: 1e-6},
		Radius: 1, Dimension: 3, Conversion: rdp.Improved}, plan.Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res.Plan.WriteTo(&buf)
	if pv := verifyPlanText(t, buf.String()); pv.Verdict != dp.Valid || pv.Via != ViaComposition || float64(pv.CompositionEpsilon) > 5 {
		t.Errorf("loose targets without β: %v via %s, composition %v", pv.Verdict, pv.Via, pv.CompositionEpsilon)
	}
	// with β (c = 1 as without it): amplification decides
	pv := verifyPlanText(t, strings.Replace(text, `"smoothness": 0,`, `"smoothness": 1,`, 1))
	if pv.Verdict != dp.Valid || pv.Via != ViaAmplification {
		t.Errorf("with β: %v via %s", pv.Verdict, pv.Via)
	}
}

// TestIssue22PlanDelta (hole 4c for plans): a target δ ≥ 1/n is refused as
// for claims (UNSUPPORTED, ViaDelta).
func TestIssue22PlanDelta(t *testing.T) {
	tiers, _, _ := plan.ResolveTiers([]plan.TierSpec{{Size: 0.5, Epsilon: 1}, {Size: 0.5, Epsilon: 2, Delta: 0.05}}, 40)
	res, err := plan.Make(plan.Options{Training: shifted.Training{Variant: shifted.VariantPNSGD, Loss: shifted.Loss{Lipschitz: 1, Smoothness: 1}, Delta: 1e-6},
		Radius: 1, Dimension: 3, Conversion: rdp.Improved}, plan.Budgets{Tiers: tiers})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res.Plan.WriteTo(&buf)
	pv := verifyPlanText(t, buf.String())
	if pv.Verdict != dp.Unsupported || pv.Via != ViaDelta || planCheck(pv, DeltaCheckName).Status != dp.Fail {
		t.Errorf("δ = 0.05 with n = 40: %v via %s %+v", pv.Verdict, pv.Via, pv.Checks)
	}
}
