package composition

import (
	"github.com/privamp/privamp/dp"
	"math"
	"strings"

	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
)

// Accountant names how DPSGDWith accounts a DP-SGD run.
type Accountant string

// The accountants. Every one gives a sound upper bound on ε; Best reports
// the smaller of the RDP and the PLD bound, which is sound because each is.
const (
	AccountRDP  Accountant = "rdp"
	AccountPLD  Accountant = "pld"
	AccountBest Accountant = "best"
	// AccountAnalyticGaussian names the exact Gaussian profile that gives
	// the headline at q = 1 (DPSGD); it is reported, not chosen.
	AccountAnalyticGaussian Accountant = "analytic-gaussian"
)

// ParseAccountant accepts rdp, pld and best.
func ParseAccountant(s string) (Accountant, error) {
	switch a := Accountant(s); a {
	case AccountRDP, AccountPLD, AccountBest:
		return a, nil
	}
	return "", field.New("accountant", s, "must be rdp, pld or best")
}

// DPSGDAccounting is DPSGDResult with the PLD accountant's answer beside the
// RDP one: Epsilon is the headline (the accountant named in Accountant),
// RDPEpsilon and PLDEpsilon the two sound values, EpsilonOptimistic the
// PLD's optimistic (rounded-down) estimate, which is a lower estimate and
// never a guarantee. EpsilonOptimistic is present (0 included) only where
// the PLD's pair is the mechanism's own (add/remove, Poisson sampling), so
// that [EpsilonOptimistic, Epsilon] brackets the mechanism's ε; under
// replace-one the pair is a dominating one, its optimistic value is about
// the pair, not the mechanism, and it is absent (PLDNote says so).
type DPSGDAccounting struct {
	DPSGDResult
	Accountant        string  `json:"accountant"`
	PLDEpsilon        dp.Loss `json:"pld_epsilon,omitempty"`
	EpsilonOptimistic *dp.Max `json:"epsilon_optimistic,omitempty"`
	PLDSource         string  `json:"pld_source,omitempty"`
	// PLDNote says why the PLD is absent (q = 1, a grid over the memory
	// cap, no finite PLD bound at this δ) or what it bounds.
	PLDNote string `json:"pld_note,omitempty"`
	// RDPNote says what the RDP bound is where that needs saying.
	RDPNote string `json:"rdp_note,omitempty"`
}

// Notes on the replace-one PLD.
const (
	noteReplaceOnePLD = "replace-one PLD: the symmetrized pair ((1−γ)N(0,z²)+γN(2,z²), N(0,z²)), which is proved to dominate (Balle–Barthe–Gaboardi 2018, Thm 2; Dong–Roth–Su 2022); it is looser than dp_accounting's antipodal replace-one pair, which has no proof we can check"
	noteNoOptimistic  = "; no optimistic estimate is shown: rounded down, this dominating pair gives a lower estimate of its own ε, not of the mechanism's, which may lie below it"
	noteFixedSizeRDP  = "RDP for batches drawn without replacement: the Rényi divergence of the same dominating pair, at most the Poisson pair's moment at noise z/2 plus ln 2/(α−1) (rdp.SampledGaussianFixedSize; docs/accounting.md)"
)

