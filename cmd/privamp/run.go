package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted/plan"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

func init() { register(newRunCmd) }

// problemFlags are the flags run and audit share: data, loss, algorithm and
// its parameters.
type problemFlags struct {
	data, label            string
	normalize, standardize bool
	synthetic              string
	n, dim                 int
	dataSeed               uint64
	loss                   string
	huberDelta, smoothing  float64
	l2                     float64
	radius                 float64
	noProjection           bool
	variant                string
	epochs, batch          int
	public, tasks          int
	eta, sigma             float64
	target, delta          float64
	rule                   string
	seed                   uint64
	// plan is set by run --plan: the run follows a privamp plan.
	plan *planFollow
}

func (p *problemFlags) register(f *pflag.FlagSet) {
	f.StringVar(&p.data, "data", "", "training data: a CSV file with a header line (numeric columns; the label column named by --label)")
	f.StringVar(&p.label, "label", "", "name of the label column of --data (classification labels 0/1 or ±1)")
	f.BoolVar(&p.normalize, "normalize", false, "scale rows with ‖x‖ > 1 down to ‖x‖ = 1 (after --standardize)")
	f.BoolVar(&p.standardize, "standardize", false, "centre and scale each feature column (statistics of the data themselves: not privatised)")
	f.StringVar(&p.synthetic, "synthetic", "", "seeded synthetic data instead of --data: logistic, linear or quadratic (known population, ‖x‖ ≤ 1)")
	f.IntVar(&p.n, "n", 1000, "number of synthetic examples")
	f.IntVar(&p.dim, "dim", 10, "dimension of synthetic data")
	f.Uint64Var(&p.dataSeed, "data-seed", 1, "seed of the synthetic data")
	f.StringVar(&p.loss, "loss", "", "loss: logistic, squared, huber, smooth-hinge, quadratic (½‖w − x‖²), linear (−⟨w, x⟩) (default: logistic, or the synthetic kind's)")
	f.Float64Var(&p.huberDelta, "huber-delta", 1, "threshold Δ of the Huber loss")
	f.Float64Var(&p.smoothing, "smoothing", 0.1, "λ of the smoothed hinge (1-D Gaussian convolution, seed 002 §5.5)")
	f.Float64Var(&p.l2, "l2", 0, "weight m ≥ 0 of an ℓ2 term (m/2)‖w‖²: m-strong convexity")
	f.Float64Var(&p.radius, "radius", 1, "radius R of the domain K = {‖w‖ ≤ R} (projection Π_K after every step)")
	f.BoolVar(&p.noProjection, "no-projection", false, "no projection (K = ℝ^d); for the exactly solvable quadratic and linear losses")
	f.StringVar(&p.variant, "variant", "skip", "algorithm: pnsgd (Alg. 1; Alg. 2 with --epochs > 1), skip (Skip-PNSGD) or stop (Stop-PNSGD)")
	f.IntVar(&p.epochs, "epochs", 1, "passes over the data in a fixed order (pnsgd)")
	f.IntVar(&p.batch, "batch", 1, "examples per step (pnsgd)")
	f.IntVar(&p.public, "public", 0, "the last m examples are public (Cor. 31): no privacy needed for them")
	f.IntVar(&p.tasks, "tasks", 1, "k independent Stop-PNSGD runs on the same data (Thm 32)")
	f.Float64Var(&p.eta, "eta", 0, "step size η (default: from the theorem that sets the parameters, or 1/β)")
	f.Float64Var(&p.sigma, "sigma", 0, "gradient noise σ (instead of deriving it from --target-epsilon)")
	f.Float64Var(&p.target, "target-epsilon", 1, "target ε that σ (and η) are derived for when --sigma is not given")
	f.Float64Var(&p.delta, "delta", 1e-5, "δ in (0, 1)")
	f.StringVar(&p.rule, "rule", "", "how to derive (η, σ) from the target: thm29, thm30, cor31, thm32 (the paper's formulas) or calibrate (smallest σ the sound bound allows) (default: the variant's theorem; calibrate for pnsgd)")
	f.Uint64Var(&p.seed, "seed", 1, "seed of the algorithm's randomness (same seed, same output)")
}

// problem is a fully set-up run: data, objective, constants, configuration.
type problem struct {
	data      *optimizer.Dataset
	syn       *optimizer.Synthetic
	obj       optimizer.Objective
	cons      optimizer.Constants
	cfg       optimizer.Config
	setting   optimizer.Setting
	derived   *optimizer.Params
	rule      optimizer.Rule
	dataDesc  string
	etaSrc    string
	sigmaSrc  string
	notes     []string
	classLoss bool
	parts     []dataPart // the files the rows came from
}

// dataPart is a range of rows read from one file (for line numbers).
type dataPart struct {
	file     string
	from, to int
}

