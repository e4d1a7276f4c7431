package clipped

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
)

// HeavyTailedKind is the DataSpec.Synthetic name of HeavyTailed data.
const HeavyTailedKind = "heavy-tailed"

// Params are the parameters of one run (the catalogue's flags).
type Params struct {
	MomentOrder   float64 `json:"moment_order" param:"moment_order" doc:"k ≥ 2 of the declared moment bound sup_w E‖∇f(w,x)‖^k ≤ r_k^k (seed 004 Assumption 2)"`
	MomentBound   float64 `json:"moment_bound" param:"moment_bound" doc:"declared r_k > 0 (0: heavy-tailed data's Student-t closed form; CSV data: the worst-case L of the declared bounds)"`
	SecondMoment  float64 `json:"second_moment" param:"second_moment" doc:"declared r_2 ≤ r_k (0: the heavy-tailed closed form, else r_k)"`
	Rho           float64 `json:"rho" param:"rho" doc:"ρ-zCDP budget > 0 (instead of target_epsilon)"`
	TargetEpsilon float64 `json:"target_epsilon" param:"target_epsilon" doc:"target ε at delta: ρ = ρ*(ε, δ) (zcdp.RhoFor)"`
	Delta         float64 `json:"delta" param:"delta" doc:"δ in (0, 1)"`
	Steps         int     `json:"steps" param:"steps" doc:"steps T (0: the theorem's choice)"`
	Seed          uint64  `json:"seed" param:"seed" doc:"seed of the algorithm's noise"`
	Nu            float64 `json:"nu" param:"nu" doc:"Student-t degrees of freedom ν > 2 of the heavy-tailed synthetic data (the default data)"`
	Scale         float64 `json:"scale" param:"scale" doc:"scale c of heavy-tailed data x = μ + c·t"`
	MeanNorm      float64 `json:"mean_norm" param:"mean_norm" doc:"‖μ‖ of heavy-tailed data (≤ radius)"`
}

// ERMParams are Algorithm 3's extra parameters.
type ERMParams struct {
	Params
	Lambda float64 `json:"lambda" param:"lambda" doc:"regulariser weight λ ≥ 0 of (λ/2)‖w − w0‖², w0 = 0 (clipped-erm)"`
	Eta    float64 `json:"eta" param:"eta" doc:"step size (0: 1/(β + λ))"`
}

// DefaultParams are the catalogue's defaults.
func DefaultParams() Params {
	return Params{MomentOrder: 2.5, TargetEpsilon: 1, Delta: 1e-5, Seed: 1, Nu: 3, Scale: 1, MeanNorm: 1}
}

// Spec is one run.
type Spec struct {
	Algorithm string             `json:"algorithm"`
	Data      optimizer.DataSpec `json:"data"`
	Loss      optimizer.LossSpec `json:"loss"`
	Radius    float64            `json:"radius"`
	Params    ERMParams          `json:"params"`
}

// Measured is what the run measured (checks, never guarantees).
type Measured struct {
	// ExcessRisk is F(w) − F*: the population's, ½‖w − μ‖², for
	// heavy-tailed data; the empirical risk's over W for CSV data.
	ExcessRisk     float64 `json:"excess_risk"`
	ExcessRiskKind string  `json:"excess_risk_kind"`
	// StartExcessRisk is the same at w0 = 0.
	StartExcessRisk float64 `json:"start_excess_risk"`
	ClippedShare    float64 `json:"clipped_share"`
	NoiseDraws      int     `json:"noise_draws"`
}

// Result is a run's typed result.
type Result struct {
	Algorithm   string     `json:"algorithm"`
	Source      string     `json:"source"`
	Description string     `json:"data_description"`
	Plan        Plan       `json:"plan"`
	Privacy     Privacy    `json:"privacy"`
	Measured    Measured   `json:"measured"`
	W           []float64  `json:"w"`
	Checks      []dp.Check `json:"checks"`
	OK          bool       `json:"ok"`
	Assumptions []string   `json:"assumptions"`
	Notes       []string   `json:"notes"`
}

// Sources of the algorithms.
var Sources = map[string]string{
	ACSA: "seed 004 (Lowy–Razaviyayn 2022): Algorithm 2, Prop. 30, Thm 31",
	SGD:  "seed 004 (Lowy–Razaviyayn 2022): Algorithm 6, Prop. 32, Lemma 33 [Sti19], Thm 34",
	ERM:  "seed 004 (Lowy–Razaviyayn 2022): Algorithm 3, Lemma 14/37, P8",
	PPL:  "seed 004 (Lowy–Razaviyayn 2022, arXiv 2209.07403): Algorithm 8 (noisy clipped proximal SGD, f¹ the indicator of W), Def. 19, Prop. 46, Thm 20/48; P7",
}

