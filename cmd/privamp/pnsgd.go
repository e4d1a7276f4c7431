package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
)

func init() { register(newPNSGDCmd) }

// ampVariants are the algorithms of FMTT18 §4–5 that pnsgd, curve and
// compare know. The fixed-order ones are one algorithm (shifted.SGD); their
// names say which flag they need.
var ampVariants = []string{"pnsgd", "minibatch", "epochs", "public", "strongly-convex", "skip", "stop", "tasks", "local"}

// ampFlags are the run's parameters, shared by pnsgd, curve and compare.
type ampFlags struct {
	n, sigma, lipschitz, delta     float64
	epochs, batch, public, tasks   float64
	strong, smooth, eta, dim       float64
	nonsmooth, fallback, noSamples bool
	conv                           func() (rdp.Conversion, error)
}

func (f *ampFlags) register(cmd *cobra.Command) {
	f.conv = conversionFlag(cmd)
	fs := cmd.Flags()
	fs.Float64Var(&f.n, "n", 0, "number of private records n (whole number in [1, 1e12]; required)")
	fs.Float64Var(&f.sigma, "sigma", 0, "standard deviation σ > 0 of the Gaussian noise added to the (average) gradient (required)")
	fs.Float64Var(&f.lipschitz, "lipschitz", 1, "Lipschitz constant L > 0 of the loss (gradient norms ≤ L)")
	fs.Float64Var(&f.delta, "delta", 1e-5, "δ in (0, 1)")
	fs.Float64Var(&f.epochs, "epochs", 1, "passes over the data in the same order (variants pnsgd, epochs, …; whole number ≥ 1)")
	fs.Float64Var(&f.batch, "batch", 1, "records per step; each step averages their gradients (whole number ≥ 1)")
	fs.Float64Var(&f.public, "public", 0, "public records processed after the private ones in every pass (Cor 31; whole number ≥ 0)")
	fs.Float64Var(&f.tasks, "tasks", 1, "number k of Stop-PNSGD tasks on the same data (variant tasks, Thm 32)")
	fs.Float64Var(&f.strong, "strong-convexity", 0, "strong convexity m ≥ 0 of the loss (needs --smoothness and --eta)")
	fs.Float64Var(&f.smooth, "smoothness", 0, "smoothness β of the loss; with --eta, η ≤ 2/β is checked (0: not given, assumed)")
	fs.Float64Var(&f.eta, "eta", 0, "step size η > 0 (0: not given)")
	fs.BoolVar(&f.nonsmooth, "nonsmooth", false, "the loss is convex and Lipschitz but not smooth: apply Gaussian smoothing (Thm 33) with the least λ for which η ≤ 2/β holds (needs --eta)")
	fs.Float64Var(&f.dim, "dimension", 1, "dimension d of the model, for the smoothing error Lλ√d")
	fs.BoolVar(&f.fallback, "composition-fallback", false, "if the step does not contract (η > 2/β), answer with the composition bound (every iterate released, Lemma 27) instead of refusing")
}

// ampModel is one variant built from the flags.
type ampModel struct {
	variant     string
	g           shifted.Guarantee
	run         shifted.SGD // the fixed-order run this variant describes
	full        shifted.SGD // the run with every flag applied (for sampling)
	fallback    bool        // answered with the composition bound
	smoothing   *shifted.Smoothing
	paperRho    float64 // Thm 26/32's claimed ρ (not sound), stop and tasks only
	notes       []string
	assumptions []string
}

func (m *ampModel) source() string {
	if m.fallback {
		return "composition bound only (the step does not contract): " + m.g.Source()
	}
	return m.g.Source()
}

// ampValidate checks the flags shared by every variant.
// check validates the flags and returns the chosen conversion.
func (f *ampFlags) check(cmd *cobra.Command) (rdp.Conversion, error) {
	conv, err := f.conv()
	if err != nil {
		return 0, err
	}
	return conv, f.validate(cmd)
}

