package langevin

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
)

// maxSteps bounds T (work, not soundness).
const maxSteps = 100_000_000

// maxWork bounds T·n·p, the multiply-adds of a run (work, not soundness).
const maxWork = 2e11

// Spec is one Langevin run: the data and what is declared about them (as
// for optimizer.Train), the loss, the domain, and the chain's parameters.
type Spec struct {
	Data optimizer.DataSpec `json:"data"`
	Loss optimizer.LossSpec `json:"loss"`
	// Radius R of C = {‖θ‖ ≤ R}; +Inf: no projection.
	Radius float64 `json:"radius"`
	Params
}

// Params are the chain's parameters.
type Params struct {
	// Steps T and step size η.
	Steps int64   `json:"steps" param:"steps" doc:"number of steps T of the chain"`
	Eta   float64 `json:"eta" param:"eta" doc:"step size η of the chain (the drift step is ηβ, the noise N(0, 2ηI))"`
	// Beta is the inverse temperature; 0: calibrated to TargetEpsilon.
	Beta          float64 `json:"beta" param:"beta" doc:"inverse temperature β (instead of calibrating it to the target ε)"`
	TargetEpsilon float64 `json:"target_epsilon" param:"target_epsilon" doc:"target ε that β is calibrated to when β is not given (default 1)"`
	Delta         float64 `json:"delta" param:"delta" doc:"δ in (0, 1)"`
	// Psi is the Rashomon threshold ψ: ψ > 0 runs the Rashomon sampler on
	// L̃ = max{L, min L + ψ} (rashomon.go); 0: the plain loss.
	Psi float64 `json:"psi" param:"psi" doc:"Rashomon threshold ψ ≥ 0: sample near-minimisers of L̃ = max{L, min L + ψ} (GTU A3); 0: the plain loss"`
	// StrongConvexity m for the coupling check; 0: the objective's ℓ2
	// weight. It may not exceed the derived smoothness.
	StrongConvexity float64 `json:"strong_convexity" param:"strong_convexity" doc:"strong convexity m for the coupling check (default: the objective's ℓ2 weight); at most the derived smoothness"`
	// Regularize adds the ℓ2 term of GTU §4.4 (A6), from the certified ε:
	// "erm" (near-optimal empirical risk) or "sco" (population risk); "":
	// none.
	Regularize string `json:"regularize,omitempty" param:"regularize" doc:"add the ℓ2 term of GTU §4.4 (A6) from the certified ε: erm or sco"`
	// Coupling runs the coupled-trajectory stability check.
	Coupling bool `json:"coupling" param:"coupling" doc:"run the neighbour (one record replaced) with the same noise and check ‖θ_k − θ′_k‖ at every step (GTU A4)"`
	// Horizon is HorizonGTU (β, T and η from GTU Thm 2.3, Theorem23) or
	// HorizonGiven / "" (T and η as given).
	Horizon string `json:"horizon,omitempty" param:"horizon" doc:"gtu: β, steps and η from GTU Thm 2.3 with Lemma B.5's horizon (needs l2 > 0 and a target ε; the default when only a target is given and l2 > 0); given: steps and eta as given"`
	Seed    uint64 `json:"seed" param:"seed" doc:"seed of the algorithm's randomness"`
}

// Derived are computed from the declared bounds and the parameters only.
type Derived struct {
	N               int     `json:"n"`
	Dimension       int     `json:"dimension"`
	Lipschitz       dp.Num  `json:"lipschitz"`
	Smoothness      float64 `json:"smoothness"`
	StrongConvexity float64 `json:"strong_convexity"`
	// RecordSensitivity is Sens = X·sup|φ'| (optimizer.Constants.Sens).
	RecordSensitivity float64 `json:"record_sensitivity"`
	// GradientSensitivity Δ = 2·Sens/n bounds ‖∇L(θ;D) − ∇L(θ;D′)‖.
	GradientSensitivity float64 `json:"gradient_sensitivity"`
	// PathSensitivity is the drift's sensitivity the certificate uses: Δ,
	// or with ψ > 0 the thresholded drift's Δ + √(2Mψ′) (Rashomon).
	PathSensitivity float64 `json:"path_sensitivity"`
	// Rashomon is the sampler's set-up (ψ > 0 only).
	Rashomon *Rashomon `json:"rashomon,omitempty"`
	Steps    int64     `json:"steps"`
	Eta      float64   `json:"eta"`
	// Schedule is GTU Thm 2.3's β, horizon and steps (horizon gtu only).
	Schedule   *Schedule `json:"schedule,omitempty"`
	Beta       float64   `json:"beta"`
	BetaSource string    `json:"beta_source"`
	// StepSize h = ηβ: the step of the drift.
	StepSize float64 `json:"step_size"`
	// Regularizer is the ℓ2 weight added by Params.Regularize (0: none)
	// and RegularizerSource its formula.
	Regularizer       float64 `json:"regularizer,omitempty"`
	RegularizerSource string  `json:"regularizer_source,omitempty"`
	// GibbsExcessBound p/β bounds E[L] − min L for an exact sample of the
	// Gibbs law of a convex loss (GTU Thm 2.4 with ψ = 0); the finite chain
	// is only close to that law.
	GibbsExcessBound dp.Num `json:"gibbs_excess_bound"`
	// GibbsPopulationBound is p/β + L·Δ/m (≤ p/β + 2L²/(mn)): the expected
	// excess population risk of an exact Gibbs sample for an m-strongly
	// convex loss, Thm 2.4 plus the uniform stability of Thm 2.5 (ψ = 0) by
	// Lemma A.16 (seed 000 implementation notes §3); null when m = 0.
	GibbsPopulationBound dp.Num `json:"gibbs_population_bound"`
}

