package optimizer

import (
	"fmt"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/shifted"
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

// Theorem returns the utility theorem of package shifted behind a rule
// (false for Calibrate and unknown rules).
func (r Rule) Theorem() (shifted.UtilityTheorem, bool) {
	switch r {
	case Thm29:
		return shifted.Thm29, true
	case Thm30:
		return shifted.Thm30, true
	case Cor31:
		return shifted.Cor31, true
	case Thm32:
		return shifted.Thm32, true
	}
	return 0, false
}

// Derive sets (η, σ) by the formulas of seed 002 §5, which package shifted
// holds (shifted.UtilityTheorem: Sigma, Eta, Bound), with S = n steps:
//
//	Thm 29: σ = 2L√(2 ln(1.25/δ))/ε,  η = 2R/√(n(L² + dσ²)),
//	        E F(W) − F* ≤ (4RL/√n)·√(1 + 8d ln(1.25/δ)/ε²);
//	Thm 30: σ as Thm 29, η = √8·R/√(n(L² + dσ²)),
//	        bound (4√2·RL/√n)·√(1 + 8d ln(1.25/δ)/ε²);
//	Cor 31: σ = 2L√(2 ln(1.25/δ)/m)/ε, η as Thm 30,
//	        bound (4√2·RL/√n)·√(1 + 8d ln(1.25/δ)/(mε²));
//	Thm 32: q = max{2k(1 + ln n)/n, 2 ln(1/δ)}, σ = 4L√(q ln(1/δ))/ε,
//	        η = 4R/√(n(L² + dσ²)), bound (4RL/√n)·√(1 + 16dq ln(1/δ)/ε²).
//
// Cor 31's printed σ is too small by √2 and Thm 32's q prints ln n where
// its argument needs 1 + ln n ≥ H_n; privamp uses the sound versions
// (shifted.UtilityTheorem.Erratum). The classical Gaussian bound behind
// Thm 29–31 also needs ε < 1, and Thm 32's privacy proof uses Thm 26, which
// is not sound: privamp reports the guarantee package shifted certifies for
// the derived σ beside the target. Calibrate is not handled here (see
// CalibrateTarget).
func Derive(rule Rule, t Target) (Params, error) {
	th, ok := rule.Theorem()
	if !ok {
		return Params{}, field.New("rule", string(rule), "must be thm29, thm30, cor31, thm32 or calibrate")
	}
	if rule == Cor31 && t.Public < 1 {
		return Params{}, field.New("public", t.Public, "must be ≥ 1 for rule cor31: FMTT18 Cor 31 needs public records")
	}
	sigma, err := th.Sigma(shifted.UtilityTarget{Epsilon: t.Epsilon, Delta: t.Delta, Lipschitz: t.L,
		N: int64(t.N), Public: int64(t.Public), Tasks: int64(t.Tasks)})
	if err != nil {
		return Params{}, err
	}
	u := shifted.UtilityParams{Lipschitz: t.L, Radius: t.R, Dimension: int64(t.D), Steps: int64(t.N), Sigma: sigma}
	p := Params{Rule: rule, Sigma: sigma, Eta: th.Eta(u), PaperUtility: th.Bound(u),
		Source:       th.String() + " (" + th.Algorithm() + ")",
		SigmaFormula: th.SigmaFormula(), EtaFormula: th.EtaFormula()}
	switch rule {
	case Cor31:
		p.Source += ", σ corrected by √2"
	case Thm32:
		p.Source += ", q with 1 + ln n"
		p.SigmaFormula += fmt.Sprintf(", q = %.6g", shifted.Thm32Q(int64(t.N), int64(t.Tasks), t.Delta))
	}
	if e := th.Erratum(); e != "" {
		p.Notes = append(p.Notes, e)
	}
	if t.Epsilon >= 1 && rule != Thm32 {
		p.Notes = append(p.Notes, fmt.Sprintf("the classical Gaussian-mechanism bound behind %s assumes ε < 1 (here ε = %g); the guarantee shown is recomputed soundly", rule, t.Epsilon))
	}
	return p, nil
}

// DefaultRule is the theorem that goes with a variant.
func DefaultRule(v shifted.Variant, public, tasks int64) Rule {
	switch {
	case tasks > 1:
		return Thm32
	case v == shifted.VariantStop:
		return Thm29
	case v == shifted.VariantSkip && public > 0:
		return Cor31
	case v == shifted.VariantSkip:
		return Thm30
	}
	return Calibrate
}

// CalibrateTarget finds the smallest σ whose worst-case ε over the private
// indices (package shifted) is ≤ target at δ, with η fixed by the caller (η
// must be known first: for strongly convex losses the bound depends on it).
// It is shifted.Training.CalibrateSigma, privamp's one calibration of σ.
func CalibrateTarget(tr shifted.Training, eps, delta float64) (float64, error) {
	tr.Delta = delta
	return tr.CalibrateSigma(eps, nil)
}
