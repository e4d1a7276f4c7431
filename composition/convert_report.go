package composition

import (
	"github.com/privamp/privamp/answer"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/zcdp"
)

// ConvertKind is one of the five conversions between ρ-zCDP, RDP points
// and (ε, δ)-DP that privamp convert answers.
type ConvertKind int

// The conversions: ρ → ε at δ, ρ → δ at ε, an RDP point → ε at δ or δ at
// ε, and (ε, δ) → ρ*, the largest ρ whose zCDP guarantee implies (ε, δ).
const (
	RhoToEpsilon ConvertKind = iota
	RhoToDelta
	PointToEpsilon
	PointToDelta
	EpsilonDeltaToRho
)

// ConvertQuery is a conversion and the values it converts (Order and
// RDPEpsilon are the RDP point's α and ε(α)).
type ConvertQuery struct {
	Kind                                   ConvertKind
	Rho, Epsilon, Delta, Order, RDPEpsilon float64
}

// Report converts by every applicable theorem, tightest first (zcdp.ToEpsilon,
// ToDelta, ToRho; rdp.PointToEpsilon, PointToDelta), and lays the answer out.
func (q ConvertQuery) Report() (*answer.Report, error) {
	rho, eps, delta, order, rdpEps := q.Rho, q.Epsilon, q.Delta, q.Order, q.RDPEpsilon
	var r *answer.Report
	switch q.Kind {
	case RhoToEpsilon:
		res, err := zcdp.ToEpsilon(rho, delta)
		if err != nil {
			return nil, err
		}
		r = &answer.Report{Title: "ρ-zCDP → (ε, δ)", Result: res, Rows: []answer.Row{
			answer.NewRow("ε", res.Epsilon, "at δ = "+res.Delta.String()+", α = "+res.Order.String(), res.Source),
			answer.NewRow("ε (Bun–Steinke)", res.BunSteinkeEpsilon, "", zcdp.BunSteinke.Source()),
		}, Assumptions: []string{"the mechanism is ρ-zCDP: D_α ≤ ρα for every α > 1 (Bun–Steinke 2016, Def. 1.1)"}}
	case RhoToDelta:
		res, err := zcdp.ToDelta(rho, eps)
		if err != nil {
			return nil, err
		}
		r = &answer.Report{Title: "ρ-zCDP → δ at ε", Result: res, Rows: []answer.Row{
			answer.NewRow("δ", res.Delta, "at ε = "+res.Epsilon.String()+", α = "+answer.Order(float64(res.Order)), zcdp.RDP.Source()+"; Bretagnolle–Huber at small α"),
			answer.NewRow("δ (classic)", res.ClassicDelta, "", rdp.Classic.Source()),
		}, Assumptions: []string{"the mechanism is ρ-zCDP"}}
	case PointToEpsilon:
		res, err := rdp.PointToEpsilon(order, rdpEps, delta)
		if err != nil {
			return nil, err
		}
		r = &answer.Report{Title: "RDP point (α, ε(α)) → (ε, δ)", Result: res, Rows: []answer.Row{
			answer.NewRow("ε", res.Epsilon, "at δ = "+res.Delta.String(), rdp.Improved.Source()),
			answer.NewRow("ε (classic)", res.ClassicEpsilon, "", rdp.Classic.Source()),
		}, Assumptions: []string{"the mechanism is (α, ε(α))-RDP at this one order; other orders could give a smaller ε"}}
	case PointToDelta:
		res, err := rdp.PointToDelta(order, rdpEps, eps)
		if err != nil {
			return nil, err
		}
		r = &answer.Report{Title: "RDP point (α, ε(α)) → δ at ε", Result: res, Rows: []answer.Row{
			answer.NewRow("δ", res.Delta, "at ε = "+res.Epsilon.String(), rdp.Improved.Source()+"; Bretagnolle–Huber"),
			answer.NewRow("δ (classic)", res.ClassicDelta, "", rdp.Classic.Source()),
		}, Assumptions: []string{"the mechanism is (α, ε(α))-RDP at this one order"}}
	case EpsilonDeltaToRho:
		res, err := zcdp.ToRho(eps, delta)
		if err != nil {
			return nil, err
		}
		r = &answer.Report{Title: "(ε, δ) → ρ*: the largest ρ whose zCDP guarantee implies (ε, δ)", Result: res, Rows: []answer.Row{
			answer.NewRow("ρ*", res.Rho, "", "inverse of the improved conversion, maximised over α ("+rdp.Improved.Source()+")"),
			answer.NewRow("ρ* (Bun–Steinke)", res.BunSteinkeRho, "(√(ln(1/δ)+ε) − √ln(1/δ))²", "inverse of "+zcdp.BunSteinke.Source()),
			answer.NewRow("noise multiplier for ρ* (zCDP-implied)", res.NoiseMultiplier, "σ/Δ via zCDP; not the exact Gaussian σ (see the notes)", "ρ = Δ²/(2σ²)"),
		}, Notes: []string{"any mechanism that is ρ-zCDP with ρ ≤ ρ* is (ε, δ)-DP", ZCDPNoiseNote(eps, delta, float64(res.NoiseMultiplier))}}
	}
	r.Command = "convert"
	return r, nil
}
