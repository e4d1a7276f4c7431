package composition

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// LaplaceMechanism is k adaptive releases of the Laplace mechanism with
// ℓ1-sensitivity Δ and scale b; each release is (Δ/b)-DP (Dwork–Roth 2014,
// Thm 3.6). Give Scale, or set Calibrate for the smallest scale meeting TargetEpsilon.
type LaplaceMechanism struct {
	Scale         float64        // b > 0 (ignored when Calibrate)
	Sensitivity   float64        // Δ > 0
	Compositions  float64        // k, a whole number in [1, MaxK]
	Delta         float64        // δ ∈ (0, 1) for the approximate-DP methods
	Calibrate     bool           // find the noise for TargetEpsilon instead of taking it
	TargetEpsilon float64        // ε > 0 to calibrate for; ignored unless Calibrate
	Conversion    rdp.Conversion // RDP → (ε, δ)
	Profile       ProfileQuery   // δ(ε) at one ε and on a curve, if asked
}

// LaplaceResult is the (ε, δ) of a LaplaceMechanism by every applicable
// method, and the smallest of them.
type LaplaceResult struct {
	Scale          dp.Noise `json:"scale"`
	CalibratedBy   string   `json:"calibrated_by,omitempty"` // the method the calibrated scale meets the target by
	TargetEpsilon  dp.Num   `json:"target_epsilon,omitempty"`
	Sensitivity    dp.Num   `json:"sensitivity"`
	Compositions   dp.Num   `json:"compositions"`
	StepEpsilon    dp.Loss  `json:"step_epsilon"` // Δ/b
	Method         string   `json:"method"`       // basic, rdp, optimal or pld: the smallest sound ε
	dp.Guarantee            // the chosen method's (δ = 0 for basic), with its source
	BasicEpsilon   dp.Loss  `json:"basic_epsilon"`
	RDPEpsilon     dp.Loss  `json:"rdp_epsilon"`
	RDPOrder       dp.Num   `json:"rdp_order"`
	OptimalEpsilon dp.Loss  `json:"optimal_epsilon"`
	// PLDEpsilon is the PLD accountant's sound ε (connect-the-dots) and
	// EpsilonOptimistic its optimistic estimate below the exact ε; PLDNote
	// says why they are absent (a grid over the memory cap).
	PLDEpsilon        dp.Loss `json:"pld_epsilon,omitempty"`
	EpsilonOptimistic dp.Max  `json:"epsilon_optimistic,omitempty"`
	PLDSource         string  `json:"pld_source,omitempty"`
	PLDNote           string  `json:"pld_note,omitempty"`
	Conversion        string  `json:"conversion"`
	// Profile is δ(ε) where asked: the smaller of the PLD's and RDP's
	// sound δ for the same k releases (Tight.Profile).
	*Profile
}

func (m LaplaceMechanism) validate() error {
	err := field.First(field.Positive("sensitivity", m.Sensitivity), wholeCount("compositions", m.Compositions, MaxK),
		field.OpenUnit("delta", m.Delta))
	if err == nil && m.Calibrate {
		return field.Positive("target_epsilon", m.TargetEpsilon)
	}
	return field.First(err, field.Positive("scale", m.Scale))
}

// wholeCount checks that v is a whole number in [1, max].
func wholeCount(name string, v, max float64) error {
	if !(v >= 1 && v <= max && v == math.Trunc(v)) {
		return field.New(name, v, "must be a whole number in [1, %s]", field.FormatInt(int64(max)))
	}
	return nil
}

// laplaceCurve is the RDP curve of k Laplace releases (Mironov 2017, Prop. 6).
func (m LaplaceMechanism) curve(b float64) rdp.Curve {
	return rdp.Repeat(rdp.Laplace{Scale: b / m.Sensitivity}, m.Compositions)
}

