package composition

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// GaussianDelta returns the exact privacy profile of the Gaussian mechanism
// with μ = Δ/σ (ℓ2-sensitivity over noise standard deviation): the smallest
// δ for which it is (ε, δ)-DP (Balle–Wang 2018, "Improving the Gaussian
// Mechanism for Differential Privacy", Thm 8; equivalently μ-GDP,
// Dong–Roth–Su 2019, Cor. 2.13):
//
//	δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ).
//
// Both terms are taken in log space (numeric.LogPhiApprox) and subtracted
// with log1mexp, so large ε and tiny δ do not cancel (GaussianLogDelta
// keeps δ below 10^−308 too). The value returned is an upper bound on the
// exact δ(ε): every step's rounding error is bounded and added, and the
// result rounded up, so it is never optimistic; it is within about
// 10^−15·(1 + ε/μ)² relative of the exact value, or 10^−16/μ where the two
// terms cancel (tiny μ). It is also capped by δ(0) = erf(μ/(2√2)) and by
// the first term alone, both upper bounds. It returns 0 for μ = 0 or
// ε = +Inf, 1 for μ = +Inf, and NaN for μ < 0, ε < 0 or NaN inputs.
// About 0.2 µs per call.
func GaussianDelta(mu, eps float64) float64 {
	ld := GaussianLogDelta(mu, eps)
	if math.IsInf(ld, -1) || math.IsNaN(ld) {
		return math.Exp(ld)
	}
	return math.Min(numeric.ExpUp(ld), 1)
}

// GaussianLogDelta returns an upper bound on ln δ(ε) of GaussianDelta,
// finite even where δ itself underflows (δ < 10^−308), e.g. μ = 1 and
// ε > 38. It returns -Inf for μ = 0 or ε = +Inf, 0 for μ = +Inf, and NaN
// for invalid inputs.
func GaussianLogDelta(mu, eps float64) float64 {
	ld, _ := gaussianLog(mu, eps)
	return ld
}

// gaussianLog returns an upper bound on ln δ(ε), and ln(e^ε Φ(−μ/2 − ε/μ))
// = ln(−δ'(ε)) (for Newton's slope only).
func gaussianLog(mu, eps float64) (logDelta, logSlope float64) {
	switch {
	case math.IsNaN(mu) || math.IsNaN(eps) || mu < 0 || eps < 0:
		return math.NaN(), math.NaN()
	case mu == 0 || math.IsInf(eps, 1):
		return math.Inf(-1), math.Inf(-1)
	case math.IsInf(mu, 1):
		return 0, 0
	}
	m, e := numeric.Exact(mu), numeric.Exact(eps)
	r := e.Div(m)
	half := m.Scale(0.5)
	a := numeric.LogPhiApprox(half.Sub(r))              // ln Φ(μ/2 − ε/μ)
	b := e.Add(numeric.LogPhiApprox(half.Neg().Sub(r))) // ε + ln Φ(−μ/2 − ε/μ)
	// δ(ε) ≤ δ(0) = erf(μ/(2√2)), the total variation distance, computed
	// without cancellation: a cap that matters for tiny μ, where the two Φ
	// terms agree to many digits. erf's relative slope x·erf'(x)/erf(x) is
	// below 1, so the argument's rounding (2U) adds at most 2U.
	tvv := math.Erf(mu / (2 * math.Sqrt2))
	tv := numeric.Approx{V: tvv, E: (numeric.ErrErf + 2*numeric.U) * tvv}.Log().Up()
	best := math.Min(math.Min(a.Up(), tv), 0) // the first term alone bounds δ
	d := b.Sub(a)                             // ln of the ratio of the two terms, < 0
	if d.V+d.E < 0 {
		var l numeric.Approx // ln(1 − e^d)
		if d.V > -math.Ln2 {
			l = d.Expm1().Neg().Log()
		} else {
			l = d.Exp().Neg().Log1p()
		}
		if v := a.Add(l).Up(); v < best {
			best = v
		}
	}
	return best, b.V
}

