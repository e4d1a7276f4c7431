package optimizer

import (
	"fmt"
	"math"
	"sort"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/shifted"
)

// Spec is one training run for Train: where the data come from and what is
// declared about them, the loss, the domain, the training run as package
// shifted describes it, and how σ and η are chosen.
type Spec struct {
	Data DataSpec `json:"data"`
	Loss LossSpec `json:"loss"`
	// Radius R of K = {‖w‖ ≤ R}; +Inf: no projection.
	Radius float64 `json:"radius"`
	// Training: variant, batch, epochs, public, tasks, δ; Sigma (0: derive
	// from Target) and Loss.Eta (0: the default step). N is set by Train.
	Training shifted.Training `json:"training"`
	// Target ε that σ is derived for when Sigma is 0, by Rule ("": the
	// variant's default, DefaultRule).
	Target float64 `json:"target_epsilon"`
	Rule   Rule    `json:"rule"`
	Seed   uint64  `json:"seed"`
	// Repeats ≥ 2 measures the excess population risk over fresh training
	// sets at the given Confidence.
	Repeats    int     `json:"repeats"`
	Confidence float64 `json:"confidence"`
	// Indices whose ε is also reported (1-based private positions).
	Indices   []int64 `json:"indices,omitempty"`
	MaxPoints int     `json:"max_points"`
	// Plan, if set, is followed (order, σ, η, variant from the plan file).
	Plan *PlanSpec `json:"plan,omitempty"`
	// Progress, if set, is told how many training steps are done.
	Progress dp.Progress `json:"-"`
}

// Derived are the values computed from the declared bounds and the
// parameters only (never from the records).
type Derived struct {
	Lipschitz       dp.Num  `json:"lipschitz"` // +Inf (null) with an ℓ2 term and no projection
	Smoothness      float64 `json:"smoothness"`
	StrongConvexity float64 `json:"strong_convexity"`
	// Sensitivity is half the largest change of one record's gradient
	// (X·sup|φ'|, ≤ L): the ℓ2 term cancels between neighbours (Thm 22).
	Sensitivity float64  `json:"sensitivity"`
	Contraction dp.Num   `json:"contraction"` // max(|1 − ηm|, |1 − ηβ|), Prop. 18
	Steps       int64    `json:"steps"`
	Eta         dp.Num   `json:"eta"`
	EtaSource   string   `json:"eta_source"`
	Sigma       dp.Noise `json:"sigma"`
	SigmaSource string   `json:"sigma_source"`
	Rule        string   `json:"rule,omitempty"`
	// TrivialRisk is the loss range on the domain (Problem.TrivialRisk).
	TrivialRisk dp.Num `json:"trivial_risk"`
}

// Certificate is the per-person privacy package shifted certifies.
type Certificate struct {
	Applicable    bool           `json:"applicable"`
	Reason        string         `json:"reason,omitempty"`
	Source        string         `json:"source,omitempty"`
	WorstIndex    int64          `json:"worst_index,omitempty"`
	WorstEpsilon  dp.Loss        `json:"worst_epsilon"`
	FirstEpsilon  dp.Loss        `json:"first_epsilon"`
	MedianIndex   int64          `json:"median_index,omitempty"`
	MedianEpsilon dp.Loss        `json:"median_epsilon"`
	PerIndex      []IndexEpsilon `json:"per_index,omitempty"`
	// ShareWithinTarget is the share of private people with ε ≤ Target
	// (when σ was derived for a target).
	ShareWithinTarget *float64     `json:"share_within_target,omitempty"`
	Target            float64      `json:"target_epsilon,omitempty"`
	Composition       dp.Loss      `json:"composition_epsilon"`
	Delta             float64      `json:"delta"`
	Exact             []ExactIndex `json:"exact,omitempty"`
}

// IndexEpsilon is one index's ε.
type IndexEpsilon struct {
	Index   int64   `json:"index"`
	Epsilon dp.Loss `json:"epsilon"`
}

// ExactIndex is the exact divergence of a Gaussian final iterate beside the
// bound at one index.
type ExactIndex struct {
	Index        int64   `json:"index"`
	ExactRho     dp.Num  `json:"exact_rho"`
	BoundRho     dp.Num  `json:"bound_rho"`
	ExactEpsilon dp.Loss `json:"exact_epsilon"`
	BoundEpsilon dp.Loss `json:"bound_epsilon"`
}

