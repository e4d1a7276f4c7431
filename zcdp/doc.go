// Package zcdp implements zero-concentrated differential privacy (Bun and
// Steinke 2016, "Concentrated Differential Privacy: Simplifications,
// Extensions, and Lower Bounds"): ρ-zCDP bounds every Rényi divergence
// D_α ≤ ρα, so it is the linear RDP curve rdp.Linear(ρ).
//
// The package gives the Gaussian mechanism's ρ, the ρ implied by pure DP,
// composition, conversion to (ε, δ)-DP by Bun–Steinke's closed form and by the
// tighter improved RDP conversion, and the exact inverses: the largest ρ that
// still certifies a target (ε, δ).
//
// Rounding is always on the safe side: ε and ρ of mechanisms are rounded
// up (never below their exact formulas, subnormal δ included), and the
// inverses ρ* are verified with those rounded-up conversions, so they err
// low.
package zcdp
