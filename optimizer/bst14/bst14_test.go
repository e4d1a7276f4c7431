package bst14

import (
	"math"
	"sort"
	"testing"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/optimizer"
)

// sigmoid1 = sup |φ'| of the logistic loss on |u| ≤ 1: Sens (and L without
// an ℓ2 term) for ‖x‖ ≤ 1, R = 1.
var sigmoid1 = 1 / (1 + math.Exp(-1))

func synth(n, d int, l2 float64) Spec {
	return Spec{Data: optimizer.DataSpec{Synthetic: "logistic", N: n, Dimension: d, Seed: 3}, Loss: optimizer.LossSpec{L2: l2}, Radius: 1}
}

func problem(t testing.TB, s Spec) *optimizer.Problem {
	t.Helper()
	pr, err := build(s, Common{}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// wantField fails unless err is a field error on name.
func wantField(t *testing.T, err error, name string) {
	t.Helper()
	fe, ok := field.As(err)
	if !ok || fe.Field != name {
		t.Errorf("want a field error on %q, got %v", name, err)
	}
}

// varianceOK is a two-sided test of a sample variance s² of N independent
// N(0, σ²) draws: (N−1)s²/σ² is χ²_{N−1}, mean N−1, sd √(2(N−1)); 6 sd
// gives a false-alarm rate below 10⁻⁸ (normal approximation, N ≥ 1000).
func varianceOK(s2, sigma2 float64, N int) bool {
	return math.Abs(s2/sigma2-1) <= 6*math.Sqrt(2/float64(N-1))
}

func TestSGDStepsNoiseAndPaperSigma(t *testing.T) {
	pr := problem(t, synth(40, 2, 0))
	var draws []float64
	calls := 0
	res, err := runSGDProblem(pr, SGDParams{TargetEpsilon: 1, Delta: 1e-5}, func(b []float64) {
		calls++
		draws = append(draws, b...)
	})
	if err != nil {
		t.Fatal(err)
	}
	// step count: n² updates, each with one noise draw
	if calls != 40*40 || res.Privacy.Steps != 1600 || !res.FullSteps {
		t.Errorf("steps: %d calls, %d accounted, full %v; want n² = 1600", calls, res.Privacy.Steps, res.FullSteps)
	}
	// σ = z·n·Sens with Sens = σ(1) for ‖x‖ ≤ 1, R = 1
	sigma := float64(res.Privacy.Sigma)
	if math.Abs(sigma-float64(res.Privacy.NoiseMultiplier)*40*sigmoid1) > 1e-9*sigma {
		t.Errorf("σ = %v is not z·n·Sens = %v", sigma, float64(res.Privacy.NoiseMultiplier)*40*sigmoid1)
	}
	// the draws have variance σ²
	var s2 float64
	for _, x := range draws {
		s2 += x * x
	}
	s2 /= float64(len(draws))
	if !varianceOK(s2, sigma*sigma, len(draws)) {
		t.Errorf("noise variance %v, want σ² = %v", s2, sigma*sigma)
	}
	// certified at the target, and calibrated: 1% less noise misses it
	if e := float64(res.Privacy.Epsilon); !(e <= 1) {
		t.Errorf("certified ε = %v > target 1", e)
	}
	if r, err := SGDPLD(40, 0.99*float64(res.Privacy.NoiseMultiplier), 1600, 1e-5); err != nil || !(float64(r.Epsilon) > 1) {
		t.Errorf("0.99z still meets the target (%v, %v): σ is not the calibrated one", r.Epsilon, err)
	}
	// the paper's σ, computed here independently: √(32L²n² ln(n/δ) ln(1/δ))/ε
	want := math.Sqrt(32 * sigmoid1 * sigmoid1 * 1600 * math.Log(40/1e-5) * math.Log(1e5))
	if got := float64(res.Paper.Sigma); math.Abs(got-want) > 1e-9*want {
		t.Errorf("paper σ = %v, want %v", got, want)
	}
	if !(float64(res.Paper.CertifiedEpsilon) < 1) || !(res.Paper.ChainEpsilon > 1) {
		t.Errorf("paper's σ: certified %v (want < 1), chain %v (want > 1, notes §1.1)", res.Paper.CertifiedEpsilon, res.Paper.ChainEpsilon)
	}
}

func TestSGDCapAndStepRules(t *testing.T) {
	pr := problem(t, synth(30, 2, 0.5))
	calls := 0
	res, err := runSGDProblem(pr, SGDParams{Sigma: 100, Delta: 1e-5, Steps: 100}, func([]float64) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls != 100 || res.FullSteps || res.StepRule != RuleStronglyConvex || len(res.Notes) == 0 {
		t.Errorf("cap: %d calls, full %v, rule %s, notes %v", calls, res.FullSteps, res.StepRule, res.Notes)
	}
	// Thm 2.4's step sizes, written out
	L, m := pr.Constants.L, 0.5
	if got, want := sgdStep(RuleStronglyConvex, 7, 30, L, m, 2, 100, 2), 1/(m*30*7); math.Abs(got-want) > 1e-15 {
		t.Errorf("strongly convex η(7) = %v, want %v", got, want)
	}
	if got, want := sgdStep(RuleLipschitz, 7, 30, L, m, 2, 100, 2), 2/math.Sqrt(7*(900*L*L+2*100*100)); math.Abs(got-want) > 1e-15 {
		t.Errorf("Lipschitz η(7) = %v, want %v", got, want)
	}
}

// The notes' audit (seed 001 §1.1): at the paper's σ for n = 1000, ε = 1,
// δ = 1e-5 (σ = 82379.7887, z = σ/(2nL) = 41.19 for the replace-one
// sensitivity), Poisson add/remove RDP gives ε ≈ 0.1168. The replace-one PLD
// for one record per step uses the remove pair at sensitivity 2 (the same
// pair at z/2), symmetrized so that it dominates both directions, which
// costs a little: it must lie at or above the add/remove value and not far
// from it.
func TestSGDPaperSigmaVector(t *testing.T) {
	if testing.Short() {
		t.Skip("10⁶ steps")
	}
	r, err := SGDPLD(1000, 82379.7887/1000, 1_000_000, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if e := float64(r.Epsilon); !(e > 0.1168*0.95 && e < 0.1168*1.25) {
		t.Errorf("ε at the paper's σ = %v, want in (0.111, 0.146)", e)
	}
}

func TestSGDRefusals(t *testing.T) {
	s := synth(20, 2, 0)
	for name, p := range map[string]SGDParams{
		"delta":          {TargetEpsilon: 1},
		"steps":          {TargetEpsilon: 1, Delta: 1e-5, Steps: -1},
		"step_rule":      {TargetEpsilon: 1, Delta: 1e-5, StepRule: "adagrad"},
		"sigma":          {TargetEpsilon: 1, Delta: 1e-5, Sigma: 2},
		"target_epsilon": {TargetEpsilon: -1, Delta: 1e-5},
	} {
		_, err := RunSGD(s, p)
		wantField(t, err, name)
	}
	// strongly convex steps need Δ > 0 (Thm 2.4's assumption)
	_, err := RunSGD(s, SGDParams{TargetEpsilon: 1, Delta: 1e-5, StepRule: RuleStronglyConvex})
	wantField(t, err, "step_rule")
	s.Radius = math.Inf(1)
	_, err = RunSGD(s, SGDParams{TargetEpsilon: 1, Delta: 1e-5})
	wantField(t, err, "radius")
}

func TestOutputSensitivityAndSolver(t *testing.T) {
	pr := problem(t, synth(50, 3, 0.2))
	res, err := runOutputProblem(pr, OutputParams{TargetEpsilon: 0.5, Noise: NoiseGamma}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 2·Sens/(nΔ), written out
	want := 2 * sigmoid1 / (50 * 0.2)
	if got := res.Privacy.ExactSensitivity; math.Abs(got-want) > 1e-12*want {
		t.Errorf("sensitivity %v, want %v", got, want)
	}
	if got, w := res.Privacy.Sensitivity, want+2*res.Solver.Distance; got != w || !(res.Solver.Distance <= 1e-9*1.5) {
		t.Errorf("sensitivity used %v, want %v (distance %v)", got, w, res.Solver.Distance)
	}
	if got := float64(res.Privacy.Scale); math.Abs(got-res.Privacy.Sensitivity/0.5) > 1e-12 {
		t.Errorf("Gamma scale %v, want s/ε = %v", got, res.Privacy.Sensitivity/0.5)
	}
	// the released minimiser is within the certified distance of one
	// computed independently by 20000 projected gradient steps from 0
	w := make([]float64, 3)
	g := make([]float64, 3)
	for range 20000 {
		avgGrad(g, pr, w)
		for j := range w {
			w[j] -= g[j] / pr.Constants.Beta
		}
		projectBall(w, 1)
	}
	th, sv := solve(pr, 1e-9)
	if d := dist(th, w); d > sv.Distance {
		t.Errorf("‖θ̂ − θ*‖ = %v above the certified %v", d, sv.Distance)
	}
	// the contraction bound for k steps, written out: (1 − m/β)^k·2R ≤ tol
	if c := 1 - 0.2/pr.Constants.Beta; math.Abs(sv.Contraction-c) > 1e-15 || math.Pow(c, float64(sv.Iterations))*2 > 1e-9 || math.Pow(c, float64(sv.Iterations-1))*2 <= 1e-9 {
		t.Errorf("solver: contraction %v (want %v), %d iterations", sv.Contraction, c, sv.Iterations)
	}
}

// Output perturbation's noise has the stated scale: 400 runs with
// different seeds on a tiny problem; the Gamma radii have mean p·scale and
// variance p·scale² (z-tests at 6 sd), the Gaussian coordinates variance σ².
func TestOutputNoiseScale(t *testing.T) {
	pr := problem(t, synth(10, 3, 1))
	runs := 400
	if testing.Short() {
		runs = 150
	}
	var radii, coords []float64
	var scale, sigma float64
	for seed := range runs {
		r, err := runOutputProblem(pr, OutputParams{Common: Common{Seed: uint64(seed)}, TargetEpsilon: 1, Noise: NoiseGamma}, func(b []float64) { radii = append(radii, numeric.Norm(b)) })
		if err != nil {
			t.Fatal(err)
		}
		scale = float64(r.Privacy.Scale)
		r, err = runOutputProblem(pr, OutputParams{Common: Common{Seed: uint64(seed)}, TargetEpsilon: 1, Delta: 1e-5, Noise: NoiseGaussian}, func(b []float64) { coords = append(coords, b...) })
		if err != nil {
			t.Fatal(err)
		}
		sigma = float64(r.Privacy.Scale)
	}
	var m, v float64
	for _, x := range radii {
		m += x
	}
	m /= float64(runs)
	for _, x := range radii {
		v += (x - m) * (x - m)
	}
	v /= float64(runs - 1)
	p := 3.0
	if math.Abs(m-p*scale) > 6*math.Sqrt(p)*scale/math.Sqrt(float64(runs)) {
		t.Errorf("mean ‖b‖ = %v, want p·scale = %v", m, p*scale)
	}
	if math.Abs(v/(p*scale*scale)-1) > 0.6 {
		t.Errorf("var ‖b‖ = %v, want p·scale² = %v", v, p*scale*scale)
	}
	var s2 float64
	for _, x := range coords {
		s2 += x * x
	}
	s2 /= float64(len(coords))
	if !varianceOK(s2, sigma*sigma, len(coords)) && len(coords) >= 1000 {
		t.Errorf("Gaussian variance %v, want σ² = %v", s2, sigma*sigma)
	}
}

func TestOutputRefusals(t *testing.T) {
	_, err := RunOutput(synth(20, 2, 0), OutputParams{TargetEpsilon: 1, Noise: NoiseGamma})
	wantField(t, err, "l2") // Alg. 3 needs Δ > 0
	_, err = RunOutput(synth(20, 2, 1), OutputParams{TargetEpsilon: 1, Noise: "laplace"})
	wantField(t, err, "noise_distribution")
	_, err = RunOutput(synth(20, 2, 1), OutputParams{TargetEpsilon: 1, Noise: NoiseGaussian})
	wantField(t, err, "delta")
	_, err = RunOutput(synth(20, 2, 1), OutputParams{TargetEpsilon: 0, Noise: NoiseGamma})
	wantField(t, err, "target_epsilon")
	_, err = RunOutput(synth(20, 2, 1), OutputParams{TargetEpsilon: 1, Noise: NoiseGamma, Tolerance: -1})
	wantField(t, err, "tolerance")
}

// density integrates the exponential mechanism's 1-D density on [−1, 1]
// by the trapezoid rule on a fine grid, independently of the sampler, and
// returns its CDF at the grid points.
func density1D(pr *optimizer.Problem, temp float64, k int) (xs, cdf []float64) {
	xs, cdf = make([]float64, k+1), make([]float64, k+1)
	f := make([]float64, k+1)
	for i := range xs {
		xs[i] = -1 + 2*float64(i)/float64(k)
		f[i] = -temp * float64(pr.Data.N()) * optimizer.EmpiricalRisk(pr.Objective, pr.Data, []float64{xs[i]})
	}
	top := f[0]
	for _, v := range f {
		top = math.Max(top, v)
	}
	for i := 1; i <= k; i++ {
		cdf[i] = cdf[i-1] + (math.Exp(f[i-1]-top)+math.Exp(f[i]-top))/2
	}
	for i := range cdf {
		cdf[i] /= cdf[k]
	}
	return xs, cdf
}

// The exact sampler draws from exp(−ε Σℓ/(2L‖C‖₂)): a Kolmogorov–Smirnov
// test against the independently integrated CDF (critical value 1.95/√N,
// false alarm ≈ 0.001), and the temperature written out.
func TestExpMechSamplerLaw(t *testing.T) {
	pr := problem(t, synth(8, 1, 0))
	eps := 2.0
	temp := eps / (2 * sigmoid1 * 2)
	res, err := runExpMechProblem(pr, ExpMechParams{TargetEpsilon: eps})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.Privacy.Temperature-temp) > 1e-15 {
		t.Fatalf("temperature %v, want ε/(2L‖C‖₂) = %v", res.Privacy.Temperature, temp)
	}
	smp, err := newSampler(pr, region{R: 1}, temp)
	if err != nil {
		t.Fatal(err)
	}
	N := 4000
	if testing.Short() {
		N = 1500
	}
	rng := dataset.NewRand(9)
	xs := make([]float64, N)
	for i := range xs {
		xs[i] = smp.draw(rng)[0]
	}
	sort.Float64s(xs)
	gx, gc := density1D(pr, temp, 20000)
	ks := 0.0
	for i, x := range xs {
		j := sort.SearchFloat64s(gx, x)
		F := gc[min(j, len(gc)-1)]
		ks = math.Max(ks, math.Max(math.Abs(F-float64(i)/float64(N)), math.Abs(F-float64(i+1)/float64(N))))
	}
	if ks > 1.95/math.Sqrt(float64(N)) {
		t.Errorf("KS distance %v > %v: the sampler's law is not the exponential mechanism's", ks, 1.95/math.Sqrt(float64(N)))
	}
	// the same test against the law at twice the temperature must fail:
	// the test can tell a wrong scale
	_, gc2 := density1D(pr, 2*temp, 20000)
	ks2 := 0.0
	for i, x := range xs {
		j := sort.SearchFloat64s(gx, x)
		ks2 = math.Max(ks2, math.Abs(gc2[min(j, len(gc2)-1)]-float64(i)/float64(N)))
	}
	if ks2 <= 1.95/math.Sqrt(float64(N)) {
		t.Errorf("the KS test cannot tell temperature 2× (distance %v)", ks2)
	}
}

// In two dimensions the sample mean matches the mean of the density
// integrated on a fine grid over the disc (z-test at 6 sd per coordinate).
func TestExpMechSampler2D(t *testing.T) {
	pr := problem(t, synth(6, 2, 0))
	temp := 1 / (2 * sigmoid1 * 2)
	smp, err := newSampler(pr, region{R: 1}, temp)
	if err != nil {
		t.Fatal(err)
	}
	const k = 300
	var Z, m0, m1 float64
	for i := range k {
		for j := range k {
			x := []float64{-1 + (float64(i)+0.5)*2/k, -1 + (float64(j)+0.5)*2/k}
			if numeric.Norm(x) > 1 {
				continue
			}
			w := math.Exp(-temp * sumRisk(pr, x))
			Z += w
			m0 += w * x[0]
			m1 += w * x[1]
		}
	}
	m0, m1 = m0/Z, m1/Z
	N := 3000
	rng := dataset.NewRand(4)
	var a0, a1 float64
	for range N {
		th := smp.draw(rng)
		if numeric.Norm(th) > 1 {
			t.Fatalf("sample %v outside C", th)
		}
		a0 += th[0]
		a1 += th[1]
	}
	a0 /= float64(N)
	a1 /= float64(N)
	// |θ_j| ≤ 1, so each coordinate's variance is ≤ 1
	if tol := 6 / math.Sqrt(float64(N)); math.Abs(a0-m0) > tol || math.Abs(a1-m1) > tol {
		t.Errorf("sample mean (%v, %v), want (%v, %v)", a0, a1, m0, m1)
	}
}

func TestExpMechRefusals(t *testing.T) {
	_, err := RunExpMech(synth(20, 3, 0), ExpMechParams{TargetEpsilon: 1})
	wantField(t, err, "dimension")
	_, err = RunExpMech(synth(20, 1, 0), ExpMechParams{TargetEpsilon: 0})
	wantField(t, err, "target_epsilon")
	s := Spec{Data: optimizer.DataSpec{Path: "../../testdata/breast_cancer.csv", Label: "malignant", Standardize: true, Normalize: true}, Radius: 1}
	_, err = RunExpMech(s, ExpMechParams{TargetEpsilon: 1, Common: Common{Features: "0,nope"}})
	wantField(t, err, "features")
	_, err = RunExpMech(synth(20, 1, 0), ExpMechParams{TargetEpsilon: 1, Common: Common{Features: "0"}})
	wantField(t, err, "features")
	r, err := RunExpMech(s, ExpMechParams{TargetEpsilon: 1, Common: Common{Features: "mean_radius"}})
	if err != nil || r.Dimension != 1 || !r.OK {
		t.Errorf("one shipped feature: %v %+v", err, r)
	}
}

// Localization's C₀ radius against the notes' vector (seed 001 §5: n =
// 1000, p = 10, L = Δ = ε = 1 → ζ = 20.723266, radius 0.828931, Gamma
// scale 0.004).
func TestLocalizeRadiusVector(t *testing.T) {
	zeta, scale, rho := localizeRadius(1000, 10, 2*1/(1000*1.0), 1)
	if math.Abs(zeta-20.723266) > 1e-6 || math.Abs(scale-0.004) > 1e-15 || math.Abs(rho-0.828931) > 1e-6 {
		t.Errorf("ζ, scale, ρ = %v, %v, %v; want 20.723266, 0.004, 0.828931", zeta, scale, rho)
	}
}

func TestLocalizeRunsAndRefuses(t *testing.T) {
	res, err := RunLocalize(synth(400, 1, 1), LocalizeParams{TargetEpsilon: 1})
	if err != nil {
		t.Fatal(err)
	}
	z, sc, rho := localizeRadius(400, 1, res.Stage1.Privacy.Sensitivity, 1)
	if res.Rho != rho || res.Zeta != z || float64(res.Stage1.Privacy.Scale) != sc || float64(res.Stage1.Privacy.Epsilon) != 0.5 {
		t.Errorf("ρ %v (want %v), ζ %v, stage-1 scale %v (want %v), ε₁ %v", res.Rho, rho, res.Zeta, res.Stage1.Privacy.Scale, sc, res.Stage1.Privacy.Epsilon)
	}
	if !res.OK || dist(res.W, res.Stage1.W) > res.Rho || numeric.Norm(res.W) > 1 {
		t.Errorf("sample outside C₀ ∩ C or a failed check: %+v", res.Checks)
	}
	_, err = RunLocalize(synth(50, 1, 0), LocalizeParams{TargetEpsilon: 1})
	wantField(t, err, "l2")
	_, err = RunLocalize(synth(50, 3, 1), LocalizeParams{TargetEpsilon: 1})
	wantField(t, err, "dimension")
}

// The Gamma-norm draw: ‖b‖ ~ Gamma(p, scale) (mean p·scale, variance
// p·scale²) and a uniform direction (mean of b zero), z-tests at 6 sd over
// 20000 draws: a 5% error in the scale is detected.
func TestGammaNormVector(t *testing.T) {
	rng := dataset.NewRand(5)
	const N, p, scale = 20000, 4, 0.3
	b := make([]float64, p)
	var m, m2 float64
	mean := make([]float64, p)
	for range N {
		r := gammaNormVector(rng, b, scale)
		if math.Abs(numeric.Norm(b)-r) > 1e-12 {
			t.Fatalf("‖b‖ = %v, radius %v", numeric.Norm(b), r)
		}
		m += r
		m2 += r * r
		for j := range b {
			mean[j] += b[j] / N
		}
	}
	m /= N
	v := m2/N - m*m
	if math.Abs(m-p*scale) > 6*math.Sqrt(p)*scale/math.Sqrt(N) {
		t.Errorf("mean radius %v, want %v", m, p*scale)
	}
	// Var of the sample variance of Gamma(p): (μ₄ − σ⁴)/N with μ₄ = 3p(p+2)θ⁴
	if sd := math.Sqrt((3*p*(p+2)-p*p)/float64(N)) * scale * scale; math.Abs(v-p*scale*scale) > 6*sd {
		t.Errorf("radius variance %v, want %v", v, p*scale*scale)
	}
	for j, x := range mean {
		if math.Abs(x) > 6*p*scale/math.Sqrt(N) {
			t.Errorf("mean of b_%d = %v, want 0 (uniform direction)", j, x)
		}
	}
}