// Measured are values measured on the records and the run: they are used
// as checks only, never in the certificate.
type Measured struct {
	MaxGradNorm    float64 `json:"max_grad_norm"`
	MaxContraction float64 `json:"max_contraction"`
	StartRisk      float64 `json:"start_risk"` // empirical risk of w0
	FinalRisk      float64 `json:"final_risk"`
	OptimumRisk    float64 `json:"optimum_risk"`
	Stationarity   float64 `json:"optimum_stationarity"`
	Distance       float64 `json:"distance_to_optimum"`
	// Accuracy, OptimumAccuracy, MajorityShare: classification only.
	Accuracy        *float64      `json:"accuracy,omitempty"`
	OptimumAccuracy *float64      `json:"optimum_accuracy,omitempty"`
	MajorityShare   *float64      `json:"majority_share,omitempty"`
	StartStep       int           `json:"start_step"`
	EndStep         int           `json:"end_step"`
	TaskRisk        *float64      `json:"mean_task_risk,omitempty"`
	Utility         *UtilityStats `json:"utility,omitempty"`
	UtilityBound    dp.Num        `json:"utility_bound"`
}

// TrainResult is what Train returns: declared, derived and measured values kept
// apart, the certificate, the checks and the model.
type TrainResult struct {
	Description string           `json:"data_description"`
	Training    shifted.Training `json:"training"`
	Name        string           `json:"algorithm"`
	Declared    Declared         `json:"declared"`
	Derived     Derived          `json:"derived"`
	Privacy     Certificate      `json:"privacy"`
	Measured    Measured         `json:"measured"`
	Checks      []dp.Check       `json:"checks"`
	// OK is false when a check failed.
	OK bool `json:"ok"`
	// Verdict says in words whether every check passed, whether the output
	// ended worse than its start, and what the certificate covers.
	Verdict     string      `json:"verdict"`
	Plan        *PlanResult `json:"plan,omitempty"`
	Seed        uint64      `json:"seed"`
	W           []float64   `json:"w"`
	Assumptions []string    `json:"assumptions"`
	Notes       []string    `json:"notes"`
	// Trace is the decimated trajectory (WriteTrace writes it).
	Trace []Point `json:"-"`
	// Problem is the set-up run (data, objective, configuration).
	Problem *Problem `json:"-"`
}

// Train builds the problem (Build), sets σ and η (given, a plan, a paper's
// rule or calibration against the sound bound), runs the algorithm with a
// trajectory, measures the optimum and (with Repeats) the utility, and
// checks the run against the derived constants and the utility bound. The
// certificate depends on the declared bounds and the parameters only.
func Train(spec Spec) (*TrainResult, error) {
	res, follow, err := prepare(spec)
	if err != nil {
		return nil, err
	}
	if spec.MaxPoints == 0 {
		spec.MaxPoints = 2000
	}
	if err := res.train(spec); err != nil {
		return nil, err
	}
	res.check(spec, follow)
	if follow != nil {
		res.Plan = follow.result()
	}
	return res, nil
}

// Certify builds the problem (Build), sets σ and η as Train does and
// certifies the run without training it: the result has the declared and
// derived values and the certificate, and nothing measured. The
// certificate is Train's, since it depends on the declared bounds and the
// parameters only (package audit audits the run it describes).
func Certify(spec Spec) (*TrainResult, error) {
	res, _, err := prepare(spec)
	return res, err
}

