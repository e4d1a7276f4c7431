package algorithms

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/optimizer/langevin"
)

func init() {
	Register(Algorithm{
		Name:    "langevin",
		Source:  "seed 000: Ganesh–Thakurta–Upadhyay, Lemma 2.2 / Lemma 3.1 (path RDP), A1, A3, A4, A6; Thm 2.3 with Lemma B.5 (β and horizon when only a target is given, l2 > 0)",
		Summary: "noisy gradient descent as discretised Langevin diffusion θ ← Π_C(θ − ηβ∇L̃(θ) + N(0, 2ηI)); every iterate may be released",
		Params: func() any {
			return &langevin.Params{Steps: 1000, Eta: 0.01, Delta: 1e-5, Seed: 1}
		},
		Run: runLangevin,
	})
	Refuse("gtu-expmech", langevin.NotCertified)
}

func runLangevin(in Input, params any) (*Report, error) {
	p := *params.(*langevin.Params)
	if !in.Set["beta"] && !in.Set["target_epsilon"] {
		p.TargetEpsilon = 1
	}
	if only := !in.Set["beta"] && !in.Set["steps"] && !in.Set["eta"] && !in.Set["horizon"] && !in.Set["psi"] && !in.Set["regularize"]; only && in.Loss.L2 > 0 && !math.IsInf(in.Radius, 0) {
		p.Horizon = langevin.HorizonGTU // only a target (or nothing) given, and a strongly convex loss: GTU Thm 2.3's β and horizon
	}
	res, err := langevin.Run(langevin.Spec{Data: in.Data, Loss: in.Loss, Radius: in.Radius, Params: p})
	if err != nil {
		return nil, err
	}
	r := langevinReport(res)
	if dv := res.Derived; dv.Rashomon == nil && dv.Regularizer == 0 && dv.BetaSource != "given" {
		sayWorse(r, dv.N, "the Gibbs bound p/β (GTU Thm 2.4, for an exact Gibbs sample; β chosen as here)", func(n int) float64 {
			sens := langevin.GradientSensitivity(dv.RecordSensitivity, float64(n), dp.ReplaceOne)
			var b float64
			var err error
			if dv.Schedule != nil {
				var sc langevin.Schedule
				sc, err = langevin.Theorem23(p.TargetEpsilon, sens, float64(dv.Lipschitz), 2*res.Declared.Radius, in.Loss.L2, dv.Smoothness, p.Delta)
				b = sc.Beta
			} else {
				b, err = langevin.CalibrateBeta(p.TargetEpsilon, sens, p.Steps, p.Eta, p.Delta)
			}
			if err != nil {
				return math.Inf(1)
			}
			return float64(dv.Dimension) / b
		}, res.Measured.StartRisk-res.Measured.OptimumRisk, "")
	} else {
		sayWorse(r, dv.N, "", nil, 0, "the run's settings (a given β, a Rashomon threshold or an added regulariser) have no bound in closed form in n here")
	}
	return r, nil
}

// LangevinResult is the JSON of a langevin run: the library's result and the
// paper's rates at the same numbers.
type LangevinResult struct {
	*langevin.Result
	PaperRates langevin.Rates `json:"paper_rates"`
}