// Account returns the ε of m by basic composition (kΔ/b, δ = 0; Dwork–Roth
// 2014, Thm 3.16), by RDP (Mironov 2017, Prop. 6, converted at δ) and by the
// exact optimal composition of k pure (Δ/b)-DP mechanisms (Kairouz–Oh–
// Viswanath 2015, Thm 3.3); the smallest is chosen. With TargetEpsilon, the
// scale is first calibrated: the smallest b that meets the target by at least
// one method, verified by recomputing its ε (bisection keeps the safe end).
func (m LaplaceMechanism) Account() (LaplaceResult, error) {
	if err := m.validate(); err != nil {
		return LaplaceResult{}, err
	}
	r := LaplaceResult{Sensitivity: dp.Num(m.Sensitivity), Compositions: dp.Num(m.Compositions),
		Conversion: m.Conversion.String()}
	b := m.Scale
	if m.Calibrate {
		b, r.CalibratedBy = m.calibrate()
		r.TargetEpsilon = dp.Num(m.TargetEpsilon)
	}
	k := int(m.Compositions)
	eps0 := m.Sensitivity / b
	pr, _ := rdp.EpsilonFor(m.curve(b), m.Delta, m.Conversion)
	opt, err := OptimalEpsilon(eps0, 0, k, m.Delta)
	if err != nil {
		opt = math.Inf(1)
	}
	r.Scale, r.StepEpsilon = dp.Noise(b), dp.Loss(eps0)
	r.BasicEpsilon, r.RDPEpsilon, r.RDPOrder, r.OptimalEpsilon = dp.Loss(float64(k)*eps0), dp.Loss(pr.Epsilon), dp.Num(pr.Order), dp.Loss(opt)
	r.Epsilon, r.Method, r.Source = r.BasicEpsilon, "basic", SourceBasic
	if r.RDPEpsilon < r.Epsilon {
		r.Epsilon, r.Method, r.Delta, r.Source = r.RDPEpsilon, "rdp", dp.Loss(m.Delta), "Mironov 2017, Prop. 6 + "+m.Conversion.Source()
	}
	if r.OptimalEpsilon < r.Epsilon {
		r.Epsilon, r.Method, r.Delta, r.Source = r.OptimalEpsilon, "optimal", dp.Loss(m.Delta), SourceOptimal
	}
	if p, err := pld.LaplaceComposed(m.Sensitivity, b, k, m.Delta, pld.Options{}); err != nil {
		r.PLDNote = "no PLD: " + err.Error()
	} else {
		r.PLDEpsilon, r.EpsilonOptimistic, r.PLDSource = p.Epsilon, p.EpsilonOptimistic, p.Source
		if r.PLDEpsilon < r.Epsilon {
			r.Epsilon, r.Method, r.Delta, r.Source = r.PLDEpsilon, "pld", dp.Loss(m.Delta), p.Source
		}
	}
	r.Profile = m.profile(b, float64(r.Epsilon))
	return r, nil
}

// profile is δ(ε) of k releases at scale b where asked: the smaller of the
// exact optimal composition of k (Δ/b)-DP mechanisms (OptimalDelta) and the
// RDP bound (cheap, unlike a second PLD; no smaller than the PLD's δ).
func (m LaplaceMechanism) profile(b, eps float64) *Profile {
	var ds []DeltaAt
	for _, x := range m.Profile.Epsilons(eps) {
		d, err := OptimalDelta(m.Sensitivity/b, 0, int(m.Compositions), x)
		if err != nil {
			d = 1
		}
		rd := 1.0
		if p, err := rdp.DeltaFor(m.curve(b), x, m.Conversion); err == nil {
			rd = p.Delta
		}
		l := dp.Loss(rd)
		ds = append(ds, DeltaAt{Epsilon: dp.Num(x), Delta: dp.Loss(math.Min(d, rd)), RDPDelta: &l})
	}
	return m.Profile.Split(ds)
}

// calibrate returns the smallest scale meeting (TargetEpsilon, Delta) by
// basic composition (b = kΔ/ε), RDP or the exact optimal composition, and
// the method's name.
func (m LaplaceMechanism) calibrate() (float64, string) {
	k, target := m.Compositions, m.TargetEpsilon
	best, how := k*m.Sensitivity/target, "basic composition"
	if b, _, err := rdp.Calibrate(m.curve, target, m.Delta, m.Conversion); err == nil && b < best {
		best, how = b, "RDP"
	}
	ok := func(b float64) bool {
		e, err := OptimalEpsilon(m.Sensitivity/b, 0, int(k), m.Delta)
		return err == nil && e <= target
	}
	if b, err := numeric.Bisect(ok, best*1e-3, best, 1e-9, true); err == nil && b < best {
		best, how = b, "optimal composition"
	}
	okPLD := func(b float64) bool {
		r, err := pld.LaplaceComposed(m.Sensitivity, b, int(k), m.Delta, pld.Options{})
		return err == nil && float64(r.Epsilon) <= target
	}
	if okPLD(best) {
		if b, err := numeric.Bisect(okPLD, best/2, best, 1e-6, true); err == nil && b < best {
			best, how = b, "PLD"
		}
	}
	return best, how
}
