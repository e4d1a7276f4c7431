package clipped

import (
	"math"

	"github.com/privamp/privamp/internal/field"
)

// Algorithm names.
const (
	ACSA = "clipped-acsa" // Algorithm 2
	SGD  = "clipped-sgd"  // Algorithm 6
	ERM  = "clipped-erm"  // Algorithm 3
	PPL  = "clipped-ppl"  // Algorithm 8 (proximal-PL)
)

// Moments are the declared moment bounds of the gradients (Assumption 2):
// sup_{w∈W} E‖∇f(w, x)‖^k ≤ r_k^k and sup_w E‖∇f(w, x)‖² ≤ r_2². They are
// declared (or derived from a declared distribution or feature bound),
// never estimated from the private data.
type Moments struct {
	K      float64 `json:"k"`
	RK     float64 `json:"r_k"`
	R2     float64 `json:"r_2"`
	Source string  `json:"source"`
}

// Validate checks k ≥ 2, r_k > 0 and 0 < r_2 ≤ r_k; errors are *field.Error
// values naming moment_order, moment_bound or second_moment.
func (m Moments) Validate() error {
	if !(m.K >= 2) || math.IsInf(m.K, 0) {
		return field.New("moment_order", m.K, "must be a finite number ≥ 2 (Assumption 2 needs k ≥ 2)")
	}
	if err := positiveFinite("moment_bound", m.RK); err != nil {
		return err
	}
	if err := positiveFinite("second_moment", m.R2); err != nil {
		return err
	}
	if m.R2 > m.RK*(1+1e-12) {
		return field.New("second_moment", m.R2, "must be ≤ r_k = %v (r_2 ≤ r_k by Jensen)", m.RK)
	}
	return nil
}

// Plan is what a run does, fixed before it touches the data: the number of
// steps and their batch, the clipping threshold and the noise.
type Plan struct {
	Algorithm string  `json:"algorithm"`
	N         int     `json:"n"`
	Dim       int     `json:"dimension"`
	Moments   Moments `json:"moments"`
	Beta      float64 `json:"beta"`   // smoothness of F (declared)
	Mu        float64 `json:"mu"`     // strong convexity of F (declared)
	Radius    float64 `json:"radius"` // W = {‖w‖ ≤ R}; diameter D = 2R
	Rho       float64 `json:"rho"`    // the budget the plan is calibrated to
	// Steps T and Batch s: one pass uses s = ⌊n/T⌋ fresh records per step
	// (n − sT records unused); multi-pass uses all n every step.
	Steps        int    `json:"steps"`
	StepsFormula string `json:"steps_formula"`
	Batch        int    `json:"batch"`
	// Tau is the clipping threshold; Sensitivity 2τ/s; Sigma the noise
	// standard deviation; StepRho the ρ each step is calibrated to.
	Tau         float64 `json:"tau"`
	TauFormula  string  `json:"tau_formula"`
	Sensitivity float64 `json:"sensitivity"`
	Sigma       float64 `json:"sigma"`
	StepRho     float64 `json:"step_rho"`
	OnePass     bool    `json:"one_pass"`
	// Eta is AC-SA's η (steps t/(2η)), SGD's largest step 1/d' with d' =
	// 2β, or ERM's constant step; Lambda is ERM's regulariser weight.
	Eta    float64 `json:"eta"`
	Lambda float64 `json:"lambda,omitempty"`
	// BiasBound and MSEBound are Lemma 6's bounds on one oracle call
	// (BiasBound, MSEBound).
	BiasBound float64 `json:"bias_bound"`
	MSEBound  float64 `json:"mse_bound"`
	// GradientEvaluations is the number of per-record gradients computed.
	GradientEvaluations int64 `json:"gradient_evaluations"`
}

// clipTau is τ = r_k·(n√ρ/√(dT))^{1/k} (Thm 31 and 34 [D]: it balances the
// oracle's bias r_k^k/((k−1)τ^{k−1}) against the averaged noise).
func clipTau(m Moments, n, d, T int, rho float64) float64 {
	return m.RK * math.Pow(float64(n)*math.Sqrt(rho)/math.Sqrt(float64(d)*float64(T)), 1/m.K)
}

func checkCommon(n, d int, m Moments, R, rho float64, steps int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	switch {
	case n < 1:
		return field.New("n", n, "must be ≥ 1")
	case d < 1:
		return field.New("dimension", d, "must be ≥ 1")
	case steps < 0 || steps > n:
		return field.New("steps", steps, "must be in [0, n = %d] (0: the theorem's choice)", n)
	}
	return field.First(positiveFinite("radius", R), positiveFinite("rho", rho))
}

// onePass fills the batch, noise and Lemma 6 bounds of a one-pass plan.
func (p *Plan) onePass() {
	p.OnePass = true
	p.Batch = p.N / p.Steps
	p.Sensitivity = Sensitivity(p.Tau, p.Batch)
	p.StepRho = p.Rho
	p.Sigma = NoiseFor(p.Sensitivity, p.Rho)
	p.bounds(float64(p.Batch))
	p.GradientEvaluations = int64(p.Batch) * int64(p.Steps)
}

