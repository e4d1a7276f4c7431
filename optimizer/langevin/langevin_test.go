package langevin

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted"
)

// quadraticProblem is the quadratic ½‖θ − x‖² averaged over n synthetic
// records in dimension d, with no projection: L(θ;D) = ½‖θ − x̄‖² + const,
// so the Gibbs law ∝ exp(−βL) is exactly N(x̄, I/β).
func quadraticProblem(t *testing.T, n, d int) *optimizer.Problem {
	t.Helper()
	pr, err := optimizer.Build(optimizer.DataSpec{Synthetic: "quadratic", N: n, Dimension: d, Seed: 3}, optimizer.LossSpec{},
		math.Inf(1), shifted.Training{Delta: 1e-5, Epochs: 1}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func mean(data *dataset.Dataset) []float64 {
	m := make([]float64, data.D)
	for i := 0; i < data.N(); i++ {
		for j, v := range data.Row(i) {
			m[j] += v / float64(data.N())
		}
	}
	return m
}

// TestPathPrivacyVector checks seed 000's notes §5 vector 1, computed from
// Lemma 2.2: β = 100, Δ = 0.01, t = Tη = 1 gives ρ = 0.25 and, by Fact A.4,
// ε = ρ + 2√(ρ ln(1/δ)) = 3.64307 at δ = 1e-5.
func TestPathPrivacyVector(t *testing.T) {
	p, err := PathPrivacy(100, 0.01, 100, 0.01, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(float64(p.Rho)-0.25) > 1e-12 {
		t.Errorf("ρ = %v, want 0.25", p.Rho)
	}
	classic := 0.25 + 2*math.Sqrt(0.25*math.Log(1e5))
	if math.Abs(float64(p.EpsilonClassic)-classic) > 1e-9 || math.Abs(classic-3.64307) > 1e-5 {
		t.Errorf("classic ε = %v, closed form %v, notes 3.64307", p.EpsilonClassic, classic)
	}
	if !(p.Epsilon <= p.EpsilonClassic) || !(float64(p.Epsilon) > 3) {
		t.Errorf("improved ε = %v not in (3, classic %v]", p.Epsilon, p.EpsilonClassic)
	}
	// notes §5 vector 12: the per-step noise multiplier √(2/η)/(βΔ) = 14.1421
	if z := math.Sqrt(2/0.01) / (100 * 0.01); math.Abs(float64(p.NoiseMultiplier)-z) > 1e-6*z || math.Abs(z-14.1421) > 1e-4 {
		t.Errorf("z = %v, want %v", p.NoiseMultiplier, z)
	}
}

// TestCalibrateMeetsTarget: the calibrated β meets the target, is the
// largest that does (to 1e-9), and is at least the exact inverse of the
// classic conversion, 2(√(ln(1/δ)+ε) − √ln(1/δ))/(Δ√(Tη)) (notes §1.2:
// 9.12577 at ε = 1, δ = 1e-5, T = 1000, η = 0.01, Δ = 0.01), and below
// Lemma 3.1's loose 2ε/(Δ√(Tη ln(1/δ))) = 18.6396.
func TestCalibrateMeetsTarget(t *testing.T) {
	b, err := CalibrateBeta(1, 0.01, 1000, 0.01, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	l := math.Log(1e5)
	classic := 2 * (math.Sqrt(l+1) - math.Sqrt(l)) / (0.01 * math.Sqrt(10))
	if math.Abs(classic-9.12577) > 1e-5 || !(b >= classic) || !(b < 18.6396) {
		t.Errorf("β = %v, classic inverse %v (notes 9.12577), paper 18.6396", b, classic)
	}
	for _, tc := range []struct{ eps, sens, eta, delta float64 }{{1, 0.01, 0.01, 1e-5}, {0.1, 2e-4, 1e-3, 1e-8}, {8, 1, 0.5, 0.1}, {1e-3, 0.02, 0.01, 1e-6}} {
		b, err := CalibrateBeta(tc.eps, tc.sens, 1000, tc.eta, tc.delta)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := PathPrivacy(b, tc.sens, 1000, tc.eta, tc.delta)
		q, _ := PathPrivacy(b*(1+1e-9), tc.sens, 1000, tc.eta, tc.delta)
		if !(float64(p.Epsilon) <= tc.eps) || !(float64(q.Epsilon) > tc.eps) {
			t.Errorf("%+v: β = %v gives ε = %v, β(1+1e-9) gives %v", tc, b, p.Epsilon, q.Epsilon)
		}
	}
}

// TestBadInput: every bad parameter is a field error naming the field,
// never a flag.
func TestBadInput(t *testing.T) {
	base := Spec{Data: optimizer.DataSpec{Synthetic: "logistic", N: 50, Dimension: 3, Seed: 1},
		Loss: optimizer.LossSpec{L2: 0.1}, Radius: 5,
		Params: Params{Steps: 10, Eta: 0.01, Beta: 10, Delta: 1e-5}}
	for _, tc := range []struct {
		field string
		mod   func(*Spec)
	}{
		{"eta", func(s *Spec) { s.Eta = 0 }},
		{"eta", func(s *Spec) { s.Eta = -1 }},
		{"beta", func(s *Spec) { s.Beta = -1 }},
		{"beta", func(s *Spec) { s.Beta = 0 }},
		{"beta", func(s *Spec) { s.Beta = math.NaN() }},
		{"target_epsilon", func(s *Spec) { s.Beta, s.TargetEpsilon = 0, -1 }},
		{"psi", func(s *Spec) { s.Psi = -0.1 }},
		{"radius", func(s *Spec) { s.Psi = 0.1 }},
		{"l2", func(s *Spec) { s.Psi, s.Radius, s.Loss.L2 = 0.1, math.Inf(1), 0 }},
		{"regularize", func(s *Spec) { s.Psi, s.Radius, s.Regularize = 0.1, math.Inf(1), "erm" }},
		{"steps", func(s *Spec) { s.Steps = 0 }},
		{"delta", func(s *Spec) { s.Delta = 1 }},
		{"strong_convexity", func(s *Spec) { s.StrongConvexity = 100 }}, // smoothness 0.25 + 0.1
		{"strong_convexity", func(s *Spec) { s.StrongConvexity = -1 }},
		{"regularize", func(s *Spec) { s.Regularize = "pure" }},
		{"regularize", func(s *Spec) { s.Regularize, s.Radius = "erm", math.Inf(1) }},
	} {
		s := base
		tc.mod(&s)
		_, err := Run(s)
		fe, ok := field.As(err)
		if !ok || fe.Field != tc.field || strings.Contains(err.Error(), "--") {
			t.Errorf("%s: got %v", tc.field, err)
		}
	}
	if _, err := Run(base); err != nil {
		t.Errorf("base spec: %v", err)
	}
}

// ksNormal is the Kolmogorov–Smirnov statistic of xs against N(0, 1).
func ksNormal(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := float64(len(s))
	var d float64
	for i, x := range s {
		f := 0.5 * math.Erfc(-x/math.Sqrt2)
		d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
	}
	return d
}

// TestQuadraticGibbs runs 400 independent chains (fixed seeds) of the
// chain Run uses on the quadratic, whose Gibbs law is exactly N(x̄, I/β),
// and compares the 400·5 standardised coordinates of θ_T with N(0, 1) by a
// Kolmogorov–Smirnov test at false-alarm rate 0.001 (critical value
// 1.9495/√N). After T = 1500 steps (ηβ = 0.01, (1−ηβ)^T < 3e-7) the law
// is N(x̄(1 − a^T), 2η(1 − a^{2T})/(1 − a²)) with a = 1 − ηβ, whose
// standard deviation is within 0.25% of 1/√β: the test must accept. After
// 40 steps (mean still 67% of the way from 0) it must reject: the
// iterates approach the Gibbs law.
func TestQuadraticGibbs(t *testing.T) {
	const n, d, chains, beta, eta = 40, 5, 400, 50.0, 2e-4
	pr := quadraticProblem(t, n, d)
	xbar := mean(pr.Data)
	crit := 1.9495 / math.Sqrt(chains*d)
	sample := func(steps int) []float64 {
		zs := make([]float64, 0, chains*d)
		xi := make([]float64, d)
		for c := 0; c < chains; c++ {
			ch := newChain(pr.Objective, pr.Data, math.Inf(1), eta, beta)
			rng := dataset.NewRand(uint64(1000 + c))
			w := make([]float64, d)
			for k := 0; k < steps; k++ {
				ch.drawNoise(rng, xi)
				ch.step(w, xi)
			}
			for j := range w {
				zs = append(zs, (w[j]-xbar[j])*math.Sqrt(beta))
			}
		}
		return zs
	}
	// the exact law's standard deviation against the Gibbs law's
	a := 1 - eta*beta
	sd := math.Sqrt(2 * eta / (1 - a*a))
	if r := sd * math.Sqrt(beta); math.Abs(r-1) > 0.003 {
		t.Fatalf("discretised stationary sd / Gibbs sd = %v", r)
	}
	if D := ksNormal(sample(1500)); D > crit {
		t.Errorf("T = 1500: KS distance %.4f > critical %.4f (false-alarm 0.001)", D, crit)
	} else {
		t.Logf("T = 1500: KS distance %.4f ≤ %.4f", D, crit)
	}
	if D := ksNormal(sample(40)); D <= crit {
		t.Errorf("T = 40: KS distance %.4f ≤ critical %.4f: far from stationarity the test should reject", D, crit)
	} else {
		t.Logf("T = 40: KS distance %.4f > %.4f", D, crit)
	}
}

// TestPathRDPQuadratic reproduces Lemma 2.2 / 3.1 on the quadratic: with
// record 1 of norm X = 1 replaced by its opposite, ∇L(θ;D) − ∇L(θ;D′) =
// (x′_1 − x_1)/n has norm exactly Δ = 2X/n for every θ, each step's two
// laws are N(μ_k, 2ηI) and N(μ_k − ηβ(x_1 − x′_1)/n, 2ηI), so the path's
// privacy loss is Gaussian with mean ρ = Tηβ²Δ²/4 and variance 2ρ, and
// R_α = αρ exactly: the bound is attained. The test computes the privacy
// loss of 4000 sampled paths from the two chains' Gaussian densities and
// compares its mean and variance with ρ (5 standard errors: false alarm
// < 1e-6 each).
func TestPathRDPQuadratic(t *testing.T) {
	const n, d, steps, eta = 20, 3, 200, 0.01
	pr := quadraticProblem(t, n, d)
	x1 := pr.Data.Row(0)
	nx := math.Sqrt(x1[0]*x1[0] + x1[1]*x1[1] + x1[2]*x1[2])
	for j := range x1 {
		x1[j] /= nx
	}
	nd := pr.Data.Clone()
	for j := range x1 {
		nd.Row(0)[j] = -x1[j]
	}
	res, err := RunProblem(pr, Params{Steps: steps, Eta: eta, Beta: math.Sqrt(200), Delta: 1e-5, Seed: 1}) // ρ = 1
	if err != nil {
		t.Fatal(err)
	}
	beta, sens := res.Derived.Beta, res.Derived.GradientSensitivity
	if math.Abs(sens-2.0/n) > 1e-15 {
		t.Fatalf("Δ = %v, want 2X/n = %v", sens, 2.0/n)
	}
	rho := float64(steps) * eta * beta * beta * sens * sens / 4 // closed form, Lemma 3.1
	if math.Abs(float64(res.Privacy.Rho)-rho) > 1e-12*rho {
		t.Fatalf("ρ = %v, closed form %v", res.Privacy.Rho, rho)
	}
	a := newChain(pr.Objective, pr.Data, math.Inf(1), eta, beta)
	b := newChain(pr.Objective, nd, math.Inf(1), eta, beta)
	const paths = 4000
	var s, s2 float64
	xi := make([]float64, d)
	for p := 0; p < paths; p++ {
		rng := dataset.NewRand(uint64(7 + p))
		w := make([]float64, d)
		var llr float64
		for k := 0; k < steps; k++ {
			ch := a
			b.gradient(w)
			ch.drawNoise(rng, xi)
			ch.step(w, xi) // w_{k+1} = μ_k + ξ_k under D
			// log N(w_{k+1}; μ_k, 2η) − log N(w_{k+1}; μ′_k, 2η), μ′_k − μ_k = −h(∇L′ − ∇L)
			var q1, q2 float64
			for j := range w {
				mu2shift := -b.h * (b.grad[j] - a.grad[j])
				q1 += xi[j] * xi[j]
				q2 += (xi[j] - mu2shift) * (xi[j] - mu2shift)
			}
			llr += (q2 - q1) / (4 * eta)
		}
		s += llr
		s2 += llr * llr
	}
	m := s / paths
	v := s2/paths - m*m
	if se := math.Sqrt(2 * rho / paths); math.Abs(m-rho) > 5*se {
		t.Errorf("mean privacy loss %v, ρ = %v (5 SE = %v)", m, rho, 5*se)
	}
	if se := 2 * rho * math.Sqrt(2.0/(paths-1)); math.Abs(v-2*rho) > 5*se {
		t.Errorf("variance of privacy loss %v, 2ρ = %v (5 SE = %v)", v, 2*rho, 5*se)
	}
	t.Logf("β = %.6g, ρ = %.6g (ε = %v at δ = 1e-5): Monte Carlo mean %.6g, variance %.6g (2ρ = %.6g)", beta, rho, res.Privacy.Epsilon, m, v, 2*rho)
}

// TestCouplingStronglyConvex: logistic + ℓ2 (m = 0.1) passes the coupling
// check at every step.
func TestCouplingStronglyConvex(t *testing.T) {
	res, err := Run(Spec{Data: optimizer.DataSpec{Synthetic: "logistic", N: 200, Dimension: 5, Seed: 2},
		Loss: optimizer.LossSpec{L2: 0.1}, Radius: 10,
		Params: Params{Steps: 2000, Eta: 0.05, TargetEpsilon: 1, Delta: 1e-5, Coupling: true, Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Coupling
	if c == nil || c.Check.Status != dp.Pass || !res.OK || !(c.MaxRatio <= 1) || !(c.MaxDistance > 0) {
		t.Fatalf("coupling %+v, ok %v", c, res.OK)
	}
	if !(c.MaxDistance <= float64(c.Bound)) || len(c.Distances) != 1000 {
		t.Errorf("max distance %v, bound Δ/m %v, %d points", c.MaxDistance, c.Bound, len(c.Distances))
	}
	t.Logf("β = %.6g h = %.4g: max distance %.4g at %d (Δ/m = %.4g), max ratio %.4g at %d", res.Derived.Beta, res.Derived.StepSize, c.MaxDistance, c.MaxDistanceStep, float64(c.Bound), c.MaxRatio, c.MaxRatioStep)
}

// concave is a non-convex scalar loss −K·u²/2 − y·u: with an ℓ2 term of
// weight m < K·λ_max(E xxᵀ) the objective is not convex, so the declared m
// is false.
type concave struct{ K float64 }

func (concave) Name() string                             { return "concave" }
func (c concave) Phi(u, y float64) float64               { return -c.K*u*u/2 - y*u }
func (c concave) Deriv(u, y float64) float64             { return -c.K*u - y }
func (c concave) Deriv2(u, y float64) float64            { return -c.K }
func (c concave) Bounds(U, Y float64) (float64, float64) { return c.K*U + Y, c.K }
func (concave) Classification() bool                     { return false }

// TestCouplingNonConvexFails: the same check fails when the loss is made
// non-convex while the ℓ2 weight still declares m > 0. In one dimension,
// 21 records x = 1 with labels ±1 (one more +1), f(w) = −w²/2 − yw +
// (0.5/2)w² is a double well on [−1, 1]; the neighbour replaces a +1 label
// by −1, which flips the sign of the mean label. At low temperature (β =
// 10^5, η = 10^−6: noise sd 0.0014 per step against a drift of 0.005 per
// step apart) the two coupled paths fall into opposite wells, ‖θ − θ′‖ → 2,
// while Δ/m = 2(KR + Y)/(mn) = 0.38.
func TestCouplingNonConvexFails(t *testing.T) {
	const n = 21
	data := &dataset.Dataset{D: 1, X: make([]float64, n), Y: make([]float64, n)}
	for i := range n {
		data.X[i], data.Y[i] = 1, float64(1-2*(i%2))
	}
	obj := optimizer.Objective{Loss: concave{K: 1}, L2: 0.5}
	pr := &optimizer.Problem{Data: data, Objective: obj, Constants: obj.Constants(1, 1, 1),
		Declared: optimizer.Declared{FeatureBound: 1, LabelBound: 1, Radius: 1, Dimension: 1}}
	res, err := RunProblem(pr, Params{Steps: 2000, Eta: 1e-6, Beta: 1e5, Delta: 1e-5, Coupling: true, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Coupling
	if c == nil || c.Check.Status != dp.Fail || res.OK || !(c.MaxRatio > 1) || !(c.MaxDistance > 1.9) {
		t.Fatalf("non-convex loss: coupling %+v, ok %v", c.Check, res.OK)
	}
	t.Logf("non-convex: max distance %.4g at %d (Δ/m = %.4g), max ratio %.4g at %d", c.MaxDistance, c.MaxDistanceStep, float64(c.Bound), c.MaxRatio, c.MaxRatioStep)
	// the same data with a convex loss (K = 0: f = −yw + 0.25w²) passes
	obj.Loss = concave{K: 0}
	pr.Objective, pr.Constants = obj, obj.Constants(1, 1, 1)
	res, err = RunProblem(pr, Params{Steps: 2000, Eta: 1e-6, Beta: 1e5, Delta: 1e-5, Coupling: true, Seed: 4})
	if err != nil || res.Coupling.Check.Status != dp.Pass {
		t.Fatalf("convex version: %v %+v", err, res.Coupling.Check)
	}
	t.Logf("convex version: max distance %.4g (Δ/m = %.4g), max ratio %.4g", res.Coupling.MaxDistance, float64(res.Coupling.Bound), res.Coupling.MaxRatio)
}

// TestRegularize: the ℓ2 weights of GTU §4.4 (closed forms written here),
// and a run with them: the certificate is unchanged (the ℓ2 term cancels
// in Δ) and the coupling check now applies and passes.
func TestRegularize(t *testing.T) {
	L, D, p, n, eps, delta := 1.5, 4.0, 10, 10000, 1.0, 1e-5
	erm, _ := RegularizerWeight("erm", L, D, p, n, eps, delta)
	if want := L * math.Sqrt(10*math.Log(1e5)) / (D * eps * 1e4); math.Abs(erm-want) > 1e-15*want {
		t.Errorf("erm weight %v, want %v", erm, want)
	}
	sco, _ := RegularizerWeight("sco", L, D, p, n, eps, delta)
	if want := L / D * math.Max(math.Sqrt(10*math.Log(1e5))/1e4, 1/math.Sqrt(1e4)); math.Abs(sco-want) > 1e-15*want || !(sco > erm) {
		t.Errorf("sco weight %v, want %v (erm %v)", sco, want, erm)
	}
	spec := Spec{Data: optimizer.DataSpec{Synthetic: "logistic", N: 500, Dimension: 4, Seed: 5}, Radius: 3,
		Params: Params{Steps: 500, Eta: 0.05, TargetEpsilon: 2, Delta: 1e-5, Coupling: true, Seed: 1}}
	plain, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Coupling.Check.Status != dp.NA {
		t.Errorf("m = 0: coupling check %v, want N/A", plain.Coupling.Check.Status)
	}
	spec.Regularize = "sco"
	reg, err := Run(spec)
	if err != nil {
		t.Fatal(err)
	}
	want := float64(plain.Derived.Lipschitz) / 6 * math.Max(math.Sqrt(4*math.Log(1e5))/(float64(plain.Privacy.Epsilon)*500), 1/math.Sqrt(500))
	if math.Abs(reg.Derived.Regularizer-want) > 1e-12*want || reg.Privacy.Rho != plain.Privacy.Rho || reg.Derived.Beta != plain.Derived.Beta {
		t.Errorf("regularizer %v (want %v); ρ %v vs %v", reg.Derived.Regularizer, want, reg.Privacy.Rho, plain.Privacy.Rho)
	}
	if reg.Coupling.Check.Status != dp.Pass || reg.Measured.UnregularizedExcessRisk == nil {
		t.Errorf("regularised: coupling %+v", reg.Coupling.Check)
	}
	t.Logf("sco m = %.4g; excess risk regularised %.4g, unregularised %.4g (plain run %.4g)", reg.Derived.Regularizer, reg.Measured.ExcessRisk, *reg.Measured.UnregularizedExcessRisk, plain.Measured.ExcessRisk)
}

// TestShippedData runs the shipped breast-cancer data (569 × 30,
// standardised and normalised, logistic loss, ℓ2 of GTU §4.4 for ERM) at
// (1, 10⁻⁵) with the coupling check: every check passes and the
// certificate meets the target.
func TestShippedData(t *testing.T) {
	res, err := Run(Spec{Data: optimizer.DataSpec{Path: "../../testdata/breast_cancer.csv", Label: "malignant", Standardize: true, Normalize: true},
		Radius: 5, Params: Params{Steps: 2000, Eta: 0.05, TargetEpsilon: 1, Delta: 1e-5, Regularize: "erm", Coupling: true, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || !(float64(res.Privacy.Epsilon) <= 1) || res.Coupling.Check.Status != dp.Pass {
		t.Fatalf("ok %v, ε %v, coupling %+v", res.OK, res.Privacy.Epsilon, res.Coupling.Check)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Errorf("JSON: %v", err)
	}
	t.Logf("n = %d, β = %.4g, ε = %v, m = %.4g; excess risk %.4g (unregularised %.4g), Gibbs bounds p/β = %.4g, population %.4g; coupling max %.4g vs Δ/m %.4g",
		res.Derived.N, res.Derived.Beta, res.Privacy.Epsilon, res.Derived.StrongConvexity, res.Measured.ExcessRisk, *res.Measured.UnregularizedExcessRisk,
		float64(res.Derived.GibbsExcessBound), float64(res.Derived.GibbsPopulationBound), res.Coupling.MaxDistance, float64(res.Coupling.Bound))
}

// TestRashomon: on the quadratic ½‖θ − x̄‖² in p = 2 dimensions the Gibbs
// law of β·L̃ = β·max{½‖θ − x̄‖², ψ} has the closed form
// Pr[G] = πr₀²e^{−βψ}/(πr₀²e^{−βψ} + (2π/β)e^{−βψ}) = βψ/(βψ + 1)
// (r₀ = √(2ψ); the tail integral is 2π∫_{r₀}^∞ r e^{−βr²/2} dr). 1000
// independent chains (η = 10⁻⁴, β = 100, ψ = 0.05, T = 3000) must hit G
// with a share within 4.5 binomial standard errors + 0.01 of 5/6 (false
// alarm < 10⁻⁵), and Thm B.6's bound 1 − 2p/√(βψ) must lie below it. A run
// reports the minimum −½‖x̄‖² + const, the sensitivity Δ + √(2Mψ′) ≥
// Δ + √(2Mψ) and certifies with it.
func TestRashomon(t *testing.T) {
	const n, d, chains, beta, eta, psi, steps = 20, 2, 1000, 100.0, 1e-4, 0.05, 3000
	pr := quadraticProblem(t, n, d)
	res, err := RunProblem(pr, Params{Steps: 2000, Eta: eta, Beta: beta, Psi: psi, Delta: 1e-5, Coupling: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	rs := res.Derived.Rashomon
	xbar := mean(pr.Data)
	// L(θ) = ½‖θ‖² − ⟨θ, x̄⟩: minimum −½‖x̄‖² at x̄
	if want := -0.5 * (xbar[0]*xbar[0] + xbar[1]*xbar[1]); rs == nil || math.Abs(rs.Minimum-want) > 1e-9 {
		t.Fatalf("rashomon %+v, minimum want %v", rs, want)
	}
	want := res.Derived.GradientSensitivity + math.Sqrt(2*psi)
	if !(rs.Sensitivity >= want) || rs.Sensitivity > want*(1+1e-6) || res.Derived.PathSensitivity != rs.Sensitivity {
		t.Errorf("sensitivity %v, want ≥ %v", rs.Sensitivity, want)
	}
	if rho := PathRho(beta, rs.Sensitivity, 2000, eta); float64(res.Privacy.Rho) != rho {
		t.Errorf("ρ %v, want %v", res.Privacy.Rho, rho)
	}
	if res.Coupling.Check.Status != dp.NA || res.Measured.RashomonShare == nil {
		t.Errorf("coupling %v, share %v", res.Coupling.Check.Status, res.Measured.RashomonShare)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Errorf("JSON: %v", err)
	}
	exact := beta * psi / (beta*psi + 1)
	if !(rs.HitBound < exact) || math.Abs(rs.HitBound-(1-4/math.Sqrt(5))) > 1e-12 {
		t.Errorf("hit bound %v, exact %v", rs.HitBound, exact)
	}
	hits := 0
	xi := make([]float64, d)
	for c := 0; c < chains; c++ {
		ch := newChain(pr.Objective, pr.Data, math.Inf(1), eta, beta)
		ch.thr = rs.Threshold
		rng := dataset.NewRand(uint64(5000 + c))
		w := make([]float64, d)
		for k := 0; k < steps; k++ {
			ch.drawNoise(rng, xi)
			ch.step(w, xi)
		}
		if optimizer.EmpiricalRisk(pr.Objective, pr.Data, w) <= rs.Threshold {
			hits++
		}
	}
	share := float64(hits) / chains
	se := math.Sqrt(exact * (1 - exact) / chains)
	if math.Abs(share-exact) > 4.5*se+0.01 {
		t.Errorf("share in G %v, exact Gibbs %v (SE %v)", share, exact, se)
	}
	t.Logf("Pr[G]: chains %.4f, exact Gibbs %.4f, Thm B.6 bound %.4f; one run's share %.4f; Δ = %.4g, Δ̃ = %.4g, ε = %v",
		share, exact, rs.HitBound, *res.Measured.RashomonShare, res.Derived.GradientSensitivity, rs.Sensitivity, res.Privacy.Epsilon)
}
