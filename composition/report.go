package composition

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/privamp/privamp/answer"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/zcdp"
)

// The answers of the accounting questions, laid out for showing (package
// answer): what privamp compose, gaussian, laplace and dpsgd print.

// Report lays out a composition: ε, δ and the method chosen with every
// method's row, or for a privacy filter run the mechanisms it allowed
// step by step. Homogeneous says the guarantees were k copies of one.
func (c Composition) Report(homogeneous bool, flag answer.Flag) *answer.Report {
	r := &answer.Report{Assumptions: c.Assumptions, Notes: c.Notes, Command: "compose", Result: c}
	if c.FilterRun != nil {
		r.Title = fmt.Sprintf("Fully adaptive privacy filter over %d mechanisms", c.Compositions)
		r.Add("mechanisms allowed", strconv.Itoa(c.Allowed), "of "+strconv.Itoa(c.Compositions), "stopping rule of seed 003, Thm 3.5 (Whitehouse et al. 2023)")
		r.Add("ε", c.Epsilon, "target", c.Source)
		r.Add("total δ", c.Delta, "δ' + δ''", c.Source)
		r.Add("filter bound used", c.FilterBound, "√(2 ln(1/δ') Σε²) + ½Σε²", "seed 003, Thm 3.5")
		r.Add("Σδ used", c.SumDelta, "of δ'' = "+c.DeltaDoublePrime.String(), "seed 003, Thm 3.5")
		r.Table = &answer.Table{Header: []string{"step", "epsilon", "delta", "filter bound", "sum delta", "allowed"}}
		for _, s := range c.Steps {
			bound, sum, status := "—", "—", "yes"
			switch {
			case s.Allowed:
				bound, sum = s.FilterBound.String(), s.SumDelta.String()
			case s.Halted:
				status = "no (filter halted earlier)"
			default:
				status = "no: filter halts here"
			}
			r.Table.Rows = append(r.Table.Rows, []string{strconv.Itoa(s.Step), dp.Num(s.Epsilon).String(), dp.Num(s.Delta).String(), bound, sum, status})
		}
		return r
	}
	r.Title = fmt.Sprintf("Composition of %d guarantees", c.Compositions)
	if homogeneous {
		r.Title = fmt.Sprintf("Composition of k = %d mechanisms, each (%s, %s)-DP", c.Compositions, c.MechanismEpsilon, c.MechanismDelta)
	}
	how := "requested with " + flag.Spell("method")
	if c.RequestedMethod == "best" {
		how = "smallest sound ε among the methods tried"
	}
	r.Add("ε", c.Epsilon, "", c.Source)
	r.Add("total δ", c.Delta, "", c.Source)
	r.Add("method", c.Method, "", how)
	r.Table = &answer.Table{Header: []string{"method", "epsilon", "delta", "valid", "chosen", "source", "reason"}}
	for _, m := range c.Methods {
		es, ds := "not applicable", "—"
		if m.Valid {
			es, ds = m.Epsilon.String(), m.Delta.String()
		}
		r.Table.Rows = append(r.Table.Rows, []string{m.Name, es, ds, strconv.FormatBool(m.Valid), strconv.FormatBool(m.Chosen), m.Source, m.Reason})
	}
	if c.MaxStepEpsilon != nil {
		at := "at δ' = " + c.StepDelta.String()
		r.Add("largest per-step ε0 for "+flag.Spell("target_epsilon"), *c.MaxStepEpsilon, at, "exact inverse of ε0√(2k ln(1/δ')) + kε0²/2 (docs/accounting.md §Fully adaptive filter)")
		if c.Cor36StepEpsilon != nil {
			r.Add("per-step ε0 by Cor. 3.6", *c.Cor36StepEpsilon, at, "seed 003, Cor. 3.6: ε/(2√(2k ln(1/δ'))), sufficient only (about 2× conservative)")
		} else {
			r.Add("per-step ε0 by Cor. 3.6", "not applicable", "", c.Cor36Reason)
		}
	}
	return r
}

// Report lays out the Gaussian mechanism's accounting under conversion c:
// the exact ε, with the RDP, zCDP and PLD values beside it.
func (res GaussianResult) Report(c rdp.Conversion) *answer.Report {
	sigmaSrc := "input"
	if res.Calibrated {
		sigmaSrc = "calibrated: largest μ with exact δ(ε) ≤ δ (Balle–Wang 2018, Thm 8)"
	}
	r := &answer.Report{Title: "Gaussian mechanism", Command: "gaussian", Result: res,
		Assumptions: []string{
			"the query's ℓ2-sensitivity is at most Δ for the neighbouring relation you use (add/remove or replace-one: Δ must be stated for it)",
			"each release adds fresh, independent N(0, σ²I) noise; compositions may be adaptive",
		},
		Notes: []string{"the exact ε is the smallest ε for which the mechanism is (ε, δ)-DP; the RDP and zCDP values are sound but looser"},
	}
	r.Add("σ (noise std)", res.Sigma, "", sigmaSrc)
	r.Add("Δ (ℓ2-sensitivity)", res.Sensitivity, "", "input")
	r.Add("k (compositions)", quantity.Int(float64(res.Compositions)), "", "input")
	r.Add("μ = √k·Δ/σ", res.Mu, "", "composition of Gaussians is Gaussian (Dong–Roth–Su 2019, Cor. 3.3)")
	r.Add("ε (exact)", res.Epsilon, "at δ = "+res.Delta.String(), "analytic Gaussian mechanism, Balle–Wang 2018, Thm 8")
	r.Add("ε (RDP)", res.RDPEpsilon, "order α = "+res.RDPOrder.String(), "Mironov 2017, Prop. 7 + "+c.Source())
	r.Add("ρ (zCDP)", res.Rho, "", "Bun–Steinke 2016, Prop. 1.6, Lemma 1.7")
	r.Add("ε (zCDP)", res.ZCDPEpsilon, "", zcdp.BunSteinke.Source())
	r.AddPLD(5, res.PLDEpsilon, &res.EpsilonOptimistic, res.PLDSource, res.PLDNote)
	if res.RDPSigma > 0 {
		r.Add("σ needed by RDP", res.RDPSigma, "for the same target", "RDP accounting, "+c.Source())
	}
	return res.Profile.AddTo(r)
}

