package composition

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// ParseAccountant accepts rdp, pld and best: Named's check, for callers
// that keep the name.
func ParseAccountant(s string) (string, error) {
	t, err := Named(s)
	return t.Only, err
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
	// Profile is δ(ε) where asked (DPSGDProfile).
	*Profile
	// PoissonEpsilon is, for balls-in-bins batches, the ε the same
	// accountant gives Poisson sampling at the same expected batch size
	// (q = 1/k per step, the same steps and noise): the number usually
	// reported for such a run, beside the balls-in-bins bound.
	PoissonEpsilon *dp.Loss `json:"poisson_epsilon,omitempty"`
	// PoissonAccountant is the accountant whose bound PoissonEpsilon is
	// (under best the PLD's where smaller: balls-in-bins has no PLD here).
	PoissonAccountant string `json:"poisson_accountant,omitempty"`
}

// Notes on the replace-one PLD.
const (
	noteReplaceOnePLD = "replace-one PLD: the symmetrized pair ((1−γ)N(0,z²)+γN(2,z²), N(0,z²)), which is proved to dominate (Balle–Barthe–Gaboardi 2018, Thm 2; Dong–Roth–Su 2022); it is looser than dp_accounting's antipodal replace-one pair, which has no proof we can check"
	noteNoOptimistic  = "; no optimistic estimate is shown: rounded down, this dominating pair gives a lower estimate of its own ε, not of the mechanism's, which may lie below it"
	noteFixedSizeRDP  = "RDP for batches drawn without replacement: the Rényi divergence of the same dominating pair, at most the Poisson pair's moment at noise z/2 plus ln 2/(α−1) (rdp.SampledGaussianFixedSize; docs/accounting.md)"
)

// DPSGDWith accounts the DP-SGD run d with the accountant named a (rdp,
// pld or best): d's event (d.Event, a dp.Event) under Named(a), the one
// accountant every DP-SGD answer goes through (Tight.Account), so an events
// file that describes the same run gets the same ε. The PLD accountant
// (package pld: connect-the-dots discretization at interval 1e-4,
// Doroshenko–Ghazi–Kamath–Kumar–Manurangsi 2022, composed by FFT with every
// truncated mass added to δ) covers below q = 1:
//
//   - Poisson sampling under add/remove (both directions of the pair);
//   - replace-one, Poisson or fixed-size (d.Sampling == dp.WithoutReplacement, γ = b/n), with the
//     provable pair of pld.SubsampledGaussianReplaceOne. Under Poisson
//     sampling best is the smaller of it and the RDP remove-then-add bound;
//     for fixed-size batches the smaller of it and the Rényi divergence of
//     the same pair (rdp.SampledGaussianFixedSize; RDPNote says so).
//
// At q = 1 the exact Gaussian of DPSGD is already tight (pld refuses). Best falls back to RDP, with the reason in PLDNote,
// wherever the PLD does not apply or has no finite bound at δ; AccountPLD
// refuses instead. A calibration (d.Calibrate) finds the smallest noise
// multiplier whose headline ε meets the target.
func DPSGDWith(d rdp.DPSGD, a string) (DPSGDAccounting, error) {
	return DPSGDProfile(d, a, ProfileQuery{})
}