func (f *ampFlags) validate(cmd *cobra.Command) error {
	if !changed(cmd, "n") {
		return badInput("--n is required (number of private records, whole number in [1, 1e12])")
	}
	if !changed(cmd, "sigma") {
		return badInput("--sigma is required (standard deviation of the gradient noise, > 0)")
	}
	if err := firstErr(
		positiveInt("n", f.n, 1e12), positive("sigma", f.sigma), positive("lipschitz", f.lipschitz),
		openUnit("delta", f.delta), positiveInt("epochs", f.epochs, 1e12), positiveInt("batch", f.batch, 1e12),
		nonNegative("public", f.public), positiveInt("tasks", f.tasks, 1e12), nonNegative("strong-convexity", f.strong),
		nonNegative("smoothness", f.smooth), nonNegative("eta", f.eta), positiveInt("dimension", f.dim, 1e12),
	); err != nil {
		return err
	}
	if f.public != math.Trunc(f.public) || f.public > 1e12 {
		return badInput("--public must be a whole number in [0, 1e12], got %v", f.public)
	}
	if f.batch > f.n+f.public {
		return badInput("--batch must be ≤ the records in a pass (--n + --public = %v), got %v", f.n+f.public, f.batch)
	}
	if f.epochs*math.Ceil((f.n+f.public)/f.batch) > float64(shifted.MaxSteps) {
		return badInput("--epochs × steps per pass = %g exceeds %d steps", f.epochs*math.Ceil((f.n+f.public)/f.batch), shifted.MaxSteps)
	}
	if f.nonsmooth {
		switch {
		case f.eta == 0:
			return badInput("--nonsmooth needs --eta (the smoothing λ = ηL/2 depends on it)")
		case changed(cmd, "smoothness"):
			return badInput("--nonsmooth and --smoothness cannot both be given: the smoothed loss has β = 2/η")
		case f.strong > 0:
			return badInput("--nonsmooth cannot be combined with --strong-convexity")
		}
	}
	if f.strong > 0 && (f.smooth == 0 || f.eta == 0) {
		return badInput("--strong-convexity needs --smoothness and --eta (the contraction is max(|1 − ηm|, |1 − ηβ|))")
	}
	if f.strong > 0 && f.strong > f.smooth {
		return badInput("--strong-convexity %v exceeds --smoothness %v; no loss is both", f.strong, f.smooth)
	}
	return nil
}