// Report lays out the Laplace mechanism's accounting under conversion c:
// every method's ε and the smallest, chosen.
func (res LaplaceResult) Report(c rdp.Conversion) *answer.Report {
	scaleSrc := "input"
	if res.CalibratedBy != "" {
		scaleSrc = "calibrated: smallest b with ε ≤ target, by " + res.CalibratedBy + " (verified)"
	}
	r := &answer.Report{Title: "Laplace mechanism", Command: "laplace", Result: res,
		Assumptions: []string{"ℓ1-sensitivity of each query ≤ Δ; fresh independent Laplace(b) noise per coordinate and release; compositions may be adaptive"}}
	r.Add("b (scale)", res.Scale, "", scaleSrc)
	r.Add("per-release ε = Δ/b", res.StepEpsilon, "", "Dwork–Roth 2014, Thm 3.6")
	r.Add("ε (chosen: "+res.Method+")", res.Epsilon, "at δ = "+quantity.Up(float64(res.Delta)), "smallest sound value below")
	r.Add("ε (basic, δ = 0)", res.BasicEpsilon, "", "Dwork–Roth 2014, Thm 3.16")
	r.Add("ε (RDP)", res.RDPEpsilon, "α = "+answer.Order(float64(res.RDPOrder)), "Mironov 2017, Prop. 6 + "+c.Source())
	r.Add("ε (optimal composition)", res.OptimalEpsilon, "", "Kairouz–Oh–Viswanath 2015, Thm 3.3")
	r.AddPLD(3, res.PLDEpsilon, &res.EpsilonOptimistic, res.PLDSource, res.PLDNote)
	return res.Profile.AddTo(r)
}

// Report lays out DP-SGD run d's accounting: q, T, z, the headline ε with
// the PLD and RDP values beside it, and the run's assumptions.
func (res DPSGDAccounting) Report(d rdp.DPSGD, flag answer.Flag) *answer.Report {
	zSrc, title := "input", "DP-SGD (Poisson-subsampled Gaussian)"
	if res.Calibrated {
		zSrc = "calibrated: smallest z with ε ≤ target (bisection, verified)"
	}
	if d.Sampling != dp.Poisson {
		title, _ = d.Sampling.Describe()
	}
	r := &answer.Report{Title: title, Command: "dpsgd", Result: res, Assumptions: DPSGDAssumptions(d)}
	r.Add("q = batch/n", res.SamplingRate, "sampling rate", "input")
	r.Add("T (steps)", quantity.Int(float64(res.Steps)), "", "⌈epochs·n/batch⌉, ⌈epochs/q⌉ or "+flag.Spell("steps"))
	r.Add("z (noise multiplier)", res.NoiseMultiplier, res.NoiseUnit(), zSrc)
	r.Add("ε", res.Epsilon, "at δ = "+res.Delta.String(), res.Source)
	if res.Order > 0 {
		r.Add("optimal order α", answer.Order(float64(res.Order)), "", "minimised over real α > 1")
	}
	r.AddPLD(4, res.PLDEpsilon, res.EpsilonOptimistic, res.PLDSource, "")
	if res.RDPEpsilon > 0 { // beside an exact or PLD headline, before RDP's order
		r.Rows = slices.Insert(r.Rows, 4, answer.Row{Quantity: "ε by RDP (beside)", Value: res.RDPEpsilon, Unit: "at δ = " + res.Delta.String(), Source: d.Source()})
	}
	r.Notes = append(r.Notes, res.Notes()...)
	if res.N > 0 {
		r.Rows = append([]answer.Row{{Quantity: "n (examples)", Value: quantity.Int(float64(res.N)), Source: "input"}}, r.Rows...)
	}
	return res.Profile.AddTo(r)
}

// AddTo adds δ at the asked ε (if any) to r's rows and returns r.
func (p *Profile) AddTo(r *answer.Report) *answer.Report {
	if p != nil && p.AtEpsilon != nil {
		r.Add("δ at ε = "+p.AtEpsilon.Epsilon.String(), p.AtEpsilon.Delta, "δ for the given ε", "the smallest sound δ of the accountants above")
	}
	return r
}
