package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

func init() { register(newPlanCmd) }

// planFlags are the inputs of privamp plan.
type planFlags struct {
	people                         string
	tiers                          []string
	n                              float64
	variant                        string
	batch, epochs, tasks, public   float64
	lipschitz, smooth, strong, eta float64
	radius, dim, delta             float64
	maxSigma, targetRisk           float64
	out, plotPath                  string
	conv                           func() (rdp.Conversion, error)
}

// planMaxTable is the most budget groups the table lists one by one.
const planMaxTable = 50

func newPlanCmd(a *app) *cobra.Command {
	f := &planFlags{}
	cmd := &cobra.Command{
		Use:   "plan (--people FILE.csv | --tier SIZE:EPS ... ) --radius R --dimension d",
		Short: "Schedule one run so that every person gets their own privacy budget",
		Long: `Under amplification by iteration (FMTT18) a person's privacy depends on when their record is used:
in single-pass PNSGD the record at position t of n is 2L²/(σ²(n − t + 1))-zCDP (Thm 23). privamp plan
orders the people so that the strictest budgets go first, finds the smallest noise σ that meets every
budget, the step size η, each person's achieved (ε, δ) and slack (recomputed with package shifted),
the utility bound (FMTT18 Thm 30 / Cor 31; Thm 29, 32 for stop), and compares with the uniform plan
that gives everyone the strictest budget. The ascending order is optimal (exchange argument, proved in
package shifted/plan); for skip and stop feasibility is computed with package shifted and bisection on
σ (stop reverses the order: its early positions are the least private).

Budgets: --people FILE.csv with a header naming the columns id, epsilon and optionally delta (empty:
--delta); every invalid row (missing columns, empty or repeated ids, ε not a finite number > 0, δ outside
(0, 1)) is reported by line number and nothing is planned. Or a tier summary: --tier [NAME=]SHARE:EPS[:DELTA]
repeated, with --n (shares sum to 1), or --tier [NAME=]COUNT:EPS[:DELTA] without --n.

More noise lowers every ε, so the limit is utility: --max-sigma caps σ and --target-excess-risk caps the
utility bound. When a cap makes budgets unreachable, privamp names those people, the smallest ε each
can have under the cap, and how many public records at the end (Cor 31) or more people with the loosest
budget would make the plan feasible (recomputed), and exits with status 1.

--out FILE writes the plan as JSON (format in 'go doc github.com/privamp/privamp/shifted/plan'), for
'privamp run --plan' and 'privamp verify'. --plot FILE.png|svg draws target and achieved ε per position
(log-spaced positions). --csv prints one row per person; --json one object.`,
		Args: cobra.NoArgs,
		Example: `  privamp plan --tier 0.01:0.1 --tier 0.09:1 --tier 0.9:4 --n 100000 --radius 1 --dimension 10 --delta 1e-6
  privamp plan --people examples/plan/people.csv --radius 1 --dimension 10 --delta 1e-6 --out plan.json
  privamp plan --tier strict=100:0.1 --tier rest=9900:2 --radius 1 --dimension 10 --max-sigma 1`,
	}
	fs := cmd.Flags()
	fs.StringVar(&f.people, "people", "", "CSV of people: header with id, epsilon and optionally delta")
	fs.StringArrayVar(&f.tiers, "tier", nil, "a tier [NAME=]SIZE:EPSILON[:DELTA]; SIZE is a share with --n, a count without (repeatable)")
	fs.Float64Var(&f.n, "n", 0, "number of people the --tier shares divide (whole number ≥ 1)")
	fs.StringVar(&f.variant, "variant", "pnsgd", "pnsgd (one or more fixed-order passes, final iterate), minibatch (pnsgd with --batch), epochs (pnsgd with --epochs), skip or stop")
	fs.Float64Var(&f.batch, "batch", 1, "records per step (pnsgd; whole number ≥ 1)")
	fs.Float64Var(&f.epochs, "epochs", 1, "fixed-order passes (pnsgd; whole number ≥ 1)")
	fs.Float64Var(&f.tasks, "tasks", 1, "Stop-PNSGD tasks on the same data (stop; Thm 32)")
	fs.Float64Var(&f.public, "public", 0, "public records after the private ones (Cor 31; whole number ≥ 0)")
	fs.Float64Var(&f.lipschitz, "lipschitz", 1, "Lipschitz constant L > 0 of the loss (every gradient norm ≤ L)")
	fs.Float64Var(&f.smooth, "smoothness", 0, "smoothness β ≥ 0 (0: not given; η ≤ 2/β is then assumed, else enforced)")
	fs.Float64Var(&f.strong, "strong-convexity", 0, "strong convexity m ≥ 0 (needs --smoothness and --eta)")
	fs.Float64Var(&f.eta, "eta", 0, "fixed step size η > 0 (0: the theorem's η for the planned σ)")
	fs.Float64Var(&f.radius, "radius", 0, "radius R > 0 of the domain (required)")
	fs.Float64Var(&f.dim, "dimension", 0, "dimension d of the model (whole number ≥ 1; required)")
	fs.Float64Var(&f.delta, "delta", 1e-5, "δ in (0, 1) for people without their own")
	fs.Float64Var(&f.maxSigma, "max-sigma", 0, "cap on the noise σ (> 0; 0: none)")
	fs.Float64Var(&f.targetRisk, "target-excess-risk", 0, "cap on the utility bound E[F(W)] − F* (> 0; 0: none)")
	fs.StringVar(&f.out, "out", "", "write the plan as JSON to this file (atomically)")
	fs.StringVar(&f.plotPath, "plot", "", "draw target and achieved ε per position to this .png or .svg file")
	f.conv = conversionFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return runPlan(a, cmd, f) }
	return cmd
}

