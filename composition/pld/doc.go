// Package pld is a privacy loss distribution (PLD) accountant: it represents
// a mechanism by the distribution of its privacy loss L = ln(P(o)/Q(o)),
// o ~ P, for a dominating pair (P, Q), composes mechanisms by convolving
// their PLDs with the FFT, and answers δ(ε), ε(δ) and noise calibration.
//
// The hockey-stick divergence (privacy profile) of a PLD ω is
//
//	δ(ε) = E_ω[(1 − e^{ε−L})_+] + ω(+∞)
//
// and the PLD of an adaptive composition is the convolution of the PLDs
// (Dwork–Rothblum 2016; Sommer–Meiser–Mohammadi 2019; for dominating pairs
// Zhu–Dong–Wang 2022, "Optimal accounting of differential privacy via
// characteristic function", AISTATS 2022).
//
// # Discretization
//
// Losses are kept on a uniform grid l_i = i·h (h = Options.Interval,
// default 10⁻⁴) plus a mass at +∞. Three discretizations are offered:
//
//   - Pessimistic: every loss is rounded UP to the grid, the "privacy
//     buckets" of Meiser–Mohammadi 2018 ("Tight on Budget? Tight Bounds for
//     r-Fold Approximate Differential Privacy", CCS 2018), as used for FFT
//     accounting by Koskela, Jälkö, Honkela 2020 ("Computing Tight
//     Differential Privacy Guarantees Using FFT", AISTATS 2020). Moving
//     mass to higher losses only increases δ(ε) for every ε, and the order
//     is kept by convolution, so every δ(ε) and ε(δ) derived is an upper
//     bound.
//   - ConnectDots: the connect-the-dots discretization of Doroshenko,
//     Ghazi, Kamath, Kumar, Manurangsi 2022 ("Connect the Dots: Tighter
//     Discrete Approximations of Privacy Loss Distributions", PoPETs 2022,
//     the connect-the-dots algorithm and its domination result). The P-mass a and Q-mass b of each grid interval
//     (l_{i−1}, l_i] are split between its two endpoints so that both are
//     kept: α + β = a, α e^{−l_{i−1}} + β e^{−l_i} = b. That is a
//     mean-preserving spread of e^{−L} and (1 − e^{ε}y)_+ is convex in y,
//     so the discrete pair dominates the mechanism for every ε (the
//     profile of the result is the piecewise-linear interpolation, in e^ε,
//     of the exact profile at the grid points). It is sound like
//     Pessimistic and tighter: its error is second order in h.
//   - Optimistic: every loss is rounded DOWN. This is an estimate from
//     below (never a bound), so a user sees the interval
//     [optimistic, sound] in which the exact ε lies. Rounding down is the
//     tightest grid-supported PLD that the exact one dominates (an atom
//     between two grid points can only go to the lower one), so its error
//     is first order and grows with the number of compositions k, about
//     k·h/2 in the mean loss: for the MNIST DP-SGD example (k = 14063,
//     h = 10⁻⁴) it is 1.68 against the sound 2.382, and 2.03 at
//     h = 5·10⁻⁵, while connect-the-dots moves by less than 10⁻⁴ between
//     the two intervals. For long compositions read the optimistic value
//     as a floor, and the connect-the-dots value as the answer.
//
// # What is added to δ
//
// Nothing is silently dropped. In a sound (Pessimistic or ConnectDots) PLD:
//
//   - the mechanism's loss above the grid's top (tail mass at most
//     Options.TailMass) goes to the +∞ mass; the loss below the grid's
//     bottom is rounded up to the lowest grid point;
//   - a k-fold self-composition computes the k-th power of one real FFT on
//     a window [lo, hi] chosen with Chernoff bounds
//     Σ_{s>a} ω^{*k}(s) ≤ e^{−ta} M(t)^k, M(t) = Σ ω_i e^{t l_i}; the mass
//     above hi (bounded so) is added to δ, and the mass below lo wraps into
//     the window where it can only increase δ;
//   - the floating-point error of the FFTs is bounded in ℓ2 (Higham 2002,
//     "Accuracy and Stability of Numerical Algorithms", ch. 24, with the
//     constant η = 8u·(log₂N + 1) per transform, and componentwise by
//     2η‖x‖₁; internal/fft's fft.Bound argues it for its power-of-two
//     real FFT)
//     and, through Cauchy–Schwarz, added to every δ(ε);
//   - the grid masses' rounding (from the mechanisms' bounds on the error
//     of their tails) is a factor (1 + ρ)^k on δ where a mass's error is at
//     most ρ times the mass, and an added ℓ1 term elsewhere.
//
// For tiny δ (down to 10⁻¹⁴) these bounds must stay far below δ. When the
// δ to be queried is known (DPSGD, GaussianComposed, CalibrateDPSGD) the
// k-th power is taken of the FFT of the tilted masses p_j e^{t l_j}/M(t),
// which is the same convolution, and the FFT's error then reaches a loss l
// multiplied by e^{k ln M(t) − t l}, about δ near the answer; the step's
// tail mass is lowered to 10⁻⁶·δ/k. Where a heavy upper loss tail (small
// sampling rates, tiny δ) leaves the tilted FFT's error visible, the masses
// below and above a split loss are composed apart, B^{*k} tilted and the
// terms with one to J factors from the tail by one untilted FFT whose error
// is proportional to the tail's mass; the terms with more are bounded by
// their mass and added to δ (splitCompose). The argument for each step is in
// docs/accounting.md ("Rounding error at tiny δ"). A PLD made by
// SelfCompose or Compose is untilted (its bound holds for every ε, and is
// coarser at tiny δ).
//
// # Mechanisms and neighbouring relations
//
// Gaussian, Laplace and randomized response are symmetric (the PLD of (P, Q) equals
// that of (Q, P)). The Poisson-subsampled Gaussian under add/remove-one is
// not: Remove is P = (1−q)N(0, σ²) + qN(1, σ²) against Q = N(0, σ²), Add
// is the reverse pair (Zhu–Dong–Wang 2022; Mironov–Talwar–Zhang
// 2019). A PLD keeps both directions and composes each with the same
// direction of the other (in a composition the neighbouring pair is fixed
// for all steps, so every step is in the same direction); a profile is the
// larger δ(ε) of the two. This is the max of two valid upper bounds, one
// for each order of the pair of neighbouring data sets, hence sound.
//
// Under replace-one neighbours, SubsampledGaussianReplaceOne gives one
// symmetric PLD for Poisson sampling (rate q) and for fixed-size batches
// drawn without replacement (γ = b/n): the remove pair of the subsampled
// Gaussian with sensitivity 2, ((1−γ)N(0, z²) + γN(2, z²), N(0, z²)), which
// dominates one step for every ε ≥ 0 by advanced joint convexity
// (Balle–Barthe–Gaboardi 2018, Thm 2), symmetrized (ω(−l) = e^{−l}ω(l),
// the rest at 0) so that it dominates at every order and composes
// (Dong–Roth–Su 2022; Zhu–Dong–Wang 2022). The proof is in its doc
// comment and in docs/accounting.md, "Replace-one and fixed-size batches".
// It is provable, and looser than dp_accounting's replace-one pair, which
// has no proof we can check. Add/remove with fixed-size batches has no
// dominating pair here.
//
// # Cost
//
// A composition window of N points costs O(N log N) time and about 56
// bytes a point while it is computed (the real sequence, its N/2+1 complex
// coefficients, the FFT's twiddle tables and work array, and the
// result; N is a power of two); the DP-SGD
// accountant composes three at once (both directions of the sound PLD, and
// the optimistic estimate in the direction that decides ε). A grid or FFT
// longer than Options.MaxPoints (default 2²⁴, so at most about 0.9 GB per
// window) is refused with a field error on "discretization" that says how
// many points it would need. FFT objects and mass buffers are kept for
// reuse in a process-wide cache of at most 256 MB (a fresh page costs more
// than the arithmetic done on it). The MNIST example needs windows of
// about 10⁵ points, 10⁶ steps about 5·10⁵.
//
// Entry points: Gaussian, Laplace, RandomizedResponse, SubsampledGaussian
// and SubsampledGaussianReplaceOne build a PLD; SelfCompose and Compose
// compose; Delta and Epsilon query; DPSGD, DPSGDReplaceOne and
// GaussianComposed return a Result with the sound ε and the optimistic
// estimate; CalibrateDPSGD (add/remove) and CalibrateDPSGDFor (either
// dp.Relation) find the noise.
package pld