// DPSGDProfile is DPSGDWith with δ(ε) where q asks for it (Profile: at one
// ε, and the ε–δ curve), from the same accounting (Tight.Account) at the
// run's noise multiplier, calibrated or given.
func DPSGDProfile(d rdp.DPSGD, a string, pq ProfileQuery) (DPSGDAccounting, error) {
	t, err := Named(a)
	if err != nil {
		return DPSGDAccounting{}, err
	}
	t.Conversion = d.Conversion
	q, steps, err := d.Check()
	if err != nil {
		return DPSGDAccounting{}, err
	}
	if d.Calibrate {
		return calibrateDPSGD(d, t, q, steps, pq)
	}
	ev, _ := d.Event(d.Noise)
	top := 0.0
	if pq.Curve {
		top = t.CurveTop(ev, d.Neighbours, d.Delta)
	}
	acc, err := t.Account(ev, d.Neighbours, d.Delta, pq.Epsilons(top))
	if err != nil {
		return DPSGDAccounting{}, err
	}
	fixed := d.Sampling == dp.WithoutReplacement && q < 1
	res := DPSGDAccounting{Accountant: acc.Accountant, PLDNote: acc.PLDNote, Profile: pq.Split(acc.Deltas)}
	r := &res.DPSGDResult.DPSGDResult
	*r = rdp.DPSGDResult{Guarantee: dp.Guarantee{Delta: dp.Loss(d.Delta)}, N: dp.Num(d.N), Batch: dp.Num(d.Batch), SamplingRate: dp.Num(q), Steps: dp.Num(steps),
		NoiseMultiplier: dp.Noise(d.Noise), Conversion: d.Conversion.String()}
	r.Fill(d, *acc.RDP)
	if fixed {
		res.RDPNote = noteFixedSizeRDP
	}
	if d.Sampling == dp.BallsInBins {
		if err := withPoisson(&res, d, a); err != nil {
			return DPSGDAccounting{}, err
		}
	}
	if acc.Mu != 0 { // q = 1: the exact Gaussian, RDP beside it
		res.Mu, res.RDPEpsilon = dp.Num(acc.Mu), r.Epsilon
		if acc.Accountant == AccountAnalyticGaussian {
			r.Epsilon, r.Method, r.Source = acc.Epsilon, "analytic-gaussian", acc.Source
			if d.Neighbours == dp.ReplaceOne {
				r.Method += "-replace-one"
			}
		}
		if t.Name() == AccountRDP {
			res.PLDNote = ""
		}
		return res, nil
	}
	p := acc.PLD
	if p == nil {
		return res, nil
	}
	res.RDPEpsilon = r.Epsilon
	res.PLDEpsilon, res.PLDSource = p.Epsilon, p.Source
	switch {
	case acc.Dominated && res.PLDNote == "":
		res.PLDNote = noteReplaceOnePLD + noteNoOptimistic
	case !acc.Dominated:
		o := p.EpsilonOptimistic
		res.EpsilonOptimistic = &o
	}
	if acc.Accountant == AccountPLD {
		r.Epsilon, r.Method, r.Source = p.Epsilon, "pld-"+p.Method, p.Source
		if d.Neighbours == dp.ReplaceOne {
			r.Method += "-replace-one"
		}
		if fixed {
			r.Method += "-fixed-size"
		}
	}
	return res, nil
}

// calibrateDPSGD finds the smallest noise multiplier whose headline ε by t
// meets d.TargetEpsilon and accounts the run there. Below q = 1 under pld
// or best it is pld.CalibrateDPSGDWith from RDP's calibrated z (for best
// with RDP's ε as the second bound, which answers where the PLD cannot);
// under rdp, and at q = 1 (the exact Gaussian), the RDP or exact
// calibration. Where δ alone makes ε = 0 for every noise multiplier (δ at
// least the chance 1 − (1−q)^T that the changed example is ever used) there
// is nothing to calibrate: a field error on delta says so.
func calibrateDPSGD(d rdp.DPSGD, t Tight, q, steps float64, pq ProfileQuery) (DPSGDAccounting, error) {
	z := 0.0
	switch {
	case q == 1:
		g, err := GaussianMechanism{Sensitivity: d.Neighbours.Sensitivity(), Compositions: steps, Delta: d.Delta, Calibrate: true,
			TargetEpsilon: d.TargetEpsilon, Conversion: d.Conversion}.Account()
		if err != nil {
			return DPSGDAccounting{}, err
		}
		z = float64(g.Sigma)
	case t.Name() == AccountRDP, steps > pld.MaxRuns && t.Name() == AccountBest, d.Sampling == dp.BallsInBins:
		r, err := d.Account()
		if err != nil {
			return DPSGDAccounting{}, err
		}
		z = float64(r.NoiseMultiplier)
		if d.Sampling == dp.BallsInBins && t.Name() != AccountRDP {
			// The PLD of random allocation certifies less noise than RDP's
			// calibration (z, which meets the target: best ≤ RDP): the one
			// bisection (dp.Calibrate) below it, by t itself.
			family := func(x float64) dp.Event { ev, _ := d.Event(x); return ev }
			if zp, _, err := dp.Calibrate(t, family, d.Neighbours, d.Delta, d.TargetEpsilon, dp.Search{Guess: z, Factor: 1.25, Min: z / 8, Max: z, RelTol: 1e-4}); err == nil || err == dp.ErrBelowMin {
				z = zp
			}
		}
	default:
		if used := -math.Expm1(steps * math.Log1p(-q)); d.Delta >= used {
			return DPSGDAccounting{}, field.New("delta", d.Delta, "is at least 1 − (1−q)^T = %.6g, the chance that the changed example is used at all: ε = 0 for every noise multiplier, even none, so there is no noise to calibrate", used)
		}
		guess := 1.0
		if r, err := d.Account(); err == nil { // RDP's calibration: a close guess, and a bound of its own
			guess = float64(r.NoiseMultiplier)
		}
		var other func(z float64) float64
		if t.Name() == AccountBest {
			ra := rdp.Accountant{Conversion: d.Conversion}
			other = func(z float64) float64 {
				ev, _ := d.Event(z)
				g, err := ra.Epsilon(ev, d.Neighbours, d.Delta)
				if err != nil {
					return math.Inf(1)
				}
				return float64(g.Epsilon)
			}
		}
		var err error
		var last int64 // the search's total; one more for the final accounting
		progress := func(done, total int64) { last = total; pq.Progress.Report(done, total+1) }
		z, _, err = pld.CalibrateDPSGDWith(d.Neighbours, q, int(steps), d.Delta, d.TargetEpsilon, pld.Options{Interval: t.Interval, Progress: progress}, guess, other)
		if err != nil && err != dp.ErrBelowMin {
			return DPSGDAccounting{}, err
		}
		defer func() { pq.Progress.Report(last+1, last+1) }()
	}
	at := d
	at.Calibrate, at.Noise = false, z
	res, err := DPSGDProfile(at, t.Name(), pq)
	res.Calibrated, res.TargetEpsilon = true, dp.Num(d.TargetEpsilon)
	return res, err
}