func (p *problemFlags) build(cmd *cobra.Command) (*problem, error) {
	pr := &problem{}
	if err := firstErr(openUnit("delta", p.delta), positive("radius", p.radius), nonNegative("l2", p.l2)); err != nil {
		return nil, err
	}
	// data
	switch {
	case p.data != "" && p.synthetic != "":
		return nil, badInput("give only one of --data and --synthetic")
	case p.data != "":
		if p.label == "" {
			return nil, badInput("--label is required with --data (the name of the label column)")
		}
		ds, err := readData("--data", p.data, optimizer.CSVOptions{Label: p.label, Key: p.plan.keyColumn()})
		if err != nil {
			return nil, err
		}
		ds.Source = p.data
		pr.data = ds
		pr.dataDesc = fmt.Sprintf("%s (%d × %d, label %q)", filepath.Base(p.data), ds.N(), ds.D, p.label)
		pr.parts = []dataPart{{p.data, 0, ds.N()}}
		if p.plan != nil {
			if err := p.plan.arrange(pr, p); err != nil {
				return nil, err
			}
		}
	case p.plan != nil:
		return nil, badInput("--plan needs --data (a CSV file whose rows are the plan's people)")
	default:
		kind := p.synthetic
		if kind == "" {
			kind = "logistic"
		}
		if p.n < 2 || p.n > 10_000_000 {
			return nil, badInput("--n must be a whole number in [2, 10^7], got %d", p.n)
		}
		if p.dim < 1 || p.dim > 100_000 || float64(p.n)*float64(p.dim) > 5e7 {
			return nil, badInput("--dim must be in [1, 10^5] with n·d ≤ 5·10^7, got %d", p.dim)
		}
		g, err := optimizer.NewSynthetic(kind, p.dim, p.dataSeed)
		if err != nil {
			return nil, badInput("--synthetic: %v", err)
		}
		pr.syn = g
		pr.data = g.Sample(newRand(p.dataSeed), p.n)
		pr.dataDesc = fmt.Sprintf("synthetic %s (%d × %d, data seed %d)", kind, p.n, p.dim, p.dataSeed)
	}
	if p.standardize {
		pr.data.Standardize()
		pr.notes = append(pr.notes, "--standardize uses the data's own column means and deviations; they are not privatised, and the guarantee covers the training run only")
	}
	if p.normalize {
		k := pr.data.NormalizeRows(1)
		pr.notes = append(pr.notes, fmt.Sprintf("--normalize scaled %d of %d rows to ‖x‖ = 1", k, pr.data.N()))
	}
	// loss
	lossName := p.loss
	if lossName == "" {
		lossName = "logistic"
		if pr.syn != nil {
			lossName = map[string]string{"logistic": "logistic", "linear": "squared", "quadratic": "quadratic"}[pr.syn.Kind]
		}
	}
	param := p.huberDelta
	if strings.HasPrefix(lossName, "smooth") || lossName == "hinge" {
		param = p.smoothing
	}
	loss, l2, err := optimizer.ParseLoss(lossName, param)
	if err != nil {
		flag := "loss"
		if strings.Contains(err.Error(), "huber") {
			flag = "huber-delta"
		} else if strings.Contains(err.Error(), "smoothing") {
			flag = "smoothing"
		}
		return nil, badInput("--%s: %v", flag, err)
	}
	pr.obj = optimizer.Objective{Loss: loss, L2: l2 + p.l2}
	if loss.Classification() {
		pr.classLoss = true
		if err := pr.mapLabels(); err != nil {
			return nil, err
		}
	}
	R := p.radius
	if p.noProjection {
		if changed(cmd, "radius") {
			return nil, badInput("give only one of --radius and --no-projection")
		}
		R = math.Inf(1)
	}
	X, Y := pr.data.MaxNorm(), pr.data.MaxAbsLabel()
	if pr.syn != nil {
		X, Y = 1, pr.syn.LabelBound() // known bounds of the population
	}
	if pr.classLoss {
		Y = 1
	}
	pr.cons = pr.obj.Constants(X, Y, R)
	if math.IsInf(pr.cons.Sens, 1) || math.IsNaN(pr.cons.Sens) {
		return nil, badInput("--no-projection: the %s loss has unbounded gradients without a bounded domain; give --radius", pr.obj.Name())
	}
	if p.plan != nil {
		if err := p.plan.checkConstants(pr, R); err != nil {
			return nil, err
		}
	}
	// algorithm
	v, err := optimizer.ParseVariant(p.variant)
	if err != nil {
		return nil, badInput("--variant: %v", err)
	}
	n := pr.data.N()
	if p.epochs < 1 || p.epochs > 1_000_000 {
		return nil, badInput("--epochs must be a whole number in [1, 10^6], got %d", p.epochs)
	}
	if p.batch < 1 || p.batch > n {
		return nil, badInput("--batch must be a whole number in [1, n = %d], got %d", n, p.batch)
	}
	if p.public < 0 || p.public >= n {
		return nil, badInput("--public must be a whole number in [0, n − 1 = %d], got %d", n-1, p.public)
	}
	if p.tasks < 1 || p.tasks > 1000 {
		return nil, badInput("--tasks must be a whole number in [1, 1000], got %d", p.tasks)
	}
	if p.tasks > 1 && v != optimizer.Stop {
		return nil, badInput("--tasks k > 1 runs k Stop-PNSGD tasks (Thm 32): use --variant stop")
	}
	if v != optimizer.Final && (p.epochs > 1 || p.batch > 1) {
		return nil, badInput("--variant %s is one pass with one example per step (Thm 24/26); --epochs and --batch are for --variant pnsgd", v)
	}
	if float64(p.epochs)*float64(n) > 1e9 {
		return nil, badInput("--epochs: %d passes over %d examples is more than 10^9 example visits", p.epochs, n)
	}
	pr.cfg = optimizer.Config{Variant: v, Epochs: p.epochs, Batch: p.batch, R: R, Public: p.public}
	pr.setting = optimizer.Setting{Variant: v, N: n, Batch: p.batch, Epochs: p.epochs, Public: p.public, Tasks: p.tasks,
		L: pr.cons.Sens, Beta: pr.cons.Beta, M: pr.cons.M}
	if math.IsInf(pr.setting.Beta, 1) {
		pr.setting.Beta = 0
	}
	if err := p.parameters(cmd, pr); err != nil {
		return nil, err
	}
	pr.cfg.Eta, pr.cfg.Sigma = pr.setting.Eta, pr.setting.Sigma
	if err := pr.cfg.Validate(n, pr.data.D); err != nil {
		return nil, badInput("%v", err)
	}
	return pr, nil
}

// parameters sets η and σ: given, or derived from the target.
func (p *problemFlags) parameters(cmd *cobra.Command, pr *problem) error {
	s := &pr.setting
	if pl := p.plan; pl != nil {
		s.Eta, s.Sigma = pl.plan.Eta, pl.plan.Sigma
		pr.etaSrc = fmt.Sprintf("plan %s (%s)", pl.path, nonEmpty(pl.plan.Summary.EtaSource, "as planned"))
		pr.sigmaSrc = fmt.Sprintf("plan %s (%s)", pl.path, nonEmpty(pl.plan.Summary.SigmaSource, "as planned"))
		return nil
	}
	if changed(cmd, "eta") {
		if err := positive("eta", p.eta); err != nil {
			return err
		}
	}
	defaultEta := func() (float64, string, error) {
		if changed(cmd, "eta") {
			return p.eta, "given (--eta)", nil
		}
		if pr.cons.Beta > 0 && !math.IsInf(pr.cons.Beta, 1) {
			return 1 / pr.cons.Beta, "1/β (default; give --eta to choose)", nil
		}
		return 0, "", badInput("--eta is required: the %s loss has β = 0, so there is no default step 1/β", pr.obj.Name())
	}
	if changed(cmd, "sigma") {
		if changed(cmd, "target-epsilon") || changed(cmd, "rule") {
			return badInput("give --sigma or --target-epsilon (with --rule), not both")
		}
		if err := positive("sigma", p.sigma); err != nil {
			return err
		}
		eta, src, err := defaultEta()
		if err != nil {
			return err
		}
		s.Eta, s.Sigma, pr.etaSrc, pr.sigmaSrc = eta, p.sigma, src, "given (--sigma)"
		return nil
	}
	if err := positive("target-epsilon", p.target); err != nil {
		return err
	}
	rule := optimizer.Rule(strings.ToLower(p.rule))
	if p.rule == "" {
		rule = optimizer.DefaultRule(s.Variant, s.Public, s.Tasks)
	}
	pr.rule = rule
	if rule == optimizer.Calibrate {
		eta, src, err := defaultEta()
		if err != nil {
			return err
		}
		s.Eta = eta
		sigma, err := optimizer.CalibrateTarget(*s, p.target, p.delta)
		if err != nil {
			return badInput("--target-epsilon %v: cannot calibrate σ: %v", p.target, err)
		}
		s.Sigma, pr.etaSrc = sigma, src
		pr.sigmaSrc = fmt.Sprintf("calibrated: smallest σ with worst-case ε ≤ %g at δ = %g (package shifted)", p.target, p.delta)
		return nil
	}
	switch rule {
	case optimizer.Thm29, optimizer.Thm32:
		if s.Variant != optimizer.Stop {
			return badInput("--rule %s is for --variant stop", rule)
		}
	case optimizer.Thm30, optimizer.Cor31:
		if s.Variant != optimizer.Skip {
			return badInput("--rule %s is for --variant skip", rule)
		}
	default:
		return badInput("--rule must be thm29, thm30, cor31, thm32 or calibrate, got %q", p.rule)
	}
	if math.IsInf(pr.cons.L, 1) {
		return badInput("--rule %s needs a finite Lipschitz constant; give --radius", rule)
	}
	par, err := optimizer.Derive(rule, optimizer.Target{Epsilon: p.target, Delta: p.delta, N: s.N, D: pr.data.D,
		L: pr.cons.L, R: pr.cfg.R, Public: s.Public, Tasks: s.Tasks})
	if err != nil {
		return badInput("--rule %s: %v", rule, err)
	}
	pr.derived = &par
	s.Eta, s.Sigma = par.Eta, par.Sigma
	short := strings.SplitN(par.Source, " (", 2)[0]
	pr.etaSrc = short + ": " + par.EtaFormula
	pr.sigmaSrc = fmt.Sprintf("%s: %s at ε = %g, δ = %g", short, par.SigmaFormula, p.target, p.delta)
	if changed(cmd, "eta") {
		s.Eta, pr.etaSrc = p.eta, "given (--eta), overriding "+string(rule)
	}
	pr.notes = append(pr.notes, par.Notes...)
	return nil
}

// runFlags are run's own flags.
type runFlags struct {
	problemFlags
	repeats    int
	confidence float64
	trace      string
	plot       string
	config     string
	indices    []int
	maxPoints  int
	// --plan and how the data's rows map to its positions
	planPath, idColumn, tierColumn, publicData string
	rowIDs                                     bool
}