// Run sets the problem up, plans, executes and certifies one run. Errors
// are *field.Error values naming the parameter at fault.
func Run(spec Spec) (*Result, error) {
	pa := spec.Params
	rho, rhoSrc, err := Budget(pa.Rho, pa.TargetEpsilon, pa.Delta)
	if err != nil {
		return nil, err
	}
	if !(pa.MomentOrder >= 2) || math.IsInf(pa.MomentOrder, 0) {
		return nil, field.New("moment_order", pa.MomentOrder, "must be a finite number ≥ 2 (Assumption 2 needs k ≥ 2)")
	}
	switch {
	case pa.MomentBound < 0 || math.IsNaN(pa.MomentBound) || math.IsInf(pa.MomentBound, 0):
		return nil, field.New("moment_bound", pa.MomentBound, "must be finite and > 0 (0: derived from the declared distribution or bounds)")
	case pa.SecondMoment < 0 || math.IsNaN(pa.SecondMoment) || math.IsInf(pa.SecondMoment, 0):
		return nil, field.New("second_moment", pa.SecondMoment, "must be finite and > 0 (0: derived)")
	case pa.MomentBound == 0 && pa.SecondMoment > 0:
		return nil, field.New("second_moment", pa.SecondMoment, "needs a declared moment_bound")
	}
	R := spec.Radius
	if !(R > 0) || math.IsInf(R, 0) {
		return nil, field.New("radius", R, "must be finite and > 0: the algorithms project onto a compact W")
	}
	res := &Result{Algorithm: spec.Algorithm, Source: Sources[spec.Algorithm]}
	var (
		obj      optimizer.Objective
		data     *dataset.Dataset
		beta, mu float64
		excess   func(w []float64) float64
		m        = Moments{K: pa.MomentOrder, RK: pa.MomentBound, R2: pa.SecondMoment, Source: "declared"}
	)
	if spec.Data.Path == "" && (spec.Data.Synthetic == "" || spec.Data.Synthetic == HeavyTailedKind) {
		if l := spec.Loss.Name; l != "" && l != "quadratic" || spec.Loss.L2 != 0 {
			return nil, field.New("loss", l, "must be quadratic (and l2 0) for heavy-tailed data: the mean estimation problem")
		}
		n := spec.Data.N
		if n == 0 {
			n = 1000
		}
		if n < 2 || n > 10_000_000 {
			return nil, field.New("n", n, "must be in [2, 10^7]")
		}
		h, err := NewHeavyTailed(spec.Data.Dimension, pa.Nu, pa.Scale, pa.MeanNorm, spec.Data.Seed)
		if err != nil {
			return nil, err
		}
		if pa.MeanNorm > R {
			return nil, field.New("mean_norm", pa.MeanNorm, "must be ≤ radius %v: w* = μ must lie in W", R)
		}
		if m.RK == 0 {
			if pa.MomentOrder >= pa.Nu {
				return nil, field.New("moment_order", pa.MomentOrder, "must be < ν = %v: the k-th moment of Student-t(ν) is infinite", pa.Nu)
			}
			m.RK, m.R2 = h.MomentBound(pa.MomentOrder, R), h.SecondMoment(R)
			m.Source = "Student-t closed form: r_k ≤ R + ‖μ‖ + √d·(E|c·t|^k)^{1/k} (Minkowski), r_2 exact"
		}
		obj, data, beta, mu = h.Objective(), h.Sample(dataset.NewRand(spec.Data.Seed), n), 1, 1
		excess = h.ExcessRisk
		res.Description = fmt.Sprintf("heavy-tailed mean estimation (%d × %d, Student-t ν = %g, scale %g, ‖μ‖ = %g, data seed %d)", n, h.Dim, h.Nu, h.Scale, pa.MeanNorm, spec.Data.Seed)
		res.Measured.ExcessRiskKind = "population: ½‖w − μ‖² (exact)"
	} else {
		pr, err := optimizer.Build(spec.Data, spec.Loss, R, shifted.Training{Delta: pa.Delta, Epochs: 1}, "", nil)
		if err != nil {
			return nil, err
		}
		obj, data, beta, mu = pr.Objective, pr.Data, pr.Constants.Beta, pr.Constants.M
		if m.RK == 0 {
			m.RK, m.R2 = pr.Constants.L, pr.Constants.L
			m.Source = "the worst-case L of the declared bounds (‖∇f‖ ≤ L for every record, so r_k ≤ L)"
		}
		fstar := optimizer.Minimize(obj, data, R).F
		excess = func(w []float64) float64 { return optimizer.EmpiricalRisk(obj, data, w) - fstar }
		res.Description = pr.Description
		res.Assumptions = append(res.Assumptions, pr.Assumptions...)
		res.Notes = append(res.Notes, pr.Notes...)
		res.Measured.ExcessRiskKind = "empirical, on the training records: F̂(w) − min_W F̂ (Newton–CG)"
	}
	if m.R2 == 0 {
		m.R2 = m.RK
	}
	var p Plan
	switch spec.Algorithm {
	case ACSA:
		p, err = PlanACSA(data.N(), data.D, m, beta, R, rho, pa.Steps)
	case SGD:
		if !(mu > 0) {
			return nil, field.New("l2", spec.Loss.L2, "must be > 0 for %s: Algorithm 6 needs a strongly convex objective", SGD)
		}
		p, err = PlanSGD(data.N(), data.D, m, beta, mu, R, rho, pa.Steps)
	case ERM:
		p, err = PlanERM(data.N(), data.D, m, beta, R, rho, pa.Steps, spec.Params.Lambda, spec.Params.Eta)
	case PPL:
		if !(mu > 0) {
			return nil, field.New("l2", spec.Loss.L2, "must be > 0 for %s: privamp takes the PPL constant μ (Def. 19) from the declared strong convexity", PPL)
		}
		p, err = PlanPPL(data.N(), data.D, m, beta, mu, R, rho, pa.Steps)
	default:
		err = field.New("algorithm", spec.Algorithm, "must be %s, %s, %s or %s", ACSA, SGD, ERM, PPL)
	}
	if err != nil {
		return nil, err
	}
	p.Mu = mu
	res.Plan = p
	out, err := Execute(p, obj, data, rand.New(rand.NewPCG(pa.Seed, 0xc11)))
	if err != nil {
		return nil, err
	}
	res.W = out.W
	res.Privacy = certify(p.Sensitivity, p.Sigma, p.Steps, p.OnePass, pa.Delta, rhoSrc)
	res.Measured.ExcessRisk = excess(out.W)
	res.Measured.StartExcessRisk = excess(make([]float64, data.D))
	res.Measured.ClippedShare, res.Measured.NoiseDraws = out.Clipped, out.NoiseDraws
	res.check(rho)
	res.Assumptions = append(res.Assumptions,
		"neighbours: "+Neighbours+"; per-step sensitivity 2τ/s",
		fmt.Sprintf("moment bound r_%g = %.6g, r_2 = %.6g: %s", m.K, m.RK, m.R2, m.Source))
	return res, nil
}

