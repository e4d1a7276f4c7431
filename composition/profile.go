package composition

import (
	"math"
	"strconv"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

// Profile is δ(ε), the other side of ε(δ): at the ε a query asked for
// (AtEpsilon, privamp's --at-epsilon) and on a grid of ε (Curve, the ε–δ
// curve that --json and --plot show). Every δ is sound: the smaller of the
// accountants' sound values (DeltaAt).
type Profile struct {
	AtEpsilon *DeltaAt  `json:"at_epsilon,omitempty"`
	Curve     []DeltaAt `json:"epsilon_delta_curve,omitempty"`
}

// ProfileQuery is what a Profile is asked for: δ at At (nil: not asked)
// and, with Curve, on the grid CurveEpsilons.
type ProfileQuery struct {
	At    *float64
	Curve bool
	// Progress, if not nil, hears how far a DP-SGD calibration by PLD is
	// (DPSGDProfile): the noise levels accounted of an estimate, then the
	// final accounting at the noise found, ending at the total; and how far
	// the PLD accountant is with an events file of several mechanisms
	// (events.Account: Tight.Progress).
	Progress dp.Progress `json:"-"`
}

// WithProgress returns q with Progress p.
func (q ProfileQuery) WithProgress(p dp.Progress) ProfileQuery {
	q.Progress = p
	return q
}

// Set reads the ε of At from s (q is then a flag value, --at-epsilon): a
// finite number ≥ 0 ("", the default, asks for none), else a field
// error on at_epsilon.
func (q *ProfileQuery) Set(s string) error {
	if s == "" { // the flag's default: δ at no ε
		q.At = nil
		return nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !(x >= 0) || math.IsInf(x, 1) {
		return field.New("at_epsilon", s, "must be a finite number ≥ 0")
	}
	q.At = &x
	return nil
}

// String is At's ε, or "" when At is nil.
func (q *ProfileQuery) String() string {
	if q.At == nil {
		return ""
	}
	return strconv.FormatFloat(*q.At, 'g', -1, 64)
}

// Type names the flag value's kind.
func (q *ProfileQuery) Type() string { return "float" }

// Asked reports whether q asks for anything.
func (q ProfileQuery) Asked() bool { return q.At != nil || q.Curve }

// CurvePoints is the number of intervals of the ε grid of a curve.
const CurvePoints = 20

// CurveEpsilons is the ε grid of an ε–δ curve: 0 to twice top (the
// headline ε) in CurvePoints equal steps; 0 to 10 where top is not a
// finite positive number.
func CurveEpsilons(top float64) []float64 {
	if !(top > 0) || math.IsInf(top, 1) {
		top = 5
	}
	xs := make([]float64, CurvePoints+1)
	for i := range xs {
		xs[i] = 2 * top * float64(i) / CurvePoints
	}
	return xs
}

// Epsilons is what q needs δ at, the asked ε first; top (the headline ε)
// scales the curve.
func (q ProfileQuery) Epsilons(top float64) []float64 {
	var xs []float64
	if q.At != nil {
		xs = append(xs, *q.At)
	}
	if q.Curve {
		xs = append(xs, CurveEpsilons(top)...)
	}
	return xs
}

// Split is the Profile of deltas computed at q.Epsilons (nil when q asks
// for nothing).
func (q ProfileQuery) Split(ds []DeltaAt) *Profile {
	if !q.Asked() {
		return nil
	}
	p := &Profile{}
	if q.At != nil && len(ds) > 0 {
		p.AtEpsilon, ds = &ds[0], ds[1:]
	}
	if q.Curve {
		p.Curve = ds
	}
	return p
}

// Profile is t's δ(ε) of e under r for q (nil when q asks for nothing),
// by the accountants t runs (Account: each δ the smaller sound one). The
// curve's grid is scaled by the RDP ε at delta where the RDP accountant
// applies (cheap, and at least the headline), else by t's ε.
func (t Tight) Profile(e dp.Event, r dp.Relation, delta float64, q ProfileQuery) (*Profile, error) {
	if !q.Asked() {
		return nil, nil
	}
	top := math.Inf(1)
	if q.Curve {
		top = t.CurveTop(e, r, delta)
	}
	acc, err := t.Account(e, r, delta, q.Epsilons(top))
	if err != nil {
		return nil, err
	}
	return q.Split(acc.Deltas), nil
}

// ExactGaussianProfile is the exact δ(ε) of one Gaussian with μ (Balle–Wang
// 2018, Thm 8) for q, the curve scaled by the ε at delta (nil when q asks
// for nothing).
func ExactGaussianProfile(mu, eps float64, q ProfileQuery) *Profile {
	if !q.Asked() {
		return nil
	}
	var ds []DeltaAt
	for _, x := range q.Epsilons(eps) {
		ds = append(ds, DeltaAt{Epsilon: dp.Num(x), Delta: dp.Loss(GaussianDelta(mu, x))})
	}
	return q.Split(ds)
}

// CurveTop is the ε that scales a curve's grid: the RDP ε at delta where
// the RDP accountant applies (cheap, and at least the headline), else t's
// ε, else +Inf.
func (t Tight) CurveTop(e dp.Event, r dp.Relation, delta float64) float64 {
	if g, err := (Tight{Only: AccountRDP, Conversion: t.Conversion}).Epsilon(e, r, delta); err == nil {
		return float64(g.Epsilon)
	}
	if g, err := t.Epsilon(e, r, delta); err == nil {
		return float64(g.Epsilon)
	}
	return math.Inf(1)
}
