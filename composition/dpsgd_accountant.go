package composition

import (
	"math"
	"strings"

	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
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
	Accountant        string        `json:"accountant"`
	PLDEpsilon        quantity.Loss `json:"pld_epsilon,omitempty"`
	EpsilonOptimistic *quantity.Max `json:"epsilon_optimistic,omitempty"`
	PLDSource         string        `json:"pld_source,omitempty"`
	// PLDNote says why the PLD is absent (q = 1, a grid over the memory
	// cap, no finite PLD bound at this δ) or what it bounds.
	PLDNote string `json:"pld_note,omitempty"`
	// RDPNote says why the RDP bound is absent (fixed-size batches).
	RDPNote string `json:"rdp_note,omitempty"`
}

// Notes on the replace-one PLD.
const (
	noteReplaceOnePLD = "replace-one PLD: the symmetrized pair ((1−γ)N(0,z²)+γN(2,z²), N(0,z²)), which is proved to dominate (Balle–Barthe–Gaboardi 2018, Thm 2; Dong–Roth–Su 2022); it is looser than dp_accounting's antipodal replace-one pair, which has no proof we can check"
	noteNoOptimistic  = "; no optimistic estimate is shown: rounded down, this dominating pair gives a lower estimate of its own ε, not of the mechanism's, which may lie below it"
	noteFixedSizeRDP  = "no RDP bound for batches drawn without replacement here: the PLD accountant alone gives ε"
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
//     for fixed-size batches RDP has no bound here, so the PLD is the answer
//     (RDPNote says so).
//
// At q = 1 the exact Gaussian of DPSGD is already tight. Best falls back to
// RDP, with the reason in PLDNote, wherever the PLD does not apply (except
// for fixed-size batches, which only the PLD covers: an error then);
// AccountPLD refuses instead. A calibration (d.Calibrate) finds the
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
		if fixed {
			return DPSGDAccounting{}, field.New("steps", steps, "are more than the PLD accountant composes, and fixed-size batches have no RDP bound here")
		}
	}
	if note != "" && a == AccountPLD {
		return DPSGDAccounting{}, field.New("accountant", string(a), "does not apply: %s", note)
	}
	if note != "" || a == AccountRDP {
		r, err := DPSGD(d) // fixed-size below q = 1: rdp refuses, naming fixed_size
		return DPSGDAccounting{DPSGDResult: r, Accountant: headlineOf(r), PLDNote: note}, err
	}
	rel := pld.AddRemove
	if d.ReplaceOne {
		rel = pld.ReplaceOne
	}
	if d.Calibrate {
		if err := field.First(field.Positive("target_epsilon", d.TargetEpsilon), field.OpenUnit("delta", d.Delta)); err != nil {
			return DPSGDAccounting{}, err
		}
		z, err := pld.CalibrateDPSGDFor(rel, q, int(steps), d.Delta, d.TargetEpsilon, pld.Options{})
		if err != nil {
			return DPSGDAccounting{}, err
		}
		if a == AccountBest && !fixed { // the RDP calibration may need less noise where the PLD's error bounds bite
			if r, err := DPSGD(d); err == nil && float64(r.NoiseMultiplier) < z {
				z = float64(r.NoiseMultiplier)
			}
		}
		at := d
		at.Calibrate, at.Noise = false, z
		res, err := DPSGDWith(at, a)
		res.Calibrated, res.TargetEpsilon = true, quantity.Num(d.TargetEpsilon)
		return res, err
	}
	var r DPSGDResult
	if fixed {
		if err := field.First(field.OpenUnit("delta", d.Delta), field.Positive("noise", d.Noise)); err != nil {
			return DPSGDAccounting{}, err
		}
		r.DPSGDResult = rdp.DPSGDResult{N: quantity.Num(d.N), Batch: quantity.Num(d.Batch), SamplingRate: quantity.Num(q), Steps: quantity.Num(steps),
			NoiseMultiplier: quantity.Noise(d.Noise), Delta: quantity.Loss(d.Delta), Order: quantity.Num(math.NaN()), Neighbours: "replace-one"}
	} else if r, err = DPSGD(d); err != nil {
		return DPSGDAccounting{}, err
	}
	var p pld.Result
	if d.ReplaceOne {
		p, err = pld.DPSGDReplaceOne(q, d.Noise, int(steps), d.Delta, pld.Options{})
	} else {
		p, err = pld.DPSGD(q, d.Noise, int(steps), d.Delta, pld.Options{})
	}
	if err != nil {
		if a == AccountPLD || fixed {
			return DPSGDAccounting{}, err
		}
		return DPSGDAccounting{DPSGDResult: r, Accountant: headlineOf(r), PLDNote: "PLD not computed: " + err.Error()}, nil
	}
	res := DPSGDAccounting{DPSGDResult: r, Accountant: headlineOf(r), PLDEpsilon: p.Epsilon, PLDSource: p.Source}
	if d.ReplaceOne {
		res.PLDNote = noteReplaceOnePLD + noteNoOptimistic
	} else {
		o := p.EpsilonOptimistic
		res.EpsilonOptimistic = &o
	}
	if fixed {
		res.RDPNote = noteFixedSizeRDP
		res.Conversion = ""
	} else {
		res.RDPEpsilon = r.Epsilon
	}
	if math.IsInf(float64(p.Epsilon), 1) {
		res.PLDNote = "the PLD's bounds on its own rounding exceed δ: no finite PLD bound at this δ"
	}
	if a == AccountPLD || fixed || p.Epsilon < r.Epsilon {
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

// headlineOf names the accountant of DPSGD's headline: the exact Gaussian
// at q = 1 (where it is below RDP), RDP otherwise.
func headlineOf(r DPSGDResult) string {
	if strings.HasPrefix(r.Method, "analytic-gaussian") {
		return string(AccountAnalyticGaussian)
	}
	return string(AccountRDP)
}
