package composition

import (
	"github.com/privamp/privamp/composition/pld"
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/zcdp"
)

// GaussianMechanism is k adaptive releases of the Gaussian mechanism with
// ℓ2-sensitivity Δ and noise N(0, σ²I). Give Sigma, or set Calibrate for the
// smallest σ meeting TargetEpsilon.
type GaussianMechanism struct {
	Sigma         float64        // σ > 0 (ignored when Calibrate)
	Sensitivity   float64        // Δ > 0
	Compositions  float64        // k, a whole number in [1, 1e12]
	Delta         float64        // δ ∈ (0, 1)
	Calibrate     bool           // find the noise for TargetEpsilon instead of taking it
	TargetEpsilon float64        // ε > 0 to calibrate for; ignored unless Calibrate
	Conversion    rdp.Conversion // for the RDP value shown beside the exact one
	Profile       ProfileQuery   // δ(ε) at one ε and on a curve, if asked
}

// GaussianResult is the exact (ε, δ) of a GaussianMechanism with the RDP and
// zCDP values beside it (never below it).
type GaussianResult struct {
	Sigma         dp.Noise `json:"sigma"`
	Calibrated    bool     `json:"calibrated"`
	TargetEpsilon dp.Num   `json:"target_epsilon,omitempty"`
	Sensitivity   dp.Num   `json:"sensitivity"`
	Compositions  dp.Num   `json:"compositions"`
	dp.Guarantee
	Mu          dp.Num  `json:"mu"` // √k·Δ/σ
	Method      string  `json:"method"`
	RDPEpsilon  dp.Loss `json:"rdp_epsilon"`
	RDPOrder    dp.Num  `json:"rdp_order"`
	Conversion  string  `json:"conversion"`
	Rho         dp.Loss `json:"rho"` // kΔ²/(2σ²)
	ZCDPEpsilon dp.Loss `json:"zcdp_epsilon"`
	// PLDEpsilon and EpsilonOptimistic are the PLD accountant's sound ε and
	// optimistic estimate of the same mechanism (k releases compose to one
	// Gaussian with μ, so one grid suffices): a check that agrees with the
	// exact value to the discretization error. PLDNote says why they are
	// absent.
	PLDEpsilon        dp.Loss `json:"pld_epsilon,omitempty"`
	EpsilonOptimistic dp.Max  `json:"epsilon_optimistic,omitempty"`
	PLDSource         string  `json:"pld_source,omitempty"`
	PLDNote           string  `json:"pld_note,omitempty"`
	// RDPSigma is the σ RDP accounting would need for the same target
	// (calibration only; 0 when it cannot be met in [1e-3, 1e6]).
	RDPSigma dp.Noise `json:"rdp_sigma,omitempty"`
	// Profile is the exact δ(ε) where asked (ExactGaussianProfile).
	*Profile
}

// Account returns the exact ε of m: k Gaussian releases compose to one
// Gaussian mechanism with μ = √k·Δ/σ (Dong–Roth–Su 2019, Cor. 3.3), whose
// privacy profile is known in closed form (Balle–Wang 2018, Thm 8). Beside
// it: RDP (Mironov 2017, Prop. 7) and zCDP (Bun–Steinke 2016, Prop. 1.6,
// Lemma 1.7). With TargetEpsilon, σ is the smallest that meets (ε, δ)
// exactly, nudged up until recomputing ε at the printed σ meets the target.
func (m GaussianMechanism) Account() (GaussianResult, error) {
	err := field.First(field.Positive("sensitivity", m.Sensitivity), wholeCount("compositions", m.Compositions, 1e12),
		field.OpenUnit("delta", m.Delta))
	if err == nil && m.Calibrate {
		err = field.Positive("target_epsilon", m.TargetEpsilon)
	} else if err == nil {
		err = field.Positive("sigma", m.Sigma)
	}
	if err != nil {
		return GaussianResult{}, err
	}
	k, sens, sigma := m.Compositions, m.Sensitivity, m.Sigma
	r := GaussianResult{Guarantee: dp.Guarantee{Delta: dp.Loss(m.Delta), Source: "Balle–Wang 2018, Thm 8"}, Sensitivity: dp.Num(sens), Compositions: dp.Num(k),
		Method: "analytic-gaussian", Conversion: m.Conversion.String()}
	if m.Calibrate {
		var err error
		if sigma, err = GaussianSigma(sens, k, m.TargetEpsilon, m.Delta); err != nil {
			return GaussianResult{}, field.New("target_epsilon", m.TargetEpsilon, "cannot be met: %v", err)
		}
		r.Calibrated, r.TargetEpsilon = true, dp.Num(m.TargetEpsilon)
		curve := func(s float64) rdp.Curve { return rdp.Linear(k * sens * sens / (2 * s * s)) }
		if zs, _, err := rdp.Calibrate(curve, m.TargetEpsilon, m.Delta, m.Conversion); err == nil {
			r.RDPSigma = dp.Noise(zs)
		}
	}
	mu := math.Sqrt(k) * sens / sigma
	exact, _ := GaussianEpsilon(mu, m.Delta)
	rho := k * zcdp.Gaussian(sens, sigma)
	rdpEps, order := rdp.LinearEpsilon(rho, m.Delta, m.Conversion)
	bs, _ := zcdp.Epsilon(rho, m.Delta, zcdp.BunSteinke)
	r.Sigma, r.Mu, r.Epsilon = dp.Noise(sigma), dp.Num(mu), dp.Loss(exact)
	r.Profile = ExactGaussianProfile(mu, exact, m.Profile)
	r.RDPEpsilon, r.RDPOrder, r.Rho, r.ZCDPEpsilon = dp.Loss(rdpEps), dp.Num(order), dp.Loss(rho), dp.Loss(bs)
	if p, err := pld.GaussianComposed(mu, 1, 1, m.Delta, pld.Options{}); err != nil {
		r.PLDNote = "no PLD: " + err.Error()
	} else {
		r.PLDEpsilon, r.EpsilonOptimistic, r.PLDSource = p.Epsilon, p.EpsilonOptimistic, p.Source
	}
	return r, nil
}
