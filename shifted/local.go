package shifted

import (
	"encoding/json"
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/rdp"
)

// Local is the guarantee of the same run when every iterate is published:
// each step that uses the record is a Gaussian mechanism with sensitivity
// 2ηL/b_j and noise ησ, and the E such steps compose, so index t is
// ρ_t-zCDP with ρ_t = E·2L²/(b_j²σ²) (FMTT18 Lemma 27 — local RDP
// (α, 2αL²/σ²) for b = E = 1 — with composition, Mironov 2017 Prop. 1). It
// holds for Skip- and Stop-PNSGD as well, and it needs neither smoothness
// nor convexity: it is privamp's answer when the step does not contract.
type Local struct{ SGD SGD }

// Len returns N.
func (l Local) Len() int64 { return l.SGD.N }

// Monotone returns +1 (constant except for a smaller last batch).
func (l Local) Monotone() int { return 1 }

// Check validates the counts, σ and L; smoothness and η are not needed.
func (l Local) Check() error { return l.SGD.checkCounts() }

// LogRho returns ln ρ_t.
func (l Local) LogRho(t int64) float64 { return l.SGD.CompositionLogRho(t) }

// Curve returns α·ρ_t.
func (l Local) Curve(t int64) rdp.Curve { return rdp.Linear(math.Exp(l.LogRho(t))) }

// Source cites Lemma 27 and composition.
func (l Local) Source() string {
	if l.SGD.batch() == 1 && l.SGD.epochs() == 1 {
		return "FMTT18 Lemma 27 (local RDP: every iterate released)"
	}
	return "FMTT18 Lemma 27 with composition over the steps that use the record (Mironov 2017 Prop. 1): every iterate released"
}

// Assumptions lists what Lemma 27 relies on.
func (l Local) Assumptions() []string {
	return []string{
		"replace-one neighbours; every iterate may be released (no amplification by iteration)",
		fmt.Sprintf("gradients bounded by L = %v (f(·, x) L-Lipschitz); no smoothness, convexity or contraction needed", l.SGD.Loss.Lipschitz),
		l.SGD.noiseAssumption(),
	}
}

// Smoothing is the Gaussian smoothing of a convex L-Lipschitz loss that is
// not smooth (FMTT18 Thm 33): f̂ = E_Z[h(w + Z)], Z ~ N(0, λ²I), with h the
// convex Lipschitz extension of f, is convex, L-Lipschitz and
// (L/λ)-smooth, and |f̂ − f| ≤ Lλ√d on the domain.
type Smoothing struct {
	Lambda     float64 `json:"lambda"`     // the smoothing radius λ
	Smoothness float64 `json:"smoothness"` // β = L/λ of the smoothed loss
	Error      float64 `json:"error"`      // the approximation error Lλ√d
	Source     string  `json:"source"`
}

// MarshalJSON encodes the smoothing (non-finite values as null).
func (s Smoothing) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Lambda     dp.Num   `json:"lambda"`
		Smoothness dp.Num   `json:"smoothness"`
		Error      dp.Noise `json:"error"`
		Source     string   `json:"source"`
	}{dp.Num(s.Lambda), dp.Num(s.Smoothness), dp.Noise(s.Error), s.Source})
}

// SmoothingForStep returns the least smoothing for which a gradient step of
// size η on the smoothed loss contracts: η ≤ 2/β = 2λ/L, so λ = ηL/2, with
// error Lλ√d = ηL²√d/2 (FMTT18 Thm 33 with Prop. 18).
func SmoothingForStep(eta, lipschitz float64, dim int64) (Smoothing, error) {
	if err := finitePositive("step size η", eta); err != nil {
		return Smoothing{}, err
	}
	if err := finitePositive("Lipschitz constant L", lipschitz); err != nil {
		return Smoothing{}, err
	}
	if dim < 1 {
		return Smoothing{}, fmt.Errorf("dimension d must be ≥ 1, got %d", dim)
	}
	return smoothingAt(eta*lipschitz/2, lipschitz, dim, "FMTT18 Thm 33 with Prop. 18: λ = ηL/2 makes η ≤ 2/β hold"), nil
}

// smoothingAt is Thm 33 at smoothing λ: the smoothed loss is (L/λ)-smooth
// and within Lλ√d of the original.
func smoothingAt(lam, lipschitz float64, dim int64, source string) Smoothing {
	return Smoothing{
		Lambda:     lam,
		Smoothness: lipschitz / lam,
		Error:      lipschitz * lam * math.Sqrt(float64(dim)),
		Source:     source,
	}
}

// SmoothingCor34 returns Corollary 34's choice λ = Rε/(2√(n ln(1/δ))) for a
// domain of radius R and target (ε, δ), with β = L/λ and error Lλ√d.
func SmoothingCor34(radius, eps, delta float64, n int64, lipschitz float64, dim int64) (Smoothing, error) {
	for _, c := range []struct {
		name string
		v    float64
	}{{"radius R", radius}, {"ε", eps}, {"Lipschitz constant L", lipschitz}} {
		if err := finitePositive(c.name, c.v); err != nil {
			return Smoothing{}, err
		}
	}
	if !(delta > 0 && delta < 1) {
		return Smoothing{}, fmt.Errorf("δ must be in (0, 1), got %v", delta)
	}
	if err := checkN(n); err != nil {
		return Smoothing{}, err
	}
	if dim < 1 {
		return Smoothing{}, fmt.Errorf("dimension d must be ≥ 1, got %d", dim)
	}
	lam := radius * eps / (2 * math.Sqrt(-float64(n)*math.Log(delta)))
	return smoothingAt(lam, lipschitz, dim, "FMTT18 Cor 34 (λ = Rε/(2√(n ln(1/δ)))) and Thm 33"), nil
}
