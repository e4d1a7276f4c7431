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
// characteristic function", Thm 10).
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
//     Alg. 1 and Thm 3.2). The P-mass a and Q-mass b of each grid interval
//     (l_{i−1}, l_i] are split between its two endpoints so that both are
//     kept: α + β = a, α e^{−l_{i−1}} + β e^{−l_i} = b. That is a
//     mean-preserving spread of e^{−L} and (1 − e^{ε}y)_+ is convex in y,
//     so the discrete pair dominates the mechanism for every ε (the
//     profile of the result is the piecewise-linear interpolation, in e^ε,
//     of the exact profile at the grid points). It is sound like
//     Pessimistic and tighter: its error is second order in h.
//   - Optimistic: every loss is rounded DOWN. This is an estimate from
//     below (never a bound), so a user sees the interval
//     [optimistic, pessimistic] in which the exact ε lies.
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
//     "Accuracy and Stability of Numerical Algorithms", §24.1, with the
//     constant 8u·log₂N per transform) and, through Cauchy–Schwarz, added to
//     every δ(ε).
//
// The error of evaluating the mechanisms' CDFs (math.Erfc, math.Exp) when
// the grid masses are formed is not bounded rigorously; masses are formed
// from the smaller of the two tails, so it is of the order of 10⁻¹⁵ per
// mass, far below the discretization error.
//
// # Mechanisms and neighbouring relations
//
// Gaussian and Laplace mechanisms are symmetric (the PLD of (P, Q) equals
// that of (Q, P)). The Poisson-subsampled Gaussian under add/remove-one is
// not: Remove is P = (1−q)N(0, σ²) + qN(1, σ²) against Q = N(0, σ²), Add
// is the reverse pair (Zhu–Dong–Wang 2022, Thm 11; Mironov–Talwar–Zhang
// 2019). A PLD keeps both directions and composes each with the same
// direction of the other (in a composition the neighbouring pair is fixed
// for all steps, so every step is in the same direction); a profile is the
// larger δ(ε) of the two. This is the max of two valid upper bounds, one
// for each order of the pair of neighbouring data sets, hence sound.
//
// # Cost
//
// A grid of N points costs O(N) memory (about 40 bytes a point during a
// composition, for the FFT's real and complex buffers) and O(N log N)
// time; a grid beyond Options.MaxPoints (default 2²⁴) is refused with a
// field error on "discretization".
package pld
