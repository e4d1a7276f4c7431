package bst14

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// IteratedParams are the parameters of seed 000's iterated exponential
// mechanism (Ganesh–Thakurta–Upadhyay, Algorithm 1, flag = 1: ERM).
type IteratedParams struct {
	Common
	TargetEpsilon float64 `json:"target_epsilon" param:"target_epsilon" doc:"ε of Thm 4.2: round i runs at εᵢ = ε/2^(k−i+1), so the total Σεᵢ = ε(1 − 2^(−k)) < ε (default 1)"`
	Rounds        int     `json:"rounds" param:"rounds" doc:"rounds k (0: Thm 4.2's 1 + ⌈log₂ log₂(εn/(p + ln n))⌉, logs base 2 assumed)"`
	// C is the paper's unspecified "sufficiently large" constant of the
	// radii: a utility parameter only (the privacy Σεᵢ holds for every c).
	C float64 `json:"c" param:"c" doc:"the radius constant c of Algorithm 1 (unspecified in the paper; a utility parameter: privacy holds for every c; 0: the radius from BST14 Thm 3.2's tail at failure n⁻³)"`
}

// IteratedRound is one round of Algorithm 1: the exponential mechanism at
// εᵢ on Cᵢ₋₁, then the next set's radius. Every field but Contained comes
// from declared values and the parameters.
type IteratedRound struct {
	Epsilon     float64 `json:"epsilon"`
	Diameter    float64 `json:"diameter"`    // ‖Cᵢ₋₁‖₂ (an upper bound: the region's)
	Temperature float64 `json:"temperature"` // εᵢ/(2L‖Cᵢ₋₁‖₂) on the sum loss
	Radius      float64 `json:"radius"`      // rᵢ: Cᵢ = C ∩ B(θᵢ, rᵢ)
	// Contained says whether the exact minimiser lies in the set the round
	// sampled from (measured).
	Contained bool `json:"measured_contained"`
}

// IteratedResult is the result of Algorithm 1.
type IteratedResult struct {
	Algorithm   string             `json:"algorithm"`
	Description string             `json:"data_description"`
	Declared    optimizer.Declared `json:"declared"`
	N           int                `json:"n"`
	Dimension   int                `json:"dimension"`
	Lipschitz   float64            `json:"lipschitz"`
	// StrongConvexity m is the declared ℓ2 weight.
	StrongConvexity float64 `json:"strong_convexity"`
	// Epsilon is the certified pure ε, Σεᵢ; Target the ε of Thm 4.2.
	Epsilon      dp.Loss         `json:"epsilon"`
	Target       float64         `json:"target_epsilon"`
	RoundsSource string          `json:"rounds_source"`
	C            float64         `json:"c"`
	RadiusSource string          `json:"radius_source"`
	Rounds       []IteratedRound `json:"rounds"`
	// Bound is Thm 3.2's mean (8L‖C_{k−1}‖₂/ε_k)((p+1) ln 3 + 1) of the
	// last round, on the sum scale: it bounds the excess over min on
	// C_{k−1}, the excess over min on C when the minimiser is in C_{k−1}.
	Bound float64 `json:"bound"`
	// PaperRate is Thm 4.2's L²(p² + p ln n)/(ε²n²m) (average scale) whose
	// O(·) constant the paper does not give.
	PaperRate float64 `json:"paper_rate_unknown_constant"`
	Trivial   float64 `json:"trivial"`
	Cells     int     `json:"cells"`
	Outcome
}

// IteratedSource cites Algorithm 1.
const IteratedSource = "seed 000 (Ganesh–Thakurta–Upadhyay), Algorithm 1 (flag = 1, ERM) and Thm 4.2: k rounds of the exponential mechanism at εᵢ = ε/2^(k−i+1) on shrinking sets, each sampled exactly (seed 001 Algorithm 2's sampler, Thm 3.1 at temperature εᵢ/(2L‖Cᵢ₋₁‖₂)); basic composition gives Σεᵢ = ε(1 − 2^(−k)) (pure ε-DP)"