// GaussianEpsilon returns the smallest ε ≥ 0 with GaussianDelta(μ, ε) ≤ δ: the
// exact ε of the Gaussian mechanism (Balle–Wang 2018, Thm 8), within 10^−12
// (relative) and always on the safe side: the returned ε was verified to
// meet δ with GaussianLogDelta, an upper bound on the exact ln δ(ε), against
// a lower bound on ln δ (numeric.Log, right for subnormal δ), so it is never
// below the exact ε. μ must be ≥ 0 (+Inf gives +Inf: no finite guarantee),
// δ in (0, 1).
//
// It runs Newton's method on g(ε) = ln δ(ε), whose derivative is
// −e^ε Φ(−μ/2 − ε/μ)/δ(ε) in closed form, safeguarded by a bracket between 0
// and the zCDP bound μ²/2 + μ√(2 ln(1/δ)) (Bun–Steinke 2016, Prop. 1.3). δ(ε)
// is log-concave in ε (Prékopa: it is E[(1 − e^{ε−L})_+] for a Gaussian
// privacy loss L), so each Newton iterate lands on the safe side of the root
// and they decrease monotonically to it (about 8 steps). About 3 µs.
func GaussianEpsilon(mu, delta float64) (float64, error) {
	if math.IsNaN(mu) || mu < 0 {
		return 0, fmt.Errorf("mu must be ≥ 0, got %v", mu)
	}
	if err := checkOpenDelta("delta", delta); err != nil {
		return 0, err
	}
	if math.IsInf(mu, 1) {
		return math.Inf(1), nil
	}
	lt := numeric.Log(delta)
	ltLow := numeric.Down(lt, numeric.ErrLog*math.Abs(lt)) // ≤ the exact ln δ
	// Both forms, so that GaussianDelta and GaussianLogDelta agree the target is met.
	meets := func(ld float64) bool {
		return ld <= ltLow && (math.IsInf(ld, -1) || numeric.ExpUp(ld) <= delta)
	}
	ok := func(e float64) bool { return meets(GaussianLogDelta(mu, e)) }
	if ok(0) {
		return 0, nil
	}
	hi := mu*mu/2 + mu*math.Sqrt(-2*lt)
	for i := 0; !ok(hi); i++ {
		if i > 60 || math.IsInf(hi, 1) {
			return math.Inf(1), ErrUnreachable
		}
		hi *= 2
	}
	// Invariant: δ(lo) > delta ≥ δ(hi); hi is what is returned.
	lo, x := 0.0, hi
	converged := false
	for i := 0; i < 100 && !converged && hi-lo > 1e-12*hi; i++ {
		ld, ls := gaussianLog(mu, x)
		if meets(ld) {
			hi = x
		} else {
			lo = x
		}
		slope := -math.Exp(ls - ld) // g'(x) = −e^x Φ(−μ/2 − x/μ)/δ(x)
		nx := x - (ld-ltLow)/slope  // aim at what meets needs
		if !(nx > lo && nx < hi) || math.IsNaN(nx) {
			nx = 0.5 * (lo + hi)
		} else if x == hi && x-nx <= 1e-13*x {
			converged = true // from the safe side, quadratically: x − ε* ≈ x − nx
			if ok(nx) {
				hi = nx
			}
		}
		x = nx
	}
	if !converged && hi-lo > 1e-12*hi { // not seen in tests; bisection is the fallback
		return numeric.Bisect(ok, 0, hi, 1e-12, true)
	}
	return hi, nil
}