// prepare builds the problem, sets the parameters and certifies the run.
func prepare(spec Spec) (*TrainResult, *planFollow, error) {
	var follow *planFollow
	var err error
	if spec.Plan != nil {
		if follow, err = loadPlan(spec.Plan, &spec); err != nil {
			return nil, nil, err
		}
	}
	key, arrange := "", (func(*dataset.Dataset) (*dataset.Dataset, error))(nil)
	if follow != nil {
		key, arrange = follow.key, follow.arrange
	}
	pr, err := Build(spec.Data, spec.Loss, spec.Radius, spec.Training, key, arrange)
	if err != nil {
		return nil, nil, err
	}
	res := &TrainResult{Problem: pr, Description: pr.Description, Declared: pr.Declared, Seed: spec.Seed,
		Notes: pr.Notes, Assumptions: pr.Assumptions}
	if follow != nil {
		res.Description += ", in the plan's order (" + follow.matchDesc() + ")"
		if err := follow.checkConstants(pr); err != nil {
			return nil, nil, err
		}
	}
	if err := res.parameters(spec, follow); err != nil {
		return nil, nil, err
	}
	cfg := pr.Config
	res.Training = cfg.Training
	res.Name = cfg.Training.Name()
	for _, t := range spec.Indices {
		if t < 1 || t > cfg.N {
			return nil, nil, field.New("index", t, "must be in [1, %d] (the private positions)", cfg.N)
		}
	}
	if spec.Repeats < 0 || spec.Repeats == 1 || spec.Repeats > 100_000 {
		return nil, nil, field.New("repeats", spec.Repeats, "must be 0 or a whole number in [2, 10^5] (a confidence interval needs two runs)")
	}
	if spec.Repeats > 0 && !(spec.Confidence >= 0.5 && spec.Confidence <= 0.9999) {
		return nil, nil, field.New("confidence", spec.Confidence, "must be in [0.5, 0.9999]")
	}
	if spec.MaxPoints != 0 && spec.MaxPoints < 2 || spec.MaxPoints > 1_000_000 {
		return nil, nil, field.New("max_points", spec.MaxPoints, "must be in [2, 10^6]")
	}
	res.certify(spec, follow)
	return res, follow, nil
}

// parameters sets η and σ and their sources.
func (res *TrainResult) parameters(spec Spec, follow *planFollow) error {
	pr := res.Problem
	tr := &pr.Config.Training
	c := pr.Constants
	tr.Loss = shifted.Loss{Lipschitz: c.Sens, Smoothness: c.Beta, StrongConvexity: c.M, Eta: spec.Training.Loss.Eta}
	if r := pr.Declared.Radius; r > 0 && !math.IsInf(r, 0) {
		tr.Radius = r // every step projects onto the ball ‖w‖ ≤ R: the bounded-domain bound applies
	}
	d := &res.Derived
	d.Lipschitz, d.Smoothness, d.StrongConvexity, d.Sensitivity = dp.Num(c.L), c.Beta, c.M, c.Sens
	d.TrivialRisk = dp.Num(pr.TrivialRisk())
	if follow != nil {
		tr.Loss.Eta, tr.Sigma = follow.plan.Eta, follow.plan.Sigma
		d.EtaSource, d.SigmaSource = "plan "+follow.path, "plan "+follow.path
		return res.finishParameters()
	}
	if tr.Loss.Eta != 0 && !(tr.Loss.Eta > 0 && !math.IsInf(tr.Loss.Eta, 0)) {
		return field.New("eta", tr.Loss.Eta, "must be finite and > 0")
	}
	if tr.Loss.Eta > 0 {
		d.EtaSource = "given"
	}
	if spec.Training.Sigma != 0 {
		if spec.Rule != "" {
			return field.New("rule", string(spec.Rule), "sets σ from the target: give σ or a rule, not both")
		}
		if err := field.Positive("sigma", spec.Training.Sigma); err != nil {
			return err
		}
		tr.Sigma, d.SigmaSource = spec.Training.Sigma, "given"
		if err := res.defaultEta(); err != nil {
			return err
		}
		return res.finishParameters()
	}
	if err := field.Positive("target_epsilon", spec.Target); err != nil {
		return err
	}
	rule := spec.Rule
	if rule == "" {
		rule = DefaultRule(tr.Variant, tr.Public, tr.TaskCount())
	}
	d.Rule = string(rule)
	if rule == Calibrate {
		// With m = 0 the guarantee does not depend on η ≤ 2/β (Thm 22: shift
		// and noise scale together), so σ is calibrated first and η then set
		// for utility with that σ; with m > 0 η must be known first.
		if c.M > 0 || tr.Loss.Eta > 0 {
			if err := res.defaultEta(); err != nil {
				return err
			}
		}
		if err := res.validateAccounting(); err != nil {
			return err
		}
		sigma, err := CalibrateTarget(*tr, spec.Target, tr.Delta)
		if err != nil {
			return field.New("target_epsilon", spec.Target, "cannot be met: %v", err)
		}
		tr.Sigma = sigma
		if err := res.defaultEta(); err != nil {
			return err
		}
		d.SigmaSource = fmt.Sprintf("calibrated: smallest σ with worst-case ε ≤ %g at δ = %g (package shifted)", spec.Target, tr.Delta)
		return res.finishParameters()
	}
	switch {
	case (rule == Thm29 || rule == Thm32) && tr.Variant != shifted.VariantStop,
		(rule == Thm30 || rule == Cor31) && tr.Variant != shifted.VariantSkip:
		return field.New("rule", string(rule), "does not apply to the %s variant (thm29, thm32: stop; thm30, cor31: skip)", tr.Variant)
	case rule != Thm29 && rule != Thm30 && rule != Cor31 && rule != Thm32:
		return field.New("rule", string(rule), "must be thm29, thm30, cor31, thm32 or calibrate")
	case math.IsInf(pr.Declared.Radius, 0) && tr.Loss.Eta == 0:
		return field.New("no_projection", true, "leaves no radius R, and rule %s sets η from R; give a radius or η", rule)
	}
	par, err := Derive(rule, Target{Epsilon: spec.Target, Delta: tr.Delta, N: int(tr.N), D: pr.Data.D,
		L: c.L, R: pr.Declared.Radius, Public: int(tr.Public), Tasks: int(tr.TaskCount())})
	if err != nil {
		return field.New("rule", string(rule), "%v", err)
	}
	tr.Sigma = par.Sigma
	d.SigmaSource = fmt.Sprintf("%s: %s at ε = %g, δ = %g", par.Source, par.SigmaFormula, spec.Target, tr.Delta)
	if tr.Loss.Eta == 0 {
		tr.Loss.Eta, d.EtaSource = par.Eta, par.Source+": "+par.EtaFormula
	}
	res.Notes = append(res.Notes, par.Notes...)
	if !math.IsNaN(par.PaperUtility) {
		res.Notes = append(res.Notes, fmt.Sprintf("%s states E[F(W)] − F* ≤ %.6g at its own η", par.Source, par.PaperUtility))
	}
	return res.finishParameters()
}

