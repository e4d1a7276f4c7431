package langevin

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// Horizon choices of Params.Horizon.
const (
	// HorizonGiven runs the steps and step size as given.
	HorizonGiven = "given"
	// HorizonGTU chooses β, the horizon t and the steps by GTU Thm 2.3
	// with Lemma B.5 (Theorem23).
	HorizonGTU = "gtu"
)

// ScheduleSource cites Theorem23.
const ScheduleSource = "GTU (seed 000) Thm 2.3 (ψ = 0): the largest β whose path bound (Lemma 3.1) over Lemma B.5's horizon t(β) = (e/(2βm))·ln(4βL‖C‖₂/δ²) meets ε at δ; steps η = 1/(2βM) (drift step 1/(2M): privamp's discretisation, the theorem is in continuous time), T = ⌈t/η⌉"

// Schedule is GTU Thm 2.3's choice of the inverse temperature β and the
// horizon t for a target (ε, δ), discretised into T steps of size η. Every
// field comes from declared constants (Δ, L, ‖C‖₂, m, M) and the target.
type Schedule struct {
	Beta float64 `json:"beta"`
	// Horizon is Lemma B.5's t(β) (ψ = 0, so βψ ≤ 1): the time after which
	// the diffusion from a uniform start on C is within TV δ/2 of Gibbs(βL).
	Horizon float64 `json:"horizon"`
	Steps   int64   `json:"steps"`
	Eta     float64 `json:"eta"`
	Source  string  `json:"source"`
}

// MixingHorizon is Lemma B.5's horizon for ψ = 0 (βψ ≤ 1): t =
// (e/(2βm))·ln(4βL‖C‖₂/δ²), with the log's argument as the proof uses it
// (4β, not the statement's 2β: seed 000 notes §1.4); 0 where the log is
// negative (β below δ²/(4L‖C‖₂): already mixed by Pinsker).
func MixingHorizon(beta, lipschitz, diameter, m, delta float64) float64 {
	return math.Max(0, math.E/(2*beta*m)*math.Log(4*beta*lipschitz*diameter/(delta*delta)))
}

// scheduleAt is the discretised schedule at β: η = 1/(2βM), T = ⌈t(β)/η⌉
// (at least 1).
func scheduleAt(beta, lipschitz, diameter, m, smooth, delta float64) Schedule {
	t := MixingHorizon(beta, lipschitz, diameter, m, delta)
	eta := 1 / (2 * beta * smooth)
	steps := int64(math.Max(1, math.Ceil(t/eta)))
	return Schedule{Beta: beta, Horizon: t, Steps: steps, Eta: eta, Source: ScheduleSource}
}

// Theorem23 returns GTU Thm 2.3's schedule for the target ε at δ: the
// largest β (to a relative 1e-9, on the safe side) whose path guarantee
// (PathPrivacy, gradient sensitivity Δ) over scheduleAt(β)'s T steps of size
// η has ε ≤ target. The path ρ = Tηβ²Δ²/4 ≈ βΔ²·e(M/m)ln(4βL‖C‖₂/δ²)/(8M)
// grows with β, so the one bisection (dp.Search, on 1/β) finds it. It needs
// a strongly convex loss (m > 0, for Lemma B.5's mixing) and a bounded
// domain (‖C‖₂ < ∞).
func Theorem23(target, sensitivity, lipschitz, diameter, m, smooth, delta float64) (Schedule, error) {
	if err := field.First(field.Positive("target_epsilon", target), field.Positive("sensitivity", sensitivity),
		field.OpenUnit("delta", delta)); err != nil {
		return Schedule{}, err
	}
	switch {
	case !(m > 0):
		return Schedule{}, field.New("l2", m, "must be > 0 for horizon %s: GTU Thm 2.3's horizon (Lemma B.5) needs a strongly convex loss", HorizonGTU)
	case !(diameter > 0) || math.IsInf(diameter, 0):
		return Schedule{}, field.New("radius", diameter/2, "must be finite for horizon %s: Lemma B.5's horizon grows with the diameter ‖C‖₂", HorizonGTU)
	case !(lipschitz > 0) || !(smooth >= m):
		return Schedule{}, field.New("loss", lipschitz, "has no positive Lipschitz constant and smoothness ≥ m at these bounds")
	}
	eps := func(beta float64) float64 {
		s := scheduleAt(beta, lipschitz, diameter, m, smooth, delta)
		if s.Steps > maxSteps {
			return math.Inf(1)
		}
		e, _ := rdp.LinearEpsilon(PathRho(beta, sensitivity, s.Steps, s.Eta), delta, rdp.Improved)
		return e
	}
	// z = 1/β: more z, less privacy loss.
	z, err := dp.Search{Guess: sensitivity, Factor: 4, Min: 1e-300, Max: 1e300, RelTol: 1e-9}.Solve(func(z float64) bool { return eps(1/z) <= target })
	if err != nil && err != dp.ErrBelowMin {
		return Schedule{}, field.New("target_epsilon", target, "is not met by any β for horizon %s: %v", HorizonGTU, err)
	}
	s := scheduleAt(1/z, lipschitz, diameter, m, smooth, delta)
	if s.Steps > maxSteps {
		return Schedule{}, field.New("l2", m, "makes Thm 2.3's horizon need more than %d steps (T ≈ e(M/m)·ln(4βL‖C‖₂/δ²))", maxSteps)
	}
	if e := eps(s.Beta); !(e <= target) {
		return Schedule{}, fmt.Errorf("langevin: Thm 2.3's β %g certifies ε = %g > %g (a bisection error)", s.Beta, e, target)
	}
	return s, nil
}