// setting validates the flags and builds the setting.
func (f *planFlags) setting(cmd *cobra.Command) (plan.Setting, error) {
	conv, err := f.conv()
	if err != nil {
		return plan.Setting{}, err
	}
	if !changed(cmd, "radius") {
		return plan.Setting{}, badInput("--radius is required (radius R > 0 of the domain; it sets η and the utility bound)")
	}
	if !changed(cmd, "dimension") {
		return plan.Setting{}, badInput("--dimension is required (dimension d ≥ 1 of the model; it sets η and the utility bound)")
	}
	if err := firstErr(
		positive("lipschitz", f.lipschitz), nonNegative("smoothness", f.smooth), nonNegative("strong-convexity", f.strong),
		nonNegative("eta", f.eta), positive("radius", f.radius), positiveInt("dimension", f.dim, 1e12),
		openUnit("delta", f.delta), positiveInt("batch", f.batch, 1e12), positiveInt("epochs", f.epochs, 1e12),
		positiveInt("tasks", f.tasks, 1e12), nonNegative("max-sigma", f.maxSigma), nonNegative("target-excess-risk", f.targetRisk),
		nonNegative("public", f.public),
	); err != nil {
		return plan.Setting{}, err
	}
	if f.public != math.Trunc(f.public) || f.public > 1e12 {
		return plan.Setting{}, badInput("--public must be a whole number in [0, 1e12], got %v", f.public)
	}
	var v plan.Variant
	switch f.variant {
	case "pnsgd":
		v = plan.PNSGD
	case "minibatch":
		v = plan.PNSGD
		if f.batch < 2 {
			return plan.Setting{}, badInput("--variant minibatch needs --batch ≥ 2")
		}
	case "epochs":
		v = plan.PNSGD
		if f.epochs < 2 {
			return plan.Setting{}, badInput("--variant epochs needs --epochs ≥ 2")
		}
	case "skip":
		v = plan.Skip
	case "stop":
		v = plan.Stop
	default:
		return plan.Setting{}, badInput("--variant must be one of pnsgd, minibatch, epochs, skip, stop; got %q", f.variant)
	}
	if v != plan.PNSGD && (f.batch != 1 || f.epochs != 1) {
		return plan.Setting{}, badInput("--batch and --epochs apply to --variant pnsgd, minibatch and epochs, not %s (analysed for one pass, one record per step)", f.variant)
	}
	if f.tasks != 1 && v != plan.Stop {
		return plan.Setting{}, badInput("--tasks applies to --variant stop (Thm 32)")
	}
	if f.strong > 0 && (f.smooth == 0 || f.eta == 0) {
		return plan.Setting{}, badInput("--strong-convexity needs --smoothness and --eta (the contraction max(|1 − ηm|, |1 − ηβ|) depends on η)")
	}
	if f.strong > f.smooth && f.strong > 0 {
		return plan.Setting{}, badInput("--strong-convexity %v exceeds --smoothness %v; no loss is both", f.strong, f.smooth)
	}
	if f.eta > 0 && f.smooth > 0 && f.eta*f.smooth > 2 {
		return plan.Setting{}, badInput("--eta %v exceeds 2/β = %v (--smoothness %v): the step does not contract and amplification by iteration does not apply", f.eta, 2/f.smooth, f.smooth)
	}
	if f.plotPath != "" {
		if ext := strings.ToLower(filepath.Ext(f.plotPath)); ext != ".png" && ext != ".svg" {
			return plan.Setting{}, badInput("--plot must name a .png or .svg file, got %q", f.plotPath)
		}
	}
	s := plan.Setting{Variant: v, Lipschitz: f.lipschitz, Smoothness: f.smooth, StrongConvexity: f.strong,
		Radius: f.radius, Dimension: int64(f.dim), Batch: int64(f.batch), Epochs: int64(f.epochs),
		Tasks: int64(f.tasks), Public: int64(f.public), Eta: f.eta, Delta: f.delta, Conversion: conv}
	if err := s.Validate(); err != nil {
		return plan.Setting{}, badInput("%v", err)
	}
	return s, nil
}

