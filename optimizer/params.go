package optimizer

import (
	"errors"
	"fmt"
	"math"
)

// Rule names a way to set (η, σ) from a target (ε, δ).
type Rule string

// The rules of seed 002 Section 5, and calibration with package shifted.
const (
	Thm29     Rule = "thm29"     // Stop-PNSGD, local (ε, δ)
	Thm30     Rule = "thm30"     // Skip-PNSGD, per person ε/√(n−t+1)
	Cor31     Rule = "cor31"     // Skip-PNSGD with m public examples at the end
	Thm32     Rule = "thm32"     // k Stop-PNSGD tasks
	Calibrate Rule = "calibrate" // smallest σ whose worst-case ε (shifted) meets the target
)

// Params are derived parameters with their source.
type Params struct {
	Rule         Rule
	Eta          float64
	Sigma        float64
	Source       string // e.g. "FMTT18 Thm 30 (Skip-PNSGD)"
	EtaFormula   string
	SigmaFormula string
	// PaperUtility is the theorem's own excess-risk bound (NaN when the rule
	// has none); UtilityBound gives the bound at any η.
	PaperUtility float64
	Notes        []string
}

// Target is what parameters are derived for.
type Target struct {
	Epsilon, Delta float64
	N, D           int     // examples, dimension
	L, R           float64 // Lipschitz constant, radius of K
	Public, Tasks  int
}

