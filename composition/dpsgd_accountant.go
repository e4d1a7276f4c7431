package composition

import (
	"math"

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
// never a guarantee.
type DPSGDAccounting struct {
	DPSGDResult
	Accountant        string        `json:"accountant"`
	PLDEpsilon        quantity.Loss `json:"pld_epsilon,omitempty"`
	EpsilonOptimistic quantity.Max  `json:"epsilon_optimistic,omitempty"`
	PLDSource         string        `json:"pld_source,omitempty"`
	// PLDNote says why the PLD is absent (replace-one neighbours, a grid
	// over the memory cap, no finite PLD bound at this δ).
	PLDNote string `json:"pld_note,omitempty"`
}

// DPSGDWith accounts the DP-SGD run d with the given accountant. The PLD
// accountant (package pld: connect-the-dots discretization at interval
// 1e-4, Doroshenko–Ghazi–Kamath–Kumar–Manurangsi 2022; both directions of
// the add/remove pair composed by FFT with every truncated mass added to δ)
// covers Poisson sampling under add/remove neighbours below q = 1; at q = 1
// the exact Gaussian of DPSGD is already tight, and under replace-one only
// the RDP bound exists here. Best falls back to RDP, with the reason in
// PLDNote, wherever the PLD does not apply; AccountPLD refuses instead.
// A calibration (d.Calibrate) finds the smallest noise multiplier whose
// headline ε meets the target.
func DPSGDWith(d rdp.DPSGD, a Accountant) (DPSGDAccounting, error) {
	if _, err := ParseAccountant(string(a)); err != nil {
		return DPSGDAccounting{}, err
	}
	q, steps, err := d.Rate()
	if err != nil {
		return DPSGDAccounting{}, err
	}
	note := ""
	switch {
	case a == AccountRDP:
	case d.ReplaceOne:
		note = "the PLD accountant covers add/remove neighbours only; replace-one is bounded by RDP (remove then add)"
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
		return DPSGDAccounting{DPSGDResult: r, Accountant: string(AccountRDP), PLDNote: note}, err
	}
	if d.Calibrate {
		if err := field.Positive("target_epsilon", d.TargetEpsilon); err != nil {
			return DPSGDAccounting{}, err
		}
		z, err := pld.CalibrateDPSGD(q, int(steps), d.Delta, d.TargetEpsilon, pld.Options{})
		if err != nil {
			return DPSGDAccounting{}, err
		}
		if a == AccountBest { // the RDP calibration may need less noise where the PLD's error bounds bite
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
	r, err := DPSGD(d)
	if err != nil {
		return DPSGDAccounting{}, err
	}
	p, err := pld.DPSGD(q, d.Noise, int(steps), d.Delta, pld.Options{})
	if err != nil {
		if a == AccountPLD {
			return DPSGDAccounting{}, err
		}
		return DPSGDAccounting{DPSGDResult: r, Accountant: string(AccountRDP), PLDNote: "PLD not computed: " + err.Error()}, nil
	}
	res := DPSGDAccounting{DPSGDResult: r, Accountant: string(AccountRDP), PLDEpsilon: p.Epsilon,
		EpsilonOptimistic: p.EpsilonOptimistic, PLDSource: p.Source}
	res.RDPEpsilon = r.Epsilon
	if math.IsInf(float64(p.Epsilon), 1) {
		res.PLDNote = "the PLD's bounds on its own rounding exceed δ: no finite PLD bound at this δ"
	}
	if a == AccountPLD || p.Epsilon < r.Epsilon {
		res.Epsilon, res.Accountant, res.Method, res.Source = p.Epsilon, string(AccountPLD), "pld-"+p.Method, p.Source
	}
	return res, nil
}