// budgets reads --people or the --tier flags.
func (f *planFlags) budgets(cmd *cobra.Command) (plan.Budgets, []string, string, error) {
	switch {
	case f.people != "" && len(f.tiers) > 0:
		return plan.Budgets{}, nil, "", badInput("give --people or --tier, not both")
	case f.people == "" && len(f.tiers) == 0:
		return plan.Budgets{}, nil, "", badInput("give the budgets: --people FILE.csv (columns id, epsilon[, delta]) or --tier SIZE:EPSILON[:DELTA] (repeatable)")
	case f.people != "" && changed(cmd, "n"):
		return plan.Budgets{}, nil, "", badInput("--n divides --tier shares; with --people the file gives the people")
	}
	if f.people != "" {
		var r io.Reader
		if f.people == "-" {
			r = os.Stdin
		} else {
			fh, err := os.Open(f.people)
			if err != nil {
				return plan.Budgets{}, nil, "", badInput("--people: cannot open %s: %v", f.people, planPathErr(err))
			}
			defer fh.Close()
			r = fh
		}
		pp, err := plan.ReadCSV(r)
		if err != nil {
			var pe *plan.ParseError
			if errors.As(err, &pe) {
				return plan.Budgets{}, nil, "", badInput("--people %s: %v", f.people, err)
			}
			return plan.Budgets{}, nil, "", fmt.Errorf("--people %s: %v", f.people, err)
		}
		return plan.Budgets{People: pp}, nil, fmt.Sprintf("%d people from %s", pp.Len(), f.people), nil
	}
	var n int64
	if changed(cmd, "n") {
		if err := positiveInt("n", f.n, float64(plan.MaxPeople)); err != nil {
			return plan.Budgets{}, nil, "", err
		}
		n = int64(f.n)
	}
	var specs []plan.TierSpec
	for _, t := range f.tiers {
		sp, err := plan.ParseTier(t)
		if err != nil {
			return plan.Budgets{}, nil, "", badInput("--tier: %v", err)
		}
		specs = append(specs, sp)
	}
	tiers, notes, err := plan.ResolveTiers(specs, n)
	if err != nil {
		return plan.Budgets{}, nil, "", badInput("--tier: %v", err)
	}
	what := fmt.Sprintf("%d people in %d tiers", plan.Budgets{Tiers: tiers}.Len(), len(tiers))
	return plan.Budgets{Tiers: tiers}, notes, what, nil
}

func planPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func runPlan(a *app, cmd *cobra.Command, f *planFlags) error {
	s, err := f.setting(cmd)
	if err != nil {
		return err
	}
	b, notes, what, err := f.budgets(cmd)
	if err != nil {
		return err
	}
	opt := plan.Options{MaxSigma: f.maxSigma, TargetExcessRisk: f.targetRisk}
	res, err := plan.Make(s, b, opt)
	if err != nil {
		return badInput("%v", err)
	}
	res.Notes = append(notes, res.Notes...)
	if res.Infeasible != nil {
		return planInfeasible(a, f, s, b, what, res)
	}
	if f.out != "" {
		if err := streamFileAtomic(f.out, res.Plan.WriteTo); err != nil {
			return err
		}
	}
	if f.plotPath != "" {
		if err := planPlot(res, s, f.plotPath); err != nil {
			return err
		}
	}
	if a.mode.csv {
		return planCSV(a.out, res)
	}
	return render(a.out, a.mode, planReport(f, s, what, res))
}

// planGuarantee is the guarantee of the planned run, for sources and
// assumptions.
func planGuarantee(s plan.Setting, n int64, sigma float64) shifted.Guarantee {
	g, _, err := s.Guarantee(n, sigma)
	if err != nil {
		return nil
	}
	return g
}

func planReport(f *planFlags, s plan.Setting, what string, res *plan.Result) *report {
	p := res.Plan
	u, uu := res.Utility, res.Uniform.Utility
	g := planGuarantee(s, p.N, p.Sigma)
	_, etaSrc, _ := s.EtaRule(p.N, p.Sigma)
	r := &report{Title: fmt.Sprintf("privamp plan: a per-person privacy schedule for %s (%s, δ = %s)", what, s.Name(), fmtNum(s.Delta))}
	src := "FMTT18 Thm 23: ρ_t = 2L²/(σ²(n + m − t + 1))"
	if g != nil {
		src = g.Source()
	}
	orderWord := "ascending budget, strictest first"
	if p.Order == "descending" {
		orderWord = "descending budget, strictest last"
	}
	optWord := "optimal (exchange argument: package shifted/plan)"
	if !res.Optimal {
		optWord = "heuristic: " + res.OrderNote
	}
	r.Rows = append(r.Rows,
		row{"people (positions 1..n)", fmtInt(float64(p.N)), "", what},
		row{"order", orderWord, "", optWord},
		row{"noise σ", fmtNum(p.Sigma), "", res.SigmaHow + "; per-person curves: " + src},
		row{"step size η", fmtNum(p.Eta), "", etaSrc},
		row{"utility bound E[F(W)] − F*", fmtNum(u.Bound), "", u.Source},
		row{"every target met", "yes: largest achieved/target = " + strconv.FormatFloat(p.Summary.MaxAchievedRatio, 'f', 10, 64), "", "every person's ε recomputed with package shifted at σ, η and their δ; " + s.Conversion.Source()},
		row{"binding person (sets σ)", planBinding(p), "", "the position with the largest achieved/target"},
		row{fmt.Sprintf("uniform plan σ (everyone ε = %s, δ = %s)", fmtNum(res.Uniform.Epsilon), fmtNum(res.Uniform.Delta)), fmtUp(res.Uniform.Sigma), "", "the same computation with every budget set to the strictest"},
		row{"noise versus uniform", planRatio(res.Uniform.Sigma, p.Sigma, "less noise"), "", fmt.Sprintf("σ/σ_uniform = %s; variance ratio %s", fmtNum(p.Sigma/res.Uniform.Sigma), fmtNum(math.Pow(p.Sigma/res.Uniform.Sigma, 2)))},
		row{"utility bound, uniform plan", fmtNum(uu.Bound), "", uu.Source},
		row{"utility bound versus uniform", planRatio(uu.Bound, u.Bound, "better"), "", "ratio of the two bounds above"},
	)
	if f.out != "" {
		r.Rows = append(r.Rows, row{"plan written to", f.out, "", fmt.Sprintf("JSON, format %q version %d", plan.Format, plan.Version)})
	}
	if f.plotPath != "" {
		r.Rows = append(r.Rows, row{"plot written to", f.plotPath, "", "target and achieved ε per position, log-spaced positions"})
	}
	groups := p.Summary.Groups
	if len(groups) > 0 && len(groups) <= planMaxTable {
		r.Table = planGroupTable(p, groups)
	} else {
		tb := &table{Header: []string{"position", "who", "target ε", "δ", "achieved ε", "slack"}}
		for _, t := range shifted.LogSpaced(p.N, 24) {
			e, d, _ := p.Target(t)
			who := ""
			if p.People != nil {
				who = p.People.ID[t-1]
			}
			a := res.Achieved[t-1]
			tb.Rows = append(tb.Rows, []string{fmtInt(float64(t)), who, fmtNum(e), fmtNum(d), fmtEps(a), fmtDown(e - a)})
		}
		r.Table = tb
		res.Notes = append(res.Notes, fmt.Sprintf("%d budget groups: the table shows log-spaced positions; --csv prints every person", len(res.Plan.Claims())))
	}
	if g != nil {
		r.Assumptions = append(r.Assumptions, g.Assumptions()...)
	}
	r.Assumptions = append(r.Assumptions,
		"the budgets, and so the order, do not depend on the private records (positions are public; the order is fixed before training)",
		"utility: records drawn i.i.d. from the population; domain inside a ball of radius R; the loss is convex and L-Lipschitz")
	r.Notes = append(r.Notes, res.Notes...)
	if p.Summary.BindingPosition == p.N && p.Variant != plan.Stop && p.Public == 0 {
		r.Notes = append(r.Notes, "the binding person is the last record, which only its own noisy step protects (2L²/σ²-zCDP, Lemma 27): public records at the end (--public, Cor 31) or a looser last budget lower σ")
	}
	r.Notes = append(r.Notes, fmt.Sprintf("every achieved ε is at most (1 − %g)·target: a safety margin, so that any recomputation agreeing to nine digits confirms the plan", plan.Margin/2))
	if p.Variant == plan.Stop && p.Sigma > 0.98*res.Uniform.Sigma {
		r.Notes = append(r.Notes, "Stop-PNSGD's per-person guarantee is nearly the same at every position, so a schedule gains little over the uniform plan; PNSGD and Skip-PNSGD gain much more")
	}
	r.JSON = planJSON(f, s, res)
	r.JSON["notes"] = r.Notes
	return r
}

