package shifted

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/rdp"
)

// Skip is Skip-PNSGD (FMTT18 §4): draw t₀ uniformly from {0, …, ⌊n/2⌋},
// skip the first t₀ records, run PNSGD on the rest and release the final
// iterate. Thm 24 gives index t the PNSGD bound (α, 2αL²/(σ²(n − t + 1))).
//
// Curve is tighter and exact for the analysis (derived in
// docs/amplification.md#skip-and-stop-mixtures): the proof
// of Lemma 25 shows D_α(μ_ρ ‖ ν_ρ) ≤ (1/(α − 1))·ln E_{i∼ρ} e^{(α−1)D_α(μ_i‖ν_i)}
// for mixtures, with no condition on σ. Index t is untouched when t₀ ≥ t
// (probability p_t = (⌊n/2⌋ − t + 1)/(⌊n/2⌋ + 1) for t ≤ ⌊n/2⌋, else 0) and
// otherwise still has n − t + 1 steps to go, so
//
//	ε_t(α) = (1/(α − 1))·ln(p_t + (1 − p_t)·e^{(α−1)·α·ρ_t}),
//
// with ρ_t the PNSGD value (the strongly convex one when the loss is). It is
// not linear in α and never above αρ_t.
//
// With a Radius (> 0, and the step size η given) every step projects onto
// a set inside that ball, and each component of the mixture (a fixed-order
// single pass over the records after t₀) has the bounded-domain bound of
// Domain with one pass: ρ_t is the smaller of the PNSGD value and the window
// after the record's use, whose cost does not depend on t₀ (the record has
// n − t steps after it in every component). The mixture inequality holds for
// any per-component bounds, so the curve stays valid.
type Skip struct {
	N      int64
	Sigma  float64
	Loss   Loss
	Radius float64 // 0: no bounded domain
}

func (s Skip) base() SGD { return SGD{N: s.N, Sigma: s.Sigma, Loss: s.Loss} }

// Len returns N.
func (s Skip) Len() int64 { return s.N }

// Monotone returns +1.
func (s Skip) Monotone() int { return 1 }

// Check validates the parameters and the contraction assumption.
func (s Skip) Check() error {
	if s.Radius != 0 {
		return s.domain().Check()
	}
	return s.base().Check()
}

// domain is the one-pass bounded-domain run of every component.
func (s Skip) domain() Domain { return Domain{SGD: s.base(), Radius: s.Radius} }

// rho returns ρ_t of the components: the PNSGD value, or the bounded-domain
// one when a radius is given.
func (s Skip) rho(t int64) float64 {
	if s.Radius != 0 {
		return s.domain().Rho(t)
	}
	return s.base().Rho(t)
}

// SkipProbability returns p_t = P[t₀ ≥ t].
func (s Skip) SkipProbability(t int64) float64 {
	h := s.N / 2
	if t > h {
		return 0
	}
	return float64(h-t+1) / float64(h+1)
}

// Curve returns the exact mixture curve of index t.
func (s Skip) Curve(t int64) rdp.Curve {
	return skipCurve{p: s.SkipProbability(t), rho: s.rho(t)}
}

// PaperCurve returns Thm 24's bound α·ρ_t.
func (s Skip) PaperCurve(t int64) rdp.Linear { return rdp.Linear(s.base().Rho(t)) }

// Source cites the theorem and the derivation.
func (s Skip) Source() string {
	src := "FMTT18 Thm 24, tightened: exact mixture over the skip count (derivation: docs/amplification.md §Skip and Stop mixtures)"
	if s.Radius != 0 {
		src += fmt.Sprintf("; each component bounded on the domain of radius R = %v (docs/amplification.md §Bounded domain: privacy that stops growing)", s.Radius)
	}
	return src
}

// Assumptions lists the assumptions.
func (s Skip) Assumptions() []string {
	base := s.base().Assumptions()
	if s.Radius != 0 {
		base = s.domain().Assumptions()
	}
	return append(base,
		"t₀ uniform on {0, …, ⌊n/2⌋} and kept secret; only the final iterate is released")
}

// skipCurve is ε(α) = (1/(α−1)) ln(p + (1−p) e^{(α−1)αρ}), evaluated as
// αρ + ln(1 + p·(e^{−(α−1)αρ} − 1))/(α−1), which cannot overflow.
type skipCurve struct{ p, rho float64 }

func (c skipCurve) Epsilon(a float64) float64 {
	switch {
	case c.p >= 1 || c.rho == 0:
		return 0
	case math.IsInf(a, 1):
		return math.Inf(1)
	}
	g := (a - 1) * a * c.rho
	return a*c.rho + math.Log1p(c.p*math.Expm1(-g))/(a-1)
}
