package algorithms

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer/clipped"
)

// LocalizedRefused says why seed 004's Algorithm 4 and the Thm 18/43
// meta-algorithm are not run.
const LocalizedRefused = "seed 004's Algorithm 4 (localized noisy clipped subgradient method, Thm 12/41) and the Thm 18/43 strongly convex meta-algorithm built on it cannot be specified from the seed: its text lost the phases' clip thresholds τᵢ, step counts Tᵢ, step size η and radii Dᵢ and the meta-algorithm's phase schedule (seed 004 notes §3), and the paper states its rates only up to constants; run clipped-erm (Algorithm 3, one phase) or clipped-sgd / clipped-ppl for a strongly convex loss instead"

func init() {
	Refuse("clipped-localized", LocalizedRefused)
	for _, a := range []struct{ name, summary string }{
		{clipped.ACSA, "noisy clipped accelerated SGD (AC-SA), one pass, convex smooth; τ and T from a declared k-th moment bound r_k (Thm 31); ρ-zCDP"},
		{clipped.SGD, "noisy clipped projected SGD, one pass, strongly convex; τ (Thm 34), T = ⌈4κ ln n⌉, Stich's steps; ρ-zCDP"},
		{clipped.ERM, "multi-pass noisy clipped regularised subgradient method on the full batch (ρ/T per step); ρ-zCDP"},
		{clipped.PPL, "noisy clipped proximal SGD for a proximal-PL objective (prox = projection onto W), one pass, η = 1/(2β), last iterate; τ, T from Thm 48; ρ-zCDP"},
	} {
		name := a.name
		Register(Algorithm{Name: name, Source: clipped.Sources[name], Summary: a.summary,
			Params: func() any { return &clipped.ERMParams{Params: clipped.DefaultParams()} },
			Run:    func(in Input, params any) (*Report, error) { return runClipped(name, in, params) }})
	}
	Register(Algorithm{Name: "clipped-compare", Source: "seed 004 (Lowy–Razaviyayn 2022) vs FMTT18 PNSGD",
		Summary: "excess population risk of the clipped methods vs PNSGD with a worst-case Lipschitz constant, on heavy-tailed data at the same (ε, δ), over repeats",
		Params: func() any {
			s := clipped.DefaultCompareSpec()
			return &CompareParams{MomentOrder: s.K, Nu: s.Nu, Scale: s.Scale, MeanNorm: s.MeanNorm, Epsilons: "0.5,1,2,4",
				Delta: s.Delta, Repeats: s.Repeats, Confidence: s.Confidence, Seed: s.Seed, FailureProb: s.FailureProb}
		},
		Run: runClippedCompare})
}

// clippedRates says why no n at which a clipped method would beat the
// data-free output is given: seed 004 states their excess-risk rates only up
// to constants it does not give.
var clippedRates = map[string]string{
	clipped.ACSA: "seed 004's rate for it (Thm 31) holds up to constants the paper does not give",
	clipped.SGD:  "seed 004's rate for it (Thm 34) holds up to constants the paper does not give",
	clipped.ERM:  "seed 004's rate for it (Lemma 14/37, P8) holds up to constants the paper does not give",
	clipped.PPL:  "seed 004's rate for it (Thm 20/48) holds up to constants the paper does not give",
}

