package pld

import (
	"math"
	"math/big"
)

// The exact privacy profile of the Gaussian mechanism with μ = Δ/σ
// (Balle–Wang 2018, Thm 8), written here independently of package
// composition (which imports this package), in 256-bit arithmetic for the
// erfc-free parts and math.Erfc for Φ:
//
//	δ(ε) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ).
func exactGaussianDelta(mu, eps float64) float64 {
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	a := new(big.Float).SetPrec(256).SetFloat64(phi(mu/2 - eps/mu))
	b := new(big.Float).SetPrec(256).SetFloat64(phi(-mu/2 - eps/mu))
	b.Mul(b, new(big.Float).SetPrec(256).SetFloat64(math.Exp(eps)))
	d, _ := a.Sub(a, b).Float64()
	return math.Max(d, 0)
}

// exactGaussianEpsilon inverts exactGaussianDelta by bisection (δ(ε) falls
// as ε grows).
func exactGaussianEpsilon(mu, delta float64) (float64, error) {
	if exactGaussianDelta(mu, 0) <= delta {
		return 0, nil
	}
	lo, hi := 0.0, 1.0
	for exactGaussianDelta(mu, hi) > delta {
		lo, hi = hi, 2*hi
	}
	for i := 0; i < 200 && hi-lo > 1e-13*hi; i++ {
		if m := (lo + hi) / 2; exactGaussianDelta(mu, m) > delta {
			lo = m
		} else {
			hi = m
		}
	}
	return hi, nil
}