// Measured are measured on the records and the run; checks only.
type Measured struct {
	StartRisk   float64 `json:"start_risk"`
	FinalRisk   float64 `json:"final_risk"`
	OptimumRisk float64 `json:"optimum_risk"`
	// ExcessRisk is FinalRisk − OptimumRisk (non-private minimum on C).
	ExcessRisk  float64 `json:"excess_risk"`
	MaxGradNorm float64 `json:"max_grad_norm"`
	// RashomonShare is the share of the iterates θ_k, T/2 ≤ k < T, in the
	// Rashomon set G = {L ≤ min L + ψ} (ψ > 0 only), beside
	// Derived.Rashomon.HitBound.
	RashomonShare *float64 `json:"rashomon_share,omitempty"`
	// UnregularizedExcessRisk is the excess risk of the output for the loss
	// without the ℓ2 term Regularize added (nil without one).
	UnregularizedExcessRisk *float64 `json:"unregularized_excess_risk,omitempty"`
}

// Result is what Run returns: declared, derived and measured values kept
// apart, the certificate, the checks and the final iterate.
type Result struct {
	Algorithm   string             `json:"algorithm"`
	Description string             `json:"data_description"`
	Declared    optimizer.Declared `json:"declared"`
	Derived     Derived            `json:"derived"`
	Privacy     Privacy            `json:"privacy"`
	Measured    Measured           `json:"measured"`
	Coupling    *Coupling          `json:"coupling,omitempty"`
	Checks      []dp.Check         `json:"checks"`
	// OK is false when a check failed.
	OK          bool      `json:"ok"`
	Verdict     string    `json:"verdict"`
	Seed        uint64    `json:"seed"`
	W           []float64 `json:"w"`
	Assumptions []string  `json:"assumptions"`
	Notes       []string  `json:"notes"`
}

// Run builds the problem (optimizer.Build: records clipped to the declared
// bounds, constants from the declared bounds only) and runs it (RunProblem).
func Run(spec Spec) (*Result, error) {
	if err := spec.Params.validate(); err != nil {
		return nil, err
	}
	pr, err := optimizer.Build(spec.Data, spec.Loss, spec.Radius, shifted.Training{Delta: spec.Delta, Epochs: 1}, "", nil)
	if err != nil {
		return nil, err
	}
	return RunProblem(pr, spec.Params)
}

func (p Params) validate() error {
	if err := field.First(field.Count("steps", p.Steps, 1, maxSteps), field.Positive("eta", p.Eta),
		field.OpenUnit("delta", p.Delta), field.NonNegative("psi", p.Psi), field.NonNegative("strong_convexity", p.StrongConvexity)); err != nil {
		return err
	}
	if p.Psi > 0 && p.Regularize != "" {
		return field.New("regularize", p.Regularize, "cannot be combined with psi > 0 (the sampler's sensitivity depends on the ℓ2 weight)")
	}
	switch {
	case p.Horizon != "" && p.Horizon != HorizonGiven && p.Horizon != HorizonGTU:
		return field.New("horizon", p.Horizon, "must be %s or %s", HorizonGTU, HorizonGiven)
	case p.Horizon == HorizonGTU && (p.Beta != 0 || p.Psi > 0 || p.Regularize != ""):
		return field.New("horizon", p.Horizon, "chooses β from the target ε for the plain strongly convex loss (ψ = 0, no added regulariser): give no beta, psi or regularize with it")
	case p.Regularize != "" && p.Regularize != "erm" && p.Regularize != "sco":
		return field.New("regularize", p.Regularize, "must be erm or sco (GTU §4.4) or empty")
	case p.Beta != 0 && p.TargetEpsilon != 0:
		return field.New("beta", p.Beta, "is calibrated from target_epsilon: give one of them, not both")
	case p.Beta != 0:
		return field.Positive("beta", p.Beta)
	case p.TargetEpsilon != 0:
		return field.Positive("target_epsilon", p.TargetEpsilon)
	}
	return field.New("beta", p.Beta, "must be > 0, or give target_epsilon to calibrate it")
}