func langevinReport(res *langevin.Result) *Report {
	d, dv, pv, m := res.Declared, res.Derived, res.Privacy, res.Measured
	diam := 2 * d.Radius
	rates := langevin.PaperRates(float64(dv.Lipschitz), diam, dv.Dimension, dv.N, float64(pv.Epsilon), float64(pv.Delta), dv.StrongConvexity)
	r := &Report{Title: fmt.Sprintf("privamp run: langevin on %s, %s loss", res.Description, d.Loss),
		Checks: res.Checks, OK: res.OK, Result: LangevinResult{res, rates}, Assumptions: res.Assumptions, Notes: res.Notes}
	r.Add("verdict", res.Verdict, Measured, "checks of the run against the derived constants")
	r.Add("records n, dimension p", fmt.Sprintf("%d, %d", dv.N, dv.Dimension), Given, res.Description)
	r.Add("feature bound X", dp.Num(d.FeatureBound), Declared, d.FeatureBoundSource)
	r.Add("domain radius R", dp.Num(d.Radius), Declared, "declared (∞: no projection)")
	r.Add("Lipschitz constant L", dv.Lipschitz, Derived, "sup ‖∇ℓ‖ on C from X, Y, R")
	r.Add("gradient sensitivity Δ", dp.Num(dv.GradientSensitivity), Derived, "2·X·sup|φ'|/n: one record replaced (GTU §1.1)")
	if dv.Rashomon != nil {
		r.Add("drift sensitivity (Rashomon)", dp.Num(dv.PathSensitivity), Derived, "Δ + √(2Mψ′) for L̃ = max{L, min L + ψ}")
	}
	if sc := dv.Schedule; sc != nil {
		r.Add("steps T, step size η", fmt.Sprintf("%d, %.6g", dv.Steps, dv.Eta), Derived, "T = ⌈t/η⌉, η = 1/(2βM) (GTU Thm 2.3's schedule)")
		r.Add("horizon t (Lemma B.5)", dp.Num(sc.Horizon), Derived, "(e/(2βm))·ln(4βL‖C‖₂/δ²): TV ≤ δ/2 from Gibbs for a uniform start (privamp starts at θ₀ = 0: the mixing is not asserted)")
	} else {
		r.Add("steps T, step size η", fmt.Sprintf("%d, %g", dv.Steps, dv.Eta), Given, "")
	}
	r.Add("inverse temperature β", dp.Num(dv.Beta), Derived, dv.BetaSource)
	r.Add("noise multiplier z", pv.NoiseMultiplier, Derived, "√(2/η)/(βΔ): each step is a Gaussian mechanism")
	r.Add("ρ (path zCDP)", pv.Rho, Certified, "Tηβ²Δ²/4 (GTU Lemma 3.1, the sound constant)")
	r.Add(fmt.Sprintf("ε at δ = %g", pv.Delta), pv.Epsilon, Certified, "the whole path θ_1..θ_T, every iterate releasable; improved RDP conversion")
	r.Add("ε (GTU Fact A.4)", pv.EpsilonClassic, Certified, "ρ + 2√(ρ ln(1/δ)), the paper's conversion")
	if dv.Regularizer > 0 {
		r.Add("ℓ2 regulariser added", dp.Num(dv.Regularizer), Derived, dv.RegularizerSource)
	}
	r.Add("excess empirical risk", dp.Num(m.ExcessRisk), Measured, "L(θ_T) − min_C L (non-private minimum)")
	if m.UnregularizedExcessRisk != nil {
		r.Add("excess risk without the regulariser", dp.Num(*m.UnregularizedExcessRisk), Measured, "")
	}
	r.Add("Gibbs bound p/β", dv.GibbsExcessBound, Derived, "E[L] − min L ≤ ψ + p/β for an exact Gibbs sample, convex loss (GTU Thm 2.4)")
	r.Add("paper's rate (convex)", rates.Convex, Derived, "L‖C‖√(p ln(1/δ))/(εn), GTU §4.4, O(·) constant 1")
	if !math.IsNaN(float64(rates.StronglyConvex)) {
		r.Add("paper's rate (strongly convex)", rates.StronglyConvex, Derived, "L²p ln(1/δ)/(mε²n²), GTU §4.3, O(·) constant 1")
	}
	if rs := dv.Rashomon; rs != nil && m.RashomonShare != nil {
		r.Add("share of iterates in the Rashomon set", fmt.Sprintf("%.1f%%", 100**m.RashomonShare), Measured, "θ_k, k ≥ T/2, with L ≤ min L + ψ")
		r.Add("hit probability bound", dp.Num(rs.HitBound), Derived, "1 − 2p/√(βψ), GTU Thm B.6 for an exact Gibbs sample")
	}
	if c := res.Coupling; c != nil {
		r.Add("coupled distance max ‖θ_k − θ′_k‖", dp.Num(c.MaxDistance), Measured, fmt.Sprintf("step %d; %s", c.MaxDistanceStep, c.Neighbour))
		r.Add("coupling bound Δ/m", c.Bound, Derived, "≤ 2L/(mn), GTU eq. 3 (A4)")
	}
	return r
}
