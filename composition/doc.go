// Package composition accounts for privacy at the (ε, δ) level: it composes
// (ε, δ)-DP guarantees and amplifies them by subsampling, and it gives the
// exact privacy profile of the Gaussian mechanism.
//
// Composition of k mechanisms, each (ε, δ)-DP, run adaptively:
//
//   - Basic: (Σε_i, Σδ_i) (Dwork–Roth 2014, Thm 3.16).
//   - Advanced: √(2k ln(1/δ'))·ε + kε(e^ε − 1) with total δ kδ + δ'
//     (Dwork–Rothblum–Vadhan 2010; seed 001, Lemma 2.3).
//   - Optimal: the exact optimal composition of k homogeneous (ε, δ)
//     mechanisms (Kairouz–Oh–Viswanath 2015, Thm 3.3; Murtagh–Vadhan 2016),
//     computed in log space for k up to 10^7.
//   - Filter: the fully adaptive privacy filter of Whitehouse et al. 2023
//     (seed 003, Thm 3.5), where the privacy parameters themselves may be
//     chosen adaptively, and its closed form for k pure steps, which equals the
//     zCDP route (Bun–Steinke 2016).
//
// Best evaluates every method that applies to k homogeneous guarantees and a
// total δ budget, and returns the smallest ε with the method that gave it.
// Each method is evaluated only inside its validity range.
//
// Amplification by subsampling: Poisson sampling (Li–Qardaji–Su 2012;
// Balle–Barthe–Gaboardi 2018) and seed 001's Lemma 2.2 (Beimel et al.),
// which holds only for ε' ≤ 1 and is refused outside it.
//
// The Gaussian mechanism with ℓ2-sensitivity Δ and noise σ has the exact
// privacy profile δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) with μ = Δ/σ
// (Balle–Wang 2018, Thm 8; μ-GDP of Dong–Roth–Su 2019). k-fold composition is
// the μ√k mechanism, so this profile is a floor that no RDP or zCDP accountant
// can go below for Gaussian noise.
//
// Every ε returned is an upper bound that the cited theorem supports: where a
// value is found by bisection the end of the bracket at which the target was
// verified is returned, and sums of exponentials are taken in log space with
// a bound on the rounding error added on the unsafe side.
package composition