// defaultEta sets η when it was not given. With m = 0 the per-person
// guarantee of a contracting step does not depend on η (the shift 2ηL/b
// and the noise ησ scale together, Thm 22), so η is chosen for utility:
// the step of FMTT18 Thm 28 for S steps, η = D/√(S(L² + dσ²)) with D = 2R
// the diameter of K, capped at 1/β so the step contracts. Without a
// radius it is 1/β.
func (res *TrainResult) defaultEta() error {
	tr := &res.Problem.Config.Training
	if tr.Loss.Eta > 0 {
		return nil
	}
	c, R := res.Problem.Constants, res.Problem.Declared.Radius
	capEta, capSrc := math.Inf(1), ""
	if c.Beta > 0 {
		capEta, capSrc = 1/c.Beta, "1/β"
	}
	if math.IsInf(R, 0) || tr.Sigma == 0 {
		if math.IsInf(capEta, 0) {
			return field.New("eta", nil, "is required: the %s loss has β = 0, so there is no default step 1/β", res.Problem.Objective.Name())
		}
		tr.Loss.Eta, res.Derived.EtaSource = capEta, capSrc+" (default)"
		return nil
	}
	S := float64(tr.Steps())
	d := float64(res.Problem.Data.D)
	eta := 2 * R / math.Sqrt(S*(c.L*c.L+d*tr.Sigma*tr.Sigma))
	src := "2R/√(S(L² + dσ²)) (default: FMTT18 Thm 28's step for S steps)"
	if eta > capEta {
		eta, src = capEta, capSrc+" (default; Thm 28's step 2R/√(S(L² + dσ²)) is larger)"
	}
	tr.Loss.Eta, res.Derived.EtaSource = eta, src
	return nil
}

// validateAccounting checks the training run as input with η replaced by
// a contracting one: η > 2/β is not bad input but a failed check.
func (res *TrainResult) validateAccounting() error {
	v := res.Problem.Config.Training
	if v.Loss.Smoothness > 0 && v.Loss.Eta*v.Loss.Smoothness > 2 {
		v.Loss.Eta = 2 / v.Loss.Smoothness
	}
	if v.Sigma == 0 {
		v.Sigma = 1
	}
	return v.Validate()
}

func (res *TrainResult) finishParameters() error {
	pr := res.Problem
	tr := pr.Config.Training
	if err := res.validateAccounting(); err != nil {
		return err
	}
	if err := pr.Config.ValidateRun(pr.Data.N(), pr.Data.D); err != nil {
		return err
	}
	d := &res.Derived
	d.Steps = tr.Steps()
	d.Eta, d.Sigma = dp.Num(tr.Loss.Eta), dp.Noise(tr.Sigma)
	d.Contraction = dp.Num(math.NaN())
	if pr.Constants.Beta > 0 {
		d.Contraction = dp.Num(pr.Constants.Contraction(tr.Loss.Eta))
	}
	return nil
}

