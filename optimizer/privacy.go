package optimizer

import (
	"errors"
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// Setting is what the per-person privacy of a run depends on.
type Setting struct {
	Variant Variant
	N       int // examples (private and public)
	Batch   int
	Epochs  int
	Public  int // the last Public examples are public (Cor. 31)
	Tasks   int // k independent runs on the same data (Thm 32); 1 otherwise
	Eta     float64
	Sigma   float64
	// L bounds half the change of one example's gradient (Constants.Sens,
	// ≤ the Lipschitz constant): the sensitivity of a step is 2ηL/Batch.
	L    float64
	Beta float64 // smoothness (0: not given)
	M    float64 // strong convexity
}

// Steps is the number of steps S of a full run.
func (s Setting) Steps() int { return s.Epochs * ((s.N + s.Batch - 1) / s.Batch) }

// Private is the number of examples with a privacy guarantee (N − Public).
func (s Setting) Private() int { return s.N - s.Public }

// Privacy is the per-index guarantee of one run configuration.
type Privacy interface {
	// Curve is the RDP curve ε_t(α) of index t (1-based).
	Curve(t int) (rdp.Curve, error)
	// Epsilon is index t's (ε, δ) through the improved conversion.
	Epsilon(t int, delta float64) (float64, error)
	// Worst is the largest ε over the private indices and one index where it
	// is attained.
	Worst(delta float64) (t int, eps float64, err error)
	// Source names the theorem(s) the bound comes from.
	Source() string
	// Assumptions lists what the bound relies on.
	Assumptions() []string
}

// Accountant returns the per-person privacy of a setting. It is the seam to
// package shifted (which owns every amplification-by-iteration bound); the
// wiring is in shifted.go. It is nil only if that wiring is absent.
var Accountant func(s Setting) (Privacy, error)

// ErrNoAccountant is returned when Accountant is not set.
var ErrNoAccountant = errors.New("no privacy accountant: package shifted is not wired in")

// PrivacyOf calls Accountant.
func PrivacyOf(s Setting) (Privacy, error) {
	if Accountant == nil {
		return nil, ErrNoAccountant
	}
	return Accountant(s)
}

// CompositionRho is the zCDP parameter of plain composition, the bound that
// needs neither convexity nor smoothness (the iterates may all be released):
// each step that holds the person is a Gaussian mechanism with ℓ2
// sensitivity 2L/b on the averaged gradient and noise σ (replace-one), the
// person is in Epochs steps of each of Tasks runs, so
// ρ = Tasks·Epochs·(2L/b)²/(2σ²) (Mironov 2017 Prop. 7 and Cor. 3; seed 002
// Lemma 27 for one step).
func CompositionRho(s Setting) float64 {
	sens := 2 * s.L / float64(s.Batch)
	return float64(s.Tasks) * float64(s.Epochs) * sens * sens / (2 * s.Sigma * s.Sigma)
}

// CompositionEpsilon converts CompositionRho to (ε, δ).
func CompositionEpsilon(s Setting, delta float64) float64 {
	e, _ := rdp.LinearEpsilon(CompositionRho(s), delta, rdp.Improved)
	return e
}

// CalibrateSigma returns the smallest σ (to relative precision 1e-6, rounded
// up, so the target holds at it) for which every claim holds: the worst-case
// ε over private indices ≤ worst (if worst ≥ 0) and ε_t ≤ per[t] for each
// given index. It uses the shifted accountant.
func CalibrateSigma(s Setting, delta, worst float64, per map[int]float64) (float64, error) {
	ok := func(sigma float64) bool {
		s2 := s
		s2.Sigma = sigma
		p, err := PrivacyOf(s2)
		if err != nil {
			return false
		}
		if worst >= 0 {
			_, e, err := p.Worst(delta)
			if err != nil || e > worst {
				return false
			}
		}
		for t, want := range per {
			e, err := p.Epsilon(t, delta)
			if err != nil || e > want {
				return false
			}
		}
		return true
	}
	if Accountant == nil {
		return 0, ErrNoAccountant
	}
	hi := math.Max(s.Sigma, 1e-6)
	for !ok(hi) {
		hi *= 4
		if hi > 1e12 {
			return math.Inf(1), fmt.Errorf("no σ ≤ 1e12 meets the claim")
		}
	}
	sigma, err := numeric.Bisect(ok, hi*1e-9, hi, 1e-7, true)
	if err != nil {
		return hi, nil
	}
	return sigma, nil
}