// CalibrateGaussian returns the largest μ = Δ/σ for which the Gaussian
// mechanism is (ε, δ)-DP exactly (Balle–Wang 2018, Thm 8, Alg. 1 solves the
// same equation), so σ = Δ/μ is the smallest noise meeting the target. For k
// compositions use σ = Δ√k/μ (the k-fold composition is the μ√k mechanism).
// It brackets [μ, 2μ] by doubling from the zCDP-calibrated μ (always
// feasible), bisects, and returns a μ at which GaussianDelta(μ, ε) ≤ δ was
// verified, within 10^−12 (relative) of the largest. ε must be finite and ≥ 0, δ in (0, 1).
func CalibrateGaussian(eps, delta float64) (float64, error) {
	if err := firstErr(checkEps("epsilon", eps, false), checkOpenDelta("delta", delta)); err != nil {
		return 0, err
	}
	ok := func(mu float64) bool { return GaussianDelta(mu, eps) <= delta }
	// ρ-zCDP with ρ + 2√(ρL) = ε: √ρ = ε/(√(L+ε) + √L), μ = √(2ρ).
	L := -numeric.Log(delta)
	lo := math.Sqrt2 * eps / (math.Sqrt(L+eps) + math.Sqrt(L))
	if !(lo > 0) {
		lo = delta // ε = 0: δ(0) = erf(μ/(2√2)) ≤ 0.4μ
	}
	for i := 0; !ok(lo); i++ {
		if i > 2100 || !(lo > 0) {
			return 0, ErrUnreachable
		}
		lo /= 2
	}
	if !(lo > 0) {
		return 0, ErrUnreachable
	}
	hi := 2 * lo
	for ok(hi) {
		if math.IsInf(hi, 1) {
			return math.Inf(1), nil
		}
		lo, hi = hi, 2*hi
	}
	// Bisect on the offset t = μ − lo, linearly from 0: numeric.Bisect's
	// log-scale midpoint √(a·b) would overflow for μ above 1e154.
	t, err := numeric.Bisect(func(t float64) bool { return ok(lo + t) }, 0, hi-lo, 1e-12, false)
	return lo + t, err
}

// ZCDPNoiseNote says which question the noise multiplier z = 1/√(2ρ*) of
// zcdp.ToRho answers beside the exact one: z is the σ/Δ whose zCDP guarantee
// implies (ε, δ) through the conversion (Canonne–Kamath–Steinke 2020,
// Prop. 12), for any ρ*-zCDP mechanism or composition; one Gaussian release
// meets (ε, δ) exactly with the smaller σ/Δ = 1/μ of CalibrateGaussian
// (Balle–Wang 2018, Thm 8; the gaussian command's calibration), because
// the conversion from zCDP is not tight for a single Gaussian.
func ZCDPNoiseNote(eps, delta, z float64) string {
	const what = "the noise multiplier for ρ* is the σ/Δ whose zCDP guarantee implies (ε, δ) through the conversion (any ρ*-zCDP mechanism or composition)"
	mu, err := CalibrateGaussian(eps, delta)
	if err != nil || !(mu > 0) || math.IsInf(mu, 1) {
		return what
	}
	return fmt.Sprintf("%s; one Gaussian release meets (ε, δ) = (%s, %s) exactly with the smaller σ/Δ = %s (the analytic Gaussian, Balle–Wang 2018, Thm 8, as the gaussian command calibrates it for a target ε), %s%% less noise: the conversion from zCDP is not tight for one Gaussian",
		what, dp.Num(eps), dp.Num(delta), dp.Noise(1/mu), dp.Num(100*(1-1/mu/z)))
}

// GaussianMu returns μ = Δ/σ for ℓ2-sensitivity Δ ≥ 0 and noise σ > 0.
func GaussianMu(sensitivity, sigma float64) float64 { return sensitivity / sigma }

// ComposeGaussian returns the μ of the adaptive composition of Gaussian
// mechanisms with parameters μ_i: √(Σμ_i²), which is exact (Dong–Roth–Su
// 2019, Cor. 3.3: μ_i-GDP mechanisms compose to √(Σμ_i²)-GDP). For k equal
// mechanisms it is μ√k. NaN if any μ_i is negative or NaN.
func ComposeGaussian(mus ...float64) float64 {
	var s float64
	for _, m := range mus {
		if math.IsNaN(m) || m < 0 {
			return math.NaN()
		}
		s = math.Hypot(s, m)
	}
	return s
}
