package saddle

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
	"gonum.org/v1/gonum/stat/distuv"
)

// GameParams choose the game (catalogue parameters).
type GameParams struct {
	CoordinateBound float64 `param:"coordinate_bound" doc:"declared bound c on each standardized coordinate of the group game (coordinates are clipped to [−c, c])"`
	GroupFeature    int     `param:"group_feature" doc:"feature column (0-based) whose bins, with the class, define the adversary's groups"`
	GroupBins       int     `param:"group_bins" doc:"number of bins of the group feature (cut at standard normal quantiles)"`
	DY              int     `param:"dy" doc:"synthetic bilinear game: the adversary's strategies (0: as many as the dimension)"`
	PayoffBound     float64 `param:"payoff_bound" doc:"synthetic bilinear game: declared bound a on every payoff entry"`
}

// Common are the parameters both algorithms take.
type Common struct {
	GameParams
	TargetEpsilon float64 `param:"target_epsilon" doc:"privacy target ε the step size is calibrated to (with delta)"`
	Delta         float64 `param:"delta" doc:"δ of the (ε, δ) guarantee"`
	Eta           float64 `param:"eta" doc:"step size τ of the entropic mirror step (0: the theorem's, capped by what the target ε allows)"`
	Seed          uint64  `param:"seed" doc:"seed of the algorithm's randomness (vertex samples, record order, bootstrap)"`
	Repeats       int     `param:"repeats" doc:"independent runs the expected gap is estimated from"`
	Confidence    float64 `param:"confidence" doc:"confidence level of the interval on the expected gap"`
}

// SMDParams are Algorithm 1's parameters.
type SMDParams struct {
	Common
	Steps   int `param:"steps" doc:"steps T (0: Thm 3.1 (7)'s min{n, nε/√(ℓ ln(1/δ))})"`
	Samples int `param:"samples" doc:"vertex pairs K per step for the gradient (Thm 3.1 (7): 1)"`
}

// BRParams are Algorithm 3's parameters.
type BRParams struct {
	Common
	StopBudget     float64 `param:"stop_budget" doc:"stopping budget U on Σ 2^{N_t} (0: Thm 3.14's)"`
	Truncation     int     `param:"truncation" doc:"truncation M of the geometric N_t (-1: Thm 3.14's ⌊log2 √U⌋)"`
	BatchParameter float64 `param:"batch_parameter" doc:"batch parameter α, batch max{1, ⌈2^N/α⌉} (0: Thm 3.14's)"`
}

// DefaultCommon are the defaults.
func DefaultCommon() Common {
	return Common{GameParams: GameParams{CoordinateBound: 3, GroupBins: 2, PayoffBound: 0.5}, TargetEpsilon: 1, Delta: 1e-5,
		Seed: 1, Repeats: 20, Confidence: 0.95}
}

// loadStandardized reads the CSV file of ds with its ±1 labels, centred
// and scaled (declared scaling, or standardize with the data's own
// statistics): both instances declare their coordinate bound on that scale,
// so one of the two is required. It returns the assumption to print.
func loadStandardized(ds optimizer.DataSpec) (*dataset.Dataset, string, error) {
	if ds.Label == "" {
		return nil, "", field.New("label", "", "is required with a data file (the name of its label column)")
	}
	if !ds.Standardize && ds.Scaling == "" {
		return nil, "", field.New("scaling", "", "is required, or standardize (the coordinate bound is declared on the centred and scaled records)")
	}
	data, err := dataset.ReadCSVFile(ds.Path, dataset.CSVOptions{Label: ds.Label})
	if err != nil {
		return nil, "", err
	}
	data.Source = filepath.Base(ds.Path)
	a, err := ds.Preprocess(data)
	if err != nil {
		return nil, "", err
	}
	if err := data.MapBinaryLabels(); err != nil {
		return nil, "", field.New("label", ds.Label, "%v", err)
	}
	return data, a, nil
}