// planGroupTable lists runs of positions with one budget and their
// achieved ε.
func planGroupTable(p *plan.Plan, groups []plan.GroupResult) *table {
	tb := &table{Header: []string{"positions", "count", "who", "target ε", "δ", "achieved ε (min – max)", "min slack"}}
	for _, gr := range groups {
		tb.Rows = append(tb.Rows, []string{
			planPositions(gr.First, gr.Last), fmtInt(float64(gr.Last - gr.First + 1)), planWho(p, gr),
			fmtNum(gr.Epsilon), fmtNum(gr.Delta), fmtEps(gr.AchievedMin) + " – " + fmtEps(gr.AchievedMax), fmtDown(gr.SlackMin),
		})
	}
	return tb
}

// planPositions formats a run of positions.
func planPositions(first, last int64) string {
	if last == first {
		return fmtInt(float64(first))
	}
	return fmt.Sprintf("%d–%d", first, last)
}

// planBinding names the person whose budget sets σ.
func planBinding(p *plan.Plan) string {
	t := p.Summary.BindingPosition
	if t < 1 {
		return "n/a"
	}
	e, d, _ := p.Target(t)
	return fmt.Sprintf("position %d (%sε = %s, δ = %s)", t, planWhoAt(p, t), fmtNum(e), fmtNum(d))
}

// planWhoAt names the person at position t — `"id", ` or `tier, ` — for
// a parenthesis.
func planWhoAt(p *plan.Plan, t int64) string {
	if p.People != nil {
		return fmt.Sprintf("%q, ", p.People.ID[t-1])
	}
	for _, tr := range p.Tiers {
		if t >= tr.First && t <= tr.Last {
			return tr.Name + ", "
		}
	}
	return ""
}

// planRatio formats how many times a exceeds b.
func planRatio(a, b float64, word string) string {
	if math.IsNaN(a) || math.IsNaN(b) || !(b > 0) {
		return "n/a"
	}
	if math.Abs(a/b-1) < 1e-9 {
		return "the same"
	}
	return fmt.Sprintf("%s× %s", fmtNum(a/b), word)
}

