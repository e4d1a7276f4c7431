package pld

import (
	"math"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
)

// SubsampledGaussianReplaceOne returns a PLD that dominates one step of
// DP-SGD (clip norm 1, noise multiplier z) under replace-one neighbours,
// for every order of the hockey-stick divergence, so that it composes
// (Zhu–Dong–Wang 2022, "Optimal accounting of differential privacy via
// characteristic function", AISTATS 2022: composition of dominating pairs
// needs domination at every α ≥ 0). gamma is the probability that the
// replaced record is in the batch: the rate q of Poisson sampling, or b/n
// for fixed-size batches of b drawn without replacement from n.
//
// The pair, and why it dominates (see also docs/accounting.md, "Replace-one
// and fixed-size batches"):
//
//  1. Decomposition. With γ the probability that the changed record i is in
//     the batch, M(x) = (1−γ)A + γB and M(x′) = (1−γ)A + γB′, where B, B′
//     (batch contains i) are Gaussians with means at distance ≤ 2 and A
//     (batch without i) relates to B by the removal of one record
//     (Poisson: sampling of the others is independent of i) or by the
//     replacement of one record (fixed-size: couple S ∋ i with S − i + j, j
//     uniform outside S). By joint convexity of the hockey-stick divergence
//     H_α every such pair of mixtures is dominated by (P, Q) = (N(2, z²),
//     N(0, z²)), for every α ≥ 1.
//  2. Advanced joint convexity (Balle–Barthe–Gaboardi 2018, "Privacy
//     Amplification by Subsampling: Tight Analyses via Couplings and
//     Divergences", NeurIPS 2018, Thm 2): for α′ ≥ 1,
//     H_α′((1−γ)A+γB ‖ (1−γ)A+γB′) = γ·H_α(B ‖ (1−β)A+βB′) with
//     α = 1+(α′−1)/γ, β = α′/α, and convexity in the second argument gives
//     ≤ γ[(1−β)H_α(B‖A) + βH_α(B‖B′)] ≤ γ·H_α(P‖Q) = H_α′(R), the same
//     identity applied to R = ((1−γ)Q + γP, Q). R is the remove direction of
//     SubsampledGaussian with rate γ and noise multiplier z/2 (sensitivity 2
//     in units of the noise). Zhu–Dong–Wang 2022 state this pair for
//     sampling without replacement under replace-one.
//  3. One pair for every order. Replace-one is symmetric and, for α < 1,
//     H_α(U‖V) = 1 − α + α·H_{1/α}(V‖U). The symmetric PLD ω_S built from
//     R's PLD ω_R, ω_S(l) = ω_R(l) and ω_S(−l) = e^{−l}ω_R(l) for l > 0,
//     the same mass at +∞, and ω_S(0) the rest, has δ_S(ε) = δ_R(ε) for
//     ε ≥ 0 and is the PLD of a symmetric pair, so it dominates one step at
//     every α ≥ 0. This is the C_γ(f) = min{f_γ, f_γ⁻¹}** of Dong–Roth–Su
//     2022 ("Gaussian differential privacy", JRSS-B, the subsampling
//     theorem) in PLD form. ω_S(0) ≥ 0 holds for the continuous pair
//     (P_R(L>0) + Q_R(L>0) = γ + 2(1−γ)Φ̄(1/z) ≤ 1); on the grid it is
//     checked, with its rounding error, and a failure is an error.
//
// The sound PLD symmetrizes the sound (connect-the-dots or pessimistic)
// discretization of R, whose profile for ε ≥ 0 bounds R's from above; the
// optimistic one symmetrizes R's optimistic discretization (an estimate).
// gamma = 1 is the Gaussian mechanism with sensitivity 2.
//
// This pair is looser than dp_accounting's replace-one pair for Poisson
// sampling, ((1−q)N(0)+qN(−1), (1−q)N(0)+qN(1)), for which we have no
// proof we can check that it dominates at every α and for every pair of
// gradients (docs/accounting.md gives both numbers for examples).
func SubsampledGaussianReplaceOne(gamma, z float64, opt Options) (*PLD, error) {
	if err := checkGammaNoise(gamma, z); err != nil {
		return nil, err
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	return subsampledGaussianReplaceOne(gamma, z, o, nil)
}

func checkGammaNoise(gamma, z float64) error {
	if !(gamma > 0 && gamma <= 1) {
		return field.New("sampling_rate", gamma, "must be in (0, 1]")
	}
	return field.Positive("noise", z)
}

// subsampledGaussianReplaceOne builds the PLD with R's tails cached in
// cache (nil: none).
func subsampledGaussianReplaceOne(gamma, z float64, o Options, cache *[]tl) (*PLD, error) {
	if gamma == 1 {
		return Gaussian(2, z, o)
	}
	r, err := discretize(sampledLoss{q: gamma, z: z / 2}, o, cache)
	if err != nil {
		return nil, err
	}
	s, err := r.symmetrize(o.Discretization.Sound())
	if err != nil {
		return nil, err
	}
	return &PLD{opt: o, remove: s}, nil
}

// symmetrize returns the symmetric PLD ω_S of f (see
// SubsampledGaussianReplaceOne): f's masses at positive losses, their
// mirror images e^{−l}ω(l) at −l, f's +∞ mass and truncated tail (counted
// as at +∞), and the rest at 0. f's masses at losses ≤ 0 are replaced by
// that rest. Rounding moves mass up only: a mirror mass is rounded down and
// the mass at 0 takes what is missing, with the rounding of its sum added.
//
// If sound, a mass at 0 that may be negative (the grid's P(L > 0) +
// Q(L > 0) exceeding 1 by more than the rounding) is an error: the
// construction would not be a PLD. An optimistic f (an estimate) that
// fails the check has its mirror masses scaled down until the mass at 0
// is 0, so that the estimate stays a distribution.
func (f *pmf) symmetrize(sound bool) (*pmf, error) {
	top := f.lo + len(f.p) - 1 // the highest grid index
	if top < 1 {
		// No positive loss: ω_S is all at 0 (and +∞).
		return &pmf{h: f.h, lo: 0, p: []float64{math.Max(0, 1-f.inf-f.tail)}, inf: f.inf, tail: f.tail, err1: f.err1}, nil
	}
	// The masses keep f's relative error factor e^{lnR} (positive masses as
	// they are, mirrors scaled by e^{−l} ≤ 1).
	s := &pmf{h: f.h, lo: -top, p: make([]float64, 2*top+1), inf: f.inf, tail: f.tail, lnR: f.lnR}
	var sum numeric.Kahan // Σ_{l>0} ω(l)(1 + e^{−l}), compensated
	for i := max(1, f.lo); i <= top; i++ {
		w := math.Exp(-float64(i) * f.h) // relative error ≤ 2u (the product and exp)
		v := f.p[i-f.lo]
		m := v * w * (1 - 4*unit) // rounded down: the rest goes to 0
		s.p[i+top] = v
		s.p[-i+top] = m
		sum.Add(v)
		sum.Add(m)
	}
	n := float64(len(s.p))
	sm := sum.Sum()
	// Neumaier's compensated sum of non-negative terms is within
	// 2u·Σ + O(n u²)·Σ of the exact sum (Higham 2002, §4.3); the three
	// operations below add at most u each (values ≤ 1).
	sumErr := 4*unit*(sm+f.inf+f.tail+1) + 8*(n+2)*unit*unit*sm
	// The mass at 0. Where f's masses t are within a factor 1 ± ρ of the
	// computed ones (ρ = e^{lnR} − 1; f.err1 elsewhere), the exact pair's
	// mass at 0 after mirror mass moved up to it is at most
	// 1 − inf − (1 − ρ)·sum, plus 2·err1 (in s.err1) and the sum's rounding.
	// It must also be ≥ 0 for the construction to be a PLD: the exact mass
	// at 0 is at least 1 − inf − tail − (1 + ρ)·sum − 2·err1 − sumErr.
	rho := math.Expm1(f.lnR) * (1 + 4*unit)
	if 1-f.inf-f.tail-(1+rho)*sm-sumErr-2*f.err1 < 0 {
		zero := 1 - (sm + f.inf + f.tail)
		if sound {
			return nil, field.New("sampling_rate", nil,
				"gives a symmetrized replace-one PLD with negative mass at loss 0 (%.3g, grid P(L>0) + Q(L>0) above 1); use a finer interval", zero)
		}
		// Optimistic only: scale the mirror masses so that the total is 1.
		neg := 0.0
		for i := 0; i < top; i++ {
			neg += s.p[i]
		}
		if neg > 0 {
			c := math.Max(0, 1+zero/neg) // neg·c = neg + zero
			for i := 0; i < top; i++ {
				s.p[i] *= c
			}
		}
		s.p[top] = 0
		s.lnR, s.err1 = 0, 4*f.err1+2*sumErr
		s.errL2 = f.errL2 * 2
		return s, nil
	}
	s.p[top] = 1 - f.inf - (1-rho)*sm + sumErr // up: extra mass at 0 only raises δ
	if !sound {
		s.p[top], s.lnR = math.Max(0, 1-(sm+f.inf+f.tail)), 0 // an estimate: no error terms
	}
	// ℓ1: f's absolute error moves the positive masses and their mirrors
	// (2·err1) and the mass at 0 (2·err1 more).
	s.err1 = 4 * f.err1
	s.errL2 = f.errL2 * 2
	return s, nil
}
