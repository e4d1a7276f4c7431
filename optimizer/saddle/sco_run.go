package saddle

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// SCOParams are Algorithm 5's parameters (catalogue parameters).
type SCOParams struct {
	CoordinateBound float64 `param:"coordinate_bound" doc:"declared bound c on each standardized coordinate (coordinates are clipped to [−c, c])"`
	L1Radius        float64 `param:"l1_radius" doc:"declared ℓ1 radius R of the logistic model (L0 = R, L1 = R²/4, L2 = R³/(6√3))"`
	LabelNoise      float64 `param:"label_noise" doc:"synthetic least squares: noise σ of b = ⟨h, x*⟩ ± σ (L0 = 2 + σ)"`
	TargetEpsilon   float64 `param:"target_epsilon" doc:"privacy target ε the step size is calibrated to (with delta)"`
	Delta           float64 `param:"delta" doc:"δ of the (ε, δ) guarantee"`
	Eta             float64 `param:"eta" doc:"step size τ (0: the bound's minimiser, capped by what the target ε allows)"`
	Steps           int     `param:"steps" doc:"steps T (0: Thm 4.2's min{n, nε/(ℓx√ln(1/δ))})"`
	Samples         int     `param:"samples" doc:"vertex samples K per sampling round (0: Thm 4.2's √(Tℓx))"`
	RoundLength     int     `param:"round_length" doc:"round length q: ŵ is redrawn at t ≤ q and at multiples of q (0: Thm 4.2's √(T/ℓx))"`
	Seed            uint64  `param:"seed" doc:"seed of the algorithm's randomness (vertex samples, record order, resampling)"`
	Repeats         int     `param:"repeats" doc:"independent runs the expected excess risk is estimated from"`
	Confidence      float64 `param:"confidence" doc:"confidence level of the interval on the expected excess risk"`
}

// DefaultSCOParams are the defaults.
func DefaultSCOParams() SCOParams {
	return SCOParams{CoordinateBound: 3, L1Radius: 4, LabelNoise: 0.5, TargetEpsilon: 1, Delta: 1e-5, Seed: 1, Repeats: 20, Confidence: 0.95}
}

func (p SCOParams) check() error {
	return field.First(epsCheckDelta(p.TargetEpsilon, p.Delta), field.Range("eta", p.Eta, 0, maxEta),
		field.Count("steps", int64(p.Steps), 0, 1<<40), field.Count("samples", int64(p.Samples), 0, 1_000_000),
		field.Count("round_length", int64(p.RoundLength), 0, 1<<40),
		field.Count("repeats", int64(p.Repeats), 2, 100_000), field.OpenUnit("confidence", p.Confidence))
}

// LoadSCO builds the instance a data specification asks for: logistic
// regression on a CSV file (standardize required), or with Synthetic
// "simplex-lsq" the synthetic least-squares instance.
func LoadSCO(ds optimizer.DataSpec, p SCOParams) (*SCOProblem, error) {
	switch {
	case ds.Path != "" && ds.Synthetic != "":
		return nil, field.New("synthetic", ds.Synthetic, "cannot be combined with a data file")
	case ds.Path != "":
		data, a, err := loadStandardized(ds)
		if err != nil {
			return nil, err
		}
		pr, err := LogisticSCO(data, p.CoordinateBound, p.L1Radius)
		if err != nil {
			return nil, err
		}
		pr.Assumptions = append(pr.Assumptions, a)
		return pr, nil
	case ds.Synthetic == "simplex-lsq":
		return SyntheticSCO(ds.N, ds.Dimension, p.LabelNoise, ds.Seed)
	default:
		return nil, field.New("synthetic", ds.Synthetic, "must be \"simplex-lsq\" (synthetic least squares) or omitted with a data file")
	}
}

// SCOResult is the typed result of a run of Algorithm 5.
type SCOResult struct {
	Algorithm     string       `json:"algorithm"`
	Problem       string       `json:"problem"`
	N             int          `json:"n"`
	D             int          `json:"d"`
	Constants     SCOConstants `json:"constants"`
	TargetEpsilon float64      `json:"target_epsilon"`
	Privacy       Privacy      `json:"privacy"`
	PaperMaxStep  float64      `json:"paper_max_step"`
	Steps         int          `json:"steps"`
	Samples       int          `json:"samples"`
	RoundLength   int          `json:"round_length"`
	Batch         int          `json:"batch"`
	Eta           float64      `json:"eta"`
	EtaSource     string       `json:"eta_source"`
	// Excess is the measured population excess risk F(ŵ_T) − min F of the
	// released point over the repeats, AverageExcess that of the
	// unreleased w^T; UniformExcess that of the uniform point x_1 (the
	// data-independent baseline).
	Excess        Stats  `json:"measured_excess"`
	AverageExcess Stats  `json:"measured_average_excess"`
	UniformExcess dp.Num `json:"measured_uniform_excess"`
	// ReferenceGap is the Frank–Wolfe gap of the reference minimiser (data
	// only): min F is taken as F(x̄) − gap, so the excess is an upper value.
	ReferenceGap dp.Num `json:"measured_reference_gap,omitempty"`
	Bound        dp.Num `json:"bound"`
	BoundSource  string `json:"bound_source"`
	Rate         dp.Num `json:"rate"`
	RateSource   string `json:"rate_source"`
	// MaxSupport is the largest support of ŵ_T over the repeats (≤ K).
	MaxSupport  int        `json:"measured_max_support"`
	Checks      []dp.Check `json:"checks"`
	OK          bool       `json:"ok"`
	Assumptions []string   `json:"assumptions"`
}