// certify fills the certificate from shifted.Training.Guarantee.
func (res *TrainResult) certify(spec Spec, follow *planFollow) {
	tr := res.Problem.Config.Training
	cert := &res.Privacy
	cert.Delta = tr.Delta
	cert.Composition = dp.Loss(compositionEpsilon(tr, tr.Delta))
	g, err := tr.Guarantee()
	if err != nil {
		cert.Reason = err.Error()
		cert.WorstEpsilon, cert.FirstEpsilon, cert.MedianEpsilon = dp.Loss(math.Inf(1)), dp.Loss(math.Inf(1)), dp.Loss(math.Inf(1))
		return
	}
	cert.Applicable, cert.Source = true, g.Source()
	res.Assumptions = append(res.Assumptions, g.Assumptions()...)
	if b := tr.BatchSize(); (tr.N+tr.Public)%b != 0 && res.Problem.Objective.L2 > 0 {
		// Runner.Run adds the ℓ2 term's gradient λw once per step.
		res.Assumptions = append(res.Assumptions, fmt.Sprintf("the run adds the ℓ2 term's gradient λw (λ = %v) in full at every step, the last, smaller batch's included, where (1/b)Σ∇f would give (b′/b)λw: that step is c-Lipschitz (at most c, hence at most c_eff = max(c, c′)) with the same sensitivity 2ηL/b, so the certificate covers it", res.Problem.Objective.L2))
	}
	eps := func(t int64) float64 {
		e, err := epsilonOf(g, t, tr.Delta)
		if err != nil {
			return math.Inf(1)
		}
		return e
	}
	cert.WorstIndex = worstIndex(g)
	cert.WorstEpsilon = dp.Loss(eps(cert.WorstIndex))
	cert.FirstEpsilon = dp.Loss(eps(1))
	cert.MedianIndex = (g.Len() + 1) / 2
	cert.MedianEpsilon = dp.Loss(eps(cert.MedianIndex))
	idx := append([]int64(nil), spec.Indices...)
	sort.Slice(idx, func(i, j int) bool { return idx[i] < idx[j] })
	for _, t := range idx {
		cert.PerIndex = append(cert.PerIndex, IndexEpsilon{t, dp.Loss(eps(t))})
	}
	if spec.Training.Sigma == 0 && follow == nil {
		n := g.Len()
		ok := func(t int64) bool { return eps(t) <= spec.Target }
		// ε_t is monotone in t: count the indices within the target by bisection.
		cnt := int64(0)
		if cert.WorstIndex == n {
			lo, hi := int64(0), n
			for lo < hi {
				if mid := (lo + hi + 1) / 2; ok(mid) {
					lo = mid
				} else {
					hi = mid - 1
				}
			}
			cnt = lo
		} else {
			lo, hi := int64(1), n+1
			for lo < hi {
				if mid := (lo + hi) / 2; ok(mid) {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			cnt = n + 1 - lo
		}
		share := float64(cnt) / float64(n)
		cert.ShareWithinTarget, cert.Target = &share, spec.Target
	}
	res.exact(g)
}

// exact: for the linear loss (with any ℓ2 term) without projection the
// final iterate of PNSGD is Gaussian; its exact divergence goes beside the
// bound (ExactRho).
func (res *TrainResult) exact(g shifted.PerPerson) {
	pr := res.Problem
	cfg := pr.Config
	if !isLinear(pr.Objective.Loss) || !math.IsInf(cfg.R, 1) || cfg.Variant != shifted.VariantPNSGD {
		return
	}
	idx := []int64{1}
	if res.Privacy.WorstIndex != 1 {
		idx = append(idx, res.Privacy.WorstIndex)
	}
	for _, t := range idx {
		// worst neighbours: x' = −x at the declared norm X
		rho, err := ExactRho(cfg, pr.Data.N(), pr.Objective.L2, 2*pr.Declared.FeatureBound, int(t))
		if err != nil {
			continue
		}
		b, _ := epsilonOf(g, t, cfg.Delta)
		res.Privacy.Exact = append(res.Privacy.Exact, ExactIndex{Index: t, ExactRho: dp.Num(rho),
			BoundRho: dp.Num(g.Curve(t).Epsilon(2) / 2), ExactEpsilon: dp.Loss(GaussianShiftEpsilon(math.Sqrt(2*rho), cfg.Delta)),
			BoundEpsilon: dp.Loss(b)})
	}
}

// train runs the algorithm with a trajectory, the other tasks, the
// optimum and the repeats.
func (res *TrainResult) train(spec Spec) error {
	pr := res.Problem
	cfg := pr.Config
	opt := Minimize(pr.Objective, pr.Data, cfg.R)
	runner, err := NewRunner(cfg, pr.Objective, pr.Data)
	if err != nil {
		return err
	}
	tr := &Tracer{MaxPoints: spec.MaxPoints, Opt: opt.W}
	steps, reps := int64(cfg.Steps()), int64(max(spec.Repeats, 0))
	if spec.Progress != nil { // the run, then each repeat, in steps: the bar covers the whole command
		tr.OnPoint = func(done, total int64) { spec.Progress(done*steps/max(total, 1), steps*(1+reps)) }
	}
	runner.SetTracer(tr)
	out := runner.Run(spec.Seed)
	res.W = append([]float64(nil), out.W...)
	res.Trace = tr.Points
	m := &res.Measured
	m.MaxGradNorm, m.StartStep, m.EndStep = out.MaxGradNorm, out.Start, out.End
	for _, p := range tr.Points {
		m.MaxContraction = math.Max(m.MaxContraction, p.Contraction)
	}
	w0 := make([]float64, pr.Data.D)
	if cfg.W0 != nil {
		copy(w0, cfg.W0)
	}
	m.StartRisk = EmpiricalRisk(pr.Objective, pr.Data, w0)
	m.FinalRisk = EmpiricalRisk(pr.Objective, pr.Data, res.W)
	m.OptimumRisk, m.Stationarity = opt.F, opt.Stationarity
	var s float64
	for i := range res.W {
		s += (res.W[i] - opt.W[i]) * (res.W[i] - opt.W[i])
	}
	m.Distance = math.Sqrt(s)
	if pr.Objective.Loss.Classification() {
		a, ao := Accuracy(pr.Data, res.W), Accuracy(pr.Data, opt.W)
		pos := 0
		for _, y := range pr.Data.Y {
			if y > 0 {
				pos++
			}
		}
		maj := math.Max(float64(pos), float64(pr.Data.N()-pos)) / float64(pr.Data.N())
		m.Accuracy, m.OptimumAccuracy, m.MajorityShare = &a, &ao, &maj
	}
	if k := cfg.TaskCount(); k > 1 {
		others := make([]*dataset.Dataset, k-1)
		for i := range others {
			others[i] = pr.Data
		}
		ws, err := RunTasks(cfg, pr.Objective, others, spec.Seed)
		if err != nil {
			return err
		}
		var s float64
		for _, w := range ws {
			s += EmpiricalRisk(pr.Objective, pr.Data, w)
		}
		s /= float64(len(ws))
		m.TaskRisk = &s
	}
	m.UtilityBound = dp.Num(math.NaN())
	if spec.Repeats >= 2 {
		var pop Population
		if pr.Synthetic != nil {
			k := min(200_000, max(20_000, 20_000_000/pr.Data.D))
			pop = NewSyntheticPopulation(pr.Synthetic, pr.Objective, cfg.R, k, spec.Data.Seed+1)
		} else {
			pop = NewEmpiricalPopulation(pr.Data, pr.Objective, cfg.R)
		}
		var progress dp.Progress
		if spec.Progress != nil {
			progress = func(done, _ int64) { spec.Progress(steps*(1+done), steps*(1+reps)) }
		}
		st, err := MeasureUtility(cfg, pr.Objective, pop, pr.Data.N(), spec.Repeats, spec.Seed, spec.Confidence, progress)
		if err != nil {
			return err
		}
		m.Utility = &st
		m.UtilityBound = dp.Num(UtilityBound(cfg.Variant, int(cfg.Steps()), cfg.Loss.Eta, cfg.Sigma, pr.Data.D, pr.Constants.L, cfg.R, 0))
	}
	return nil
}

// Accuracy is the share of records with sign(⟨w, x⟩) = sign(y).
func Accuracy(ds *dataset.Dataset, w []float64) float64 {
	ok := 0
	for i := 0; i < ds.N(); i++ {
		if (dot(w, ds.Row(i)) >= 0) == (ds.Y[i] > 0) {
			ok++
		}
	}
	return float64(ok) / float64(ds.N())
}
