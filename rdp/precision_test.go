package rdp

import (
	"math/big"
	"testing"

	"github.com/privamp/privamp/internal/numeric/hp"
)

// Tests that privamp's ε is never below the exact real value of the bound it
// claims, checked against 200-bit evaluations of the same formulas
// (internal/numeric/hp), with no tolerance.

const bigPrec = 200

func bf(x float64) *big.Float { return hp.New(x, bigPrec) }

// bigConversion is the exact conversion of (α, rdp)-RDP at δ, with rdp
// given in high precision: Classic ln(1/δ)/(α−1), Improved
// ln(1 − 1/α) + (ln(1/δ) − ln α)/(α−1) (both added to rdp).
func bigConversion(alpha float64, rdp *big.Float, delta float64, conv Conversion) *big.Float {
	P := uint(bigPrec)
	a := bf(alpha)
	am1 := hp.Sub(P, a, bf(1))
	L := new(big.Float).Neg(hp.Log(bf(delta), P))
	if conv == Classic {
		return hp.Add(P, rdp, hp.Quo(P, L, am1))
	}
	t2 := hp.Log(hp.Quo(P, am1, a), P)
	t3 := hp.Quo(P, hp.Sub(P, L, hp.Log(a, P)), am1)
	return hp.Add(P, rdp, hp.Add(P, t2, t3))
}

// atLeast reports whether the float64 got is ≥ the exact value want.
func atLeast(got float64, want *big.Float) bool { return bf(got).Cmp(want) >= 0 }

// Tiny ρ: the optimal order is near √(ln(1/δ)/ρ) ≈ 10^7…10^9, where the old
// ln x − ln(1+x) kept a few digits of −1/x, and ε fell below the bound at
// its own order (by 2·10^−8 relative at ρ = 10^−16, δ = 10^−10).
func TestLinearEpsilonTinyRhoExact(t *testing.T) {
	for _, rho := range []float64{1e-13, 1e-14, 3e-15, 1e-16} {
		for _, delta := range []float64{1e-10, 1e-12, 1e-20, 1e-50} {
			for _, conv := range []Conversion{Improved, Classic} {
				e, a := LinearEpsilon(rho, delta, conv)
				want := bigConversion(a, hp.Mul(bigPrec, bf(rho), bf(a)), delta, conv)
				if !atLeast(e, want) {
					t.Errorf("ρ=%v δ=%v %v: ε = %.17g below the exact %.20s at α = %v", rho, delta, conv, e, want.Text('g', 20), a)
				}
				if w := hp.Float64(want); e > w*(1+1e-13) {
					t.Errorf("ρ=%v δ=%v %v: ε = %.17g, exact %.17g: bound too loose", rho, delta, conv, e, w)
				}
			}
		}
	}
}
