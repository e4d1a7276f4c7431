package composition

import (
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// DPSGDResult is the (ε, δ) of a DP-SGD run: rdp's account, and at sampling
// rate q = 1 the exact Gaussian value as the headline with the RDP value
// beside it.
type DPSGDResult struct {
	rdp.DPSGDResult
	// Mu is √T·Δ/z, the μ of the one Gaussian mechanism that T full-batch
	// steps compose to (q = 1 only; 0 otherwise).
	Mu dp.Num `json:"mu,omitempty"`
	// RDPEpsilon is the RDP accountant's ε beside an exact headline (q = 1
	// only; then Order is the RDP's optimal order). Never below Epsilon.
	RDPEpsilon dp.Loss `json:"rdp_epsilon,omitempty"`
}

// DPSGD accounts the DP-SGD run d. Below q = 1 it is d.Account (RDP of the
// Poisson-subsampled Gaussian, Mironov–Talwar–Zhang 2019). At q = 1 every
// example is in every batch, and DP-SGD is T adaptive releases of the
// Gaussian mechanism with sensitivity Δ = C (2C under replace-one: the sum
// of clipped gradients moves by g − g′) and noise zC; they compose exactly
// to one Gaussian mechanism with μ = √T·Δ/z (Dong–Roth–Su 2019, Cor. 3.3,
// which holds for adaptive composition), whose privacy profile is known in
// closed form (Balle–Wang 2018, Thm 8). That exact ε is the headline, the
// RDP value is beside it; calibration at q = 1 finds the smallest z for the
// exact profile. (z = 1, one step, δ = 1e-5: 4.377 exact, 4.728 by RDP.)
//
// It lives in composition, not in rdp, because the exact Gaussian is
// composition's and composition imports rdp: rdp importing it would be a
// cycle.
func DPSGD(d rdp.DPSGD) (DPSGDResult, error) {
	r, err := DPSGDWith(d, AccountRDP)
	return r.DPSGDResult, err
}