// LoadGame builds the game a data specification asks for: the group game
// of a CSV file (standardize required: the coordinate bound is declared on
// that scale) or, with Synthetic "bilinear", a synthetic game.
func LoadGame(ds optimizer.DataSpec, gp GameParams) (*Game, error) {
	switch {
	case ds.Path != "" && ds.Synthetic != "":
		return nil, field.New("synthetic", ds.Synthetic, "cannot be combined with a data file")
	case ds.Path != "":
		data, a, err := loadStandardized(ds)
		if err != nil {
			return nil, err
		}
		g, err := GroupGame(data, gp.CoordinateBound, gp.GroupFeature, gp.GroupBins)
		if err != nil {
			return nil, err
		}
		g.Assumptions = append(g.Assumptions, a+" (the groups' cut points are on that scale)")
		return g, nil
	case ds.Synthetic == "bilinear":
		dy := gp.DY
		if dy == 0 {
			dy = ds.Dimension
		}
		return SyntheticGame(ds.N, ds.Dimension, dy, gp.PayoffBound, ds.Seed)
	default:
		return nil, field.New("synthetic", ds.Synthetic, "must be \"bilinear\" (a synthetic game) or omitted with a data file")
	}
}

func (c Common) check() error {
	return field.First(epsCheckDelta(c.TargetEpsilon, c.Delta), field.Range("eta", c.Eta, 0, maxEta),
		field.Count("repeats", int64(c.Repeats), 2, 100_000), field.OpenUnit("confidence", c.Confidence))
}

func epsCheckDelta(eps, delta float64) error {
	if err := field.OpenUnit("delta", delta); err != nil {
		return err
	}
	return epsCheck(eps, delta)
}

// Stats is a mean over repeats with a Student-t confidence interval.
type Stats struct {
	Repeats    int     `json:"repeats"`
	Mean       dp.Num  `json:"mean"`
	SD         dp.Num  `json:"sd"`
	Lower      dp.Num  `json:"lower"`
	Upper      dp.Num  `json:"upper"`
	Confidence float64 `json:"confidence"`
}

func stats(v []float64, conf float64) Stats {
	n := float64(len(v))
	var m, ss float64
	for _, x := range v {
		m += x
	}
	m /= n
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	sd := math.Sqrt(ss / (n - 1))
	h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.5+conf/2) * sd / math.Sqrt(n)
	return Stats{Repeats: len(v), Mean: dp.Num(m), SD: dp.Num(sd), Lower: dp.Num(m - h), Upper: dp.Num(m + h), Confidence: conf}
}

// GameInfo describes the game of a run.
type GameInfo struct {
	Description string  `json:"data_description"`
	N           int     `json:"n"`
	DX          int     `json:"dx"`
	DY          int     `json:"dy"`
	PayoffBound float64 `json:"payoff_bound"`
	Ell         dp.Num  `json:"ell"`
	Value       dp.Num  `json:"measured_value"`
	LPGap       dp.Num  `json:"measured_lp_gap"`
}

// Result is the typed result of a run of Algorithm 1 or 3.
type Result struct {
	Algorithm     string   `json:"algorithm"`
	Game          GameInfo `json:"game"`
	TargetEpsilon float64  `json:"target_epsilon"`
	Privacy       Privacy  `json:"privacy"`
	// Steps is T (Algorithm 1) or the mean number of rounds 𝒯+1
	// (Algorithm 3); Batch the batch size (Algorithm 1).
	Steps     dp.Num  `json:"steps"`
	Samples   int     `json:"samples,omitempty"`
	Batch     int     `json:"batch,omitempty"`
	Eta       float64 `json:"eta"`
	EtaSource string  `json:"eta_source"`
	// Algorithm 3's U, M, α.
	StopBudget     float64 `json:"stop_budget,omitempty"`
	Truncation     int     `json:"truncation,omitempty"`
	BatchParameter float64 `json:"batch_parameter,omitempty"`
	// Gap is the measured Gap(x̃, ỹ) of the released points over the
	// repeats; IterateGap that of the (unreleased) iterate averages.
	Gap        Stats `json:"measured_gap"`
	IterateGap Stats `json:"measured_iterate_gap"`
	// UniformGap is the gap of the uniform pair, the data-independent
	// baseline (x_1, y_1): a private output is useful only below it.
	UniformGap dp.Num `json:"measured_uniform_gap"`
	// Bound is the theorem's explicit bound on E Gap (Algorithm 3: the
	// mean of the per-run conditional bounds), DerivedBound the tighter
	// bilinear bound of docs/saddle.md, Excess the gap minus the per-run
	// bound (Algorithm 3), Rate the theorem's rate with constant 1.
	Bound        dp.Num `json:"bound"`
	BoundSource  string `json:"bound_source"`
	DerivedBound dp.Num `json:"derived_bound"`
	Excess       *Stats `json:"measured_excess,omitempty"`
	Rate         dp.Num `json:"rate"`
	RateSource   string `json:"rate_source"`
	// MaxSupport is the largest support of x̃ or ỹ over the repeats; it is
	// at most the number of steps (T-sparsity).
	MaxSupport  int        `json:"measured_max_support"`
	Checks      []dp.Check `json:"checks"`
	OK          bool       `json:"ok"`
	Assumptions []string   `json:"assumptions"`
}