func runClipped(name string, in Input, params any) (*Report, error) {
	p := *params.(*clipped.ERMParams)
	if in.Set["rho"] && !in.Set["target_epsilon"] {
		p.TargetEpsilon = 0
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"moment_bound", p.MomentBound}, {"second_moment", p.SecondMoment}, {"rho", p.Rho}} {
		if in.Set[f.name] && !(f.v > 0) {
			return nil, field.New(f.name, f.v, "must be > 0")
		}
	}
	res, err := clipped.Run(clipped.Spec{Algorithm: name, Data: in.Data, Loss: in.Loss, Radius: in.Radius, Params: p})
	if err != nil {
		return nil, err
	}
	pl, pv, m := res.Plan, res.Privacy, res.Measured
	r := &Report{Title: fmt.Sprintf("privamp run: %s on %s", name, res.Description), Checks: res.Checks, OK: res.OK,
		Result: res, Assumptions: res.Assumptions, Notes: res.Notes}
	r.AddVerdict("checks of the run against the data-free output w0 = 0")
	r.Add("records n, dimension d", fmt.Sprintf("%d, %d", pl.N, pl.Dim), Given, res.Description)
	r.Add(fmt.Sprintf("moment bound r_k (k = %g)", pl.Moments.K), dp.Num(pl.Moments.RK), Declared, pl.Moments.Source)
	r.Add("second moment r_2", dp.Num(pl.Moments.R2), Declared, pl.Moments.Source)
	r.Add("smoothness β, strong convexity μ", fmt.Sprintf("%g, %g", pl.Beta, pl.Mu), Derived, "of F, from the declared bounds / the generator")
	r.Add("domain radius R", dp.Num(pl.Radius), Declared, "W = {‖w‖ ≤ R}")
	r.Add("steps T", pl.Steps, Derived, pl.StepsFormula)
	r.Add("batch s", pl.Batch, Derived, map[bool]string{true: "⌊n/T⌋ fresh records per step (one pass)", false: "all n records every step"}[pl.OnePass])
	r.Add("clipping threshold τ", dp.Num(pl.Tau), Derived, pl.TauFormula)
	r.Add("sensitivity Δ", dp.Num(pl.Sensitivity), Derived, "2τ/s (replace-one)")
	r.Add("noise σ", dp.Noise(pl.Sigma), Derived, "Δ/√(2ρ_step) (Prop. 23)")
	r.Add("step parameter η", dp.Num(pl.Eta), Derived, map[string]string{clipped.ACSA: "max{2β, √((Σ²+B²)T(T+1)(T+2)/(3D²))} (Prop. 30)", clipped.SGD: "largest step 1/d' = 1/(2β) (Lemma 33)", clipped.ERM: "given, or 1/(β + λ)", clipped.PPL: "1/(2β) (Prop. 46)"}[name])
	r.Add("oracle bias bound B", dp.Num(pl.BiasBound), Derived, "r_k^k/((k−1)τ^{k−1}) (Lemma 6, clipped.BiasBound)")
	r.Add("ρ (zCDP)", pv.Rho, Certified, pv.Source)
	r.Add(fmt.Sprintf("ε at δ = %g", pv.Delta), pv.Epsilon, Certified, "improved RDP conversion (zcdp.Epsilon); every iterate releasable")
	r.Add("ε (Bun–Steinke)", pv.EpsilonBunSteinke, Certified, "ρ + 2√(ρ ln(1/δ)) (Prop. 3)")
	r.Add("excess risk F(w) − F*", dp.Num(m.ExcessRisk), Measured, m.ExcessRiskKind)
	r.Add("excess risk at w0 = 0", dp.Num(m.StartExcessRisk), Measured, "")
	r.Add("gradients clipped", fmt.Sprintf("%.1f%%", 100*m.ClippedShare), Measured, fmt.Sprintf("of %d evaluations", pl.GradientEvaluations))
	if name == clipped.PPL {
		r.Add("Thm 20/48 rate r_2²T/(μn) + (r_k²/μ)(√d·T/(n√ρ))^{2(k−1)/k}", fmt.Sprintf("%.6g × an unknown constant", clipped.RatePPL(pl)), Derived, "≲̃ in the paper: its constant (and log factors) are not given, so it is a shape, not a bound")
	}
	sayWorse(r, pl.N, "", nil, 0, clippedRates[name])
	return r, nil
}

// CompareParams are clipped-compare's parameters (the data size, dimension
// and radius come from the problem flags).
type CompareParams struct {
	MomentOrder float64 `param:"moment_order" doc:"k ≥ 2 of the declared moment bound sup_w E‖∇f(w,x)‖^k ≤ r_k^k (seed 004 Assumption 2)"`
	Nu          float64 `param:"nu" doc:"Student-t degrees of freedom ν > 2 of the heavy-tailed synthetic data (the default data)"`
	Scale       float64 `param:"scale" doc:"scale c of heavy-tailed data x = μ + c·t"`
	MeanNorm    float64 `param:"mean_norm" doc:"‖μ‖ of heavy-tailed data (≤ radius)"`
	Epsilons    string  `param:"epsilons" doc:"comma-separated ε values of the comparison (clipped-compare)"`
	Delta       float64 `param:"delta" doc:"δ in (0, 1)"`
	Repeats     int     `param:"repeats" doc:"fresh samples per ε (clipped-compare)"`
	Confidence  float64 `param:"confidence" doc:"confidence level of the intervals"`
	Seed        uint64  `param:"seed" doc:"seed of the algorithm's noise"`
	FailureProb float64 `param:"failure_prob" doc:"q: PNSGD's worst-case feature bound leaves no record clipped with probability ≥ 1 − q (clipped-compare)"`
}