func (p *Plan) bounds(s float64) {
	m := p.Moments
	p.BiasBound = BiasBound(m.K, m.RK, p.Tau)
	p.MSEBound = float64(p.Dim)*p.Sigma*p.Sigma + m.R2*m.R2/s + p.BiasBound*p.BiasBound
}

// PlanACSA plans Algorithm 2 (noisy clipped AC-SA) with Thm 31's choices
// [D, seed 004 notes §3]: with a = √d/(n√ρ) and D = 2R,
//
//	T = clamp_[1,n] ⌈(βD/r_k)^{2k/(5k−1)}·(1/a)^{2(k−1)/(5k−1)}⌉,
//	τ = r_k·(n√ρ/√(dT))^{1/k},  s = ⌊n/T⌋,  σ = √2·τ/(s√ρ),
//
// and Prop. 30's η = max{2β, √((Σ² + B²)T(T+1)(T+2)/(3D²))} with Σ² =
// dσ² + r_2²/s and B the Lemma 6 bias. steps > 0 replaces T.
func PlanACSA(n, d int, m Moments, beta, R, rho float64, steps int) (Plan, error) {
	if err := checkCommon(n, d, m, R, rho, steps); err != nil {
		return Plan{}, err
	}
	if !(beta >= 0) || math.IsInf(beta, 0) {
		return Plan{}, field.New("beta", beta, "must be finite and ≥ 0")
	}
	p := Plan{Algorithm: ACSA, N: n, Dim: d, Moments: m, Beta: beta, Radius: R, Rho: rho, Steps: steps}
	D := 2 * R
	if steps == 0 {
		k := m.K
		a := math.Sqrt(float64(d)) / (float64(n) * math.Sqrt(rho))
		t := math.Pow(beta*D/m.RK, 2*k/(5*k-1)) * math.Pow(1/a, 2*(k-1)/(5*k-1))
		p.Steps = int(math.Min(float64(n), math.Max(1, math.Ceil(t))))
		p.StepsFormula = "clamp_[1,n] ⌈(βD/r_k)^{2k/(5k−1)}·(n√ρ/√d)^{2(k−1)/(5k−1)}⌉ (Thm 31)"
	} else {
		p.StepsFormula = "given"
	}
	p.Tau = clipTau(m, n, d, p.Steps, rho)
	p.TauFormula = "r_k·(n√ρ/√(dT))^{1/k} (Thm 31)"
	p.onePass()
	T := float64(p.Steps)
	sig2 := float64(d)*p.Sigma*p.Sigma + m.R2*m.R2/float64(p.Batch)
	p.Eta = math.Max(2*beta, math.Sqrt((sig2+p.BiasBound*p.BiasBound)*T*(T+1)*(T+2)/(3*D*D)))
	return p, nil
}

// PlanSGD plans Algorithm 6 (noisy clipped projected SGD, μ-strongly
// convex) with Thm 34's τ = r_k·(n√ρ/√(dT))^{1/k} and T = Θ̃(κ), κ = β/μ,
// made concrete as T = clamp_[1,n] ⌈4κ·ln n⌉ [D]: Stich's Lemma 33 with
// a = μ, d' = 2β leaves the optimisation term 32d'·D²·exp(−T/(4κ)) ≤
// 32d'D²/n. steps > 0 replaces T.
func PlanSGD(n, d int, m Moments, beta, mu, R, rho float64, steps int) (Plan, error) {
	p, err := planStronglyConvex(SGD, n, d, m, beta, mu, R, rho, steps, 4, "clamp_[1,n] ⌈4κ ln n⌉, κ = β/μ (Thm 34: T = Θ̃(κ))")
	if err != nil {
		return Plan{}, err
	}
	p.Tau = clipTau(m, n, d, p.Steps, rho)
	p.TauFormula = "r_k·(n√ρ/√(dT))^{1/k} (Thm 34)"
	p.onePass()
	p.Eta = 1 / (2 * beta)
	return p, nil
}

