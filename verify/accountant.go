package verify

import (
	"fmt"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// Certificate is an accountant's answer: a sound upper bound on ε at the
// mechanism's δ, and where the bound comes from.
type Certificate struct {
	Epsilon float64
	Source  string
}

// Accountant is the seam through which VerifyDPSGD certifies a DP-SGD
// claim: any accountant that gives sound upper bounds on ε plugs in (the
// RDP accountant by default; a PLD accountant's pessimistic estimate, say)
// without a change to the claim code.
//
//   - Name is shown as the verification's Via ("RDP accountant").
//   - Epsilon returns a sound upper bound on the ε of the run r at r.Delta.
//   - NoiseFor returns a noise multiplier z for which Epsilon certifies ε ≤
//     epsilon for r with its noise multiplier replaced. It may be nil; when it is, or when
//     its answer fails, VerifyDPSGD bisects over Epsilon. Either way the
//     answer is checked with Epsilon before it is reported.
//
// The zero Accountant means BestAccountant().
type Accountant struct {
	Name     string
	Epsilon  func(r DPSGDRun) (Certificate, error)
	NoiseFor func(r DPSGDRun, epsilon float64) (float64, error)
}

// Options configure VerifyDPSGD (and VerifyWith). The zero value uses
// BestAccountant.
type Options struct {
	Accountant Accountant
}

// accountant returns o's accountant, the tightest (BestAccountant) when
// none is set.
func (o Options) accountant() Accountant {
	if o.Accountant.Epsilon == nil {
		return BestAccountant()
	}
	return o.Accountant
}

// accountDPSGD is the one place verify accounts a DP-SGD run: it builds
// the accounting's description of r (rdp.DPSGD, the run `privamp dpsgd`
// accounts) and calls composition.DPSGDWith with the accountant a;
// target > 0 calibrates the noise multiplier for ε ≤ target instead. Every
// Accountant of this package goes through it, so a claim gets the ε
// `privamp dpsgd` prints for the same run. (Issue 24: at merge this is the
// call site to switch to the new accountant.)
func accountDPSGD(r DPSGDRun, a string, target float64) (composition.DPSGDAccounting, error) {
	d := rdp.DPSGD{SamplingRate: float64(r.SamplingRate), Steps: float64(r.Steps), Noise: float64(r.NoiseMultiplier), Delta: float64(r.Delta),
		ReplaceOne: r.Neighbours == dp.ReplaceOne.String(), FixedSize: r.Sampling == SamplingFixedSize}
	if target > 0 {
		d.Calibrate, d.TargetEpsilon = true, target
	}
	return composition.DPSGDWith(d, a)
}

// accountantOf is the Accountant that accounts with accountDPSGD and a.
func accountantOf(name string, a string) Accountant {
	return Accountant{
		Name: name,
		Epsilon: func(r DPSGDRun) (Certificate, error) {
			res, err := accountDPSGD(r, a, 0)
			return Certificate{Epsilon: float64(res.Epsilon), Source: res.Source}, err
		},
		NoiseFor: func(r DPSGDRun, epsilon float64) (float64, error) {
			res, err := accountDPSGD(r, a, epsilon)
			return float64(res.NoiseMultiplier), err
		},
	}
}

// BestAccountant is composition.DPSGDWith with composition.AccountBest
// (accountDPSGD): the smaller of the RDP bound and the PLD accountant's
// sound bound (connect-the-dots, Doroshenko et al. 2022; below q = 1,
// add/remove or replace-one with the provable pair of
// pld.SubsampledGaussianReplaceOne), each sound, so their minimum is;
// fixed-size batches under replace-one by the PLD alone. Its calibration
// finds the smallest noise multiplier whose headline ε meets the target.
func BestAccountant() Accountant {
	return accountantOf("tightest accountant (PLD or RDP)", composition.AccountBest)
}

// RDPAccountant is composition.DPSGDWith with composition.AccountRDP
// (accountDPSGD; composition.DPSGD's answer): below q = 1 the exact RDP
// of the Poisson-subsampled Gaussian at every real order
// (Mironov–Talwar–Zhang 2019, §3; replace-one by remove-then-add, Mironov
// 2017, Prop. 11) converted to (ε, δ) (fixed-size batches under
// replace-one by rdp.SampledGaussianFixedSize); at q = 1 the exact
// Gaussian profile (Dong–Roth–Su 2019, Cor. 3.3; Balle–Wang 2018, Thm 8)
// when it is smaller. NoiseFor is rdp.DPSGD's calibration (a bisection
// that keeps the safe end).
func RDPAccountant() Accountant {
	return accountantOf("RDP accountant", composition.AccountRDP)
}

// noiseFor returns the smallest noise multiplier (up to the calibration's
// resolution) for which a certifies ε ≤ epsilon, checked with a.Epsilon:
// a.NoiseFor's answer when it is certified, else a bisection over
// a.Epsilon (ε falls as z grows) that keeps the certified end. An
// uncertified value is never returned.
func (a Accountant) noiseFor(r DPSGDRun, epsilon float64) (float64, error) {
	ok := func(z float64) bool {
		r.NoiseMultiplier = dp.Noise(z)
		c, err := a.Epsilon(r)
		return err == nil && c.Epsilon <= epsilon
	}
	if a.NoiseFor != nil {
		if z, err := a.NoiseFor(r, epsilon); err == nil && ok(z) {
			return z, nil
		}
	}
	lo, hi := 1e-3, 1e6
	if !ok(hi) {
		return 0, fmt.Errorf("the %s certifies ε ≤ %g with no noise multiplier ≤ %g", a.Name, epsilon, hi)
	}
	for range 200 {
		if hi-lo <= 1e-9*hi {
			break
		}
		if mid := (lo + hi) / 2; ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}