// IteratedRoundsThm42 is Thm 4.2's k = 1 + ⌈log₂ log₂(εn/(p + ln n))⌉, at
// least 1 (the paper leaves the base of the logs unstated; the analysis's
// doubling of εᵢ suggests 2: seed 000 notes A5).
func IteratedRoundsThm42(eps float64, n, p int) int {
	x := eps * float64(n) / (float64(p) + math.Log(float64(n)))
	if x <= 2 {
		return 1
	}
	return 1 + max(0, int(math.Ceil(math.Log2(math.Log2(x)))))
}

// iteratedRadius is rᵢ: with c > 0 Algorithm 1's √(cL(p + 3 ln n)‖Cᵢ₋₁‖₂/(mεᵢn));
// with c = 0 the radius BST14 Thm 3.2's tail gives at failure n⁻³: an
// exponential-mechanism draw at εᵢ on Cᵢ₋₁ has Σℓ − min ≤
// (8L‖Cᵢ₋₁‖₂/εᵢ)((p+1) ln 3 + 3 ln n) with probability ≥ 1 − n⁻³, and m-strong
// convexity of the average loss turns it into ‖θ − θ*‖² ≤
// 16L‖Cᵢ₋₁‖₂((p+1) ln 3 + 3 ln n)/(mεᵢn) when θ* ∈ Cᵢ₋₁.
func iteratedRadius(c, L, diam, m, eps float64, n, p int) float64 {
	nf, pf := float64(n), float64(p)
	if c > 0 {
		return math.Sqrt(c * L * (pf + 3*math.Log(nf)) * diam / (m * eps * nf))
	}
	return math.Sqrt(16 * L * diam * ((pf+1)*math.Log(3) + 3*math.Log(nf)) / (m * eps * nf))
}

// RunIterated runs Algorithm 1 (flag = 1) on the problem of s: dimension 1
// or 2 (the exact sampler's), m = l2 > 0.
func RunIterated(s Spec, p IteratedParams) (*IteratedResult, error) {
	if err := field.First(field.Positive("target_epsilon", p.TargetEpsilon), field.Count("rounds", int64(p.Rounds), 0, 64),
		field.NonNegative("c", p.C)); err != nil {
		return nil, err
	}
	pr, err := build(s, p.Common, 0)
	if err != nil {
		return nil, err
	}
	if err := strongConvexityNeeded("the iterated exponential mechanism (GTU Algorithm 1)", pr); err != nil {
		return nil, err
	}
	if d := pr.Data.D; d > MaxSamplerDimension {
		return nil, field.New("dimension", d, "must be 1 or 2 for the exact exponential sampler each round runs (give features to select one or two columns): %s", TooManyDimensions)
	}
	return runIteratedProblem(pr, p)
}