// Derive sets (η, σ) by the formulas of seed 002:
//
//	Thm 29: σ = 2L√(2 ln(1.25/δ))/ε,  η = 2R/√(n(L² + dσ²)),
//	        E F(W) − F* ≤ (4RL/√n)·√(1 + 8d ln(1.25/δ)/ε²);
//	Thm 30: σ as Thm 29, η = √8·R/√(n(L² + dσ²)),
//	        bound (4√2·RL/√n)·√(1 + 8d ln(1.25/δ)/ε²);
//	Cor 31: σ = 2L√(2 ln(1.25/δ)/m)/ε, η as Thm 30,
//	        bound (4√2·RL/√n)·√(1 + 8d ln(1.25/δ)/(mε²));
//	Thm 32: q = max{2k ln n/n, 2 ln(1/δ)}, σ = 4L√(q ln(1/δ))/ε,
//	        η = 4R/√(n(L² + dσ²)), bound (4RL/√n)·√(1 + 16dq ln(1/δ)/ε²).
//
// Cor 31 as printed has σ = 2L√(ln(1.25/δ)/m)/ε, a factor √2 below what its
// own argument needs (the last private index is a Gaussian mechanism with
// sensitivity 2L and noise σ√(m+1), which is (ε, δ)-DP by the classical
// bound only for σ√m ≥ 2L√(2 ln(1.25/δ))/ε); its utility bound, with
// 8d ln(1.25/δ)/(mε²), matches the corrected σ, which privamp uses. The
// classical Gaussian bound behind Thm 29–31 also needs ε < 1, and Thm 32's
// privacy proof uses Thm 26, which is not sound: privamp reports the
// guarantee package shifted certifies for the derived σ beside the target.
// Calibrate is not handled here (see CalibrateTarget).
func Derive(rule Rule, t Target) (Params, error) {
	if !(t.Epsilon > 0) || math.IsInf(t.Epsilon, 0) || !(t.Delta > 0 && t.Delta < 1) {
		return Params{}, errors.New("target needs ε > 0 and δ ∈ (0, 1)")
	}
	n, d := float64(t.N), float64(t.D)
	L, R, eps, del := t.L, t.R, t.Epsilon, t.Delta
	lg := math.Log(1.25 / del)
	p := Params{Rule: rule, PaperUtility: math.NaN()}
	etaFor := func(c float64, sigma float64) float64 { return c * R / math.Sqrt(n*(L*L+d*sigma*sigma)) }
	switch rule {
	case Thm29:
		p.Sigma = 2 * L * math.Sqrt(2*lg) / eps
		p.Eta = etaFor(2, p.Sigma)
		p.Source = "FMTT18 Thm 29 (Stop-PNSGD, local (ε, δ)-DP)"
		p.SigmaFormula, p.EtaFormula = "σ = 2L√(2 ln(1.25/δ))/ε", "η = 2R/√(n(L² + dσ²))"
		p.PaperUtility = 4 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(eps*eps))
	case Thm30:
		p.Sigma = 2 * L * math.Sqrt(2*lg) / eps
		p.Eta = etaFor(math.Sqrt(8), p.Sigma)
		p.Source = "FMTT18 Thm 30 (Skip-PNSGD, (ε/√(n−t+1), δ)-DP at index t)"
		p.SigmaFormula, p.EtaFormula = "σ = 2L√(2 ln(1.25/δ))/ε", "η = √8·R/√(n(L² + dσ²))"
		p.PaperUtility = 4 * math.Sqrt2 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(eps*eps))
	case Cor31:
		m := float64(t.Public)
		if t.Public < 1 {
			return Params{}, errors.New("Cor 31 needs public examples (--public m ≥ 1)")
		}
		p.Sigma = 2 * L * math.Sqrt(2*lg/m) / eps
		p.Eta = etaFor(math.Sqrt(8), p.Sigma)
		p.Source = "FMTT18 Cor 31 (Skip-PNSGD, m public examples at the end), σ corrected by √2"
		p.SigmaFormula, p.EtaFormula = "σ = 2L√(2 ln(1.25/δ)/m)/ε (the paper prints √(ln(1.25/δ)/m): too small by √2)", "η = √8·R/√(n(L² + dσ²))"
		p.PaperUtility = 4 * math.Sqrt2 * R * L / math.Sqrt(n) * math.Sqrt(1+8*d*lg/(m*eps*eps))
		p.Notes = append(p.Notes, "Cor 31 prints σ = 2L√(ln(1.25/δ)/m)/ε; the classical Gaussian mechanism at the last private index needs √2 more, as the corollary's own utility bound (8d ln(1.25/δ)/(mε²)) assumes")
	case Thm32:
		k := float64(max(t.Tasks, 1))
		q := math.Max(2*k*math.Log(n)/n, 2*math.Log(1/del))
		p.Sigma = 4 * L * math.Sqrt(q*math.Log(1/del)) / eps
		p.Eta = etaFor(4, p.Sigma)
		p.Source = "FMTT18 Thm 32 (k Stop-PNSGD tasks)"
		p.SigmaFormula, p.EtaFormula = fmt.Sprintf("σ = 4L√(q ln(1/δ))/ε, q = max{2k ln n/n, 2 ln(1/δ)} = %.6g", q), "η = 4R/√(n(L² + dσ²))"
		p.PaperUtility = 4 * R * L / math.Sqrt(n) * math.Sqrt(1+16*d*q*math.Log(1/del)/(eps*eps))
		p.Notes = append(p.Notes, "Thm 32's privacy proof relies on Thm 26, whose last step is not sound (H_m > ln m); the guarantee shown is the sound one for this σ")
	default:
		return Params{}, fmt.Errorf("unknown rule %q (allowed: thm29, thm30, cor31, thm32, calibrate)", rule)
	}
	if eps >= 1 && rule != Thm32 {
		p.Notes = append(p.Notes, fmt.Sprintf("the classical Gaussian-mechanism bound behind %s assumes ε < 1 (here ε = %g); the guarantee shown is recomputed soundly", rule, eps))
	}
	return p, nil
}

// DefaultRule is the theorem that goes with a variant.
func DefaultRule(v Variant, public, tasks int) Rule {
	switch {
	case tasks > 1:
		return Thm32
	case v == Stop:
		return Thm29
	case v == Skip && public > 0:
		return Cor31
	case v == Skip:
		return Thm30
	}
	return Calibrate
}

// CalibrateTarget finds the smallest σ whose worst-case ε over the private
// indices (package shifted) is ≤ target at δ, with η fixed by the caller (η
// must be known first: for strongly convex losses the bound depends on it).
func CalibrateTarget(s Setting, eps, delta float64) (float64, error) {
	return CalibrateSigma(s, delta, eps, nil)
}