// planWho names the people of a group: the tier, or up to three ids.
func planWho(p *plan.Plan, gr plan.GroupResult) string {
	if gr.Tier != "" {
		return gr.Tier
	}
	if p.People == nil {
		return ""
	}
	var ids []string
	for t := gr.First; t <= gr.Last && len(ids) < 3; t++ {
		ids = append(ids, p.People.ID[t-1])
	}
	if rest := gr.Last - gr.First + 1 - int64(len(ids)); rest > 0 {
		ids = append(ids, fmt.Sprintf("+%d more", rest))
	}
	return strings.Join(ids, ", ")
}

func utilityJSON(u plan.Utility) map[string]any {
	return map[string]any{"bound": num(u.Bound), "eta": num(u.Eta), "source": u.Source}
}

func planJSON(f *planFlags, s plan.Setting, res *plan.Result) map[string]any {
	obj := map[string]any{"command": "plan", "feasible": res.Infeasible == nil, "variant": string(s.Variant),
		"setting_name": s.Name(), "delta": s.Delta, "conversion": s.Conversion.String(),
		"optimal": res.Optimal, "order_note": res.OrderNote, "notes": res.Notes,
		"uniform": map[string]any{"epsilon": res.Uniform.Epsilon, "delta": res.Uniform.Delta, "sigma": res.Uniform.Sigma, "utility": utilityJSON(res.Uniform.Utility)}}
	if p := res.Plan; p != nil {
		obj["n"] = p.N
		obj["sigma"] = p.Sigma
		obj["eta"] = p.Eta
		obj["order"] = p.Order
		obj["sigma_source"] = res.SigmaHow
		obj["utility"] = utilityJSON(res.Utility)
		obj["noise_ratio"] = num(p.Sigma / res.Uniform.Sigma)
		obj["utility_ratio"] = num(res.Utility.Bound / res.Uniform.Utility.Bound)
		obj["max_achieved_ratio"] = p.Summary.MaxAchievedRatio
		obj["binding_position"] = p.Summary.BindingPosition
		if groups := planGroupsJSON(p.Summary.Groups); groups != nil {
			obj["groups"] = groups
		}
		if f.out != "" {
			obj["plan_file"] = f.out
		}
	}
	return obj
}

// planGroupsJSON lists budget groups for --json (nil for none).
func planGroupsJSON(gs []plan.GroupResult) []map[string]any {
	var out []map[string]any
	for _, g := range gs {
		m := map[string]any{"first": g.First, "last": g.Last, "epsilon": g.Epsilon, "delta": g.Delta,
			"achieved_min": num(g.AchievedMin), "achieved_max": num(g.AchievedMax), "slack_min": num(g.SlackMin)}
		if g.Tier != "" {
			m["tier"] = g.Tier
		}
		out = append(out, m)
	}
	return out
}

// planCSV streams one row per person.
func planCSV(w io.Writer, res *plan.Result) error {
	p := res.Plan
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("position,id,tier,target_epsilon,delta,achieved_epsilon,slack\n")
	var buf []byte
	tier := ""
	ti := 0
	for t := int64(1); t <= p.N; t++ {
		e, d, _ := p.Target(t)
		id := ""
		if p.People != nil {
			id = p.People.ID[t-1]
		} else {
			for ti < len(p.Tiers) && p.Tiers[ti].Last < t {
				ti++
			}
			tier = p.Tiers[ti].Name
		}
		a := res.Achieved[t-1]
		buf = strconv.AppendInt(buf[:0], t, 10)
		buf = append(buf, ',')
		buf = append(buf, csvField(id)...)
		buf = append(buf, ',')
		buf = append(buf, csvField(tier)...)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, e, 'g', -1, 64)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, d, 'g', -1, 64)
		buf = append(buf, ',')
		buf = append(buf, curveNum(a)...)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, e-a, 'g', 10, 64)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// csvField quotes a CSV field when needed.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// planInfeasible reports a cap that some budgets cannot meet (exit 1).
