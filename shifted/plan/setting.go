package plan

import (
	"fmt"
	"math"
	"strings"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
)

// Variant is the algorithm a plan schedules (FMTT18 §4).
type Variant string

// The variants. PNSGD covers one or several fixed-order passes with batches
// (shifted.SGD: Thm 23, minibatches, Thm 35, Cor 31, strong convexity);
// Skip and Stop are single passes with one record per step (shifted.Skip,
// shifted.Stop; Stop with Tasks > 1 is shifted.Tasks, Thm 32).
const (
	PNSGD Variant = "pnsgd"
	Skip  Variant = "skip"
	Stop  Variant = "stop"
)

// ParseVariant accepts pnsgd, skip and stop.
func ParseVariant(s string) (Variant, error) {
	switch v := Variant(strings.ToLower(strings.TrimSpace(s))); v {
	case PNSGD, Skip, Stop:
		return v, nil
	}
	return "", fmt.Errorf("unknown variant %q (allowed: pnsgd, skip, stop)", s)
}

// Setting is everything but the budgets: the algorithm, the loss, the domain
// and the accounting conventions.
type Setting struct {
	Variant Variant
	// Lipschitz is L > 0 (every per-record gradient norm ≤ L); Smoothness
	// β ≥ 0 (0: not given, η ≤ 2/β assumed); StrongConvexity m ≥ 0 (needs
	// β and a fixed Eta).
	Lipschitz, Smoothness, StrongConvexity float64
	// Radius R > 0 of the domain K ⊂ {‖w‖ ≤ R}; Dimension d ≥ 1.
	Radius    float64
	Dimension int64
	// Batch (records per step, default 1) and Epochs (fixed-order passes,
	// default 1) apply to PNSGD; Tasks (default 1) to Stop.
	Batch, Epochs, Tasks int64
	// Public records processed after the private ones (Cor 31).
	Public int64
	// Eta fixes the step size; 0 derives it from σ by the theorem's rule
	// (EtaRule).
	Eta float64
	// Delta is the δ of people who do not give their own, in (0, 1).
	Delta      float64
	Conversion rdp.Conversion
}

func (s Setting) batch() int64  { return max(s.Batch, 1) }
func (s Setting) epochs() int64 { return max(s.Epochs, 1) }
func (s Setting) tasks() int64  { return max(s.Tasks, 1) }

// Validate checks the setting; errors name the field as the command line
// spells it.
func (s Setting) Validate() error {
	fin := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case s.Variant != PNSGD && s.Variant != Skip && s.Variant != Stop:
		return fmt.Errorf("variant must be pnsgd, skip or stop, got %q", s.Variant)
	case !fin(s.Lipschitz) || !(s.Lipschitz > 0):
		return fmt.Errorf("lipschitz must be a finite number > 0, got %v", s.Lipschitz)
	case !fin(s.Smoothness) || s.Smoothness < 0:
		return fmt.Errorf("smoothness must be a finite number ≥ 0, got %v", s.Smoothness)
	case !fin(s.StrongConvexity) || s.StrongConvexity < 0:
		return fmt.Errorf("strong-convexity must be a finite number ≥ 0, got %v", s.StrongConvexity)
	case !fin(s.Radius) || !(s.Radius > 0):
		return fmt.Errorf("radius must be a finite number > 0, got %v", s.Radius)
	case s.Dimension < 1:
		return fmt.Errorf("dimension must be a whole number ≥ 1, got %d", s.Dimension)
	case s.Batch < 0 || s.Epochs < 0 || s.Tasks < 0 || s.Public < 0:
		return fmt.Errorf("batch, epochs, tasks and public must be ≥ 0")
	case s.Public > shifted.MaxN:
		return fmt.Errorf("public must be ≤ %d, got %d", shifted.MaxN, s.Public)
	case !fin(s.Eta) || s.Eta < 0:
		return fmt.Errorf("eta must be a finite number ≥ 0 (0: derived from σ), got %v", s.Eta)
	case !(s.Delta > 0 && s.Delta < 1):
		return fmt.Errorf("delta must be in (0, 1), got %v", s.Delta)
	case s.Conversion != rdp.Improved && s.Conversion != rdp.Classic:
		return fmt.Errorf("unknown conversion %v", s.Conversion)
	}
	if s.Variant != PNSGD && (s.batch() > 1 || s.epochs() > 1) {
		return fmt.Errorf("batch and epochs apply to the pnsgd variant; %s-PNSGD is analysed (Thm 24, 26 and the mixtures of notes §3) for one pass with one record per step", s.Variant)
	}
	if s.tasks() > 1 && s.Variant != Stop {
		return fmt.Errorf("tasks (Thm 32) apply to the stop variant")
	}
	if s.tasks() > shifted.MaxN || s.epochs() > shifted.MaxN {
		return fmt.Errorf("tasks and epochs must be ≤ %d", shifted.MaxN)
	}
	if s.StrongConvexity > 0 {
		if s.Smoothness == 0 || s.Eta == 0 {
			return fmt.Errorf("strong-convexity needs smoothness and a fixed eta: the contraction max(|1 − ηm|, |1 − ηβ|) depends on η, and with η derived from σ more noise could weaken the guarantee")
		}
		if s.StrongConvexity > s.Smoothness {
			return fmt.Errorf("strong-convexity %v exceeds smoothness %v; no loss is both", s.StrongConvexity, s.Smoothness)
		}
	}
	if s.Eta > 0 && s.Smoothness > 0 && s.Eta*s.Smoothness > 2 {
		return fmt.Errorf("eta = %v > 2/β = %v: the gradient step is not a contraction (FMTT18 Prop. 18), so amplification by iteration does not apply", s.Eta, 2/s.Smoothness)
	}
	return nil
}

