package langevin

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// Rashomon is the set-up of the Rashomon sampler (GTU §2, A3): Langevin
// diffusion on the thresholded loss L̃(θ;D) = max{L(θ;D), min L(·;D) + ψ},
// whose Gibbs law is uniform on the Rashomon set G = {L ≤ min L + ψ}. The
// minimum is computed inside, without privacy: the sensitivity below
// covers it.
//
// Sensitivity (derived here, not the paper's eq. 15, whose constant
// 3·max{L/n, √(Mψ/2)} the seed 000 notes §1.4 flag as uncertain and which
// assumes an interior minimiser). Let v_D be the drift: ∇L(θ;D) where L >
// τ_D = min L(·;D) + ψ, else 0. If both neighbours' drifts are active they
// differ by ≤ Δ; if neither, by 0; if only D's is, ‖v_D‖ = ‖∇L(θ;D)‖ ≤
// ‖∇L(θ;D′)‖ + Δ ≤ √(2M(L(θ;D′) − inf L(·;D′))) + Δ ≤ √(2Mψ′) + Δ, by the
// M-smooth inequality ‖∇f‖² ≤ 2M(f − inf f), valid on all of ℝ^p (so no
// projection) for f bounded below, provided τ_D′ ≤ inf L(·;D′) + ψ. The
// threshold is therefore built on a certified lower bound of the minimum:
// τ_D = F − s²/(2m) + ψ, where F is the solver's value and s its gradient
// norm there (f − inf f ≤ ‖∇f‖²/(2m) for an m-strongly convex f), for every
// data set alike, and lowered by 10⁻⁸(1 + |F| + ψ), an allowance for the
// floating-point evaluation of L: a point the chain reads as flat truly has
// L ≤ inf L + ψ. So ψ′ = ψ, from the declared ψ alone; the data-dependent
// allowance moves only where the chain is flat, never a guarantee's
// constant (principle: no constant of a guarantee from the private data).
type Rashomon struct {
	Psi float64 `json:"psi"`
	// Minimum is the solver's non-private min L(·;D), LowerBound =
	// Minimum − s²/(2m) ≤ inf L(·;D), and Threshold = LowerBound + ψ.
	Minimum    float64 `json:"minimum"`
	LowerBound float64 `json:"lower_bound"`
	Threshold  float64 `json:"threshold"`
	// PsiEffective is ψ′ and Sensitivity = Δ + √(2Mψ′).
	PsiEffective float64 `json:"psi_effective"`
	Sensitivity  float64 `json:"sensitivity"`
	// HitBound = 1 − 2p/√(βψ) is GTU Thm B.6 for an exact sample of the
	// Gibbs law of βL̃, with γ = √(ψ/β) and φ = p/(βγ) (Markov's inequality
	// on E[L̃] − min L̃ ≤ p/β, the convex Gibbs bound of Thm 2.4); the finite
	// chain is only close to that law. Set by RunProblem once β is known.
	HitBound float64 `json:"hit_bound"`
}

// Threshold returns the sampler's threshold for data (the same rule as for
// the run's data: certified lower bound of the minimum plus ψ).
func threshold(obj optimizer.Objective, data *dataset.Dataset, m, psi float64) float64 {
	opt := optimizer.Minimize(obj, data, math.Inf(1))
	return lowered(opt.F-opt.Stationarity*opt.Stationarity/(2*m)+psi, opt.F, psi)
}

// lowered moves a threshold down by an allowance for the floating-point
// evaluation of L (and of the threshold itself), 1e-8·(1 + |F| + ψ): a
// point the chain reads as flat then truly has L ≤ inf L + ψ. The allowance
// depends on the data, but it only changes where the chain is flat, never a
// constant of the guarantee: ψ′ = ψ (Sensitivity) holds for every data set.
func lowered(thr, f, psi float64) float64 { return thr - 1e-8*(1+math.Abs(f)+psi) }

// newRashomon computes the minimum, the threshold and the sensitivity.
func newRashomon(pr *optimizer.Problem, psi, delta float64) (*Rashomon, error) {
	c := pr.Constants
	if !math.IsInf(pr.Declared.Radius, 1) {
		return nil, field.New("radius", pr.Declared.Radius, "must be absent (no projection) with psi > 0: the sampler's sensitivity bound ‖∇L‖² ≤ 2M(L − inf L) holds on all of ℝ^p, not on a ball")
	}
	if !(c.M > 0) {
		return nil, field.New("l2", c.M, "must be > 0 with psi > 0: the Rashomon sampler needs a strongly convex loss (GTU Thm 2.3)")
	}
	if math.IsInf(c.Beta, 1) || !(c.Beta > 0) {
		return nil, field.New("loss", pr.Objective.Name(), "must be smooth with psi > 0")
	}
	opt := optimizer.Minimize(pr.Objective, pr.Data, math.Inf(1))
	if math.IsNaN(opt.F) || math.IsInf(opt.F, 0) || math.IsNaN(opt.Stationarity) {
		return nil, fmt.Errorf("langevin: the non-private minimiser failed (F = %v, stationarity %v)", opt.F, opt.Stationarity)
	}
	rs := &Rashomon{Psi: psi, Minimum: opt.F}
	rs.LowerBound = opt.F - opt.Stationarity*opt.Stationarity/(2*c.M)
	rs.Threshold = lowered(rs.LowerBound+psi, opt.F, psi)
	rs.PsiEffective = psi // from declared ψ alone (see lowered)
	rs.Sensitivity = delta + math.Sqrt(2*c.Beta*rs.PsiEffective)
	return rs, nil
}

func (rs *Rashomon) assumption() string {
	return fmt.Sprintf("ψ = %g: the drift is the gradient of L̃ = max{L, min L + ψ} with the minimum computed without privacy; its sensitivity Δ + √(2Mψ′) = %.6g covers both neighbours' thresholds (no projection, M-smooth, m-strongly convex)", rs.Psi, rs.Sensitivity)
}
