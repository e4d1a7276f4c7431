package verify

import (
	"fmt"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/rdp"
)

// PoissonGaussian is what an Accountant accounts: Steps adaptive
// compositions of the Poisson-subsampled Gaussian mechanism (Abadi et al.
// 2016) with sampling rate Q ∈ (0, 1] and noise multiplier Z = σ/C, under
// add/remove neighbours, or replace-one when ReplaceOne is set, at δ = Delta.
// With FixedSize the batches are of fixed size b drawn without replacement
// from n instead (Q = b/n; only with ReplaceOne): an accountant that has no
// bound for it returns an error.
type PoissonGaussian struct {
	Q          float64
	Z          float64
	Steps      int64
	Delta      float64
	ReplaceOne bool
	FixedSize  bool
}

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
//   - Epsilon returns a sound upper bound on the ε of m at m.Delta.
//   - NoiseFor returns a noise multiplier z for which Epsilon certifies ε ≤
//     epsilon for m with m.Z replaced. It may be nil; when it is, or when
//     its answer fails, VerifyDPSGD bisects over Epsilon. Either way the
//     answer is checked with Epsilon before it is reported.
//
// The zero Accountant means BestAccountant().
type Accountant struct {
	Name     string
	Epsilon  func(m PoissonGaussian) (Certificate, error)
	NoiseFor func(m PoissonGaussian, epsilon float64) (float64, error)
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

// BestAccountant is composition.DPSGDWith with composition.AccountBest: the
// smaller of the RDP bound and the PLD accountant's sound bound
// (connect-the-dots, Doroshenko et al. 2022; below q = 1, add/remove or
// replace-one with the provable pair of pld.SubsampledGaussianReplaceOne),
// each sound, so their minimum is; fixed-size batches under replace-one by
// the PLD alone. Its calibration finds the smallest noise multiplier whose
// headline ε meets the target.
func BestAccountant() Accountant {
	run := func(m PoissonGaussian) rdp.DPSGD {
		return rdp.DPSGD{SamplingRate: m.Q, Steps: float64(m.Steps), Noise: m.Z, Delta: m.Delta, ReplaceOne: m.ReplaceOne, FixedSize: m.FixedSize}
	}
	return Accountant{
		Name: "tightest accountant (PLD or RDP)",
		Epsilon: func(m PoissonGaussian) (Certificate, error) {
			r, err := composition.DPSGDWith(run(m), composition.AccountBest)
			return Certificate{Epsilon: float64(r.Epsilon), Source: r.Source}, err
		},
		NoiseFor: func(m PoissonGaussian, epsilon float64) (float64, error) {
			d := run(m)
			d.Calibrate, d.TargetEpsilon = true, epsilon
			r, err := composition.DPSGDWith(d, composition.AccountBest)
			return float64(r.NoiseMultiplier), err
		},
	}
}

// RDPAccountant is composition.DPSGD's answer: below q = 1 the exact RDP
// of the Poisson-subsampled Gaussian at every real order
// (Mironov–Talwar–Zhang 2019, §3; replace-one by remove-then-add, Mironov
// 2017, Prop. 11) converted to (ε, δ) (no bound for fixed-size batches: an
// error); at q = 1 the exact Gaussian profile
// (Dong–Roth–Su 2019, Cor. 3.3; Balle–Wang 2018, Thm 8) when it is smaller.
// NoiseFor is rdp.DPSGD's calibration (composition.DPSGD with Calibrate:
// a bisection that keeps the safe end).
func RDPAccountant() Accountant {
	run := func(m PoissonGaussian) rdp.DPSGD {
		return rdp.DPSGD{SamplingRate: m.Q, Steps: float64(m.Steps), Noise: m.Z, Delta: m.Delta, ReplaceOne: m.ReplaceOne, FixedSize: m.FixedSize}
	}
	return Accountant{
		Name: "RDP accountant",
		Epsilon: func(m PoissonGaussian) (Certificate, error) {
			r, err := composition.DPSGD(run(m))
			return Certificate{Epsilon: float64(r.Epsilon), Source: r.Source}, err
		},
		NoiseFor: func(m PoissonGaussian, epsilon float64) (float64, error) {
			d := run(m)
			d.Calibrate, d.TargetEpsilon = true, epsilon
			r, err := composition.DPSGD(d)
			return float64(r.NoiseMultiplier), err
		},
	}
}

// noiseFor returns the smallest noise multiplier (up to the calibration's
// resolution) for which a certifies ε ≤ epsilon, checked with a.Epsilon:
// a.NoiseFor's answer when it is certified, else a bisection over
// a.Epsilon (ε falls as z grows) that keeps the certified end. An
// uncertified value is never returned.
func (a Accountant) noiseFor(m PoissonGaussian, epsilon float64) (float64, error) {
	ok := func(z float64) bool {
		m.Z = z
		c, err := a.Epsilon(m)
		return err == nil && c.Epsilon <= epsilon
	}
	if a.NoiseFor != nil {
		if z, err := a.NoiseFor(m, epsilon); err == nil && ok(z) {
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