func (r *SCOResult) add(c dp.Check) {
	r.Checks = append(r.Checks, c)
	r.OK = dp.AllPass(r.Checks)
}

// RunSCOSpec runs Algorithm 5 Repeats times on the instance of ds and
// reports the certificate (Prop. 4.3), the measured excess risk and the
// explicit bound of docs/saddle.md §8 (a failed check makes OK false).
func RunSCOSpec(ds optimizer.DataSpec, p SCOParams, progress dp.Progress) (*SCOResult, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	pr, err := LoadSCO(ds, p)
	if err != nil {
		return nil, err
	}
	return runSCOProblem(pr, p, progress)
}

// runSCOProblem is RunSCOSpec on a loaded problem (tests give it problems
// whose declared constants are wrong).
func runSCOProblem(pr *SCOProblem, p SCOParams, progress dp.Progress) (*SCOResult, error) {
	n, d, c := pr.N(), pr.D, pr.Consts
	T, q, K := SCOPlan(n, d, p.TargetEpsilon, p.Delta)
	if p.Steps > 0 {
		T = p.Steps
		_, q, K = SCOPlan(T, d, math.Inf(1), p.Delta) // q, K follow T as in Thm 4.2
	}
	if p.Samples > 0 {
		K = p.Samples
	}
	if p.RoundLength > 0 {
		q = p.RoundLength
	}
	if T > n {
		return nil, field.New("steps", T, "must be ≤ n = %d (each step needs a fresh record)", n)
	}
	res := &SCOResult{Algorithm: "smd-sco", Problem: pr.Description, N: n, D: d, Constants: c, TargetEpsilon: p.TargetEpsilon, OK: true,
		Steps: T, Samples: K, RoundLength: q, Batch: n / T, Assumptions: pr.Assumptions}
	tau := p.Eta
	res.EtaSource = "given"
	if tau == 0 {
		var err error
		if tau, err = scoStep(n, d, T, K, q, c, p.TargetEpsilon, p.Delta); err != nil {
			return nil, err
		}
		res.EtaSource = "min{minimiser of the explicit bound over τ, largest τ the target ε allows (Prop. 4.3's accounting, Thm 3.5 inverted)}"
	}
	pv, err := SCOPrivacy(n, T, K, q, c.L0, tau, p.Delta)
	if err != nil {
		return nil, err
	}
	res.PaperMaxStep, _ = PaperSCOStep(n, T, K, q, c.L0, p.TargetEpsilon, p.Delta)
	res.Privacy, res.Eta = pv, tau
	uni := make([]float64, d)
	for j := range uni {
		uni[j] = 1 / float64(d)
	}
	res.UniformExcess = dp.Num(pr.Excess(uni))
	if pr.XStar == nil {
		res.ReferenceGap = dp.Num(pr.popGap)
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x5c0a))
	ex, avg := make([]float64, p.Repeats), make([]float64, p.Repeats)
	for r := range ex {
		sample := pr.resample(rng)
		out, wT, run := RunSCO(sample, T, K, q, tau, rng)
		ex[r], avg[r] = pr.Excess(out), pr.Excess(wT)
		res.MaxSupport = max(res.MaxSupport, run.Support)
		progress.Report(int64(r+1), int64(p.Repeats))
	}
	res.Excess, res.AverageExcess = stats(ex, p.Confidence), stats(avg, p.Confidence)
	b := SCOBound(d, T, K, q, c, tau)
	res.Bound = dp.Num(b)
	res.BoundSource = "explicit form of proof 4.5 (docs/saddle.md §8): ln d/(τT) + τL0²/2 + 4L2/K + 2L1/K + (4L1/T)Σ_t H_t + (τG/T)Σ_t (t − t0(t))"
	res.Rate = dp.Num(Rate42(d, n, c, p.TargetEpsilon, p.Delta))
	res.RateSource = "Thm 4.2 (second-order-smooth): (L0+L1)[√(ℓx/n) + ℓx ln(1/δ)^{1/4}/√(nε)] + L2/(√n ℓx^{1/4}) + L2ℓx^{1/4}ln(1/δ)^{1/4}/√(nε) + L1 ln(√(nℓx))[1/√n + ln(1/δ)^{1/4}/√(nε)], constant 1: reference only"
	res.add(dp.NewCheck("certified ε ≤ target ε", float64(pv.Epsilon) <= p.TargetEpsilon, float64(pv.Epsilon), p.TargetEpsilon,
		"Prop. 4.3's accounting (each vertex 4L0τ/B-DP, k = K(q + ⌊T/q⌋)) through Thm 3.5 at the step size used"))
	res.add(dp.UtilityCheck("excess risk lower confidence limit ≤ derived bound", float64(res.Excess.Lower), b, 2*c.L0,
		fmt.Sprintf("%g%% lower limit of E[F(ŵ_T)] − min F over %d runs against the explicit bound at the same n, d, T, K, q, τ; trivial bound 2L0: F is L0-Lipschitz in ℓ1 and the simplex has ℓ1 diameter 2", 100*p.Confidence, p.Repeats)))
	res.add(dp.BaselineCheck("mean excess risk ≤ that of the uniform point", float64(res.Excess.Mean), float64(res.UniformExcess),
		fmt.Sprintf("mean F(ŵ_T) − min F over %d runs against the uniform point x_1's, the data-free output", p.Repeats)))
	res.Assumptions = append(res.Assumptions, "the released ŵ_T is K-sparse: the mean of K vertices (Algorithm 5, line 11; by construction, not a check)")
	return res, nil
}
