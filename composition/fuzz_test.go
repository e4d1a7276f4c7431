package composition

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
	"testing"
)

// FuzzOptimal: δ(ε') is in [0, 1], never NaN, non-increasing in ε' (up to
// rounding in the last digits), and never
// above what basic (kδ at kε) and advanced (kδ + δ' at its ε') certify.
func FuzzOptimal(f *testing.F) {
	f.Add(0.1, 0.0, uint16(100), 0.5, 1.0, 1e-5)
	f.Add(1.0, 1e-6, uint16(10), 0.0, 3.0, 1e-3)
	f.Add(5.0, 0.01, uint16(3), 2.0, 2.5, 0.1)
	f.Add(1e-4, 0.0, uint16(2000), 0.01, 0.02, 1e-9)
	f.Fuzz(func(t *testing.T, eps, delta float64, kk uint16, a, b, dPrime float64) {
		if math.IsNaN(eps) || math.IsNaN(delta) || math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(dPrime) {
			return
		}
		eps = math.Mod(math.Abs(eps), 10)
		delta = math.Mod(math.Abs(delta), 0.5)
		k := 1 + int(kk)%3000
		top := float64(k) * eps * 1.2
		a = math.Mod(math.Abs(a), top+1)
		b = math.Mod(math.Abs(b), top+1)
		if a > b {
			a, b = b, a
		}
		da, err1 := OptimalDelta(eps, delta, k, a)
		db, err2 := OptimalDelta(eps, delta, k, b)
		if err1 != nil || err2 != nil {
			t.Fatalf("valid input refused: %v %v", err1, err2)
		}
		for _, d := range []float64{da, db} {
			if math.IsNaN(d) || d < 0 || d > 1 {
				t.Fatalf("δ = %v (ε=%v δ=%v k=%d)", d, eps, delta, k)
			}
		}
		if db > da*(1+1e-12) { // allow last-digit rounding (δ ≈ 1 − 1e-14 here)
			t.Fatalf("δ(%v) = %v > δ(%v) = %v (ε=%v δ=%v k=%d)", b, db, a, da, eps, delta, k)
		}
		kf := float64(k)
		// At any float ≥ kε (exactly), δ_pure = 0 and δ = 1 − (1−δ)^k ≤ kδ.
		if d, _ := OptimalDelta(eps, delta, k, math.Nextafter(kf*eps, 2*kf*eps+1)); d > kf*delta*(1+1e-12) {
			t.Fatalf("optimal δ at kε = %v > basic kδ = %v", d, kf*delta)
		}
		dPrime = math.Mod(math.Abs(dPrime), 0.5)
		if dPrime > 0 && kf*delta+dPrime < 1 {
			g, _ := Advanced(eps, delta, k, dPrime)
			if !math.IsInf(float64(g.Epsilon), 1) {
				if d, _ := OptimalDelta(eps, delta, k, float64(g.Epsilon)); d > float64(g.Delta)*(1+1e-12) {
					t.Fatalf("optimal δ %v > advanced %v at ε' = %v", d, g.Delta, g.Epsilon)
				}
			}
		}
	})
}