// PlanERM plans Algorithm 3 (multi-pass noisy clipped regularised
// subgradient method) on the full batch of n records: each of the T steps
// gets ρ/T, so σ² = 2τ²T/(n²ρ) (P8), and the T steps compose to ρ (Lemma
// 24). The paper's τ for Algorithm 3 is lost; τ is the minimiser of Lemma
// 6's MSE bound for the per-step oracle, whose noise equals that of a
// batch of n/√T at budget ρ: OptimalClip(k, r_k, n/√T, ρ, d). The
// step is eta if > 0, else 1/(β + λ). steps = 0 means 100.
func PlanERM(n, d int, m Moments, beta, R, rho float64, steps int, lambda, eta float64) (Plan, error) {
	if err := checkCommon(n, d, m, R, rho, steps); err != nil {
		return Plan{}, err
	}
	if err := field.First(field.NonNegative("beta", beta), field.NonNegative("lambda", lambda), field.NonNegative("eta", eta)); err != nil {
		return Plan{}, err
	}
	p := Plan{Algorithm: ERM, N: n, Dim: d, Moments: m, Beta: beta, Radius: R, Rho: rho, Steps: steps, Lambda: lambda}
	p.StepsFormula = "given"
	if steps == 0 {
		p.Steps, p.StepsFormula = min(100, n), "min(100, n) (default)"
	}
	switch {
	case eta > 0:
		p.Eta = eta
	case beta+lambda > 0:
		p.Eta = 1 / (beta + lambda)
	default:
		return Plan{}, field.New("eta", eta, "is required: β + λ = 0 leaves no default step 1/(β + λ)")
	}
	T := float64(p.Steps)
	p.Tau = OptimalClip(m.K, m.RK, float64(n)/math.Sqrt(T), rho, float64(d))
	p.TauFormula = "argmin of Lemma 6's MSE at effective batch n/√T (clipped.OptimalClip)"
	p.Batch = n
	p.Sensitivity = Sensitivity(p.Tau, n)
	p.StepRho = rho / T
	p.Sigma = NoiseFor(p.Sensitivity, p.StepRho)
	for i := 0; i < 64 && float64(certify(p.Sensitivity, p.Sigma, p.Steps, false, 0.5, "").Rho) > rho; i++ {
		p.Sigma = math.Nextafter(p.Sigma*(1+math.Ldexp(1, i-52)), math.Inf(1))
	}
	p.bounds(float64(n))
	p.GradientEvaluations = int64(n) * int64(p.Steps)
	return p, nil
}

// PlanPPL plans Algorithm 8 (noisy clipped proximal SGD for a μ-PPL
// objective, Thm 20/48) with the indicator of W as f¹, so the proximal step
// is the projection onto W: one pass, constant step η = 1/(2β) (Prop. 46),
// the last iterate released, Thm 48's τ = r_k·(n√ρ/(√d·T))^{1/k} and T =
// ⌈2κ ln(·)⌉, whose log's argument the seed's text lost: privamp takes ln n
// (Prop. 46's linear term (1 − 1/(2κ))^T·(F(w₀) − F*) is then ≤ (F(w₀) −
// F*)/n), T clamped to [1, n]. μ is the declared strong convexity, which
// implies the PPL inequality (Def. 19) with the same μ. steps > 0 replaces T.
func PlanPPL(n, d int, m Moments, beta, mu, R, rho float64, steps int) (Plan, error) {
	p, err := planStronglyConvex(PPL, n, d, m, beta, mu, R, rho, steps, 2, "clamp_[1,n] ⌈2κ ln n⌉, κ = β/μ (Thm 48's ⌈2κ ln(·)⌉; the log's argument is lost in the seed: privamp's ln n)")
	if err != nil {
		return Plan{}, err
	}
	p.Tau = m.RK * math.Pow(float64(n)*math.Sqrt(rho)/(math.Sqrt(float64(d))*float64(p.Steps)), 1/m.K)
	p.TauFormula = "r_k·(n√ρ/(√d·T))^{1/k} (Thm 48)"
	p.onePass()
	p.Eta = 1 / (2 * beta)
	return p, nil
}

// RatePPL is Thm 20/48's excess-risk rate r_2²T/(μn) + (r_k²/μ)(√d·T/(n√ρ))^{2(k−1)/k}
// without its constant, which the paper does not give (≲̃): a shape, never
// a bound.
func RatePPL(p Plan) float64 {
	m, n := p.Moments, float64(p.N)
	T := float64(p.Steps)
	return m.R2*m.R2*T/(p.Mu*n) + m.RK*m.RK/p.Mu*math.Pow(math.Sqrt(float64(p.Dim))*T/(n*math.Sqrt(p.Rho)), 2*(m.K-1)/m.K)
}

// planStronglyConvex checks the inputs the strongly convex plans share
// (β ≥ μ > 0) and sets T = clamp_[1,n] ⌈c·κ·ln n⌉, κ = β/μ, unless steps > 0
// gives it: Algorithm 6 (Thm 34, c = 4) and Algorithm 8 (Thm 48, c = 2).
func planStronglyConvex(alg string, n, d int, m Moments, beta, mu, R, rho float64, steps int, c float64, formula string) (Plan, error) {
	if err := checkCommon(n, d, m, R, rho, steps); err != nil {
		return Plan{}, err
	}
	if err := field.First(positiveFinite("beta", beta), positiveFinite("mu", mu)); err != nil {
		return Plan{}, err
	}
	if mu > beta {
		return Plan{}, field.New("mu", mu, "must be ≤ β = %v", beta)
	}
	p := Plan{Algorithm: alg, N: n, Dim: d, Moments: m, Beta: beta, Mu: mu, Radius: R, Rho: rho, Steps: steps}
	if steps == 0 {
		t := math.Ceil(c * beta / mu * math.Log(float64(n)))
		p.Steps = int(math.Min(float64(n), math.Max(1, t)))
		p.StepsFormula = formula
	} else {
		p.StepsFormula = "given"
	}
	return p, nil
}