func support(v []float64) int {
	k := 0
	for _, x := range v {
		if x != 0 {
			k++
		}
	}
	return k
}

func (r *Result) add(name string, ok bool, value, bound float64, detail string) {
	r.push(dp.NewCheck(name, ok, value, bound, detail))
}

// push appends a check; OK is false once one FAILED (dp.AllPass).
func (r *Result) push(c dp.Check) {
	r.Checks = append(r.Checks, c)
	r.OK = dp.AllPass(r.Checks)
}

// gapChecks are the utility checks every game run ends with: the gap
// against its bound, VACUOUS when the bound is at least 2a, the largest
// gap any pair can have when every payoff lies in [−a, a]
// (dp.UtilityCheck), and the released pair's mean gap against the
// uniform pair's, the data-free output (WORSE above it).
func (r *Result) gapChecks(name string, value, bound float64, detail string) {
	r.push(dp.UtilityCheck(name, value, bound, 2*r.Game.PayoffBound, detail+"; trivial bound 2a: every payoff lies in [−a, a]"))
}

// uniformCheck is the baseline check of a game run.
func (r *Result) uniformCheck() {
	r.push(dp.BaselineCheck("mean gap ≤ gap of the uniform pair", float64(r.Gap.Mean), float64(r.UniformGap),
		fmt.Sprintf("mean Gap(x̃, ỹ) over %d runs against the gap of the uniform pair (x_1, y_1), the data-free output", r.Gap.Repeats)))
}

func newResult(alg string, g *Game, c Common) (*Result, error) {
	eq, err := g.Solve()
	if err != nil {
		return nil, err
	}
	ux, uy := make([]float64, g.DX), make([]float64, g.DY)
	for i := range ux {
		ux[i] = 1 / float64(g.DX)
	}
	for j := range uy {
		uy[j] = 1 / float64(g.DY)
	}
	return &Result{Algorithm: alg, TargetEpsilon: c.TargetEpsilon, OK: true, Assumptions: g.Assumptions, UniformGap: dp.Num(g.Gap(ux, uy)),
		Game: GameInfo{Description: g.Description, N: g.N(), DX: g.DX, DY: g.DY, PayoffBound: g.Bound, Ell: dp.Num(ell(g.DX, g.DY)),
			Value: dp.Num(eq.Value), LPGap: dp.Num(eq.Gap)}}, nil
}

// repeatGame returns the game of repeat r: a bootstrap sample of a data
// game (its population is the uniform law on the file's records), a fresh
// draw of a synthetic one.
func repeatGame(g *Game, ds optimizer.DataSpec, rng *rand.Rand) (*Game, error) {
	if ds.Path != "" {
		return g.Bootstrap(rng), nil
	}
	ng := *g
	ng.Records = make([]float64, len(g.Records))
	for r := 0; r < ng.N(); r++ {
		rec := ng.Record(r)
		for k, m := range g.Mean {
			if rng.Float64() < (1+m/g.Bound)/2 {
				rec[k] = g.Bound
			} else {
				rec[k] = -g.Bound
			}
		}
	}
	return &ng, nil
}

// RunSMDSpec runs Algorithm 1 Repeats times on the game of ds and reports
// the certificate, the measured gap and the bounds. progress may be nil.
func RunSMDSpec(ds optimizer.DataSpec, p SMDParams, progress dp.Progress) (*Result, error) {
	if err := field.First(p.check(), field.Count("samples", int64(p.Samples), 1, 1_000_000), field.Count("steps", int64(p.Steps), 0, 1<<40)); err != nil {
		return nil, err
	}
	g, err := LoadGame(ds, p.GameParams)
	if err != nil {
		return nil, err
	}
	return runSMDGame(g, ds, p, progress)
}