// FuzzGaussian: no NaN, δ ∈ [0, 1], δ non-increasing in ε and non-decreasing
// in μ, and GaussianEpsilon meets its δ.
func FuzzGaussian(f *testing.F) {
	f.Add(1.0, 1.0, 0.1, 0.1, 1e-5)
	f.Add(0.01, 0.0, 0.0, 1e-3, 0.1)
	f.Add(50.0, 400.0, 1.0, 10.0, 1e-12)
	f.Add(1e-8, 30.0, 1e-9, 1e-6, 0.5)
	f.Fuzz(func(t *testing.T, mu, eps, dmu, deps, delta float64) {
		for _, x := range []float64{mu, eps, dmu, deps, delta} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return
			}
		}
		mu = math.Mod(math.Abs(mu), 100)
		eps = math.Mod(math.Abs(eps), 1000)
		dmu = math.Mod(math.Abs(dmu), 10)
		deps = math.Mod(math.Abs(deps), 10)
		d := GaussianDelta(mu, eps)
		ld := GaussianLogDelta(mu, eps)
		if math.IsNaN(d) || d < 0 || d > 1 || math.IsNaN(ld) || ld > 0 {
			t.Fatalf("δ(%v, %v) = %v (ln %v)", mu, eps, d, ld)
		}
		const slack = 1e-9 // relative, for rounding in the last digits
		if l2 := GaussianLogDelta(mu, eps+deps); l2 > ld+slack*math.Max(1, math.Abs(ld)) {
			t.Fatalf("ln δ increases in ε: %v at ε=%v, %v at ε=%v (μ=%v)", ld, eps, l2, eps+deps, mu)
		}
		if l2 := GaussianLogDelta(mu+dmu, eps); l2 < ld-slack*math.Max(1, math.Abs(ld)) {
			t.Fatalf("ln δ decreases in μ: %v at μ=%v, %v at μ=%v (ε=%v)", ld, mu, l2, mu+dmu, eps)
		}
		delta = math.Mod(math.Abs(delta), 1)
		if delta > 0 {
			e, err := GaussianEpsilon(mu, delta)
			if err != nil || math.IsNaN(e) || e < 0 {
				t.Fatalf("GaussianEpsilon(%v, %v) = %v, %v", mu, delta, e, err)
			}
			if GaussianDelta(mu, e) > delta {
				t.Fatalf("GaussianEpsilon(%v, %v) = %v misses δ", mu, delta, e)
			}
		}
	})
}

// FuzzFilter: whatever sequence is offered, the allowed mechanisms stay
// within both budgets.
func FuzzFilter(f *testing.F) {
	f.Add(1.0, 1e-5, 1e-6, 0.05, 1e-8, uint8(7))
	f.Add(0.1, 0.5, 0.4, 1.0, 0.0, uint8(200))
	f.Fuzz(func(t *testing.T, eps, dp, dpp, step, dstep float64, n uint8) {
		fl, err := NewFilter(eps, dp, dpp)
		if err != nil {
			return
		}
		for i := 0; i < int(n)+1; i++ {
			e := math.Abs(step) * float64(1+i%5) / 3
			d := math.Abs(dstep) * float64(i%3)
			if _, err := fl.Add(e, d); err != nil {
				return
			}
			if fl.Spent() > eps || fl.SumDelta() > dpp {
				t.Fatalf("budget exceeded: %v > %v or %v > %v", fl.Spent(), eps, fl.SumDelta(), dpp)
			}
		}
	})
}

// FuzzRDPFloor: the exact Gaussian ε is a floor for every RDP- and
// zCDP-based ε of the same mechanism (issue 2 §7), for any μ and δ
// (subnormal δ included), with no tolerance: both sides are rounded
// outward, the RDP values up and the exact ε up to a verified bound. The
// RDP values are also monotone in the noise.
func FuzzRDPFloor(f *testing.F) {
	f.Add(1.0, 1e-5)
	f.Add(0.01, 0.3)
	f.Add(30.0, 1e-300)
	f.Add(1.0, 1e-310)
	f.Fuzz(func(t *testing.T, mu, delta float64) {
		if !(mu > 1e-4 && mu < 100 && delta > 0 && delta < 0.5) {
			t.Skip()
		}
		exact, err := GaussianEpsilon(mu, delta)
		if err != nil {
			t.Skip()
		}
		// ρ ≥ μ²/2 and noise z ≤ 1/μ: mechanisms at least as leaky as μ's
		rho, z := numeric.MulUp(mu, mu)/2, -numeric.DivUp(-1, mu)
		imp, _ := rdp.LinearEpsilon(rho, delta, rdp.Improved)
		cls, _ := rdp.LinearEpsilon(rho, delta, rdp.Classic)
		sg, _ := rdp.EpsilonFor(rdp.Repeat(rdp.SampledGaussian{Q: 1, Z: z}, 1), delta, rdp.Improved)
		for name, v := range map[string]float64{"improved": imp, "classic": cls, "sampled q=1": sg.Epsilon} {
			if !(v >= exact) {
				t.Fatalf("μ=%v δ=%v: %s ε %v below the exact %v", mu, delta, name, v, exact)
			}
		}
		if more, _ := rdp.LinearEpsilon(rho*0.9, delta, rdp.Improved); more > imp {
			t.Fatalf("μ=%v δ=%v: more noise raised ε from %v to %v", mu, delta, imp, more)
		}
	})
}