func runIteratedProblem(pr *optimizer.Problem, p IteratedParams) (*IteratedResult, error) {
	c := pr.Constants
	n, d := pr.Data.N(), pr.Data.D
	R, m, eps := pr.Declared.Radius, c.M, p.TargetEpsilon
	k, ksrc := p.Rounds, "given"
	if k == 0 {
		k, ksrc = IteratedRoundsThm42(eps, n, d), "Thm 4.2: 1 + ⌈log₂ log₂(εn/(p + ln n))⌉"
	}
	res := &IteratedResult{Algorithm: "iterated-expmech", Description: pr.Description, Declared: pr.Declared, N: n, Dimension: d,
		Lipschitz: c.L, StrongConvexity: m, Target: eps, RoundsSource: ksrc, C: p.C,
		RadiusSource: "√(cL(p + 3 ln n)‖Cᵢ₋₁‖₂/(mεᵢn)) (Algorithm 1, flag = 1)",
		Trivial:      float64(n) * c.L * 2 * R,
		Outcome: newOutcome(p.Seed, pr,
			"neighbours replace one record (fixed n); ℓ(·; d) − ℓ(·; d′) is 2L-Lipschitz on C, so on a set of diameter D its range is ≤ 2LD and round i, sampled exactly at temperature εᵢ/(2LD), is εᵢ-DP (BST14 Thm 3.1) for every set chosen from the earlier rounds' outputs",
			"the rounds compose by basic (adaptive) composition: Σεᵢ-DP; the sets' radii come from n, p, L, m, R, c and εᵢ only, their centres from the released θᵢ",
			"Cᵢ = C ∩ B(θᵢ, rᵢ): privamp keeps the newest ball only (the paper intersects with Cᵢ₋₁ too); the region is a superset of the paper's, and its diameter min(2R, 2rᵢ) sets the temperature, so the guarantee is the same",
			"ℓ convex plus (m/2)‖θ‖², m = l2 > 0 (the radii's localisation, utility only; privacy needs only the Lipschitz bound)",
			samplerDoc,
		)}
	if p.C == 0 {
		res.RadiusSource = "√(16L‖Cᵢ₋₁‖₂((p+1) ln 3 + 3 ln n)/(mεᵢn)): BST14 Thm 3.2's tail at failure n⁻³ with m-strong convexity (c = 0: the paper's c is unspecified)"
	}
	opt := optimizer.Minimize(pr.Objective, pr.Data, R)
	rng := dataset.NewRand(p.Seed ^ 0x17e4)
	reg := region{R: R}
	var total float64
	var w []float64
	var last ExpMechUtility
	for i := 1; i <= k; i++ {
		ei := math.Ldexp(eps, -(k - i + 1))
		total += ei
		diam := reg.Diameter()
		temp := ei / (2 * c.L * diam)
		smp, err := newSampler(pr, reg, temp)
		if err != nil {
			return nil, err
		}
		res.Cells = max(res.Cells, len(smp.cells))
		contained := reg.contains(opt.W)
		w = smp.draw(rng)
		r := iteratedRadius(p.C, c.L, diam, m, ei, n, d)
		res.Rounds = append(res.Rounds, IteratedRound{Epsilon: ei, Diameter: diam, Temperature: temp, Radius: r, Contained: contained})
		if i == k {
			if last, err = ExpMechBound(ei, c.L, diam, float64(d), float64(n), 0.5); err != nil {
				return nil, err
			}
		}
		reg = region{R: R, Centre: w, Rho: r}
	}
	res.Epsilon = dp.Loss(total)
	res.W = w
	res.Measured = measure(pr, w, opt)
	res.Bound = last.MeanBST
	nf, pf := float64(n), float64(d)
	res.PaperRate = c.L * c.L * (pf*pf + pf*math.Log(nf)) / (eps * eps * nf * nf * m)
	final := res.Rounds[k-1]
	bc := boundCheck("excess risk (sum) ≤ Thm 3.2 mean of the last round", res.Measured.Sum, res.Bound, res.Trivial,
		fmt.Sprintf("(8L‖C_{k−1}‖₂/ε_k)((p+1) ln 3 + 1) at ε_k = %g, ‖C_{k−1}‖₂ = %.6g: the excess over min on C_{k−1}, which is min on C when θ* ∈ C_{k−1}", final.Epsilon, final.Diameter))
	if !final.Contained {
		bc = dp.Check{Name: bc.Name, Status: dp.NA, Value: dp.Num(res.Measured.Sum), Bound: dp.Num(res.Bound),
			Detail: "N/A: the exact minimiser is outside C_{k−1} in this run (a round's draw missed it: c too small, or the n⁻³ tail), so the bound on the excess over min on C_{k−1} says nothing about min on C"}
	}
	res.Checks = []dp.Check{
		bc,
		baselineCheck(pr, res.Measured, opt),
	}
	res.Assumptions = append(res.Assumptions, "each sample lies in its round's set: the sampler draws only from it (by construction, not a check)")
	res.OK = dp.AllPass(res.Checks)
	if final.Diameter >= 2*R {
		res.Notes = append(res.Notes, fmt.Sprintf("the last round samples from all of C (its radius bound %.4g ≥ R = %g): at these n, ε the localisation does not shrink the set, and the last round is the exponential mechanism at ε/2 on C", res.Rounds[max(0, k-2)].Radius, R))
	}
	return res, nil
}
