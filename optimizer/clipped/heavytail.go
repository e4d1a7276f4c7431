package clipped

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/optimizer"
)

// HeavyTailed is a seeded heavy-tailed mean estimation problem: records
//
//	x = μ + c·t,  t ∈ ℝ^d with i.i.d. Student-t coordinates (ν degrees of freedom),
//
// and the loss f(w, x) = −⟨w, x⟩ + ½‖w‖² (privamp's quadratic loss, =
// ½‖w − x‖² − ½‖x‖²), whose gradient is w − x. The population risk is F(w)
// = ½‖w‖² − ⟨w, μ⟩, so w* = μ and F(w) − F* = ½‖w − μ‖² exactly (μ inside
// the domain). For ν ≤ 2 the variance is infinite; for ν ≤ k the k-th
// moment is, so r_k exists only for k < ν.
type HeavyTailed struct {
	Dim   int       `json:"dimension"`
	Nu    float64   `json:"nu"`        // degrees of freedom ν > 2
	Scale float64   `json:"scale"`     // c > 0
	Mean  []float64 `json:"mean"`      // μ
	Seed  uint64    `json:"data_seed"` // seed of μ's direction
}

// NewHeavyTailed returns the generator in dimension d with ν degrees of
// freedom, scale c and ‖μ‖ = meanNorm along a seeded direction. Errors are
// *field.Error values naming dimension, nu, scale or mean_norm.
func NewHeavyTailed(d int, nu, scale, meanNorm float64, seed uint64) (*HeavyTailed, error) {
	switch {
	case d < 1 || d > 100_000:
		return nil, field.New("dimension", d, "must be in [1, 10^5]")
	case !(nu > 2) || math.IsInf(nu, 0) || nu > 1e6:
		return nil, field.New("nu", nu, "must be in (2, 10^6]: the Student-t variance is infinite for ν ≤ 2")
	case !(scale > 0) || math.IsInf(scale, 0):
		return nil, field.New("scale", scale, "must be finite and > 0")
	case !(meanNorm >= 0) || math.IsInf(meanNorm, 0):
		return nil, field.New("mean_norm", meanNorm, "must be finite and ≥ 0")
	}
	h := &HeavyTailed{Dim: d, Nu: nu, Scale: scale, Mean: make([]float64, d), Seed: seed}
	rng := rand.New(rand.NewPCG(seed, 0x7a11))
	for i := range h.Mean {
		h.Mean[i] = rng.NormFloat64()
	}
	nm := numeric.Norm(h.Mean)
	for i := range h.Mean {
		h.Mean[i] *= meanNorm / nm
	}
	return h, nil
}

// Objective is the quadratic loss −⟨w, x⟩ + ½‖w‖² (optimizer's LinearLoss
// with ℓ2 weight 1): β = μ = 1.
func (h *HeavyTailed) Objective() optimizer.Objective {
	return optimizer.Objective{Loss: optimizer.LinearLoss{}, L2: 1}
}

// Sample draws n records with the random stream of rng (labels 0).
func (h *HeavyTailed) Sample(rng *rand.Rand, n int) *dataset.Dataset {
	d := h.Dim
	ds := &dataset.Dataset{D: d, X: make([]float64, n*d), Y: make([]float64, n), Label: "y",
		Source: fmt.Sprintf("heavy-tailed: μ + %g·Student-t(ν = %g), d = %d, seed %d", h.Scale, h.Nu, d, h.Seed)}
	for i := 0; i < n; i++ {
		x := ds.Row(i)
		for j := range x {
			x[j] = h.Mean[j] + h.Scale*studentT(rng, h.Nu)
		}
	}
	return ds
}

// ExcessRisk is F(w) − F* = ½‖w − μ‖², exact.
func (h *HeavyTailed) ExcessRisk(w []float64) float64 {
	var s float64
	for i, v := range w {
		s += (v - h.Mean[i]) * (v - h.Mean[i])
	}
	return s / 2
}

// AbsMoment returns E|c·T|^p for a Student-t T with ν > p degrees of
// freedom: c^p·ν^{p/2}·Γ((p+1)/2)·Γ((ν−p)/2)/(√π·Γ(ν/2)) (+Inf for p ≥ ν).
func (h *HeavyTailed) AbsMoment(p float64) float64 {
	if p >= h.Nu {
		return math.Inf(1)
	}
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	return math.Exp(p*math.Log(h.Scale) + p/2*math.Log(h.Nu) + lg((p+1)/2) + lg((h.Nu-p)/2) - 0.5*math.Log(math.Pi) - lg(h.Nu/2))
}

// NoiseMoment bounds (E‖c·t‖^k)^{1/k} ≤ √d·(E|c·T|^k)^{1/k} for k ≥ 2:
// Minkowski's inequality for the L^{k/2} norm of Σ_j (c·t_j)².
func (h *HeavyTailed) NoiseMoment(k float64) float64 {
	return math.Sqrt(float64(h.Dim)) * math.Pow(h.AbsMoment(k), 1/k)
}

// MomentBound returns the r_k of Assumption 2 for the gradient w − x on the
// ball ‖w‖ ≤ R: ‖w − x‖ ≤ ‖w − μ‖ + ‖c·t‖ ≤ R + ‖μ‖ + ‖c·t‖, so by
// Minkowski r_k ≤ R + ‖μ‖ + NoiseMoment(k) (this also bounds Assumption 1's
// r̃_k, the sup being inside). +Inf for k ≥ ν.
func (h *HeavyTailed) MomentBound(k, R float64) float64 {
	return R + numeric.Norm(h.Mean) + h.NoiseMoment(k)
}

// SecondMoment returns r_2 = sup_{‖w‖≤R} (E‖w − x‖²)^{1/2} = √((R + ‖μ‖)² +
// d·c²ν/(ν−2)), exact.
func (h *HeavyTailed) SecondMoment(R float64) float64 {
	a := R + numeric.Norm(h.Mean)
	return math.Sqrt(a*a + float64(h.Dim)*h.Scale*h.Scale*h.Nu/(h.Nu-2))
}

// WorstCaseBound returns the feature bound X that a method needing a
// worst-case Lipschitz constant must declare so that, by Markov's inequality
// and a union bound over the n records, no record of the sample is clipped
// except with probability q: n·E‖x‖^k/X^k ≤ q, with (E‖x‖^k)^{1/k} ≤ ‖μ‖ +
// NoiseMoment(k), so X = (‖μ‖ + NoiseMoment(k))·(n/q)^{1/k}. It uses the same
// declared moment as the clipped methods, never the sample.
func (h *HeavyTailed) WorstCaseBound(k float64, n int, q float64) float64 {
	return (numeric.Norm(h.Mean) + h.NoiseMoment(k)) * math.Pow(float64(n)/q, 1/k)
}

// studentT draws a Student-t variate: Z/√(V/ν) with V ~ χ²_ν = Gamma(ν/2, 2).
func studentT(rng *rand.Rand, nu float64) float64 {
	return rng.NormFloat64() / math.Sqrt(2*gammaRand(rng, nu/2)/nu)
}

// gammaRand draws Gamma(a, 1) by Marsaglia and Tsang (2000), with the boost
// U^{1/a} for a < 1.
func gammaRand(rng *rand.Rand, a float64) float64 {
	if a < 1 {
		return gammaRand(rng, a+1) * math.Pow(rng.Float64(), 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
