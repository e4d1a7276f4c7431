package pld

import (
	"math"
	"testing"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

func mustEps(t *testing.T, p *PLD, delta float64) float64 {
	t.Helper()
	e, err := p.Epsilon(delta)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The Gaussian mechanism against the exact analytic profile (Balle–Wang
// 2018): rounding every loss up by at most h per step shifts the profile
// by at most kh, so exact ≤ sound ≤ exact + kh and exact − kh ≤ optimistic
// ≤ exact; connect-the-dots lies between exact and pessimistic. Under
// -short h = 1e-3 (a tenth of the grid points; the bands scale with h).
func TestGaussianAgainstExact(t *testing.T) {
	h := DefaultInterval
	if testing.Short() {
		h = 1e-3
	}
	for _, c := range []struct {
		sigma float64
		k     int
		delta float64
	}{{1, 1, 1e-5}, {2, 1, 1e-6}, {0.5, 1, 1e-3}, {4, 10, 1e-5}, {10, 64, 1e-8}, {3, 7, 1e-10}} {
		mu := math.Sqrt(float64(c.k)) / c.sigma
		exact, err := exactGaussianEpsilon(mu, c.delta)
		if err != nil {
			t.Fatal(err)
		}
		var got [3]float64
		var raw float64 // connect-the-dots without the rounding-error terms
		for i, d := range []Discretization{ConnectDots, Pessimistic, Optimistic} {
			p, err := Gaussian(1, c.sigma, Options{Discretization: d, Interval: h})
			if err != nil {
				t.Fatal(err)
			}
			if p, err = p.SelfCompose(c.k); err != nil {
				t.Fatal(err)
			}
			got[i] = mustEps(t, p, c.delta)
			if d == ConnectDots {
				raw = p.remove.profile(false).epsilon(c.delta)
			}
		}
		kh := float64(c.k) * h
		ctd, pess, opt := got[0], got[1], got[2]
		if !(ctd >= exact && ctd <= pess+1e-12) {
			t.Errorf("σ=%v k=%d: connect-the-dots %v outside [exact %v, pessimistic %v]", c.sigma, c.k, ctd, exact, pess)
		}
		// The sound values also carry the bound on floating-point error,
		// which matters at tiny δ on wide grids (δ = 1e-10 below).
		slack := 1e-6
		if c.delta < 1e-9 {
			slack = 0.2
		}
		if !(pess >= exact && pess <= exact+kh+slack) {
			t.Errorf("σ=%v k=%d: pessimistic %v outside [exact %v, +kh]", c.sigma, c.k, pess, exact)
		}
		if !(opt <= exact && opt >= exact-kh-1e-6) {
			t.Errorf("σ=%v k=%d: optimistic %v outside [exact %v − kh, exact]", c.sigma, c.k, opt, exact)
		}
		// Connect-the-dots is second order: far inside the kh band (its
		// discretization alone, without the rounding-error terms).
		if raw < exact-1e-6 || raw-exact > 0.02*kh { // raw: rounding noise allowed
			t.Errorf("σ=%v k=%d: connect-the-dots (raw) %v is %v above exact %v", c.sigma, c.k, raw, raw-exact, exact)
		}
		t.Logf("σ=%v k=%d δ=%g: exact %.6f, connect-the-dots %.6f (raw %.6f), pessimistic %.6f, optimistic %.6f",
			c.sigma, c.k, c.delta, exact, ctd, raw, pess, opt)
	}
}

// δ(ε) pointwise for the k-fold Gaussian against the exact profile of the
// μ√k Gaussian.
func TestGaussianProfile(t *testing.T) {
	p, _ := Gaussian(1, 2, Options{})
	p16, err := p.SelfCompose(16)
	if err != nil {
		t.Fatal(err)
	}
	mu := 4 / 2.0
	for _, eps := range []float64{0, 0.5, 1, 2, 4, 8} {
		exact := exactGaussianDelta(mu, eps)
		got := p16.Delta(eps)
		if got < exact || got > exact*(1+1e-3)+1e-12 {
			t.Errorf("ε=%v: δ %v, exact %v", eps, got, exact)
		}
	}
}

// Self-composition by one FFT power on a Chernoff window agrees with
// repeated full linear convolution (no wrap-around at all).
func TestSelfComposeMatchesRepeatedCompose(t *testing.T) {
	p, err := SubsampledGaussian(0.05, 0.8, Options{Interval: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	byPower, err := p.SelfCompose(8)
	if err != nil {
		t.Fatal(err)
	}
	byConv := p
	for range 7 {
		if byConv, err = byConv.Compose(p); err != nil {
			t.Fatal(err)
		}
	}
	// The raw sums (without the rounding-error bounds, which differ by
	// method) agree to rounding; the sound values both include them.
	for _, eps := range []float64{0, 0.25, 0.5, 1, 2} {
		a := math.Max(byPower.remove.profile(false).delta(eps), byPower.add.profile(false).delta(eps))
		b := math.Max(byConv.remove.profile(false).delta(eps), byConv.add.profile(false).delta(eps))
		if math.Abs(a-b) > 1e-10*a+1e-15 || byPower.Delta(eps) < a || byConv.Delta(eps) < b {
			t.Errorf("ε=%v: power %v, convolution %v", eps, a, b)
		}
	}
}

// With q = 1 the subsampled Gaussian is the Gaussian mechanism.
func TestSubsampledGaussianFullBatch(t *testing.T) {
	s, _ := SubsampledGaussian(1, 1.3, Options{})
	g, _ := Gaussian(1, 1.3, Options{})
	exact, _ := exactGaussianEpsilon(1/1.3, 1e-5)
	es, eg := mustEps(t, s, 1e-5), mustEps(t, g, 1e-5)
	if math.Abs(es-eg) > 1e-6 || es < exact {
		t.Errorf("q=1: %v, Gaussian %v, exact %v", es, eg, exact)
	}
}

// One step of the subsampled Gaussian against δ(ε) of each direction by
// independent quadrature of E_P[(1 − e^{ε−L})_+] (Simpson on ±14σ).
func TestSubsampledGaussianQuadrature(t *testing.T) {
	q, z := 0.1, 0.9
	logg := func(x float64) float64 { return math.Log(1 - q + q*math.Exp((2*x-1)/(2*z*z))) }
	dens := func(x, m float64) float64 {
		return math.Exp(-(x-m)*(x-m)/(2*z*z)) / (z * math.Sqrt(2*math.Pi))
	}
	// Simpson's rule on the region where L > ε only (the integrand is
	// smooth there): x > x_ε for remove, x < x_ε for add, with
	// g(x_ε) = e^{±ε}.
	xAt := func(v float64) float64 { return z*z*math.Log((math.Exp(v)-1+q)/q) + 0.5 }
	quad := func(eps float64, add bool) float64 {
		a, b, n := -14*z, 1+14*z, 400000
		if add {
			if math.Exp(-eps) > 1-q {
				b = math.Min(b, xAt(-eps))
			}
		} else {
			a = math.Max(a, xAt(eps))
		}
		hh := (b - a) / float64(n)
		s := 0.0
		for i := 0; i <= n; i++ {
			x := a + float64(i)*hh
			var p, l float64
			if add {
				p, l = dens(x, 0), -logg(x)
			} else {
				p, l = (1-q)*dens(x, 0)+q*dens(x, 1), logg(x)
			}
			w := 2.0
			if i == 0 || i == n {
				w = 1
			} else if i%2 == 1 {
				w = 4
			}
			s += w * p * math.Max(0, -math.Expm1(eps-l))
		}
		return s * hh / 3
	}
	p, _ := SubsampledGaussian(q, z, Options{})
	po, _ := SubsampledGaussian(q, z, Options{Discretization: Optimistic})
	for _, eps := range []float64{0, 0.1, 0.3, 0.6, 1} {
		want := math.Max(quad(eps, false), quad(eps, true))
		got := p.Delta(eps)
		if got < want*(1-1e-9) || got > want*(1+1e-4)+1e-12 {
			t.Errorf("ε=%v: δ %v, quadrature %v", eps, got, want)
		}
		if o := po.Delta(eps); o > want*(1+1e-9) || o < want*(1-1e-2) {
			t.Errorf("ε=%v: optimistic δ %v, quadrature %v", eps, o, want)
		}
	}
}

// The Laplace mechanism against its exact profile δ(ε) = 1 − e^{(ε−ε₀)/2}.
func TestLaplaceAgainstExact(t *testing.T) {
	for _, eps0 := range []float64{0.1, 1, 3.3} {
		exact := func(e float64) float64 { return math.Max(0, -math.Expm1((e-eps0)/2)) }
		for _, d := range []Discretization{ConnectDots, Pessimistic, Optimistic} {
			p, err := Laplace(1, 1/eps0, Options{Discretization: d})
			if err != nil {
				t.Fatal(err)
			}
			h := p.Interval()
			for _, e := range []float64{0, eps0 / 3, eps0 / 2, eps0 * 0.9} {
				got := p.Delta(e)
				switch d {
				case Optimistic:
					if got > exact(e)+1e-12 || got < exact(e+h)-1e-12 {
						t.Errorf("ε₀=%v %v ε=%v: δ %v, exact %v", eps0, d, e, got, exact(e))
					}
				default:
					if got < exact(e) || got > exact(e-h)+1e-12 {
						t.Errorf("ε₀=%v %v ε=%v: δ %v, exact %v", eps0, d, e, got, exact(e))
					}
				}
			}
			// ε(δ) = ε₀ + 2 ln(1 − δ).
			want := eps0 + 2*math.Log1p(-1e-3)
			got := mustEps(t, p, 1e-3)
			if d.Sound() && (got < want || got > want+2*h) || !d.Sound() && (got > want || got < want-2*h) {
				t.Errorf("ε₀=%v %v: ε(1e-3) %v, exact %v", eps0, d, got, want)
			}
		}
	}
}

// Truncated mass is added to δ, never dropped: a grid cut at tail mass
// 1e-3 gives δ at least as large as the default grid, and at least the cut
// mass at every ε, also after composition.
func TestTruncatedMassIsAdded(t *testing.T) {
	full, _ := Gaussian(1, 1, Options{})
	cut, err := Gaussian(1, 1, Options{TailMass: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	if cut.Len() >= full.Len() {
		t.Fatalf("the cut grid (%d) is not shorter than the full one (%d)", cut.Len(), full.Len())
	}
	for _, eps := range []float64{0, 1, 2, 3, 5, 50} {
		if c, f := cut.Delta(eps), full.Delta(eps); c < f || c < 0.9e-3 {
			t.Errorf("ε=%v: cut δ %v, full δ %v", eps, c, f)
		}
	}
	c4, _ := cut.SelfCompose(4)
	f4, _ := full.SelfCompose(4)
	for _, eps := range []float64{0, 2, 4, 100} {
		if c, f := c4.Delta(eps), f4.Delta(eps); c < f || c < 3.6e-3 {
			t.Errorf("4-fold ε=%v: cut δ %v, full δ %v", eps, c, f)
		}
	}
}

// The MNIST DP-SGD example (Abadi et al. 2016; TF-Privacy tutorial):
// q = 256/60000, z = 1.1, 14063 steps, δ = 1e-5. The sound PLD must lie
// between the optimistic estimate and the RDP bound (computed here by the
// rdp package, 2.597), connect-the-dots below pessimistic, and halving h
// must move connect-the-dots by little (it is second order).
func TestMNIST(t *testing.T) {
	q, z, steps, delta := 256.0/60000, 1.1, 14063, 1e-5
	r, err := DPSGD(q, z, steps, delta, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := rdp.DPSGD{SamplingRate: q, Noise: z, Steps: float64(steps), Delta: delta}.Account()
	if err != nil {
		t.Fatal(err)
	}
	rdpEps := float64(rr.Epsilon)
	e, eo := float64(r.Epsilon), float64(r.EpsilonOptimistic)
	if !(eo <= e && e < rdpEps) {
		t.Errorf("MNIST: optimistic %v, sound %v, RDP %v", eo, e, rdpEps)
	}
	rp, err := DPSGD(q, z, steps, delta, Options{Discretization: Pessimistic})
	if err != nil {
		t.Fatal(err)
	}
	if float64(rp.Epsilon) < e {
		t.Errorf("pessimistic %v below connect-the-dots %v", rp.Epsilon, e)
	}
	fine, err := DPSGD(q, z, steps, delta, Options{Interval: 5e-5})
	if err != nil {
		t.Fatal(err)
	}
	if d := e - float64(fine.Epsilon); d < -1e-9 || d > 0.01 {
		t.Errorf("connect-the-dots h=1e-4: %v, h=5e-5: %v", e, fine.Epsilon)
	}
	// The finer optimistic estimate rises toward the truth and stays below.
	if fo := float64(fine.EpsilonOptimistic); fo < eo || fo > float64(fine.Epsilon) {
		t.Errorf("optimistic h=1e-4 %v, h=5e-5 %v, sound %v", eo, fo, fine.Epsilon)
	}
	t.Logf("MNIST: connect-the-dots %.4f, pessimistic %.4f, optimistic %.4f (h=5e-5: %.4f / %.4f), RDP %.4f",
		e, float64(rp.Epsilon), eo, float64(fine.Epsilon), float64(fine.EpsilonOptimistic), rdpEps)
}

// Calibration: the noise found meets the target under the sound PLD, and a
// noise 0.2% smaller does not.
func TestCalibrateDPSGD(t *testing.T) {
	q, steps, delta, target := 0.01, 1000, 1e-5, 1.5
	z, err := CalibrateDPSGD(q, steps, delta, target, Options{Interval: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := DPSGD(q, z, steps, delta, Options{Interval: 1e-3})
	r2, _ := DPSGD(q, z*0.998, steps, delta, Options{Interval: 1e-3})
	if float64(r.Epsilon) > target || float64(r2.Epsilon) <= target {
		t.Errorf("z=%v: ε %v; z·0.998: ε %v; target %v", z, r.Epsilon, r2.Epsilon, target)
	}
}

// Bad input is a field error naming the field.
func TestFieldErrors(t *testing.T) {
	check := func(err error, name string) {
		t.Helper()
		fe, ok := field.As(err)
		if !ok || fe.Field != name {
			t.Errorf("want a field error on %q, got %v", name, err)
		}
	}
	_, err := Gaussian(1, 1, Options{Interval: 1e-9, MaxPoints: 1 << 20})
	check(err, "discretization")
	p, _ := Gaussian(1, 1, Options{MaxPoints: 1 << 18})
	_, err = p.SelfCompose(1000)
	check(err, "discretization")
	_, err = SubsampledGaussian(0, 1, Options{})
	check(err, "sampling_rate")
	_, err = SubsampledGaussian(1.5, 1, Options{})
	check(err, "sampling_rate")
	_, err = SubsampledGaussian(0.1, -1, Options{})
	check(err, "noise")
	_, err = Gaussian(1, math.NaN(), Options{})
	check(err, "sigma")
	_, err = Laplace(1, 0, Options{})
	check(err, "scale")
	_, err = DPSGD(0.1, 1, 0, 1e-5, Options{})
	check(err, "steps")
	_, err = DPSGD(0.1, 1, 10, 1, Options{})
	check(err, "delta")
	_, err = p.Epsilon(0)
	check(err, "delta")
	_, err = Gaussian(1, 1, Options{Interval: -1})
	check(err, "discretization")
	if _, err = p.SelfCompose(0); err == nil {
		t.Error("0 compositions accepted")
	}
}

// k-fold randomized response against the exact binomial profile:
// L = ε₀(2B − k), B ~ Bin(k, p), δ(ε) = Σ_b P(B = b)(1 − e^{ε−L_b})_+.
func TestRandomizedResponseBinomial(t *testing.T) {
	eps0, k := 0.37, 40
	p := 1 / (1 + math.Exp(-eps0))
	exact := func(eps float64) float64 {
		s := 0.0
		for b := 0; b <= k; b++ {
			lg, _ := math.Lgamma(float64(k + 1))
			l1, _ := math.Lgamma(float64(b + 1))
			l2, _ := math.Lgamma(float64(k - b + 1))
			pb := math.Exp(lg - l1 - l2 + float64(b)*math.Log(p) + float64(k-b)*math.Log1p(-p))
			s += pb * math.Max(0, -math.Expm1(eps-eps0*float64(2*b-k)))
		}
		return s
	}
	for _, d := range []Discretization{ConnectDots, Pessimistic, Optimistic} {
		rr, err := RandomizedResponse(eps0, Options{Discretization: d})
		if err != nil {
			t.Fatal(err)
		}
		// One step: δ(ε) = (e^{ε₀} − e^ε)/(1 + e^{ε₀}).
		if got, want := rr.Delta(0.1), (math.Exp(eps0)-math.Exp(0.1))/(1+math.Exp(eps0)); math.Abs(got-want) > 1e-4 || d.Sound() && got < want {
			t.Errorf("%v one step: δ(0.1) %v, exact %v", d, got, want)
		}
		rk, err := rr.SelfCompose(k)
		if err != nil {
			t.Fatal(err)
		}
		kh := float64(k) * rr.Interval()
		for _, eps := range []float64{0, 1, 2, 4, 6} {
			got := rk.Delta(eps)
			switch {
			case d.Sound() && (got < exact(eps) || got > exact(eps-kh)+1e-12):
				t.Errorf("%v ε=%v: δ %v, exact %v", d, eps, got, exact(eps))
			case !d.Sound() && (got > exact(eps)+1e-12 || got < exact(eps+kh)-1e-12):
				t.Errorf("%v ε=%v: δ %v, exact %v", d, eps, got, exact(eps))
			}
		}
	}
}

// The four-chain Horner sum of the moment generating function against the
// direct sum.
func TestLogMGF(t *testing.T) {
	p, _ := SubsampledGaussian(256.0/60000, 1.1, Options{})
	f := p.remove
	for _, tt := range []float64{-50, -1, 0, 0.5, 3, 40} {
		s := 0.0
		for j, v := range f.p {
			s += v * math.Exp(tt*float64(f.lo+j)*f.h)
		}
		if g := f.logMGF(tt); math.Abs(g-math.Log(s)) > 1e-10*(1+math.Abs(g)) {
			t.Errorf("t=%v %v %v", tt, g, math.Log(s))
		}
	}
}

// Composition of different PLDs: Gaussians with σ = 1.5 (3 times) and
// σ = 0.9 (twice) are the Gaussian with μ = √(3/1.5² + 2/0.9²) (exact).
// Under -short on a grid of interval 1e-3 (a tenth of the points).
func TestComposeDifferentGaussians(t *testing.T) {
	mu := math.Sqrt(3/(1.5*1.5) + 2/(0.9*0.9))
	var h float64 // the default interval
	if testing.Short() {
		h = 1e-3
	}
	for _, d := range []Discretization{ConnectDots, Optimistic} {
		a, _ := Gaussian(1, 1.5, Options{Discretization: d, Interval: h})
		b, _ := Gaussian(1, 0.9, Options{Discretization: d, Interval: h})
		a3, _ := a.SelfCompose(3)
		b2, _ := b.SelfCompose(2)
		ab, err := a3.Compose(b2)
		if err != nil {
			t.Fatal(err)
		}
		for _, delta := range []float64{1e-3, 1e-6, 1e-9} {
			exact, _ := exactGaussianEpsilon(mu, delta)
			got := mustEps(t, ab, delta)
			// At δ = 1e-9 the rigorous rounding bounds of these wide grids
			// (180,000 points a step) are 10% of δ: about 0.05 in ε.
			slack := 1e-3
			if delta < 1e-8 {
				slack = 0.1
			}
			if d.Sound() && (got < exact || got > exact+slack) || !d.Sound() && (got > exact || got < exact-5*ab.Interval()) {
				t.Errorf("%v δ=%g: ε %v, exact %v", d, delta, got, exact)
			}
		}
	}
	// Mismatched grids are refused.
	a, _ := Gaussian(1, 1, Options{})
	b, _ := Gaussian(1, 1, Options{Interval: 1e-3})
	if _, err := a.Compose(b); err == nil {
		t.Error("PLDs on different grids composed")
	}
}

// FFT lengths are the smallest power of two ≥ max(n, 2) (internal/fft
// transforms only those), and a length over the cap is refused.
func TestFFTSizeFactors(t *testing.T) {
	for _, n := range []int{1, 2, 7, 1000, 12754584, 12700000, 1 << 22, 5_000_001, 15_000_000} {
		m, err := fftSize(n, 1<<26)
		if err != nil || m < n || m < 2 || m&(m-1) != 0 || (m > 2 && m/2 >= n) {
			t.Fatalf("fftSize(%d) = %d, %v", n, m, err)
		}
	}
	if m, err := fftSize(5_000_001, 5_000_001); err == nil {
		t.Errorf("fftSize(5000001, cap 5000001) = %d, want a refusal (the FFT needs 2^23 points)", m)
	}
}