// build returns the model of one variant of those requested together (all).
// It refuses a flag that applies to none of them, and a step that does not
// contract unless --composition-fallback is given.
func (f *ampFlags) build(cmd *cobra.Command, variant string, all []string) (*ampModel, error) {
	loss := shifted.Loss{Lipschitz: f.lipschitz, Smoothness: f.smooth, StrongConvexity: f.strong, Eta: f.eta}
	m := &ampModel{variant: variant}
	if f.nonsmooth {
		sm, err := shifted.SmoothingForStep(f.eta, f.lipschitz, int64(f.dim))
		if err != nil {
			return nil, badInput("%v", err)
		}
		m.smoothing = &sm
		loss.Smoothness = sm.Smoothness
		m.notes = append(m.notes, fmt.Sprintf("the loss is not smooth: it is replaced by its Gaussian smoothing with λ = ηL/2 = %s (Thm 33), which is %s-smooth so that η ≤ 2/β holds, at an approximation error of at most Lλ√d = %s", fmtNum(sm.Lambda), fmtNum(sm.Smoothness), fmtNum(sm.Error)))
	}
	n := int64(f.n)
	run := shifted.SGD{N: n, Public: int64(f.public), Batch: int64(f.batch), Epochs: int64(f.epochs), Sigma: f.sigma, Loss: loss}
	fixedOrder := map[string]bool{"pnsgd": true, "minibatch": true, "epochs": true, "public": true, "strongly-convex": true, "local": true}
	needs := func(flag string, ok bool, what string) error {
		if !ok {
			return badInput("--variant %s needs %s", variant, what)
		}
		return nil
	}
	var err error
	switch variant {
	case "minibatch":
		err = needs("batch", f.batch >= 2, "--batch ≥ 2")
	case "epochs":
		err = needs("epochs", f.epochs >= 2, "--epochs ≥ 2 (Thm 35 takes n passes)")
	case "public":
		err = needs("public", f.public >= 1, "--public ≥ 1 (public records after the private ones)")
	case "strongly-convex":
		err = needs("strong-convexity", f.strong > 0, "--strong-convexity > 0, --smoothness and --eta")
	case "pnsgd", "local", "skip", "stop", "tasks":
	default:
		return nil, badInput("--variant must be one of %s, got %q", strings.Join(ampVariants, ", "), variant)
	}
	if err != nil {
		return nil, err
	}
	anyFixed, anyTasks := false, false
	for _, v := range all {
		anyFixed = anyFixed || fixedOrder[v]
		anyTasks = anyTasks || v == "tasks"
	}
	if !anyFixed {
		for _, fl := range []struct {
			name string
			set  bool
		}{{"batch", f.batch != 1}, {"epochs", f.epochs != 1}, {"public", f.public != 0}} {
			if fl.set {
				return nil, badInput("--%s applies to the fixed-order variants (pnsgd, minibatch, epochs, public, strongly-convex), not to --variant %s", fl.name, variant)
			}
		}
	}
	if f.tasks != 1 && !anyTasks {
		return nil, badInput("--tasks applies only to --variant tasks")
	}
	// Each feature flag belongs to the variant named after it. When that
	// variant is requested alongside others (curve --variants), the others
	// are drawn without the feature, so that they show the baseline.
	m.full = run
	claimed := map[string]bool{}
	for _, v := range all {
		claimed[v] = true
	}
	uses := func(owner string) bool { return variant == owner || !claimed[owner] }
	if !uses("minibatch") {
		run.Batch = 1
	}
	if !uses("epochs") {
		run.Epochs = 1
	}
	if !uses("public") {
		run.Public = 0
	}
	if !uses("strongly-convex") {
		loss.StrongConvexity = 0
		run.Loss = loss
	}
	m.run = run
	single := shifted.SGD{N: n, Sigma: f.sigma, Loss: loss}
	if !fixedOrder[variant] && (f.batch != 1 || f.epochs != 1 || f.public != 0) {
		m.notes = append(m.notes, fmt.Sprintf("--batch, --epochs and --public apply to the fixed-order variants only; %s runs one record per step in a single pass", variant))
	}
	switch variant {
	case "skip":
		m.g = shifted.Skip{N: n, Sigma: f.sigma, Loss: loss}
	case "stop":
		s := shifted.Stop{N: n, Sigma: f.sigma, Loss: loss}
		m.g, m.paperRho = s, s.PaperClaimRho()
	case "tasks":
		t := shifted.Tasks{Stop: shifted.Stop{N: n, Sigma: f.sigma, Loss: loss}, K: int64(f.tasks)}
		m.g, m.paperRho = t, t.PaperClaimRho()
	case "local":
		m.g = shifted.Local{SGD: run}
	default:
		m.g = run
	}
	nonContractive := f.smooth > 0 && f.eta > 0 && f.eta*f.smooth > 2
	if nonContractive && variant != "local" {
		if !f.fallback {
			return nil, badInput("--eta %v > 2/--smoothness = %v: the gradient step does not contract (FMTT18 Prop. 18 needs η ≤ 2/β), so amplification by iteration does not apply; pass --composition-fallback for the composition bound (every iterate released, Lemma 27)", f.eta, 2/f.smooth)
		}
		m.fallback = true
		switch variant {
		case "skip", "stop":
			m.g = shifted.Local{SGD: single}
		case "tasks":
			single.Epochs = int64(f.tasks)
			m.g = shifted.Local{SGD: single}
		default:
			m.g = shifted.Local{SGD: run}
		}
		m.notes = append(m.notes, fmt.Sprintf("the step does not contract (η = %v > 2/β = %v): no amplification by iteration; the value shown is the composition bound of every iterate (Lemma 27 with composition), as --composition-fallback asked", f.eta, 2/f.smooth))
	}
	if err := m.g.Check(); err != nil {
		return nil, badInput("%v", err)
	}
	m.assumptions = m.g.Assumptions()
	switch variant {
	case "stop", "tasks":
		if !m.fallback {
			m.notes = append(m.notes, "FMTT18 Thm 26 (and Thm 32, which uses it) claims (α, 4αL² ln n/(nσ²)); that is not sound: its last step bounds H_{n−t+1} by ln(n − t + 1), but H_m > ln m (the claim is 0 at n = 1). privamp uses the exact mixture over the stopping time instead (notes §3), which needs no condition on σ")
		}
	case "skip":
		if !m.fallback {
			m.notes = append(m.notes, "Skip-PNSGD: the exact mixture over the skip count t₀ (notes §3) is used; it is never above Thm 24's (α, 2αL²/(σ²(n − t + 1)))")
		}
	case "epochs":
		m.notes = append(m.notes, "Thm 35 states (α, 4αL²/σ²) for n passes with one record per step; privamp computes the optimal shift allocation of Thm 22 (notes §2.2), which is never above it in that setting")
	}
	if variant == "public" {
		m.notes = append(m.notes, "Cor 31 runs Skip-PNSGD on the private then public records; the fixed-order run shown is at most as private for every private index")
	}
	return m, nil
}