// runSMDGame is RunSMDSpec on a loaded game (tests give it games that
// break their declared bound).
func runSMDGame(g *Game, ds optimizer.DataSpec, p SMDParams, progress dp.Progress) (*Result, error) {
	n := g.N()
	T := p.Steps
	if T == 0 {
		T = SMDPlan(n, g.DX, g.DY, p.TargetEpsilon, p.Delta)
	}
	if T > n {
		return nil, field.New("steps", T, "must be ≤ n = %d (each step needs a fresh record)", n)
	}
	res, err := newResult("smd-vertex", g, p.Common)
	if err != nil {
		return nil, err
	}
	a := g.Bound
	tau := p.Eta
	res.EtaSource = "given"
	if tau == 0 {
		if tau, err = smdStep(n, g.DX, g.DY, T, p.Samples, a, p.TargetEpsilon, p.Delta); err != nil {
			return nil, err
		}
		res.EtaSource = "min{√(2ℓ/(5L0²T)) (minimises 2ℓ/(τT) + 5τL0²), largest τ the target ε allows (Thm 3.5 inverted)}"
	}
	pr, err := SMDPrivacy(n, T, p.Samples, a, tau, p.Delta)
	if err != nil {
		return nil, err
	}
	pr.PaperMaxStep = paperSMDStep(n, T, p.Samples, a, p.TargetEpsilon, p.Delta)
	res.Privacy, res.Steps, res.Samples, res.Batch, res.Eta = pr, dp.Num(T), p.Samples, n/T, tau
	rng := rand.New(rand.NewPCG(p.Seed, 0x5add1e))
	gaps, igaps := make([]float64, p.Repeats), make([]float64, p.Repeats)
	for r := range gaps {
		rg, err := repeatGame(g, ds, rng)
		if err != nil {
			return nil, err
		}
		xt, yt, xb, yb := RunSMD(rg, T, p.Samples, tau, rng)
		gaps[r], igaps[r] = g.Gap(xt, yt), g.Gap(xb, yb)
		res.MaxSupport = max(res.MaxSupport, support(xt), support(yt))
		progress.Report(int64(r+1), int64(p.Repeats))
	}
	res.Gap, res.IterateGap = stats(gaps, p.Confidence), stats(igaps, p.Confidence)
	paper, derived := SMDBound(g.DX, g.DY, T, a, tau)
	res.Bound, res.DerivedBound = dp.Num(paper), dp.Num(derived)
	res.BoundSource = "seed 003 proof of Thm 3.1 (Lemmas 3.8, 3.11): 8L1√(ℓ/T) + 4L1/T + 2ℓ/(τT) + 5τL0², bias term 0 for a bilinear game"
	res.Rate = dp.Num(Rate7(g.DX, g.DY, n, a, p.TargetEpsilon, p.Delta))
	res.RateSource = "Thm 3.1 (7): (L0+L1)[√(ℓ/n) + (ℓ^{3/2}√ln(1/δ)/(nε))^{1/2}], constant 1"
	res.add("certified ε ≤ target ε", float64(pr.Epsilon) <= p.TargetEpsilon, float64(pr.Epsilon), p.TargetEpsilon,
		"Prop. 3.3's accounting (each vertex 4L0τ/B-DP, k = 2T(K+1)) through Thm 3.5 at the step size used")
	res.gapChecks("gap lower confidence limit ≤ Thm 3.1 bound", float64(res.Gap.Lower), paper,
		fmt.Sprintf("%g%% lower limit of E Gap(x̃, ỹ) over %d runs against the theorem's explicit bound at the same n, d, τ, T", 100*p.Confidence, p.Repeats))
	res.gapChecks("gap lower confidence limit ≤ derived bilinear bound", float64(res.Gap.Lower), derived,
		"2ℓ/(τT) + 5τa² + a(√(2 ln dx/T) + √(2 ln dy/T)) (docs/saddle.md)")
	res.uniformCheck()
	res.Assumptions = append(res.Assumptions, "the released x̃, ỹ are T-sparse: each is the mean of T vertices (Algorithm 1, line 8; by construction, not a check)")
	return res, nil
}

// RunBRSpec runs Algorithm 3 Repeats times on the game of ds.
func RunBRSpec(ds optimizer.DataSpec, p BRParams, progress dp.Progress) (*Result, error) {
	if err := field.First(p.check(), field.NonNegative("stop_budget", p.StopBudget), field.Count("truncation", int64(p.Truncation), -1, 30),
		field.NonNegative("batch_parameter", p.BatchParameter)); err != nil {
		return nil, err
	}
	if p.StopBudget != 0 && p.StopBudget < 4 {
		return nil, field.New("stop_budget", p.StopBudget, "must be ≥ 4 (Thm 3.14) or 0 for the theorem's")
	}
	g, err := LoadGame(ds, p.GameParams)
	if err != nil {
		return nil, err
	}
	return runBRGame(g, ds, p, progress)
}

