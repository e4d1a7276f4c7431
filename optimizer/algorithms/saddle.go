package algorithms

import (
	"fmt"
	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/optimizer/saddle"
)

// BoostedRefused says why seed 003's Algorithm 4 is not run.
const BoostedRefused = "seed 003's Algorithm 4 (boosting, Thm 3.20) scores its candidates with Private Variance-Reduced Frank–Wolfe (Algorithm 3 of Asi et al. 2021), which the seed cites but does not state: its private Frank–Wolfe step cannot be specified from the paper (docs/saddle.md); run smd-bias-reduced (Algorithms 2–3, the expected-gap version) instead"

func init() {
	Refuse("smd-boosted", BoostedRefused)
	Register(Algorithm{Ignores: NoLoss,
		Name:    "smd-vertex",
		Source:  "seed 003: González–Guzmán–Paquette, Algorithm 1, Prop. 3.3, Thm 3.1 (7)",
		Summary: "private stochastic mirror descent with vertex sampling on a zero-sum matrix game (ℓ1 setting); releases the mean of T vertex pairs",
		Params: func() any {
			return &saddle.SMDParams{Common: saddle.DefaultCommon(), Samples: 1}
		},
		Run: func(in Input, params any) (*Report, error) {
			p := *params.(*saddle.SMDParams)
			in, notes := withSynthetic(in, "bilinear")
			res, err := saddle.RunSMDSpec(in.Data, p, in.Progress)
			if err != nil {
				return nil, err
			}
			r := saddleReport(res)
			g := res.Game
			r.Notes = append(notes, r.Notes...)
			sayWorse(r, g.N, "Thm 3.1's explicit bound on E Gap (proof with Lemmas 3.8, 3.11)", func(n int) float64 {
				return saddle.SMDBoundAt(n, g.DX, g.DY, p.Samples, g.PayoffBound, p.TargetEpsilon, p.Delta)
			}, float64(res.UniformGap), "")
			return r, nil
		},
	})
	Register(Algorithm{Ignores: NoLoss,
		Name:    "smd-bias-reduced",
		Source:  "seed 003: González–Guzmán–Paquette, Algorithms 2–3, Prop. 3.17 (sensitivity recounted), Thm 3.14",
		Summary: "private stochastic mirror descent with the bias-reduced vertex-sampled gradient and random length on a zero-sum matrix game",
		Params: func() any {
			return &saddle.BRParams{Common: saddle.DefaultCommon(), Truncation: -1}
		},
		Run: func(in Input, params any) (*Report, error) {
			p := *params.(*saddle.BRParams)
			in, notes := withSynthetic(in, "bilinear")
			res, err := saddle.RunBRSpec(in.Data, p, in.Progress)
			if err != nil {
				return nil, err
			}
			r := saddleReport(res)
			g := res.Game
			r.Notes = append(notes, r.Notes...)
			sayWorse(r, g.N, "the mean of Thm 3.14's explicit conditional bound on E Gap", func(n int) float64 {
				return saddle.BRBoundAt(n, g.DX, g.DY, g.PayoffBound, p.TargetEpsilon, p.Delta)
			}, float64(res.UniformGap), "")
			return r, nil
		},
	})
}

func saddleReport(res *saddle.Result) *Report {
	g, pv := res.Game, res.Privacy
	r := &Report{Title: fmt.Sprintf("privamp run: %s on %s", res.Algorithm, g.Description), Checks: res.Checks, OK: res.OK, Result: res,
		Assumptions: res.Assumptions}
	r.AddVerdict("checks of the run against the certificate, the theorem's bound and the uniform pair")
	r.Add("records n, strategies dx × dy", fmt.Sprintf("%d, %d × %d", g.N, g.DX, g.DY), Given, "")
	r.Add("payoff bound a (= L0 = L1; L2 = 0)", dp.Num(g.PayoffBound), Declared, "every entry of every possible record, by construction")
	r.Add("ℓ = ln dx + ln dy", g.Ell, Derived, "")
	r.Add("game value (LP)", g.Value, Measured, fmt.Sprintf("min_x max_y xᵀĀy of the private game by the simplex method; LP strategies' gap %s", g.LPGap))
	if res.Algorithm == "smd-vertex" {
		r.Add("steps T, samples K, batch B", fmt.Sprintf("%s, %d, %d", res.Steps, res.Samples, res.Batch), Given, "T = 0 → Thm 3.1 (7)'s setting")
	} else {
		r.Add("stop budget U, truncation M, batch parameter α", fmt.Sprintf("%g, %d, %g", res.StopBudget, res.Truncation, res.BatchParameter), Given, "0 / −1 → Thm 3.14's fixed point")
		r.Add("mean rounds 𝒯+1", res.Steps, Measured, "random length; depends on the N_t only")
	}
	r.Add("step size τ", dp.Num(res.Eta), Derived, res.EtaSource)
	r.Add("score sensitivity Δs", dp.Num(pv.ScoreSensitivity), Derived, "one record replaced")
	r.Add("ε per vertex sample", dp.Loss(pv.VertexEpsilon), Certified, "exponential mechanism ∝ exp(s) is 2Δs-DP (Thm 3.4)")
	if res.Algorithm == "smd-bias-reduced" {
		r.Add("ε per vertex as printed (Prop. 3.17)", dp.Loss(pv.PaperVertexEpsilon), Derived, "9ταL0: optimistic, not used")
	} else {
		r.Add("Prop. 3.3's step bound at the target", dp.Num(pv.PaperMaxStep), Derived, "Bε/(16L0√(T(K+1) ln(1/δ))): Cor. 3.6, about 2× conservative")
	}
	r.Add("vertex samples k", fmt.Sprint(pv.Samples), Derived, "")
	r.Add(fmt.Sprintf("ε at δ = %g", pv.Delta), dp.Loss(pv.Epsilon), Certified, pv.Source)
	r.Add("ε (RDP of pure DP, same δ)", dp.Loss(pv.EpsilonRDP), Certified, "rdp.PureDP composed k times, improved conversion")
	r.Add("E Gap(x̃, ỹ) (released)", fmt.Sprintf("%s ± %s [%s, %s]", res.Gap.Mean, dp.Num(float64(res.Gap.Upper)-float64(res.Gap.Mean)), res.Gap.Lower, res.Gap.Upper),
		Measured, fmt.Sprintf("mean over %d runs, %g%% Student-t interval; exact gap max_j(Āᵀx̃)_j − min_i(Āỹ)_i", res.Gap.Repeats, 100*res.Gap.Confidence))
	r.Add("E Gap(x̄, ȳ) (iterates, not released)", res.IterateGap.Mean, Measured, "")
	r.Add("Gap of the uniform pair (no data)", res.UniformGap, Measured, "the data-independent baseline x_1, y_1, its gap on the private game: the run helps only below it")
	if float64(res.Gap.Upper) >= float64(res.UniformGap) {
		r.Notes = append(r.Notes, "the released point's gap is not significantly below the uniform pair's (its upper confidence limit is above it): at these n, ε the private run does not beat data-independent play (the bound and the theorem's rate are far above both)")
	}
	r.Add("theorem's bound on E Gap", res.Bound, Derived, res.BoundSource)
	if res.Algorithm == "smd-vertex" {
		r.Add("derived bilinear bound", res.DerivedBound, Derived, "docs/saddle.md")
	}
	r.Add("theorem's rate (constant 1)", res.Rate, Derived, res.RateSource)
	r.Add("largest support of x̃, ỹ", fmt.Sprint(res.MaxSupport), Measured, "T-sparsity (Algorithm 3: minus the rounds)")
	return r
}