// check adds the run's checks. The plan's own arithmetic (ρ within the
// budget, σ equal to its formula, T noise draws, T·s ≤ n) holds by
// construction, so it is stated as assumptions, not checked; the check is
// the output's excess risk against that of w0 = 0, the data-free output
// (WORSE above it).
func (res *Result) check(rho float64) {
	p, c := res.Plan, res.Privacy
	res.Assumptions = append(res.Assumptions,
		fmt.Sprintf("ρ = %.6g ≤ the budget %.6g, σ ≥ √2·τ/(s·√ρ_step) (Prop. 23 with Δ = 2τ/s, rounded up until zcdp.Gaussian(Δ, σ) is within the step's share) and one Gaussian draw per step: the plan sets them so (by construction, not checks; tested on random plans; %s)", float64(c.Rho), rho, c.Source))
	if p.OnePass {
		res.Assumptions = append(res.Assumptions, fmt.Sprintf("each record is used at most once (T·s = %d ≤ n = %d: disjoint batches, parallel composition P5; by construction)", p.Steps*p.Batch, p.N))
	}
	res.Checks = append(res.Checks, dp.BaselineCheck("excess risk ≤ that of w0 = 0", res.Measured.ExcessRisk, res.Measured.StartExcessRisk,
		"F(w) − F* of the output against that of w0 = 0, the data-free starting point"))
	res.OK = dp.AllPass(res.Checks)
}
