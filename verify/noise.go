package verify

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/quantity"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// NoiseFalseAlarm is the false-alarm probability of the noise check: the
// probability that the two-sided χ² test refutes a σ that is the run's
// true σ (half of it in each tail).
const NoiseFalseAlarm = 1e-6

// noiseCheck tests the declared σ against the noise the trajectory records:
// the run adds Z_s ~ N(0, σ²I_d) to the gradient at each step, so under the
// declared σ the sum X = Σ‖Z_s‖²/σ² over the K = Σ noise_dof coordinates
// drawn is χ²(K)-distributed. The check fails when X is in either tail of
// probability NoiseFalseAlarm/2 (regularised incomplete gamma function,
// gonum mathext). A trajectory without the noise columns (written before
// privamp recorded them) cannot check σ: the check is dp.Assumed.
func noiseCheck(c *Claim, trace *TraceSummary) (ch dp.Check, ok bool) {
	nan := math.NaN()
	const name = "trajectory: noise drawn matches σ"
	if trace == nil || !trace.hasNoise() {
		why := "no trajectory"
		if trace != nil {
			why = "the trajectory has no noise_sq and noise_dof columns (written by a privamp that did not record the noise)"
		}
		return check(name, dp.Assumed, nan, c.Sigma, BasisTrust, why+": σ is taken as declared, not checked"), false
	}
	S, K := trace.noiseSq.Sum(), trace.noiseDOF
	x := S / (c.Sigma * c.Sigma)
	below := mathext.GammaIncReg(K/2, x/2)     // P(χ²(K) ≤ x)
	above := mathext.GammaIncRegComp(K/2, x/2) // P(χ²(K) ≥ x)
	chi := distuv.ChiSquared{K: K}
	lo, hi := chi.Quantile(NoiseFalseAlarm/2), chi.Quantile(1-NoiseFalseAlarm/2)
	est := math.Sqrt(S / K)
	ch = check(name, dp.Pass, est, c.Sigma, BasisTrajectory,
		fmt.Sprintf("value: the noise's standard deviation √(Σ‖Z‖²/K) over K = %s Gaussian coordinates; under the declared σ, Σ‖Z‖²/σ² = %.6g is χ²(K): P(below) = %.3g, P(above) = %.3g; refuted when either is < %g (two-sided false-alarm probability %g); σ in [%.6g, %.6g] passes",
			quantity.Int(K), x, below, above, NoiseFalseAlarm/2, NoiseFalseAlarm, math.Sqrt(S/hi), math.Sqrt(S/lo)))
	if below < NoiseFalseAlarm/2 || above < NoiseFalseAlarm/2 || math.IsNaN(below) || math.IsNaN(above) {
		ch.Status = dp.Fail
		ch.Detail = fmt.Sprintf("the noise the run drew has standard deviation %.6g over K = %s coordinates (Σ‖Z‖² = %.6g), not the declared σ = %g: under σ, Σ‖Z‖²/σ² = %.6g is χ²(K), and P(below) = %.3g, P(above) = %.3g, one of them < %g (two-sided false-alarm probability %g); σ in [%.6g, %.6g] would pass",
			est, quantity.Int(K), S, c.Sigma, x, below, above, NoiseFalseAlarm/2, NoiseFalseAlarm, math.Sqrt(S/hi), math.Sqrt(S/lo))
		return ch, false
	}
	return ch, true
}