func planInfeasible(a *app, f *planFlags, s plan.Setting, b plan.Budgets, what string, res *plan.Result) error {
	inf := res.Infeasible
	n := b.Len()
	r := &report{Title: fmt.Sprintf("privamp plan: INFEASIBLE under %s — %d of %d people cannot get their budget", inf.CapSource, inf.UnreachableCount, n)}
	capStr := fmtNum(inf.Cap)
	if inf.Cap == 0 {
		capStr = "0 (the utility target is missed even without noise)"
	}
	r.Rows = append(r.Rows,
		row{"people", fmtInt(float64(n)), "", what},
		row{"σ needed for every budget", fmtNum(inf.SigmaNeeded), "", res.SigmaHow},
		row{"σ allowed", capStr, "", inf.CapSource},
		row{"people whose budget is unreachable", fmtInt(float64(inf.UnreachableCount)), "", "ε recomputed with package shifted at σ = the cap, in the planned order"},
		row{"smallest ε anyone can have under the cap", fmtEps(inf.Floor), "", "the most private position at σ = the cap"},
		row{"remedy: public records at the end", planRemedy(inf.Public), "", "FMTT18 Cor 31: public records after the private ones add steps after everyone"},
		row{"remedy: more people with the loosest budget", planRemedy(inf.People), "", "extra records placed after the planned people (they too must meet the loosest budget)"},
	)
	for _, rm := range []plan.Remedy{inf.Public, inf.People} {
		if rm.Reason != "" {
			r.Notes = append(r.Notes, rm.Reason)
		}
	}
	if f.out != "" {
		r.Notes = append(r.Notes, fmt.Sprintf("no plan written to %s: the plan is infeasible", f.out))
	}
	if f.plotPath != "" {
		r.Notes = append(r.Notes, fmt.Sprintf("no plot written to %s: the plan is infeasible", f.plotPath))
	}
	tb := &table{Header: []string{"positions", "who", "target ε", "δ", "smallest ε possible under the cap"}}
	for i, u := range inf.Unreachable {
		if i == planMaxTable && !a.mode.csv {
			r.Notes = append(r.Notes, fmt.Sprintf("the table lists the first %d of %d unreachable entries; --json or --csv lists them all", planMaxTable, len(inf.Unreachable)))
			break
		}
		who := u.ID
		if who == "" {
			who = u.Tier
		}
		pos := planPositions(u.First, u.Last)
		ach := fmtEps(u.Achievable)
		if u.AchievableMin != u.Achievable {
			ach = fmtEps(u.AchievableMin) + " – " + ach
		}
		tb.Rows = append(tb.Rows, []string{pos, who, fmtNum(u.Epsilon), fmtNum(u.Delta), ach})
	}
	r.Table = tb
	r.Notes = append(r.Notes, res.Notes...)
	r.Notes = append(r.Notes, "more noise lowers every ε: the cap comes from utility; raise it, accept the listed budgets, or add the records above")
	obj := planJSON(f, s, res)
	var un []map[string]any
	for _, u := range inf.Unreachable {
		m := map[string]any{"first": u.First, "last": u.Last, "epsilon": u.Epsilon, "delta": u.Delta}
		epsJSON(m, "achievable", u.Achievable)
		epsJSON(m, "achievable_min", u.AchievableMin)
		if u.ID != "" {
			m["id"] = u.ID
		}
		if u.Tier != "" {
			m["tier"] = u.Tier
		}
		un = append(un, m)
	}
	rem := func(rm plan.Remedy) map[string]any {
		m := map[string]any{"found": rm.Found, "count": rm.Count, "verified": rm.Verified}
		if rm.Found {
			m["sigma"] = rm.Sigma
			m["utility"] = utilityJSON(rm.Utility)
		}
		if rm.Reason != "" {
			m["reason"] = rm.Reason
		}
		return m
	}
	in := map[string]any{"cap": inf.Cap, "cap_source": inf.CapSource, "sigma_needed": inf.SigmaNeeded,
		"unreachable": un, "unreachable_count": inf.UnreachableCount, "public_remedy": rem(inf.Public), "people_remedy": rem(inf.People)}
	epsJSON(in, "floor_epsilon", inf.Floor)
	obj["infeasible"] = in
	obj["n"] = n
	obj["notes"] = r.Notes
	r.JSON = obj
	if a.mode.csv {
		cw := bufio.NewWriter(a.out)
		cw.WriteString("first,last,id,tier,target_epsilon,delta,achievable_epsilon_min,achievable_epsilon\n")
		for _, u := range inf.Unreachable {
			fmt.Fprintf(cw, "%d,%d,%s,%s,%s,%s,%s,%s\n", u.First, u.Last, csvField(u.ID), csvField(u.Tier),
				strconv.FormatFloat(u.Epsilon, 'g', -1, 64), strconv.FormatFloat(u.Delta, 'g', -1, 64), curveNum(u.AchievableMin), curveNum(u.Achievable))
		}
		if err := cw.Flush(); err != nil {
			return err
		}
	} else if err := render(a.out, a.mode, r); err != nil {
		return err
	}
	return &exitError{code: exitFailure, msg: fmt.Sprintf("plan infeasible under %s: %d people cannot get their budget (see the table; public records needed: %s)", planCapFlag(inf.CapSource), inf.UnreachableCount, planRemedyShort(inf.Public))}
}