// ampIndices validates --index values against n.
func ampIndices(idx []int64, n int64) error {
	for _, t := range idx {
		if t < 1 || t > n {
			return badInput("--index must be in [1, %d] (1-based position of the record), got %d", n, t)
		}
	}
	return nil
}

// ampPoint is one index's answer.
type ampPoint struct {
	index int64
	dp    rdp.DP
	rho   float64 // zCDP ρ_t, NaN for a mixture
}

func ampAt(m *ampModel, t int64, delta float64, conv rdp.Conversion) (ampPoint, error) {
	dp, err := shifted.Epsilon(m.g, t, delta, conv)
	if err != nil {
		return ampPoint{}, badInput("%v", err)
	}
	p := ampPoint{index: t, dp: dp, rho: math.NaN()}
	if z, ok := m.g.(shifted.ZCDP); ok {
		p.rho = math.Exp(z.LogRho(t))
	}
	return p, nil
}

func (p ampPoint) json() map[string]any {
	obj := map[string]any{"index": p.index, "order": num(p.dp.Order)}
	epsJSON(obj, "epsilon", p.dp.Epsilon)
	if !math.IsNaN(p.rho) {
		obj["rho"] = num(p.rho)
	}
	return obj
}

func newPNSGDCmd(a *app) *cobra.Command {
	var f ampFlags
	var variant string
	var indices []int64
	var target float64
	cmd := &cobra.Command{
		Use:   "pnsgd",
		Short: "Per-person (ε, δ) of noisy SGD by amplification by iteration (FMTT18)",
		Long: `Per-person privacy of projected noisy SGD that releases only its final iterate (Feldman, Mironov,
Talwar, Thakurta 2018, "Privacy Amplification by Iteration"): the record at position t is hidden by
the noise of every later step. privamp computes, for chosen indices (--index) or as a summary over all
n records (worst, median, best, share under --target-epsilon), the (ε, δ) the analysis certifies.

Variants (--variant):
  pnsgd            Alg. 1 in a fixed order (Thm 23); with --batch, --epochs, --public,
                   --strong-convexity the general fixed-order run (derived from Thm 22)
  minibatch        --batch b ≥ 2: each step averages b gradients
  epochs           --epochs E ≥ 2 passes in the same order (Thm 35, tightened)
  public           --public m public records after the private ones (Cor 31)
  strongly-convex  contraction c = max(|1 − ηm|, |1 − ηβ|) < 1 (notes §2.1)
  skip             Skip-PNSGD (Thm 24), exact mixture over the skip count
  stop             Stop-PNSGD (Thm 26 repaired: the paper's bound is not sound)
  tasks            --tasks k Stop-PNSGD runs on the same data (Thm 32, repaired)
  local            every iterate released (Lemma 27): the composition bound

The contraction assumption η ≤ 2/β is checked when --eta and --smoothness are given; a step that
does not contract is refused (exit 2) unless --composition-fallback asks for the composition bound.`,
		Args: cobra.NoArgs,
		Example: `  privamp pnsgd --n 100000 --sigma 4 --delta 1e-6
  privamp pnsgd --n 100000 --sigma 4 --index 1,50000,100000
  privamp pnsgd --n 60000 --sigma 0.02 --batch 100 --epochs 10 --variant epochs --target-epsilon 1
  privamp pnsgd --n 1e9 --sigma 2 --variant stop --json`,
	}
	f.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&variant, "variant", "pnsgd", "algorithm: "+strings.Join(ampVariants, ", "))
	fs.Int64SliceVar(&indices, "index", nil, "record positions t in [1, n] to report (repeatable or comma list); default: a summary over all records")
	fs.Float64Var(&target, "target-epsilon", 0, "report the share of records whose ε ≤ this target (> 0)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		conv, err := f.check(cmd)
		if err != nil {
			return err
		}
		if changed(cmd, "target-epsilon") {
			if err := positive("target-epsilon", target); err != nil {
				return err
			}
		}
		m, err := f.build(cmd, variant, []string{variant})
		if err != nil {
			return err
		}
		if err := ampIndices(indices, m.g.Len()); err != nil {
			return err
		}
		r, err := pnsgdReport(m, &f, indices, target, conv)
		if err != nil {
			return err
		}
		return render(a.out, a.mode, r)
	}
	return cmd
}

