package optimizer

import (
	"errors"
	"fmt"
	"math"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// This file keeps the accounting API that claim.go and verify.go use
// (Setting, PrivacyOf, CompositionEpsilon, CalibrateSigma) as thin wrappers
// over shifted.Training until claims move to shifted.Training themselves.
// Training code uses shifted.Training directly (Config, Train).

// Variant is shifted.Variant.
//
// Deprecated: use shifted.Variant; kept for claim.go and verify.go.
type Variant = shifted.Variant

// The variants under their old names.
//
// Deprecated: use shifted.VariantPNSGD, VariantSkip, VariantStop.
const (
	Final = shifted.VariantPNSGD
	Skip  = shifted.VariantSkip
	Stop  = shifted.VariantStop
)

// ParseVariant is shifted.ParseVariant.
//
// Deprecated: use shifted.ParseVariant.
func ParseVariant(s string) (Variant, error) { return shifted.ParseVariant(s) }

// Setting is what the per-person privacy of a claimed run depends on.
//
// Deprecated: use shifted.Training; kept for claim.go and verify.go.
type Setting struct {
	Variant Variant
	N       int // records (private and public)
	Batch   int
	Epochs  int
	Public  int // the last Public records are public (Cor. 31)
	Tasks   int // k independent runs on the same data (Thm 32); 1 otherwise
	Eta     float64
	Sigma   float64
	L       float64 // sensitivity: a step's is 2ηL/Batch
	Beta    float64 // smoothness (0: not given)
	M       float64 // strong convexity
}

// Steps is the number of steps S of a full run.
func (s Setting) Steps() int { return s.Epochs * ((s.N + s.Batch - 1) / s.Batch) }

// Private is the number of records with a privacy guarantee (N − Public).
func (s Setting) Private() int { return s.N - s.Public }

// Training is the setting as a shifted.Training. δ does not enter the
// curves; it is set to 0.5 only so that the Training validates.
func (s Setting) Training() shifted.Training {
	return shifted.Training{Variant: s.Variant, N: int64(s.N - s.Public), Public: int64(s.Public),
		Batch: int64(s.Batch), Epochs: int64(s.Epochs), Tasks: int64(s.Tasks), Sigma: s.Sigma, Delta: 0.5,
		Loss: shifted.Loss{Lipschitz: s.L, Smoothness: s.Beta, StrongConvexity: s.M, Eta: s.Eta}}
}

// Privacy is the per-index guarantee of one run.
type Privacy interface {
	Curve(t int) (rdp.Curve, error)
	Epsilon(t int, delta float64) (float64, error)
	Worst(delta float64) (t int, eps float64, err error)
	Source() string
	Assumptions() []string
}

// ErrNoAccountant is never returned any more (the accountant is package
// shifted, called directly).
//
// Deprecated: kept for verify.go.
var ErrNoAccountant = errors.New("no privacy accountant")

// PrivacyOf returns the per-person guarantee of a setting through
// shifted.Training.Guarantee.
func PrivacyOf(s Setting) (Privacy, error) {
	g, err := s.Training().Guarantee()
	if err != nil {
		return nil, err
	}
	return guaranteePrivacy{g}, nil
}

// guaranteePrivacy adapts a shifted.Guarantee to Privacy.
type guaranteePrivacy struct{ g shifted.Guarantee }

func (p guaranteePrivacy) Curve(t int) (rdp.Curve, error) {
	if t < 1 || int64(t) > p.g.Len() {
		return nil, fmt.Errorf("index %d outside the private indices [1, %d]", t, p.g.Len())
	}
	return p.g.Curve(int64(t)), nil
}

func (p guaranteePrivacy) Epsilon(t int, delta float64) (float64, error) {
	return epsilonOf(p.g, int64(t), delta)
}

func (p guaranteePrivacy) Worst(delta float64) (int, float64, error) {
	t := worstIndex(p.g)
	e, err := epsilonOf(p.g, t, delta)
	return int(t), e, err
}

func (p guaranteePrivacy) Source() string        { return p.g.Source() }
func (p guaranteePrivacy) Assumptions() []string { return p.g.Assumptions() }

// epsilonOf is index t's ε at δ through the improved conversion.
func epsilonOf(g shifted.Guarantee, t int64, delta float64) (float64, error) {
	if t < 1 || t > g.Len() {
		return 0, fmt.Errorf("index %d outside the private indices [1, %d]", t, g.Len())
	}
	dp, err := rdp.EpsilonFor(g.Curve(t), delta, rdp.Improved)
	if err != nil {
		return 0, err
	}
	return dp.Epsilon, nil
}

// worstIndex is an index where the guarantee is weakest (its ε_t is
// monotone in t: shifted.Guarantee.Monotone).
func worstIndex(g shifted.Guarantee) int64 {
	if g.Monotone() == 1 {
		return g.Len()
	}
	return 1
}

// CompositionEpsilon is the ε of plain composition (every iterate released,
// shifted.Training.Composition).
func CompositionEpsilon(s Setting, delta float64) float64 {
	return compositionEpsilon(s.Training(), delta)
}

func compositionEpsilon(tr shifted.Training, delta float64) float64 {
	c := tr.Composition()
	e, err := epsilonOf(c, 1, delta)
	if err != nil {
		return math.Inf(1)
	}
	return e
}

// CalibrateSigma returns the smallest σ (to relative precision 1e-6, rounded
// up, so the target holds at it) for which the worst-case ε over private
// indices ≤ worst (if worst ≥ 0) and ε_t ≤ per[t] for each given index.
func CalibrateSigma(s Setting, delta, worst float64, per map[int]float64) (float64, error) {
	per64 := make(map[int64]float64, len(per))
	for t, e := range per {
		per64[int64(t)] = e
	}
	return calibrate(s.Training(), delta, worst, per64)
}

func calibrate(tr shifted.Training, delta, worst float64, per map[int64]float64) (float64, error) {
	ok := func(sigma float64) bool {
		t2 := tr
		t2.Sigma = sigma
		g, err := t2.Guarantee()
		if err != nil {
			return false
		}
		if worst >= 0 {
			if e, err := epsilonOf(g, worstIndex(g), delta); err != nil || e > worst {
				return false
			}
		}
		for t, want := range per {
			if e, err := epsilonOf(g, t, delta); err != nil || e > want {
				return false
			}
		}
		return true
	}
	hi := math.Max(tr.Sigma, 1e-6)
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