func newRunCmd(a *app) *cobra.Command {
	rf := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Train with projected noisy SGD (PNSGD, Skip, Stop, multi-epoch, minibatch) and check it against the bounds",
		Long: `Runs projected noisy SGD (seed 002: Alg. 1 PNSGD, Skip-PNSGD, Stop-PNSGD, fixed-order multi-epoch
Alg. 2, minibatches, public data at the end (Cor. 31), k tasks (Thm 32)) on a CSV file or seeded synthetic
data, and prints: the constants of the loss on the domain (L, β, m), the parameters and where they come
from, the per-person privacy certified by package shifted, and checks, each PASS or FAIL with its numbers:
the largest per-example gradient norm ≤ L, η ≤ 2/β, the measured contraction of the step on random pairs
≤ c, and (with --repeats) the mean excess population risk over repeated runs against the utility bound.

σ is given (--sigma) or derived from --target-epsilon by the paper's formulas (--rule thm29, thm30,
cor31, thm32) or calibrated with the sound bound (--rule calibrate). For the quadratic and linear
losses without projection the output is Gaussian and the exact Rényi divergence is shown beside the
bound.

--config FILE.json sets flags from a JSON object whose keys are flag names ("variant", "target-epsilon"
or "target_epsilon", ...); flags on the command line win.

--plan FILE.json runs a per-person privacy plan written by 'privamp plan --out': the rows of --data are
the plan's people, put in the plan's order before training; σ, η, the variant, batch, epochs, tasks, δ and
the radius R come from the plan (the flags that set them are refused; --radius may only be smaller).
Each row is matched to the plan by
  --id COLUMN     a column of --data holding each person's id (a people plan; not a feature), or
  --row-ids       each row's id is its 1-based row number in --data (header excluded), or
  --tier COLUMN   a column holding each row's tier name (a tier plan; rows of a tier keep their order).
Every planned person must be in the data exactly once and every row must be in the plan; otherwise
the run is refused with every mismatch by line. The plan's public records (Cor 31), if any, come from
--public-data FILE: a CSV with the same columns (an id or tier column is ignored) and exactly as many
rows as the plan's "public", run after the private rows in file order. The data's constants must stay
within the plan's: L ≤ the plan's L, β ≤ its β (when it gives one) and η ≤ 2/β, m ≥ its m,
d ≤ its dimension, R ≤ its radius; otherwise the run is refused with the reason. The output shows that
the plan was followed and every budget group's ε, recomputed with package shifted (plan.Verify).`,
		Args: cobra.NoArgs,
		Example: `  privamp run --data testdata/breast_cancer.csv --label malignant --standardize --normalize \
      --variant skip --target-epsilon 1 --delta 1e-5 --repeats 20
  privamp run --synthetic logistic --n 5000 --dim 20 --variant stop --target-epsilon 0.5 --trace t.csv --plot t.png
  privamp run --synthetic quadratic --no-projection --variant pnsgd --eta 0.05 --sigma 2
  privamp run --plan examples/plan/breast-cancer-plan.json --data testdata/breast_cancer.csv --label malignant \
      --standardize --normalize --row-ids`,
	}
	f := cmd.Flags()
	rf.register(f)
	f.IntVar(&rf.repeats, "repeats", 0, "repeat the run on fresh training sets from the population (synthetic: the generator; CSV: bootstrap samples of the file) and compare the mean excess risk with the utility bound")
	f.Float64Var(&rf.confidence, "confidence", 0.95, "confidence level of the utility interval")
	f.StringVar(&rf.trace, "trace", "", "write the trajectory (decimated) as CSV: step, loss, grad_norm, step_size, contraction, dist_to_opt")
	f.StringVar(&rf.plot, "plot", "", "draw loss and distance-to-optimum curves to FILE.png or FILE.svg")
	f.StringVar(&rf.config, "config", "", "read flags from a JSON object (keys are flag names)")
	f.IntSliceVar(&rf.indices, "index", nil, "also show the guarantee of these indices (1-based positions in the data order)")
	f.IntVar(&rf.maxPoints, "max-points", 2000, "most trajectory points recorded")
	f.StringVar(&rf.planPath, "plan", "", "run a per-person privacy plan written by privamp plan (JSON): order, σ, η, variant from the plan")
	f.StringVar(&rf.idColumn, "id", "", "with --plan: the column of --data holding each person's id (not a feature)")
	f.BoolVar(&rf.rowIDs, "row-ids", false, "with --plan: each row's id is its 1-based row number in --data")
	f.StringVar(&rf.tierColumn, "tier", "", "with a tier --plan: the column of --data holding each row's tier name")
	f.StringVar(&rf.publicData, "public-data", "", "with --plan: CSV of the plan's public records (Cor 31), run after the private rows in file order")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if rf.config != "" {
			if err := applyConfig(cmd, rf.config); err != nil {
				return err
			}
		}
		if err := rf.loadPlan(cmd); err != nil {
			return err
		}
		return runRun(a, cmd, rf)
	}
	return cmd
}

// applyConfig sets every flag named in the JSON object that the command line
// did not set.
func applyConfig(cmd *cobra.Command, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return badInput("--config: cannot read %s: %v", path, unwrapPathErr(err))
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return badInput("--config %s: not a JSON object: %v", path, err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := strings.ReplaceAll(k, "_", "-")
		fl := cmd.Flags().Lookup(name)
		if fl == nil || name == "config" {
			return badInput("--config %s: unknown key %q (keys are run's flag names)", path, k)
		}
		if fl.Changed {
			continue
		}
		var val string
		switch x := m[k].(type) {
		case string:
			val = x
		case json.Number:
			val = x.String()
		case bool:
			val = strconv.FormatBool(x)
		case []any:
			parts := make([]string, len(x))
			for i, e := range x {
				parts[i] = fmt.Sprint(e)
			}
			val = strings.Join(parts, ",")
		default:
			return badInput("--config %s: key %q: unsupported value %v", path, k, x)
		}
		if err := cmd.Flags().Set(name, val); err != nil {
			return badInput("--config %s: key %q: %v", path, k, cleanFlagError(err))
		}
	}
	return nil
}

// privacySummary is the per-person guarantee of a problem.
type privacySummary struct {
	ok                   bool
	reason               string
	source               string
	assumptions          []string
	worstIndex           int
	worst, first, median float64
	medianIndex          int
	indices              map[int]float64
	shareBelow           float64 // share of private people with ε ≤ target (NaN: no target)
	composition          float64
	private              int
}