func pnsgdReport(m *ampModel, f *ampFlags, indices []int64, target float64, conv rdp.Conversion) (*report, error) {
	g := m.g
	n := g.Len()
	delta := f.delta
	src := m.source() + "; " + conv.Source()
	at := "at δ = " + fmtNum(delta)
	r := &report{
		Title: fmt.Sprintf("Per-person privacy by amplification by iteration: %s, n = %s", m.variant, fmtInt(float64(n))),
		Rows: []row{
			{"n (private records)", fmtInt(float64(n)), "", "input"},
			{"σ (gradient noise)", fmtNum(f.sigma), "std of N(0, σ²I) on the average gradient", "input"},
			{"L (Lipschitz)", fmtNum(f.lipschitz), "", "input"},
		},
	}
	js := map[string]any{
		"command": "pnsgd", "variant": m.variant, "n": n, "sigma": f.sigma, "lipschitz": f.lipschitz,
		"delta": delta, "conversion": conv.String(), "source": src, "composition_fallback": m.fallback,
		"batch": m.run.Batch, "epochs": m.run.Epochs, "public": m.run.Public,
	}
	if m.variant == "tasks" {
		js["tasks"] = int64(f.tasks)
	}
	if m.smoothing != nil {
		r.Rows = append(r.Rows,
			row{"smoothing λ", fmtNum(m.smoothing.Lambda), "β = L/λ = " + fmtNum(m.smoothing.Smoothness), m.smoothing.Source},
			row{"smoothing error", fmtNum(m.smoothing.Error), "|f̂ − f| ≤ Lλ√d", "FMTT18 Thm 33"})
		js["smoothing"] = map[string]any{"lambda": m.smoothing.Lambda, "smoothness": m.smoothing.Smoothness, "error": m.smoothing.Error, "source": m.smoothing.Source}
	}
	if len(indices) > 0 {
		var pts []any
		for _, t := range indices {
			p, err := ampAt(m, t, delta, conv)
			if err != nil {
				return nil, err
			}
			unit := at
			if !math.IsNaN(p.rho) {
				unit += fmt.Sprintf(" (ρ = %s zCDP)", fmtNum(p.rho))
			}
			r.Rows = append(r.Rows, row{fmt.Sprintf("ε at index %d", t), fmtEps(p.dp.Epsilon), unit, src})
			pts = append(pts, p.json())
		}
		js["indices"] = pts
	} else {
		s, err := shifted.Summarize(g, delta, conv, target)
		if err != nil {
			return nil, badInput("%v", err)
		}
		pt := func(label string, idx int64, eps float64) row {
			return row{fmt.Sprintf("ε, %s (index %d)", label, idx), fmtEps(eps), at, src}
		}
		r.Rows = append(r.Rows, pt("worst record", s.Worst.Index, s.Worst.Epsilon))
		quant := map[float64]string{0.9: "90th percentile", 0.5: "median", 0.1: "10th percentile"}
		var qs []any
		for _, q := range s.Quantiles {
			if label, ok := quant[q.Q]; ok {
				r.Rows = append(r.Rows, pt(label, q.Index, q.Epsilon))
			}
			obj := map[string]any{"q": q.Q, "index": q.Index}
			epsJSON(obj, "epsilon", q.Epsilon)
			qs = append(qs, obj)
		}
		r.Rows = append(r.Rows, pt("best record", s.Best.Index, s.Best.Epsilon))
		worst := map[string]any{"index": s.Worst.Index, "order": num(s.Worst.Order)}
		epsJSON(worst, "epsilon", s.Worst.Epsilon)
		best := map[string]any{"index": s.Best.Index, "order": num(s.Best.Order)}
		epsJSON(best, "epsilon", s.Best.Epsilon)
		sum := map[string]any{"worst": worst, "best": best, "quantiles": qs}
		epsJSON(sum, "median_epsilon", s.Median().Epsilon)
		if target > 0 {
			r.Rows = append(r.Rows, row{"records with ε ≤ " + fmtNum(target),
				fmt.Sprintf("%s of %s (%.4g%%)", fmtInt(float64(s.CountUnder)), fmtInt(float64(n)), 100*s.ShareUnder), at, src + "; monotone in the index"})
			sum["target_epsilon"] = target
			sum["count_under_target"] = s.CountUnder
			sum["share_under_target"] = s.ShareUnder
		}
		js["summary"] = sum
	}
	if m.variant != "local" && !m.fallback {
		loc := shifted.Local{SGD: m.run}
		if m.variant == "skip" || m.variant == "stop" || m.variant == "tasks" {
			loc = shifted.Local{SGD: shifted.SGD{N: n, Sigma: f.sigma, Loss: m.run.Loss}}
			if m.variant == "tasks" {
				loc.SGD.Epochs = int64(f.tasks)
			}
		}
		dp, _ := shifted.Epsilon(loc, n, delta, conv)
		r.Rows = append(r.Rows, row{"ε if every iterate were released (worst record)", fmtEps(dp.Epsilon), at, loc.Source() + "; " + conv.Source()})
		epsJSON(js, "epsilon_all_iterates_released", dp.Epsilon)
	}
	if m.paperRho >= 0 && (m.variant == "stop" || m.variant == "tasks") && !m.fallback {
		js["paper_claim_rho_not_sound"] = m.paperRho
	}
	r.Assumptions = m.assumptions
	r.Notes = m.notes
	js["assumptions"] = m.assumptions
	if len(m.notes) > 0 {
		js["notes"] = m.notes
	}
	r.JSON = js
	return r, nil
}