// withPoisson sets res.PoissonEpsilon: the same run with Poisson sampling
// at q = 1/k, by the accountant a.
func withPoisson(res *DPSGDAccounting, d rdp.DPSGD, a string) error {
	p := d
	p.Sampling, p.Calibrate = dp.Poisson, false
	p.Noise = float64(res.NoiseMultiplier)
	pr, err := DPSGDWith(p, a)
	if err != nil {
		return err
	}
	pe := pr.Epsilon
	res.PoissonEpsilon, res.PoissonAccountant = &pe, pr.Accountant
	note := fmt.Sprintf("with Poisson sampling at the same expected batch size (q = 1/k, same steps and noise) ε = %s by %s", pr.Epsilon, pr.Accountant)
	if pr.Accountant != AccountRDP && pr.RDPEpsilon > 0 {
		note += fmt.Sprintf(" (%s by rdp)", pr.RDPEpsilon)
	}
	res.RDPNote = joinNotes(res.RDPNote, note)
	return nil
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// DPSGDAssumptions are what the accounting of the DP-SGD run d assumes, as
// privamp dpsgd prints them (and package query returns them): the sampling,
// the clipping and noise, the neighbouring relation, and that every
// intermediate model may be released.
func DPSGDAssumptions(d rdp.DPSGD) []string {
	smp := "every example enters each batch independently with probability q (Poisson sampling); shuffled fixed-size batches are not covered by this analysis, although common practice reports them so"
	if d.Sampling == dp.WithoutReplacement || d.Sampling == dp.BallsInBins {
		_, smp = d.Sampling.Describe()
	}
	nb := "add/remove one example"
	if d.Neighbours == dp.ReplaceOne {
		nb = "replace one example (the symmetrized PLD of docs/accounting.md, and for Poisson sampling also RDP through remove-then-add, Mironov 2017, Prop. 11)"
	}
	return []string{
		smp,
		"per-example gradients are clipped to ℓ2 norm ≤ C and the summed batch gradient gets N(0, (zC)²I) noise",
		"neighbouring data sets: " + nb,
		"all intermediate models may be released (no amplification by iteration is assumed)",
	}
}

// Notes are the notes of the accounting (PLDNote, then RDPNote), as privamp
// dpsgd prints them.
func (r DPSGDAccounting) Notes() []string {
	var out []string
	for _, s := range []string{r.PLDNote, r.RDPNote} {
		if s != "" {
			out = append(out, s)
		}
	}
	if len(out) > 1 {
		out = []string{out[0] + "; " + out[1]}
	}
	return out
}