func planCapFlag(src string) string {
	if i := strings.Index(src, " ("); i > 0 {
		return src[:i]
	}
	return src
}

func planRemedy(rm plan.Remedy) string {
	if !rm.Found {
		return "none (see the notes)"
	}
	s := fmt.Sprintf("%d (then σ = %s, utility bound %s)", rm.Count, fmtNum(rm.Sigma), fmtNum(rm.Utility.Bound))
	if rm.Verified {
		return s + "; recomputed: every target met"
	}
	return s + "; " + rm.Reason
}

func planRemedyShort(rm plan.Remedy) string {
	if !rm.Found {
		return "none helps"
	}
	return strconv.FormatInt(rm.Count, 10)
}

// planPlot draws target and achieved ε against the position on log axes,
// with the uniform plan's ε for comparison, at log-spaced positions and
// every group boundary.
func planPlot(res *plan.Result, s plan.Setting, path string) error {
	p := res.Plan
	n := p.N
	set := map[int64]bool{}
	for _, t := range shifted.LogSpaced(n, 400) {
		set[t] = true
	}
	claims := p.Claims()
	if len(claims) <= 400 {
		for _, c := range claims {
			set[c.First], set[c.Last] = true, true
			if c.First > 1 {
				set[c.First-1] = true
			}
		}
	}
	ts := make([]int64, 0, len(set))
	for t := range set {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	var target, achieved, unif plotter.XYs
	gu, _, err := s.Guarantee(n, res.Uniform.Sigma)
	if err != nil {
		return err
	}
	ue, err := shifted.Epsilons(gu, ts, res.Uniform.Delta, s.Conversion)
	if err != nil {
		return err
	}
	for i, t := range ts {
		e, _, _ := p.Target(t)
		x := float64(t)
		target = append(target, plotter.XY{X: x, Y: e})
		if a := res.Achieved[t-1]; a > 0 && !math.IsInf(a, 0) {
			achieved = append(achieved, plotter.XY{X: x, Y: a})
		}
		if ue[i] > 0 && !math.IsInf(ue[i], 0) {
			unif = append(unif, plotter.XY{X: x, Y: ue[i]})
		}
	}
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("privamp plan: ε by position, %d people, %s, δ = %s", n, s.Name(), fmtNum(s.Delta))
	// A short label: gonum centres axis labels at the mean of Min and Max in
	// data units, which on a log axis is near the right end.
	pl.X.Label.Text = "position t"
	pl.Y.Label.Text = "ε"
	pl.X.Scale, pl.Y.Scale = plot.LogScale{}, plot.LogScale{}
	pl.X.Tick.Marker, pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	pl.Legend.Left = true
	pl.Legend.Top = true
	add := func(xy plotter.XYs, k int, label string, dashed bool) error {
		if len(xy) == 0 {
			return nil
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(k)
		l.Width = vg.Points(1.5)
		if dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		pl.Add(l)
		pl.Legend.Add(label, l)
		return nil
	}
	if err := firstErr(
		add(target, 0, "target ε (budget)", false),
		add(achieved, 1, fmt.Sprintf("achieved ε, this plan (σ = %s)", fmtNum(p.Sigma)), false),
		add(unif, 2, fmt.Sprintf("uniform plan, everyone ε = %s (σ = %s)", fmtNum(res.Uniform.Epsilon), fmtNum(res.Uniform.Sigma)), true),
	); err != nil {
		return err
	}
	pl.Y.Max *= 3 // headroom above the largest budget for the legend
	return savePlot(pl, path)
}