// DPSGDWith accounts the DP-SGD run d with the given accountant. The PLD
// accountant (package pld: connect-the-dots discretization at interval
// 1e-4, Doroshenko–Ghazi–Kamath–Kumar–Manurangsi 2022, composed by FFT
// with every truncated mass added to δ) covers below q = 1:
//
//   - Poisson sampling under add/remove (both directions of the pair);
//   - replace-one, Poisson or fixed-size (d.FixedSize, γ = b/n), with the
//     provable pair of pld.SubsampledGaussianReplaceOne. Under Poisson
//     sampling best is the smaller of it and the RDP remove-then-add bound;
//     for fixed-size batches the smaller of it and the Rényi divergence of
//     the same pair (rdp.SampledGaussianFixedSize; RDPNote says so).
//
// At q = 1 the exact Gaussian of DPSGD is already tight. Best falls back to
// RDP, with the reason in PLDNote, wherever the PLD does not apply or has
// no finite bound at δ; AccountPLD refuses instead. A calibration (d.Calibrate) finds the
// smallest noise multiplier whose headline ε meets the target.
func DPSGDWith(d rdp.DPSGD, a Accountant) (DPSGDAccounting, error) {
	if _, err := ParseAccountant(string(a)); err != nil {
		return DPSGDAccounting{}, err
	}
	q, steps, err := d.Rate()
	if err != nil {
		return DPSGDAccounting{}, err
	}
	fixed := d.FixedSize && q < 1
	note := ""
	switch {
	case a == AccountRDP:
	case q == 1:
		note = "at q = 1 the exact Gaussian profile is tight; no PLD needed"
	case steps > math.MaxInt32:
		note = "more steps than the PLD accountant composes"
	}
	if note != "" && a == AccountPLD {
		return DPSGDAccounting{}, field.New("accountant", string(a), "does not apply: %s", note)
	}
	if note != "" || a == AccountRDP {
		r, err := DPSGD(d)
		res := DPSGDAccounting{DPSGDResult: r, Accountant: headlineOf(r), PLDNote: note}
		if fixed {
			res.RDPNote = noteFixedSizeRDP
		}
		return res, err
	}
	rel := dp.AddRemove
	if d.ReplaceOne {
		rel = dp.ReplaceOne
	}
	if d.Calibrate {
		return calibrateDPSGD(d, a, rel, q, int(steps), fixed)
	}
	r, err := DPSGD(d)
	if err != nil {
		return DPSGDAccounting{}, err
	}
	rdpNote := ""
	if fixed {
		rdpNote = noteFixedSizeRDP
	}
	var p pld.Result
	if d.ReplaceOne {
		p, err = pld.DPSGDReplaceOne(q, d.Noise, int(steps), d.Delta, pld.Options{})
	} else {
		p, err = pld.DPSGD(q, d.Noise, int(steps), d.Delta, pld.Options{})
	}
	if err != nil {
		if a == AccountPLD {
			return DPSGDAccounting{}, err
		}
		return DPSGDAccounting{DPSGDResult: r, Accountant: headlineOf(r), PLDNote: "PLD not computed: " + err.Error() + "; ε is RDP's bound", RDPNote: rdpNote}, nil
	}
	res := DPSGDAccounting{DPSGDResult: r, Accountant: headlineOf(r), PLDEpsilon: p.Epsilon, PLDSource: p.Source}
	if d.ReplaceOne {
		res.PLDNote = noteReplaceOnePLD + noteNoOptimistic
	} else {
		o := p.EpsilonOptimistic
		res.EpsilonOptimistic = &o
	}
	res.RDPEpsilon, res.RDPNote = r.Epsilon, rdpNote
	if math.IsInf(float64(p.Epsilon), 1) {
		res.PLDNote = "the PLD's bounds on its own rounding exceed δ: no finite PLD bound at this δ"
		if a == AccountPLD { // asked for alone, it has no answer: refuse rather than print none
			return DPSGDAccounting{}, field.New("accountant", string(a), "has no finite bound here: %s; best or rdp answer", res.PLDNote)
		}
		res.PLDNote += "; ε is RDP's bound"
	}
	if a == AccountPLD || p.Epsilon < r.Epsilon {
		res.Epsilon, res.Accountant, res.Method, res.Source = p.Epsilon, string(AccountPLD), "pld-"+p.Method, p.Source
		if d.ReplaceOne {
			res.Method += "-replace-one"
		}
		if fixed {
			res.Method += "-fixed-size"
		}
	}
	return res, nil
}

// calibrateDPSGD finds the smallest noise multiplier whose headline ε
// under a (PLD, or best: the smaller of the PLD and RDP bounds, RDP alone
// where the PLD cannot answer at a z) meets d.TargetEpsilon, by
// pld.CalibrateDPSGDWith from RDP's calibrated z, and accounts the run
// there. Where δ alone makes ε = 0 for every noise multiplier (δ at least
// the chance 1 − (1−q)^T that the changed example is ever used) there is
// nothing to calibrate: a field error on delta says so.
func calibrateDPSGD(d rdp.DPSGD, a Accountant, rel dp.Relation, q float64, steps int, fixed bool) (DPSGDAccounting, error) {
	if err := field.First(field.Positive("target_epsilon", d.TargetEpsilon), field.OpenUnit("delta", d.Delta)); err != nil {
		return DPSGDAccounting{}, err
	}
	if used := -math.Expm1(float64(steps) * math.Log1p(-q)); d.Delta >= used {
		return DPSGDAccounting{}, field.New("delta", d.Delta, "is at least 1 − (1−q)^T = %.6g, the chance that the changed example is used at all: ε = 0 for every noise multiplier, even none, so there is no noise to calibrate", used)
	}
	guess := 1.0
	var other func(z float64) float64
	if r, err := DPSGD(d); err == nil { // RDP's calibration: a close guess, and a bound of its own
		guess = float64(r.NoiseMultiplier)
	}
	if a == AccountBest {
		other = func(z float64) float64 {
			at := d
			at.Calibrate, at.Noise = false, z
			r, err := DPSGD(at)
			if err != nil {
				return math.Inf(1)
			}
			return float64(r.Epsilon)
		}
	}
	z, _, err := pld.CalibrateDPSGDWith(rel, q, steps, d.Delta, d.TargetEpsilon, pld.Options{}, guess, other)
	if err != nil && err != numeric.ErrBelowMin {
		return DPSGDAccounting{}, err
	}
	at := d
	at.Calibrate, at.Noise = false, z
	res, err := DPSGDWith(at, a)
	res.Calibrated, res.TargetEpsilon = true, dp.Num(d.TargetEpsilon)
	return res, err
}

// headlineOf names the accountant of DPSGD's headline: the exact Gaussian
// at q = 1 (where it is below RDP), RDP otherwise.
func headlineOf(r DPSGDResult) string {
	if strings.HasPrefix(r.Method, "analytic-gaussian") {
		return string(AccountAnalyticGaussian)
	}
	return string(AccountRDP)
}