func summarizePrivacy(pr *problem, delta, target float64, indices []int) privacySummary {
	ps := privacySummary{indices: map[int]float64{}, shareBelow: math.NaN(), private: pr.setting.Private()}
	ps.composition = optimizer.CompositionEpsilon(pr.setting, delta)
	p, err := optimizer.PrivacyOf(pr.setting)
	if err != nil {
		ps.reason = err.Error()
		return ps
	}
	ps.ok = true
	ps.source, ps.assumptions = p.Source(), p.Assumptions()
	ps.worstIndex, ps.worst, _ = p.Worst(delta)
	ps.first, _ = p.Epsilon(1, delta)
	ps.medianIndex = (ps.private + 1) / 2
	ps.median, _ = p.Epsilon(ps.medianIndex, delta)
	for _, t := range indices {
		if e, err := p.Epsilon(t, delta); err == nil {
			ps.indices[t] = e
		}
	}
	if target > 0 {
		// ε_t is monotone in t (package shifted): count by bisection.
		okAt := func(t int) bool { e, _ := p.Epsilon(t, delta); return e <= target }
		n := ps.private
		cnt := 0
		switch {
		case ps.worstIndex == n: // increasing: indices 1..k meet it
			lo, hi := 0, n
			for lo < hi {
				mid := (lo + hi + 1) / 2
				if okAt(mid) {
					lo = mid
				} else {
					hi = mid - 1
				}
			}
			cnt = lo
		default: // decreasing: indices k..n meet it
			lo, hi := 1, n+1
			for lo < hi {
				mid := (lo + hi) / 2
				if okAt(mid) {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			cnt = n + 1 - lo
		}
		ps.shareBelow = float64(cnt) / float64(n)
	}
	return ps
}

func runRun(a *app, cmd *cobra.Command, rf *runFlags) error {
	if err := firstErr(inRange("confidence", rf.confidence, 0.5, 0.9999)); err != nil {
		return err
	}
	if rf.repeats < 0 || rf.repeats > 100_000 {
		return badInput("--repeats must be a whole number in [0, 10^5], got %d", rf.repeats)
	}
	if rf.repeats == 1 {
		return badInput("--repeats must be 0 or at least 2 (a confidence interval needs two runs), got 1")
	}
	if rf.maxPoints < 2 || rf.maxPoints > 1_000_000 {
		return badInput("--max-points must be in [2, 10^6], got %d", rf.maxPoints)
	}
	plotKind := ""
	if rf.plot != "" {
		switch strings.ToLower(filepath.Ext(rf.plot)) {
		case ".png":
			plotKind = "png"
		case ".svg":
			plotKind = "svg"
		default:
			return badInput("--plot must name a .png or .svg file, got %q", rf.plot)
		}
	}
	pr, err := rf.build(cmd)
	if err != nil {
		return err
	}
	n := pr.data.N()
	for _, t := range rf.indices {
		if t < 1 || t > pr.setting.Private() {
			return badInput("--index must be in [1, %d] (the private indices), got %d", pr.setting.Private(), t)
		}
	}
	target := -1.0
	if !changed(cmd, "sigma") && rf.plan == nil {
		target = rf.target
	}
	ps := summarizePrivacy(pr, rf.delta, target, rf.indices)

	// the non-private optimum, then the run with its trajectory
	opt := optimizer.Minimize(pr.obj, pr.data, pr.cfg.R)
	runner, err := optimizer.NewRunner(pr.cfg, pr.obj, pr.data)
	if err != nil {
		return badInput("%v", err)
	}
	bar := newBar(a, int64(pr.cfg.Steps(n)), "training")
	tr := &optimizer.Tracer{MaxPoints: rf.maxPoints, Opt: opt.W}
	if bar != nil {
		tr.OnPoint = func(step, end int) { _ = bar.Set64(int64(step)) }
	}
	runner.SetTracer(tr)
	res := runner.Run(rf.seed)
	w := append([]float64(nil), res.W...)
	var taskW [][]float64
	if rf.tasks > 1 {
		others := make([]*optimizer.Dataset, rf.tasks-1)
		for i := range others {
			others[i] = pr.data
		}
		taskW, err = optimizer.RunTasks(pr.cfg, pr.obj, others, rf.seed)
		if err != nil {
			return err
		}
	}
	finishBar(bar)

	// utility over repeats
	var util *optimizer.UtilityStats
	var utilBound float64 = math.NaN()
	if rf.repeats >= 2 {
		var pop optimizer.Population
		if pr.syn != nil {
			m := min(200_000, max(20_000, 20_000_000/pr.data.D))
			pop = optimizer.NewSyntheticPopulation(pr.syn, pr.obj, pr.cfg.R, m, rf.dataSeed+1)
		} else {
			pop = optimizer.NewEmpiricalPopulation(pr.data, pr.obj, pr.cfg.R)
		}
		ubar := newBar(a, int64(rf.repeats), "repeats")
		st, err := optimizer.MeasureUtility(pr.cfg, pr.obj, pop, n, rf.repeats, rf.seed, rf.confidence)
		finishBar(ubar)
		if err != nil {
			return err
		}
		util = &st
		w0 := 0.0
		utilBound = optimizer.UtilityBound(pr.cfg.Variant, pr.cfg.Steps(n), pr.cfg.Eta, pr.cfg.Sigma, pr.data.D, pr.cons.L, pr.cfg.R, w0)
	}

	// files: render everything first, then write atomically
	var traceData, plotData []byte
	if rf.trace != "" {
		var buf bytes.Buffer
		if err := optimizer.WriteTrace(&buf, tr.Points); err != nil {
			return err
		}
		traceData = buf.Bytes()
	}
	if rf.plot != "" {
		plotData, err = drawTrace(tr.Points, plotKind, pr)
		if err != nil {
			return fmt.Errorf("drawing %s: %v", rf.plot, err)
		}
	}
	if traceData != nil {
		if err := writeFileAtomic(rf.trace, traceData); err != nil {
			return err
		}
	}
	if plotData != nil {
		if err := writeFileAtomic(rf.plot, plotData); err != nil {
			return err
		}
	}
	r := runReport(pr, rf, ps, opt, res, w, taskW, tr.Points, util, utilBound)
	return render(a.out, a.mode, r)
}

func runReport(pr *problem, rf *runFlags, ps privacySummary, opt optimizer.Optimum, res optimizer.Result,
	w []float64, taskW [][]float64, pts []optimizer.Point, util *optimizer.UtilityStats, utilBound float64) *report {
	n, d := pr.data.N(), pr.data.D
	cfg, cons, delta := pr.cfg, pr.cons, rf.delta
	algo := map[optimizer.Variant]string{optimizer.Final: "PNSGD (Alg. 1)", optimizer.Skip: "Skip-PNSGD (Thm 24, 30)", optimizer.Stop: "Stop-PNSGD (Thm 26, 29)"}[cfg.Variant]
	if cfg.Variant == optimizer.Final && cfg.Epochs > 1 {
		algo = fmt.Sprintf("fixed-order multi-epoch PNMSGD (Alg. 2), %d epochs", cfg.Epochs)
	}
	if cfg.Batch > 1 {
		algo += fmt.Sprintf(", minibatch %d", cfg.Batch)
	}
	if cfg.Public > 0 {
		algo += fmt.Sprintf(", last %d examples public (Cor. 31)", cfg.Public)
	}
	if pr.setting.Tasks > 1 {
		algo += fmt.Sprintf(", %d tasks (Thm 32)", pr.setting.Tasks)
	}
	r := &report{Title: fmt.Sprintf("privamp run: %s on %s, %s loss", algo, pr.dataDesc, pr.obj.Name())}
	if rf.plan != nil {
		r.Title += ", following plan " + rf.plan.path
	}
	add := func(q, v, u, s string) { r.Rows = append(r.Rows, row{q, v, u, s}) }
	radius := fmtNum(cfg.R)
	if math.IsInf(cfg.R, 1) {
		radius = "∞ (no projection)"
	}
	add("examples n, dimension d", fmt.Sprintf("%d, %d", n, d), "", pr.data.Source)
	xsrc := "max over the data"
	if pr.syn != nil {
		xsrc = "‖x‖ ≤ 1 by construction of the generator"
	}
	add("feature bound X = max‖x‖", fmtNum(cons.X), "", xsrc)
	add("domain radius R", radius, "", "--radius: K = {‖w‖ ≤ R}, projection Π_K")
	add("Lipschitz constant L", fmtNum(cons.L), "", "sup ‖∇f‖ on K from X, |y| ≤ "+fmtNum(cons.Y)+", R")
	add("smoothness β", fmtNum(cons.Beta), "", "X²·sup φ'' (+ m)")
	add("strong convexity m", fmtNum(cons.M), "", "ℓ2 weight")
	add("sensitivity L' (privacy)", fmtNum(cons.Sens), "", "half the largest gradient change from replacing one example (≤ L; the ℓ2 term cancels)")
	if sh, ok := pr.obj.Loss.(optimizer.SmoothHinge); ok {
		add("smoothing error sup|φ − hinge|", fmtNum(sh.ApproxError()), "", fmt.Sprintf("λ/√(2π) for the 1-D Gaussian convolution (λ = %g, seed 002 §5.5; Thm 33's general bound is Lλ√d)", sh.Lambda))
	}
	add("steps", fmtInt(float64(cfg.Steps(n))), "", fmt.Sprintf("%d epoch(s) × ⌈n/batch⌉", cfg.Epochs))
	add("step size η", fmtNum(cfg.Eta), "", pr.etaSrc)
	add("noise σ", fmtNum(cfg.Sigma), "", pr.sigmaSrc)
	if cons.Beta > 0 && !math.IsInf(cons.Beta, 1) {
		add("contraction c", fmtNum(cons.Contraction(cfg.Eta)), "", "max(|1 − ηm|, |1 − ηβ|) (Prop. 18; notes §2.1)")
	}
	// privacy
	if ps.ok {
		add("ε worst case (index "+strconv.Itoa(ps.worstIndex)+")", fmtEps(ps.worst), fmt.Sprintf("δ = %g", delta), ps.source)
		add("ε of index 1", fmtEps(ps.first), fmt.Sprintf("δ = %g", delta), "per-person guarantee (Def. 12)")
		add(fmt.Sprintf("ε of index %d (median)", ps.medianIndex), fmtEps(ps.median), fmt.Sprintf("δ = %g", delta), "per-person guarantee")
		idx := make([]int, 0, len(ps.indices))
		for t := range ps.indices {
			idx = append(idx, t)
		}
		sort.Ints(idx)
		for _, t := range idx {
			add(fmt.Sprintf("ε of index %d", t), fmtEps(ps.indices[t]), fmt.Sprintf("δ = %g", delta), "--index")
		}
		if !math.IsNaN(ps.shareBelow) {
			add("people with ε ≤ target", fmt.Sprintf("%.1f%%", 100*ps.shareBelow), fmt.Sprintf("target %g", rf.target), "of the private indices")
		}
	} else {
		add("ε (amplification by iteration)", noFinite, "", "not applicable: "+ps.reason)
	}
	add("ε by plain composition", fmtEps(ps.composition), fmt.Sprintf("δ = %g", delta), "every iterate released: Gaussian steps composed (Lemma 27; no smoothness needed)")
	if rf.plan != nil {
		rows, notes := rf.plan.rows(pr)
		r.Rows = append(r.Rows, rows...)
		r.Notes = append(r.Notes, notes...)
	}
	// exactness
	exact, exactJSON := exactRows(pr, ps, delta)
	r.Rows = append(r.Rows, exact...)
	// results
	fw := optimizer.EmpiricalRisk(pr.obj, pr.data, w)
	add("empirical risk of the output", fmtNum(fw), "", fmt.Sprintf("seed %d; steps %d..%d ran", rf.seed, res.Start+1, res.End))
	add("empirical risk of w* (non-private)", fmtNum(opt.F), "", fmt.Sprintf("Newton–CG on K (stationarity %.1e)", opt.Stationarity))
	add("‖w − w*‖", fmtNum(dist(w, opt.W)), "", "distance of the output to the non-private optimum")
	if pr.classLoss {
		add("training accuracy", fmt.Sprintf("%.1f%% (w* %.1f%%)", 100*accuracy(pr.data, w), 100*accuracy(pr.data, opt.W)), "", "sign(⟨w, x⟩) vs label")
	}
	if len(taskW) > 0 {
		var s float64
		for _, tw := range taskW {
			s += optimizer.EmpiricalRisk(pr.obj, pr.data, tw)
		}
		add("mean empirical risk of tasks 2..k", fmtNum(s/float64(len(taskW))), "", "independent Stop-PNSGD runs")
	}
	// checks
	checks := runChecks(pr, res, pts, util, utilBound, ps, rf)
	r.Table = &table{Header: []string{"check", "status", "value", "bound", "detail"}}
	for _, c := range checks {
		val := fmtCheck(c.Value)
		if strings.Contains(c.Name, "ε") && c.Value > 0 { // a privacy loss: never print it below its value
			val = fmtEps(c.Value)
		}
		r.Table.Rows = append(r.Table.Rows, []string{c.Name, c.Status, val, fmtCheck(c.Bound), c.Detail})
	}
	if ps.ok {
		r.Assumptions = ps.assumptions
	}
	r.Notes = append(r.Notes, pr.notes...)
	if cons.Sens < cons.L {
		r.Notes = append(r.Notes, fmt.Sprintf("the privacy bound uses L' = %s, half the largest change of one example's gradient at a fixed w (Thm 22 needs only sup‖ψ_t − ψ'_t‖ = 2ηL'/b), not the Lipschitz constant L = %s: the ℓ2 term is the same for both neighbours", fmtNum(cons.Sens), fmtNum(cons.L)))
	}
	if util != nil {
		r.Notes = append(r.Notes, "utility: F and F* on "+util.Population)
	}
	if pr.derived != nil && !math.IsNaN(pr.derived.PaperUtility) {
		r.Notes = append(r.Notes, fmt.Sprintf("%s states E[F(W)] − F* ≤ %s at its own η", pr.derived.Source, fmtNum(pr.derived.PaperUtility)))
	}
	// JSON
	obj := map[string]any{
		"algorithm": map[string]any{"variant": cfg.Variant.String(), "epochs": cfg.Epochs, "batch": cfg.Batch, "public": cfg.Public,
			"tasks": pr.setting.Tasks, "steps": cfg.Steps(n), "eta": cfg.Eta, "sigma": cfg.Sigma, "radius": num(cfg.R),
			"eta_source": pr.etaSrc, "sigma_source": pr.sigmaSrc, "rule": string(pr.rule), "seed": rf.seed},
		"data":      map[string]any{"source": pr.data.Source, "n": n, "d": d, "feature_bound": cons.X, "label_bound": cons.Y},
		"loss":      pr.obj.Name(),
		"constants": map[string]any{"lipschitz": num(cons.L), "smoothness": num(cons.Beta), "strong_convexity": cons.M, "sensitivity": cons.Sens},
		"result": map[string]any{"empirical_risk": fw, "optimum_risk": opt.F, "distance_to_optimum": dist(w, opt.W),
			"start_step": res.Start, "end_step": res.End, "max_grad_norm": res.MaxGradNorm, "w": w},
		"delta": delta,
	}
	pj := map[string]any{"applicable": ps.ok, "composition_epsilon": num(ps.composition)}
	if ps.ok {
		epsJSON(pj, "epsilon_worst", ps.worst)
		pj["worst_index"] = ps.worstIndex
		epsJSON(pj, "epsilon_first", ps.first)
		epsJSON(pj, "epsilon_median", ps.median)
		pj["source"] = ps.source
		if !math.IsNaN(ps.shareBelow) {
			pj["share_below_target"] = ps.shareBelow
			pj["target_epsilon"] = rf.target
		}
		per := map[string]any{}
		for t, e := range ps.indices {
			per[strconv.Itoa(t)] = num(e)
		}
		if len(per) > 0 {
			pj["per_index"] = per
		}
	} else {
		pj["reason"] = ps.reason
	}
	obj["privacy"] = pj
	if rf.plan != nil {
		obj["plan"] = rf.plan.json()
	}
	if len(exactJSON) > 0 {
		obj["exact"] = exactJSON
	}
	cj := make([]map[string]any, len(checks))
	for i, c := range checks {
		cj[i] = map[string]any{"name": c.Name, "status": c.Status, "value": num(c.Value), "bound": num(c.Bound), "detail": c.Detail}
	}
	obj["checks"] = cj
	if util != nil {
		obj["utility"] = map[string]any{"repeats": util.Repeats, "mean_excess_risk": util.Mean, "sd": util.SD,
			"ci_low": util.Lower, "ci_high": util.Upper, "confidence": util.Confidence, "bound": num(utilBound), "population": util.Population}
	}
	r.JSON = obj
	return r
}

// planFollow is a run that follows a privamp plan (run --plan).
type planFollow struct {
	path   string
	plan   *plan.Plan
	verify *plan.Verification // every position recomputed with package shifted
	key    string             // the column matched to the plan ("" with row ids)
	rowIDs bool
	public string // --public-data
	checks []optimizer.Check
}

// planRunGroups is the most budget groups run's table lists.
const planRunGroups = 20

// keyColumn is the column of --data that matches rows to the plan.
func (pl *planFollow) keyColumn() string {
	if pl == nil {
		return ""
	}
	return pl.key
}

// matchDesc says how rows were matched to the plan.
func (pl *planFollow) matchDesc() string {
	switch {
	case pl.rowIDs:
		return "matched by row number, --row-ids"
	case pl.plan.People != nil:
		return fmt.Sprintf("matched by the id column %q", pl.key)
	}
	return fmt.Sprintf("matched by the tier column %q", pl.key)
}

// loadPlan reads --plan, checks it (plan.Load, plan.Verify), refuses the
// flags the plan sets and sets the run's parameters from it.
func (rf *runFlags) loadPlan(cmd *cobra.Command) error {
	if rf.planPath == "" {
		for _, f := range []string{"id", "row-ids", "tier", "public-data"} {
			if changed(cmd, f) {
				return badInput("--%s goes with --plan (it matches the rows of --data to a privamp plan)", f)
			}
		}
		return nil
	}
	for _, f := range []string{"sigma", "eta", "target-epsilon", "rule", "variant", "epochs", "batch", "public", "tasks", "delta", "synthetic", "no-projection"} {
		if changed(cmd, f) {
			return badInput("--%s cannot be used with --plan: the plan sets σ, η, the variant, batch, epochs, public records, tasks, δ and the domain", f)
		}
	}
	path := rf.planPath
	data, err := os.ReadFile(path)
	if err != nil {
		return badInput("--plan: cannot open %s: %v", path, unwrapPathErr(err))
	}
	p, err := plan.Load(bytes.NewReader(data))
	if err != nil {
		return badInput("--plan %s: %v", path, err)
	}
	switch {
	case p.People != nil && rf.tierColumn != "":
		return badInput("--tier: --plan %s is a people plan; match the rows by --id COLUMN or --row-ids", path)
	case p.People != nil && (rf.idColumn != "") == rf.rowIDs:
		return badInput("--plan %s is a people plan: give one of --id COLUMN (a column of person ids) and --row-ids (ids are row numbers)", path)
	case p.People == nil && (rf.idColumn != "" || rf.rowIDs):
		return badInput("--plan %s is a tier plan: match the rows by --tier COLUMN (each row's tier name), not --id or --row-ids", path)
	case p.People == nil && rf.tierColumn == "":
		return badInput("--plan %s is a tier plan: give --tier COLUMN naming each row's tier", path)
	case p.Public > 0 && rf.publicData == "":
		return badInput("--plan %s has %d public records at the end (Cor 31): give them with --public-data FILE", path, p.Public)
	case p.Public == 0 && rf.publicData != "":
		return badInput("--public-data: --plan %s has no public records", path)
	case p.Epochs > 1_000_000 || p.Tasks > 1000 || p.Batch > p.N+p.Public:
		return badInput("--plan %s: batch %d, epochs %d, tasks %d: run supports batch ≤ n = %d, at most 10^6 epochs and 1000 tasks", path, p.Batch, p.Epochs, p.Tasks, p.N+p.Public)
	}
	v, err := p.Verify()
	if err != nil {
		return badInput("--plan %s: %v", path, err)
	}
	if !v.OK {
		vi := v.Violations[0]
		return badInput("--plan %s breaks %d of its own targets (position %d: ε %s > target %s); 'privamp verify %s' lists them", path, v.ViolationCount, vi.Position, fmtEps(vi.Achieved), fmtNum(vi.Epsilon), path)
	}
	if changed(cmd, "radius") {
		if rf.radius > p.Radius {
			return badInput("--radius %g exceeds the plan's radius R = %g (its utility bound and η assume the domain inside it)", rf.radius, p.Radius)
		}
	} else {
		rf.radius = p.Radius
	}
	rf.variant, rf.epochs, rf.batch = string(p.Variant), int(p.Epochs), int(p.Batch)
	rf.public, rf.tasks, rf.delta = int(p.Public), int(p.Tasks), p.Delta
	key := rf.idColumn
	if p.People == nil {
		key = rf.tierColumn
	}
	rf.plan = &planFollow{path: path, plan: p, verify: v, key: key, rowIDs: rf.rowIDs, public: rf.publicData}
	return nil
}

// readData reads a CSV data set named by flag.
func readData(flag, path string, opt optimizer.CSVOptions) (*optimizer.Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput("%s: cannot open %s: %v", flag, path, unwrapPathErr(err))
	}
	defer f.Close()
	ds, err := optimizer.ReadCSV(f, opt)
	if err != nil {
		return nil, badInput("%s: %v", path, err)
	}
	return ds, nil
}

// arrange puts the rows of --data in the plan's order and appends the
// public rows.
func (pl *planFollow) arrange(pr *problem, p *problemFlags) error {
	ds := pr.data
	keys := ds.Keys
	if pl.rowIDs {
		keys = make([]string, ds.N())
		for i := range keys {
			keys[i] = strconv.Itoa(i + 1)
		}
	}
	rows, err := pl.plan.Arrange(keys)
	var ae *plan.ArrangeError
	if errors.As(err, &ae) {
		return badInput("--data %s does not match --plan %s: %s", p.data, pl.path, ae.Describe(func(i int) string { return fmt.Sprintf("line %d", ds.Lines[i]) }))
	} else if err != nil {
		return badInput("--plan %s: %v", pl.path, err)
	}
	out := ds.Subset(rows)
	pr.dataDesc = fmt.Sprintf("%s (%d × %d, label %q; in the plan's order, %s)", filepath.Base(p.data), out.N(), out.D, p.label, pl.matchDesc())
	if pl.public != "" {
		pub, err := readData("--public-data", pl.public, optimizer.CSVOptions{Label: p.label, Key: pl.key, OptionalKey: true})
		if err != nil {
			return err
		}
		if int64(pub.N()) != pl.plan.Public {
			return badInput("--public-data %s: %d rows, but the plan has %d public records", pl.public, pub.N(), pl.plan.Public)
		}
		if err := out.Append(pub); err != nil {
			return badInput("--public-data %s: %v", pl.public, err)
		}
		pr.parts = append(pr.parts, dataPart{pl.public, out.N() - pub.N(), out.N()})
		pr.dataDesc += fmt.Sprintf(" + %d public rows from %s", pub.N(), filepath.Base(pl.public))
	}
	out.Source = ds.Source
	pr.data = out
	return nil
}

// mapLabels maps 0/1 labels to ±1, naming the file of a bad label.
func (pr *problem) mapLabels() error {
	parts := pr.parts
	if len(parts) == 0 {
		parts = []dataPart{{"data", 0, pr.data.N()}}
	}
	for _, pt := range parts {
		v := &optimizer.Dataset{Y: pr.data.Y[pt.from:pt.to]}
		if pr.data.Lines != nil {
			v.Lines = pr.data.Lines[pt.from:pt.to]
		}
		if err := v.MapBinaryLabels(); err != nil {
			return badInput("%s: %v", pt.file, err)
		}
	}
	return nil
}

// checkConstants refuses data whose constants break the plan's
// assumptions, and records the check that they hold. L and, without strong
// convexity, β may exceed the plan's by 10⁻¹² relative (rounding in the
// data's norms): the plan's guarantee scales with L² (a change far inside
// its 10⁻⁹ margin) and, with m = 0, depends on β only through η ≤ 2/β,
// which is checked exactly. With m > 0 the contraction max(|1 − ηm|,
// |1 − ηβ|) compounds over the steps, so β ≤ the plan's β and m ≥ its m
// are exact.
func (pl *planFollow) checkConstants(pr *problem, R float64) error {
	p, c := pl.plan, pr.cons
	d := int64(pr.data.D)
	refuse := func(format string, args ...any) error {
		return badInput("--plan %s: "+format, append([]any{pl.path}, args...)...)
	}
	betaTol := 1 + 1e-12
	if p.StrongConvexity > 0 {
		betaTol = 1
	}
	switch {
	case c.L > p.Lipschitz*(1+1e-12):
		return refuse("the data's Lipschitz constant L = %s exceeds the plan's %s: the plan's privacy assumes every gradient norm ≤ L (scale the rows with --normalize, lower --radius, or plan with --lipschitz ≥ %s)", fmtNum(c.L), fmtNum(p.Lipschitz), fmtUp(c.L))
	case math.IsInf(c.Beta, 1):
		return refuse("the %s loss is not smooth (β = ∞); amplification by iteration needs η ≤ 2/β", pr.obj.Name())
	case p.Smoothness > 0 && c.Beta > p.Smoothness*betaTol:
		return refuse("the data's smoothness β = %s exceeds the plan's %s (the plan's step must contract: η ≤ 2/β)", fmtNum(c.Beta), fmtNum(p.Smoothness))
	case p.Eta*c.Beta > 2:
		return refuse("the plan's η = %s exceeds 2/β = %s for this data: the step does not contract (Prop. 18)", fmtNum(p.Eta), fmtNum(2/c.Beta))
	case c.M < p.StrongConvexity:
		return refuse("the data's strong convexity m = %s is below the plan's %s (add --l2 %s)", fmtNum(c.M), fmtNum(p.StrongConvexity), fmtUp(p.StrongConvexity))
	case d > p.Dimension:
		return refuse("the data has d = %d features, the plan was made for d = %d (its η and utility bound assume it)", d, p.Dimension)
	}
	beta := fmt.Sprintf("β = %s ≤ %s", fmtNum(c.Beta), fmtNum(p.Smoothness))
	if p.Smoothness == 0 {
		beta = fmt.Sprintf("η = %s ≤ 2/β = %s (the plan gives no β)", fmtNum(p.Eta), fmtNum(2/c.Beta))
	}
	pl.checks = []optimizer.Check{
		{Name: "data constants within the plan", Status: optimizer.Pass, Value: c.L, Bound: p.Lipschitz,
			Detail: fmt.Sprintf("L = %s ≤ %s, %s, m = %s ≥ %s, d = %d ≤ %d, R = %s ≤ %s", fmtNum(c.L), fmtNum(p.Lipschitz), beta, fmtNum(c.M), fmtNum(p.StrongConvexity), d, p.Dimension, fmtNum(R), fmtNum(p.Radius))},
		{Name: "plan: achieved/target ≤ 1 at every position", Status: optimizer.Pass, Value: pl.verify.WorstRatio, Bound: 1,
			Detail: fmt.Sprintf("%d positions recomputed with package shifted (as privamp verify); largest at position %d", pl.verify.Checked, pl.verify.WorstPosition)},
	}
	return nil
}

// rows shows that the plan was followed and every budget group's ε.
func (pl *planFollow) rows(pr *problem) ([]row, []string) {
	p, v := pl.plan, pl.verify
	s, _ := p.Options()
	pub := ""
	if p.Public > 0 {
		pub = fmt.Sprintf(", then the %d public rows of %s", p.Public, pl.public)
	}
	out := []row{
		{"plan followed", fmt.Sprintf("yes: %d rows in the plan's order, %s%s; σ, η and %s as planned", p.N, pl.matchDesc(), pub, s.Name()), "", "privamp plan file " + pl.path},
		{"every person within budget", fmt.Sprintf("yes: largest achieved/target = %.10f (position %d)", v.WorstRatio, v.WorstPosition), "",
			"every position's ε recomputed with package shifted at the plan's σ, η, L, β, m and each person's δ (as privamp verify)"},
	}
	var notes []string
	for i, g := range v.Groups {
		if i == planRunGroups {
			notes = append(notes, fmt.Sprintf("the table shows the first %d of %d budget groups; --json lists them all", planRunGroups, len(v.Groups)))
			break
		}
		out = append(out, row{fmt.Sprintf("ε of positions %s (%s)", planPositions(g.First, g.Last), planWho(p, g)), fmtEps(g.AchievedMax),
			fmt.Sprintf("target %s, δ = %s", fmtNum(g.Epsilon), fmtNum(g.Delta)), "largest ε in the group, recomputed with package shifted"})
	}
	if u := p.Summary.UtilityBound; u != nil {
		notes = append(notes, fmt.Sprintf("privamp plan's utility bound for this plan: E[F(W)] − F* ≤ %s (%s)", fmtNum(*u), p.Summary.UtilitySource))
	}
	if pr.cons.Sens < p.Lipschitz {
		notes = append(notes, fmt.Sprintf("the rows 'ε worst case' and 'ε of index …' use this data's own constants (sensitivity L' = %s ≤ the plan's L = %s), so they are at most the plan's recomputed ε of the same position", fmtNum(pr.cons.Sens), fmtNum(p.Lipschitz)))
	}
	if v.Groups == nil {
		notes = append(notes, "the plan has more than 1000 budget groups: privamp verify --csv is not available for plans; every position was recomputed")
	}
	if d := planAgreement(p.Summary.Groups, v.Groups); !math.IsNaN(d) {
		out = append(out, row{"plan file's own ε", fmt.Sprintf("agrees: largest relative difference %.1e", d), "", "the achieved ε privamp plan wrote in the file's summary, against the recomputation"})
	}
	return out, notes
}

// planAgreement is the largest relative difference between the achieved ε
// of the plan file's summary and the recomputed groups (NaN when they do
// not describe the same groups).
func planAgreement(file, got []plan.GroupResult) float64 {
	if len(file) == 0 || len(file) != len(got) {
		return math.NaN()
	}
	var d float64
	for i, g := range got {
		f := file[i]
		if f.First != g.First || f.Last != g.Last {
			return math.NaN()
		}
		d = math.Max(d, math.Max(math.Abs(f.AchievedMax/g.AchievedMax-1), math.Abs(f.AchievedMin/g.AchievedMin-1)))
	}
	return d
}

// json describes the plan and the recomputation for --json.
func (pl *planFollow) json() map[string]any {
	p, v := pl.plan, pl.verify
	m := map[string]any{"file": pl.path, "followed": true, "match": pl.matchDesc(), "n": p.N, "public": p.Public,
		"variant": string(p.Variant), "sigma": p.Sigma, "eta": p.Eta, "order": p.Order,
		"max_achieved_ratio": num(v.WorstRatio), "worst_position": v.WorstPosition, "violations": v.ViolationCount}
	if pl.public != "" {
		m["public_data"] = pl.public
	}
	if gs := planGroupsJSON(v.Groups); gs != nil {
		m["groups"] = gs
	}
	if gs := planGroupsJSON(p.Summary.Groups); gs != nil {
		m["plan_file_groups"] = gs
	}
	return m
}

// exactRows: for the linear loss (with any ℓ2 term) without projection the
// final iterate is Gaussian; show the exact divergence beside the bound.
func exactRows(pr *problem, ps privacySummary, delta float64) ([]row, map[string]any) {
	if _, ok := pr.obj.Loss.(optimizer.LinearLoss); !ok || !math.IsInf(pr.cfg.R, 1) || pr.cfg.Variant != optimizer.Final || !ps.ok {
		return nil, nil
	}
	p, err := optimizer.PrivacyOf(pr.setting)
	if err != nil {
		return nil, nil
	}
	diff := 2 * pr.cons.X // worst neighbours: x' = −x at norm X
	var rows []row
	js := map[string]any{}
	idx := []int{1}
	if ps.worstIndex != 1 {
		idx = append(idx, ps.worstIndex)
	}
	for _, t := range idx {
		rho, err := optimizer.ExactRho(pr.cfg, pr.data.N(), pr.obj.L2, diff, t)
		if err != nil {
			continue
		}
		c, _ := p.Curve(t)
		bound := c.Epsilon(2) / 2 // ρ of the bound's linear curve α·ρ
		bEps, _ := p.Epsilon(t, delta)
		exactEps := optimizer.GaussianShiftEpsilon(math.Sqrt(2*rho), delta)
		rows = append(rows,
			row{fmt.Sprintf("exact ρ of index %d (D_α = αρ)", t), fmtNum(rho), "zCDP",
				fmt.Sprintf("final iterate is Gaussian (notes §5); the bound's ρ = %s", fmtNum(bound))},
			row{fmt.Sprintf("exact ε of index %d", t), fmtEps(exactEps), fmt.Sprintf("δ = %g", delta),
				fmt.Sprintf("Gaussian privacy profile of the exact output (Balle–Wang 2018); the bound's ε = %s", fmtEps(bEps))})
		js[fmt.Sprintf("index_%d", t)] = map[string]any{"exact_rho": num(rho), "bound_rho": num(bound), "exact_epsilon": num(exactEps), "bound_epsilon": num(bEps)}
	}
	return rows, js
}

func runChecks(pr *problem, res optimizer.Result, pts []optimizer.Point, util *optimizer.UtilityStats, utilBound float64, ps privacySummary, rf *runFlags) []optimizer.Check {
	nan := math.NaN()
	cons, cfg := pr.cons, pr.cfg
	var out []optimizer.Check
	st := func(ok bool) string {
		if ok {
			return optimizer.Pass
		}
		return optimizer.Fail
	}
	out = append(out, optimizer.Check{Name: "max gradient norm ≤ L", Status: st(res.MaxGradNorm <= cons.L*(1+1e-9)),
		Value: res.MaxGradNorm, Bound: cons.L, Detail: "largest per-example ‖∇f(w_t)‖ over every step (exact, not decimated)"})
	if cons.Beta > 0 && !math.IsInf(cons.Beta, 1) {
		out = append(out, optimizer.Check{Name: "η ≤ 2/β", Status: st(cfg.Eta <= 2/cons.Beta), Value: cfg.Eta, Bound: 2 / cons.Beta,
			Detail: "the gradient step contracts (Prop. 18)"})
	} else {
		out = append(out, optimizer.Check{Name: "η ≤ 2/β", Status: optimizer.Pass, Value: cfg.Eta, Bound: math.Inf(1), Detail: "β = 0: every step size contracts"})
	}
	var mc float64
	for _, p := range pts {
		mc = math.Max(mc, p.Contraction)
	}
	c := 1.0
	if cons.Beta > 0 && !math.IsInf(cons.Beta, 1) {
		c = cons.Contraction(cfg.Eta)
	} else if cons.M > 0 {
		c = math.Abs(1 - cfg.Eta*cons.M)
	}
	out = append(out, optimizer.Check{Name: "measured contraction ≤ c", Status: st(mc <= c*(1+1e-6)), Value: mc, Bound: c,
		Detail: fmt.Sprintf("max ‖ψ(u) − ψ(v)‖/‖u − v‖ over %d recorded steps × random pairs in K", len(pts))})
	if ps.ok && pr.rule != "" {
		detail := "worst-case ε certified by package shifted for the σ the theorem's formula gives"
		if pr.rule == optimizer.Calibrate {
			detail = "worst-case ε certified by package shifted at the calibrated σ"
		}
		out = append(out, optimizer.Check{Name: "sound ε ≤ target", Status: st(ps.worst <= rf.target), Value: ps.worst, Bound: rf.target,
			Detail: detail})
	}
	if rf.plan != nil {
		out = append(out, rf.plan.checks...)
	}
	switch {
	case util == nil:
		out = append(out, optimizer.Check{Name: "utility", Status: optimizer.NA, Value: nan, Bound: nan, Detail: "give --repeats R (≥ 2) to measure the excess population risk"})
	case math.IsInf(utilBound, 1):
		out = append(out, optimizer.Check{Name: "utility", Status: optimizer.NA, Value: util.Mean, Bound: nan,
			Detail: fmt.Sprintf("mean excess risk %s ± %s over %d runs; seed 002 has no utility theorem for the final iterate", fmtNum(util.Mean), fmtNum(util.Upper-util.Mean), util.Repeats)})
	default:
		out = append(out, optimizer.Check{Name: "mean excess population risk ≤ utility bound", Status: st(util.Lower <= utilBound), Value: util.Mean, Bound: utilBound,
			Detail: fmt.Sprintf("%d runs, %g%% CI [%s, %s]; bound: Thm 28 at this η (D²/(2ηT) + η(L² + dσ²)/2 + DL/T)",
				util.Repeats, 100*util.Confidence, fmtNum(util.Lower), fmtNum(util.Upper))})
	}
	return out
}

func fmtCheck(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return fmtNum(x)
}

func dist(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return math.Sqrt(s)
}

func accuracy(ds *optimizer.Dataset, w []float64) float64 {
	ok := 0
	for i := 0; i < ds.N(); i++ {
		var u float64
		for j, x := range ds.Row(i) {
			u += w[j] * x
		}
		if (u >= 0) == (ds.Y[i] > 0) {
			ok++
		}
	}
	return float64(ok) / float64(ds.N())
}

func nonEmpty(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0xda7a)) }

func unwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// newBar returns a progress bar on stderr, or nil when --quiet is set or
// stderr is not a terminal.
func newBar(a *app, total int64, desc string) *progressbar.ProgressBar {
	if a.quiet || !isTerminal(a.errw) || total <= 0 {
		return nil
	}
	return progressbar.NewOptions64(total, progressbar.OptionSetWriter(a.errw), progressbar.OptionSetDescription(desc),
		progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish(), progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true))
}

func finishBar(b *progressbar.ProgressBar) {
	if b != nil {
		_ = b.Finish()
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// drawTrace plots the loss and the distance to the optimum against the step.
func drawTrace(pts []optimizer.Point, kind string, pr *problem) ([]byte, error) {
	loss := make(plotter.XYs, 0, len(pts))
	distXY := make(plotter.XYs, 0, len(pts))
	for _, p := range pts {
		loss = append(loss, plotter.XY{X: float64(p.Step), Y: p.Loss})
		if !math.IsNaN(p.Dist) {
			distXY = append(distXY, plotter.XY{X: float64(p.Step), Y: p.Dist})
		}
	}
	mk := func(title, ylabel string, xy plotter.XYs) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = "step"
		p.Y.Label.Text = ylabel
		p.Add(plotter.NewGrid())
		if len(xy) > 0 {
			l, err := plotter.NewLine(xy)
			if err != nil {
				return nil, err
			}
			p.Add(l)
		}
		return p, nil
	}
	p1, err := mk(fmt.Sprintf("%s: empirical risk (%s loss)", pr.cfg.Variant, pr.obj.Name()), "loss", loss)
	if err != nil {
		return nil, err
	}
	p2, err := mk("distance to the non-private optimum", "‖w_t − w*‖", distXY)
	if err != nil {
		return nil, err
	}
	wd, ht := 7*vg.Inch, 7*vg.Inch
	var c draw.Canvas
	var out bytes.Buffer
	var writeTo func() error
	switch kind {
	case "svg":
		s := vgsvg.New(wd, ht)
		c = draw.New(s)
		writeTo = func() error { _, err := s.WriteTo(&out); return err }
	default:
		img := vgimg.New(wd, ht)
		c = draw.New(img)
		writeTo = func() error { _, err := vgimg.PngCanvas{Canvas: img}.WriteTo(&out); return err }
	}
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadX: vg.Millimeter, PadY: 4 * vg.Millimeter, PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
	plots := [][]*plot.Plot{{p1}, {p2}}
	canv := plot.Align(plots, tiles, c)
	p1.Draw(canv[0][0])
	p2.Draw(canv[1][0])
	if err := writeTo(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