// RunProblem runs the Langevin chain on a built problem (which it changes
// when Regularize adds an ℓ2 term): it derives Δ from
// the problem's declared constants, certifies the path (given or
// calibrated β), runs T steps from θ₀ = 0 with the seed's noise, measures
// the risks, and with Coupling runs the neighbour with the same noise and
// checks the distance of the two paths at every step.
func RunProblem(pr *optimizer.Problem, p Params) (*Result, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	c := pr.Constants
	n, d := pr.Data.N(), pr.Data.D
	if float64(p.Steps)*float64(n)*float64(d) > maxWork {
		return nil, field.New("steps", p.Steps, "makes steps × records × dimension exceed 2·10^11")
	}
	res := &Result{Algorithm: "langevin", Description: pr.Description, Declared: pr.Declared, Seed: p.Seed,
		Assumptions: append([]string{
			"θ₀ = 0, independent of the data",
			"neighbours replace one record; every record lies within the declared bounds (records are clipped to them), so ‖∇L(θ;D) − ∇L(θ;D′)‖ ≤ Δ = 2·Sens/n for every θ",
			"the gradients are exact (full batch) and the noise is exactly N(0, 2ηI); no convexity or smoothness is needed for privacy",
			"all iterates θ_1..θ_T may be released: the guarantee is for the whole path",
		}, pr.Assumptions...), Notes: append([]string(nil), pr.Notes...)}
	dv := &res.Derived
	dv.N, dv.Dimension = n, d
	dv.RecordSensitivity = c.Sens
	dv.GradientSensitivity = GradientSensitivity(c.Sens, float64(n), dp.ReplaceOne)
	dv.Steps, dv.Eta = p.Steps, p.Eta
	if !(dv.GradientSensitivity > 0) {
		return nil, field.New("loss", pr.Objective.Name(), "has zero gradient sensitivity at these bounds: nothing to certify")
	}
	dv.PathSensitivity = dv.GradientSensitivity
	if p.Psi > 0 {
		rs, err := newRashomon(pr, p.Psi, dv.GradientSensitivity)
		if err != nil {
			return nil, err
		}
		dv.Rashomon, dv.PathSensitivity = rs, rs.Sensitivity
		res.Assumptions = append(res.Assumptions, rs.assumption())
	}
	if p.Horizon == HorizonGTU {
		sc, err := Theorem23(p.TargetEpsilon, dv.PathSensitivity, c.L, 2*pr.Declared.Radius, c.M, c.Beta, p.Delta)
		if err != nil {
			return nil, err
		}
		if float64(sc.Steps)*float64(n)*float64(d) > maxWork {
			return nil, field.New("horizon", p.Horizon, "makes steps × records × dimension exceed 2·10^11 (T = %d)", sc.Steps)
		}
		p.Steps, p.Eta = sc.Steps, sc.Eta
		dv.Steps, dv.Eta, dv.Schedule = sc.Steps, sc.Eta, &sc
	}
	switch {
	case p.Beta > 0:
		dv.Beta, dv.BetaSource = p.Beta, "given"
	case dv.Schedule != nil:
		dv.Beta, dv.BetaSource = dv.Schedule.Beta, fmt.Sprintf("GTU Thm 2.3 for ε ≤ %g at δ = %g: %s", p.TargetEpsilon, p.Delta, ScheduleSource)
	default:
		b, err := CalibrateBeta(p.TargetEpsilon, dv.PathSensitivity, p.Steps, p.Eta, p.Delta)
		if err != nil {
			return nil, err
		}
		dv.Beta = b
		dv.BetaSource = fmt.Sprintf("calibrated: the largest β with ε ≤ %g at δ = %g (bisection on the path bound)", p.TargetEpsilon, p.Delta)
	}
	dv.StepSize = p.Eta * dv.Beta
	dv.GibbsExcessBound = dp.Num(p.Psi + float64(d)/dv.Beta)
	if dv.Rashomon != nil {
		dv.Rashomon.HitBound = 1 - 2*float64(d)/math.Sqrt(dv.Beta*p.Psi)
		if dv.Rashomon.HitBound <= 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("Thm B.6's hit bound 1 − 2p/√(βψ) = %.4g is vacuous at these parameters (it needs βψ > 4p²)", dv.Rashomon.HitBound))
		}
	}
	priv, err := PathPrivacy(dv.Beta, dv.PathSensitivity, p.Steps, p.Eta, p.Delta)
	if err != nil {
		return nil, err
	}
	priv.Target = p.TargetEpsilon
	res.Privacy = priv
	orig := pr.Objective
	if p.Regularize != "" {
		if err := res.regularize(pr, p.Regularize); err != nil {
			return nil, err
		}
		c = pr.Constants
	}
	m := c.M
	if p.StrongConvexity > 0 {
		if p.StrongConvexity > c.Beta {
			return nil, field.New("strong_convexity", p.StrongConvexity, "must not exceed the smoothness %g derived from the declared bounds", c.Beta)
		}
		m = p.StrongConvexity
	}
	dv.Lipschitz, dv.Smoothness, dv.StrongConvexity = dp.Num(c.L), c.Beta, m
	dv.GibbsPopulationBound = dp.Num(math.NaN())
	if m > 0 {
		dv.GibbsPopulationBound = dp.Num(float64(d)/dv.Beta + c.L*dv.GradientSensitivity/m)
	}

	R := pr.Declared.Radius
	ch := newChain(pr.Objective, pr.Data, R, p.Eta, dv.Beta)
	if dv.Rashomon != nil {
		ch.thr = dv.Rashomon.Threshold
	}
	inG, counted := int64(0), int64(0)
	rng := dataset.NewRand(p.Seed)
	w := make([]float64, d)
	xi := make([]float64, d)
	var cp *coupler
	if p.Coupling {
		cp = newCoupler(pr, R, p.Eta, dv.Beta, m, dv.GradientSensitivity)
		if dv.Rashomon != nil {
			cp.ch.thr = threshold(pr.Objective, cp.ch.data, pr.Constants.M, p.Psi)
		}
	}
	res.Measured.StartRisk = optimizer.EmpiricalRisk(pr.Objective, pr.Data, w)
	maxg := 0.0
	for k := int64(0); k < p.Steps; k++ {
		ch.drawNoise(rng, xi)
		ch.step(w, xi)
		maxg = math.Max(maxg, numeric.Norm(ch.grad))
		if dv.Rashomon != nil && 2*k >= p.Steps {
			// ch.val is L(θ_k), the value before this step; θ_k for k ≥ T/2
			counted++
			if ch.val <= dv.Rashomon.Threshold {
				inG++
			}
		}
		if cp != nil {
			cp.step(k+1, w, xi)
		}
	}
	ms := &res.Measured
	ms.FinalRisk = optimizer.EmpiricalRisk(pr.Objective, pr.Data, w)
	ms.MaxGradNorm = maxg
	opt := optimizer.Minimize(pr.Objective, pr.Data, R)
	ms.OptimumRisk = opt.F
	ms.ExcessRisk = ms.FinalRisk - opt.F
	if p.Regularize != "" {
		u := optimizer.EmpiricalRisk(orig, pr.Data, w) - optimizer.Minimize(orig, pr.Data, R).F
		ms.UnregularizedExcessRisk = &u
	}
	res.W = w
	if dv.Rashomon != nil {
		share := float64(inG) / float64(counted)
		ms.RashomonShare = &share
	}
	res.check(cp)
	return res, nil
}

// check records the checks and the verdict.
func (res *Result) check(cp *coupler) {
	res.Assumptions = append(res.Assumptions, optimizer.GradientByConstruction)
	res.Checks = append(res.Checks, dp.BaselineCheck("final risk ≤ risk at θ₀ = 0", res.Measured.FinalRisk, res.Measured.StartRisk,
		"empirical risk L(θ_T) of the output against the data-free start θ₀ = 0's"))
	if cp != nil {
		res.Coupling = cp.result()
		res.Checks = append(res.Checks, res.Coupling.Check)
	}
	res.OK, res.Verdict = dp.AllPass(res.Checks), dp.VerdictLine(res.Checks)
}
