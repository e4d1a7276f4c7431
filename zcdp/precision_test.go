package zcdp_test

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/internal/numeric/hp"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/zcdp"
)

const prec = 200

// bunSteinkeExact is ρ + 2√(ρ ln(1/δ)) in 200-bit arithmetic.
func bunSteinkeExact(rho, delta float64) *big.Float {
	r := hp.New(rho, prec)
	L := hp.Neg(hp.Log(hp.New(delta, prec), prec))
	return hp.Add(prec, r, hp.Mul(prec, hp.New(2, prec), hp.Sqrt(hp.Mul(prec, r, L), prec)))
}

// improvedExact is the improved conversion of ρα at α, in 200 bits.
func improvedExact(rho, delta, alpha float64) *big.Float {
	a := hp.New(alpha, prec)
	am1 := hp.Sub(prec, a, hp.New(1, prec))
	L := hp.Neg(hp.Log(hp.New(delta, prec), prec))
	t1 := hp.Mul(prec, hp.New(rho, prec), a)
	t2 := hp.Log(hp.Quo(prec, am1, a), prec)
	t3 := hp.Quo(prec, hp.Sub(prec, L, hp.Log(a, prec)), am1)
	return hp.Add(prec, t1, hp.Add(prec, t2, t3))
}

// δ below 2^−1022: Go's amd64 math.Log returns ≈ −709.09 for every
// subnormal, so ln(1/δ) was clamped and both conversions fell below their
// own formulas (and below the exact Gaussian: at μ = 1, δ = 10^−310 the
// RDP route gave 38.035 against the Gaussian's exact 38.066).
func TestEpsilonSubnormalDelta(t *testing.T) {
	for _, delta := range []float64{2e-308, 1e-310, 1e-315, 1e-320, 5e-324} {
		for _, mu := range []float64{0.05, 0.3, 1, 5, 30} {
			rho := mu * mu / 2
			bs, _ := zcdp.Epsilon(rho, delta, zcdp.BunSteinke)
			if hp.New(bs, prec).Cmp(bunSteinkeExact(rho, delta)) < 0 {
				t.Errorf("μ=%v δ=%v: Bun–Steinke ε = %v below ρ + 2√(ρ ln(1/δ)) = %v", mu, delta, bs, hp.Float64(bunSteinkeExact(rho, delta)))
			}
			imp, _ := zcdp.Epsilon(rho, delta, zcdp.RDP)
			_, order := rdp.LinearEpsilon(rho, delta, rdp.Improved)
			if w := improvedExact(rho, delta, order); hp.New(imp, prec).Cmp(w) < 0 {
				t.Errorf("μ=%v δ=%v: improved ε = %v below the exact %v at α = %v", mu, delta, imp, hp.Float64(w), order)
			}
			exact, err := composition.GaussianEpsilon(mu, delta)
			if err != nil {
				t.Fatal(err)
			}
			if imp < exact || bs < exact {
				t.Errorf("μ=%v δ=%v: zCDP ε %v (RDP), %v (Bun–Steinke) below the exact Gaussian %v", mu, delta, imp, bs, exact)
			}
		}
	}
}

// Bun–Steinke's closed form is never below its exact value, and the ρ*
// RhoFor returns converts back to at most ε under the same rounded-up
// conversion (so it errs low).
func TestBunSteinkeExact(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 500; i++ {
		rho := math.Pow(10, -18+22*r.Float64())
		delta := math.Pow(10, -320*r.Float64())
		if delta >= 1 {
			continue
		}
		got, _ := zcdp.Epsilon(rho, delta, zcdp.BunSteinke)
		if hp.New(got, prec).Cmp(bunSteinkeExact(rho, delta)) < 0 {
			t.Fatalf("ρ=%v δ=%v: %v below the exact %v", rho, delta, got, hp.Float64(bunSteinkeExact(rho, delta)))
		}
		if eps := got * 0.7; eps > 0 {
			rs, _ := zcdp.RhoFor(eps, delta, zcdp.BunSteinke)
			if hp.New(eps, prec).Cmp(bunSteinkeExact(rs, delta)) < 0 {
				t.Fatalf("ε=%v δ=%v: ρ* = %v converts to %v exactly", eps, delta, rs, hp.Float64(bunSteinkeExact(rs, delta)))
			}
		}
	}
}