// Steps returns the number of noisy steps of a run over n private and the
// public records: Epochs·⌈(n + Public)/Batch⌉.
func (s Setting) Steps(n int64) int64 {
	b := s.batch()
	return s.epochs() * ((n + s.Public + b - 1) / b)
}

// EtaRule returns the step size for σ with n private people and how it was
// chosen: Eta when fixed, else the theorem's η = c·R/√(S(L² + dσ²))
// (package shifted: Thm 32 for several Stop tasks, Thm 29 for Stop, Cor 31
// with public records, Thm 30 otherwise, and for several passes Thm 28 with
// T = S, whose η is Thm 29's), lowered to 2/β when β is given and the rule
// exceeds it (the step must contract, Prop. 18).
func (s Setting) EtaRule(n int64, sigma float64) (eta float64, rule string, paper bool) {
	if s.Eta > 0 {
		return s.Eta, "fixed (--eta)", false
	}
	th := s.theorem()
	src := th.String() + ": " + th.EtaFormula()
	if s.epochs() > 1 {
		th = shifted.Thm29
		src = "FMTT18 Thm 28 with T = S steps: " + th.EtaFormula()
	}
	eta = th.Eta(s.utilityParams(n, sigma))
	if s.Smoothness > 0 && eta > 2/s.Smoothness {
		return 2 / s.Smoothness, src + fmt.Sprintf(" = %.6g exceeds 2/β; lowered to 2/β so the step contracts (Prop. 18)", eta), false
	}
	return eta, src, true
}

// Guarantee returns the per-person guarantee of the run with n private
// people (positions 1..n) at noise σ, and the step size it uses.
func (s Setting) Guarantee(n int64, sigma float64) (shifted.Guarantee, float64, error) {
	eta, _, _ := s.EtaRule(n, sigma)
	loss := shifted.Loss{Lipschitz: s.Lipschitz, Smoothness: s.Smoothness, StrongConvexity: s.StrongConvexity, Eta: eta}
	var g shifted.Guarantee
	switch s.Variant {
	case PNSGD:
		g = shifted.SGD{N: n, Public: s.Public, Batch: s.batch(), Epochs: s.epochs(), Sigma: sigma, Loss: loss}
	case Skip:
		g = shifted.Skip{N: n + s.Public, Sigma: sigma, Loss: loss}
	case Stop:
		st := shifted.Stop{N: n + s.Public, Sigma: sigma, Loss: loss}
		g = st
		if s.tasks() > 1 {
			g = shifted.Tasks{Stop: st, K: s.tasks()}
		}
	default:
		return nil, 0, fmt.Errorf("unknown variant %q", s.Variant)
	}
	if err := g.Check(); err != nil {
		return nil, 0, err
	}
	return g, eta, nil
}

// Name describes the variant in words.
func (s Setting) Name() string {
	var parts []string
	switch s.Variant {
	case PNSGD:
		switch {
		case s.epochs() > 1:
			parts = append(parts, fmt.Sprintf("PNMSGD, %d fixed-order passes", s.epochs()))
		default:
			parts = append(parts, "single-pass PNSGD")
		}
		if s.batch() > 1 {
			parts = append(parts, fmt.Sprintf("batches of %d", s.batch()))
		}
	case Skip:
		parts = append(parts, "Skip-PNSGD")
	case Stop:
		parts = append(parts, "Stop-PNSGD")
		if s.tasks() > 1 {
			parts = append(parts, fmt.Sprintf("%d tasks", s.tasks()))
		}
	}
	if s.StrongConvexity > 0 {
		parts = append(parts, "strongly convex")
	}
	if s.Public > 0 {
		parts = append(parts, fmt.Sprintf("%d public records at the end", s.Public))
	}
	return strings.Join(parts, ", ")
}