// runBRGame is RunBRSpec on a loaded game.
func runBRGame(g *Game, ds optimizer.DataSpec, p BRParams, progress dp.Progress) (*Result, error) {
	n, a := g.N(), g.Bound
	U, M, tauThm, alpha := BRPlan(n, g.DX, g.DY, a, p.TargetEpsilon, p.Delta)
	if p.StopBudget > 0 {
		U = p.StopBudget
		M = max(1, int(math.Floor(math.Log2(math.Sqrt(U)))))
	}
	if p.Truncation >= 0 {
		M = p.Truncation
	}
	if p.BatchParameter > 0 {
		alpha = p.BatchParameter
	}
	if math.Ldexp(1, M) > U {
		return nil, field.New("truncation", M, "must satisfy 2^M ≤ U = %g", U)
	}
	res, err := newResult("smd-bias-reduced", g, p.Common)
	if err != nil {
		return nil, err
	}
	tau := p.Eta
	res.EtaSource = "given"
	if tau == 0 {
		tmax, err := BRMaxStep(U, M, alpha, a, p.TargetEpsilon, p.Delta)
		if err != nil {
			return nil, err
		}
		tau, res.EtaSource = math.Min(tmax, tauThm), "min{Thm 3.14's √(ℓ/(CU)), largest τ the target ε allows (recounted Prop. 3.17, Thm 3.5 inverted)}"
	}
	pr, err := BRPrivacy(U, M, alpha, a, tau, p.Delta)
	if err != nil {
		return nil, err
	}
	res.Privacy, res.Eta, res.StopBudget, res.Truncation, res.BatchParameter = pr, tau, U, M, alpha
	rng := rand.New(rand.NewPCG(p.Seed, 0xb1a5))
	gaps, igaps, excess := make([]float64, p.Repeats), make([]float64, p.Repeats), make([]float64, p.Repeats)
	var rounds, bounds float64
	minRounds := math.MaxInt
	for r := range gaps {
		rg, err := repeatGame(g, ds, rng)
		if err != nil {
			return nil, err
		}
		xt, yt, xb, yb, run := RunBR(rg, U, M, alpha, tau, rng)
		gaps[r], igaps[r] = g.Gap(xt, yt), g.Gap(xb, yb)
		b := BRBound(g.DX, g.DY, run.Ns, M, a, tau)
		excess[r] = gaps[r] - b
		bounds += b
		rounds += float64(run.Rounds)
		minRounds = min(minRounds, run.Rounds)
		res.MaxSupport = max(res.MaxSupport, support(xt)-run.Rounds, support(yt)-run.Rounds)
		progress.Report(int64(r+1), int64(p.Repeats))
	}
	res.Steps = dp.Num(rounds / float64(p.Repeats))
	res.Gap, res.IterateGap = stats(gaps, p.Confidence), stats(igaps, p.Confidence)
	ex := stats(excess, p.Confidence)
	res.Excess = &ex
	res.Bound = dp.Num(bounds / float64(p.Repeats))
	res.DerivedBound = res.Bound
	res.BoundSource = "explicit form of the proof of Thm 3.14 for a bilinear game, conditional on the N_t (docs/saddle.md); mean over the runs"
	res.Rate = dp.Num(Rate314(g.DX, g.DY, n, M, a, p.TargetEpsilon, p.Delta))
	res.RateSource = "Thm 3.14: log n (√C√(ℓ/n) + √L0 C^{1/4}(ℓ^{3/2}√ln(1/δ)/(nε))^{1/2}), constant 1, probability 0.99"
	res.add("certified ε ≤ target ε", float64(pr.Epsilon) <= p.TargetEpsilon, float64(pr.Epsilon), p.TargetEpsilon,
		"recounted Prop. 3.17 (each vertex 2·max_N 2τL0(2w_N+1)/b(N)-DP, k ≤ 6U) through Thm 3.5 at the step size used")
	res.add("at least one round ran", minRounds >= 1, float64(minRounds), 1, "a run with no round releases a data-independent point only")
	res.gapChecks("E[gap − conditional bound] lower limit + mean bound ≤ mean bound", float64(ex.Lower)+float64(res.Bound), float64(res.Bound),
		fmt.Sprintf("%g%% lower limit over %d runs of Gap(x̃, ỹ) minus the run's explicit bound given its N_t, plus the mean bound (fails when the gap is significantly above its bound)", 100*p.Confidence, p.Repeats))
	res.uniformCheck()
	res.Assumptions = append(res.Assumptions, "the released x̃, ỹ are (𝒯+1)-sparse: each is the mean of one vertex per round (by construction, not a check)")
	return res, nil
}