// CompareResult is the JSON of clipped-compare: the comparison with its
// checks (each row's mean excess risk against w = 0's) and their OK.
type CompareResult struct {
	*clipped.Comparison
	Checks []dp.Check `json:"checks"`
	OK     bool       `json:"ok"`
}

func runClippedCompare(in Input, params any) (*Report, error) {
	p := *params.(*CompareParams)
	s := clipped.DefaultCompareSpec()
	s.N, s.Dim, s.Radius = in.Data.N, in.Data.Dimension, in.Radius
	if s.N == 0 {
		s.N = 2000
	}
	if in.Data.Path != "" || in.Data.Synthetic != "" && in.Data.Synthetic != clipped.HeavyTailedKind {
		return nil, field.New("synthetic", in.Data.Synthetic, "must be %s (or absent): the comparison needs the closed-form population optimum", clipped.HeavyTailedKind)
	}
	s.K, s.Nu, s.Scale, s.MeanNorm, s.Delta, s.Repeats, s.Confidence, s.Seed, s.FailureProb =
		p.MomentOrder, p.Nu, p.Scale, p.MeanNorm, p.Delta, p.Repeats, p.Confidence, p.Seed, p.FailureProb
	s.Epsilons = nil
	for _, t := range strings.Split(p.Epsilons, ",") {
		e, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil || !(e > 0) || e > 1e3 {
			return nil, field.New("epsilons", p.Epsilons, "must be a comma-separated list of numbers in (0, 1000]")
		}
		s.Epsilons = append(s.Epsilons, e)
	}
	if err := field.OpenUnit("delta", s.Delta); err != nil {
		return nil, err
	}
	c, err := clipped.Compare(s)
	if err != nil {
		return nil, err
	}
	r := &Report{Title: fmt.Sprintf("privamp run: clipped-compare on heavy-tailed data (n = %d, d = %d, ν = %g, k = %g)", s.N, s.Dim, s.Nu, s.K),
		Result: c, OK: true, Notes: c.Notes}
	r.Add("moment bound r_k", dp.Num(c.MomentBound), Declared, "Student-t closed form (clipped methods)")
	r.Add("PNSGD feature bound X, L", fmt.Sprintf("%.4g, %.4g", c.FeatureX, c.Lipschitz), Derived, "worst case from the same moment: Markov + union bound")
	for _, row := range c.Rows {
		r.Add(fmt.Sprintf("%s at ε = %g", row.Method, row.Epsilon), fmt.Sprintf("%.4g [%.4g, %.4g]", row.Mean, row.Lower, row.Upper), Measured,
			fmt.Sprintf("excess population risk, %d repeats, %g CI; certified ε %.4g; clip %.4g, σ %.4g, T %d, s %d", row.Repeats, s.Confidence, row.CertifiedEpsilon, row.Clip, row.Sigma, row.Steps, row.Batch))
	}
	r.Figure = &Figure{Title: fmt.Sprintf("Heavy-tailed data (Student-t, ν = %g), n = %d, d = %d, δ = %g", s.Nu, s.N, s.Dim, s.Delta),
		X: "ε", Y: "excess population risk", LogX: true, LogY: true,
		Bars: fmt.Sprintf("error bars: %g%% Student-t confidence interval of the mean over %d repeats", 100*s.Confidence, s.Repeats)}
	for _, sr := range c.Series {
		r.Figure.Curves = append(r.Figure.Curves, Curve{Name: sr.Method + " (replace-one)", X: sr.Epsilon, Y: sr.Mean, Lower: sr.Lower, Upper: sr.Upper})
	}
	zero := s.MeanNorm * s.MeanNorm / 2
	for _, row := range c.Rows {
		r.Checks = append(r.Checks, dp.BaselineCheck(fmt.Sprintf("%s at ε = %g: mean excess risk ≤ that of w = 0", row.Method, row.Epsilon), row.Mean, zero,
			"½‖w − μ‖² over the repeats against ½‖μ‖², the data-free output w = 0's"))
	}
	r.Assumptions = append(r.Assumptions, "every method's σ is calibrated by the accountant that certifies it, so its certified ε is ≤ the row's ε by construction (shown in the rows, not checked)")
	r.OK = dp.AllPass(r.Checks)
	r.Result = CompareResult{c, r.Checks, r.OK}
	r.AddVerdict("each method's mean excess risk against the data-free output w = 0")
	last := len(r.Lines) - 1
	r.Lines = append([]Line{r.Lines[last]}, r.Lines[:last]...) // the verdict first, as in every report
	return r, nil
}
