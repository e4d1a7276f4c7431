package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
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
	people, variant, out, plotPath string
	tiers                          []string
	n, batch, epochs, tasks, pub   float64
	lipschitz, smooth, strong, eta float64
	radius, dim, delta             float64
	maxSigma, targetRisk           float64
	opt                            plan.Options
}

// planMaxTable is the most budget groups the table lists one by one.
const planMaxTable = 50

// planResult is privamp plan's --json object: plan.Result's keys, plus the files written.
type planResult struct {
	Command string `json:"command"`
	*plan.Result
	PlanFile string `json:"plan_file,omitempty"`
	PlotFile string `json:"plot_file,omitempty"`
}

func newPlanCmd(a *app) *cobra.Command {
	f := &planFlags{}
	cmd := &cobra.Command{
		Use:   "plan (--people FILE.csv | --tier SIZE:EPS ... ) --radius R --dimension d",
		Short: "Schedule one run so that every person gets their own privacy budget",
		Long: `Under amplification by iteration (FMTT18) a person's privacy depends on when their record is used:
in single-pass PNSGD the record at position t of n is 2L²/(σ²(n − t + 1))-zCDP (Thm 23). privamp plan
orders the people so that the strictest budgets go first, finds the smallest noise σ that meets every
budget, the step size η, each person's achieved (ε, δ) (recomputed with package shifted), the utility
bound (FMTT18 Thm 30 / Cor 31; Thm 29, 32 for stop), and compares with the uniform plan that gives
everyone the strictest budget (package shifted/plan: the order's optimality proof, σ by closed form or
bisection; stop reverses the order: its early positions are the least private).

Budgets: --people FILE.csv with a header naming the columns id, epsilon and optionally delta (empty:
--delta); every invalid row is reported by line number and nothing is planned. Or a tier summary:
--tier [NAME=]SHARE:EPS[:DELTA] repeated, with --n (shares sum to 1), or --tier [NAME=]COUNT:EPS[:DELTA].
--batch and --epochs apply to --variant pnsgd, --tasks to stop.

More noise lowers every ε, so the limit is utility: --max-sigma caps σ and --target-excess-risk caps the
utility bound. When a cap makes budgets unreachable, privamp names those people, the smallest ε each
can have under the cap, and how many public records at the end (Cor 31) or more people with the loosest
budget would make the plan feasible (recomputed). Printed σ are rounded up, ε up, the cap down.

--out FILE writes the plan as JSON (format in 'go doc github.com/privamp/privamp/shifted/plan'), for
'privamp run --plan' and 'privamp verify'. --plot FILE.png|svg draws target and achieved ε per position.
--csv prints one row per person; --json one object. Neither output may name an input.

Exit status: 0 a plan meets every budget, 1 infeasible under the cap (or a failure), 2 bad input.`,
		Args: cobra.NoArgs,
		Example: `  privamp plan --tier 0.01:0.1 --tier 0.09:1 --tier 0.9:4 --n 100000 --radius 1 --dimension 10 --delta 1e-6
  privamp plan --people examples/plan/people.csv --radius 1 --dimension 10 --delta 1e-6 --out plan.json
  privamp plan --tier strict=100:0.1 --tier rest=9900:2 --radius 1 --dimension 10 --max-sigma 1`,
	}
	fs := cmd.Flags()
	fs.StringVar(&f.people, "people", "", "CSV of people: header with id, epsilon and optionally delta")
	fs.StringArrayVar(&f.tiers, "tier", nil, "a tier [NAME=]SIZE:EPSILON[:DELTA]; SIZE is a share with --n, a count without (repeatable)")
	fs.Float64Var(&f.n, "n", 0, "number of people the --tier shares divide (whole number ≥ 1)")
	fs.StringVar(&f.variant, "variant", "pnsgd", "pnsgd (fixed-order passes, final iterate; --batch, --epochs), skip or stop")
	fs.Float64Var(&f.batch, "batch", 1, "records per step (pnsgd; whole number ≥ 1)")
	fs.Float64Var(&f.epochs, "epochs", 1, "fixed-order passes (pnsgd; whole number ≥ 1)")
	fs.Float64Var(&f.tasks, "tasks", 1, "Stop-PNSGD tasks on the same data (stop; Thm 32)")
	fs.Float64Var(&f.pub, "public", 0, "public records after the private ones (Cor 31; whole number ≥ 0)")
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
	conv := conversionFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		c, err := conv()
		if err != nil {
			return err
		}
		f.opt.Conversion = c
		return runPlan(a, cmd, f)
	}
	return cmd
}

// options checks what only the command line knows (required flags, whole
// numbers, file paths) and fills f.opt; plan.Make checks the rest.
func (f *planFlags) options(cmd *cobra.Command) error {
	for _, name := range []string{"radius", "dimension"} {
		if !changed(cmd, name) {
			return badInput("--%s is required (it sets η and the utility bound)", name)
		}
	}
	counts := []struct {
		name string
		v    float64
		min  float64
	}{{"batch", f.batch, 1}, {"epochs", f.epochs, 1}, {"tasks", f.tasks, 1}, {"public", f.pub, 0}, {"dimension", f.dim, 1}}
	for _, c := range counts {
		if !(c.v >= c.min && c.v <= 1e12 && c.v == math.Trunc(c.v)) {
			return badInput("--%s must be a whole number in [%g, 1e12], got %v", c.name, c.min, c.v)
		}
	}
	v, err := shifted.ParseVariant(f.variant)
	if err != nil {
		return err
	}
	if ext := strings.ToLower(filepath.Ext(f.plotPath)); f.plotPath != "" && ext != ".png" && ext != ".svg" {
		return badInput("--plot must name a .png or .svg file, got %q", f.plotPath)
	}
	// Hole 6: an output never overwrites an input (or the other output);
	// hole 11: a directory is bad input, not a failure.
	for _, o := range [][2]string{{"out", f.out}, {"plot", f.plotPath}} {
		if fi, err := os.Stat(o[1]); o[1] != "" && err == nil && fi.IsDir() {
			return badInput("--%s %s is a directory; give a file name", o[0], o[1])
		}
		for _, in := range [][2]string{{"people", f.people}, {"out", f.out}} {
			if o[0] != in[0] && samePath(o[1], in[1]) {
				return badInput("--%s %s is the --%s file: refusing to overwrite it", o[0], o[1], in[0])
			}
		}
	}
	f.opt.Training = shifted.Training{Variant: v, Public: int64(f.pub), Batch: int64(f.batch), Epochs: int64(f.epochs),
		Tasks: int64(f.tasks), Delta: f.delta, Loss: shifted.Loss{Lipschitz: f.lipschitz, Smoothness: f.smooth, StrongConvexity: f.strong, Eta: f.eta}}
	f.opt.Radius, f.opt.Dimension, f.opt.MaxSigma, f.opt.TargetExcessRisk = f.radius, int64(f.dim), f.maxSigma, f.targetRisk
	return nil
}

// samePath reports whether two non-empty paths name the same file: equal
// once cleaned and made absolute, or the same existing file (links).
func samePath(a, b string) bool {
	if a == "" || b == "" || a == "-" || b == "-" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ab {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// budgets reads --people or the --tier flags; it returns the tiers' notes
// and a description.
func (f *planFlags) budgets(cmd *cobra.Command) (plan.Budgets, []string, string, error) {
	switch {
	case f.people != "" && len(f.tiers) > 0:
		return plan.Budgets{}, nil, "", badInput("give --people or --tier, not both")
	case f.people == "" && len(f.tiers) == 0:
		return plan.Budgets{}, nil, "", badInput("give the budgets: --people FILE.csv (columns id, epsilon[, delta]) or --tier SIZE:EPSILON[:DELTA] (repeatable)")
	case f.people != "" && changed(cmd, "n"):
		return plan.Budgets{}, nil, "", badInput("--n divides --tier shares; with --people the file gives the people")
	case f.people != "":
		r := io.Reader(os.Stdin)
		if f.people != "-" {
			fh, err := os.Open(f.people)
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			if err != nil {
				return plan.Budgets{}, nil, "", badInput("--people: cannot open %s: %v", f.people, err)
			}
			defer fh.Close()
			if fi, err := fh.Stat(); err == nil && fi.IsDir() {
				return plan.Budgets{}, nil, "", badInput("--people %s is a directory; give a CSV file", f.people)
			}
			r = fh
		}
		pp, err := plan.ReadCSV(r)
		var pe *plan.ParseError
		if errors.As(err, &pe) {
			return plan.Budgets{}, nil, "", badInput("--people %s: %v", f.people, err)
		} else if err != nil {
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
		return plan.Budgets{}, nil, "", flagError(err, nil)
	}
	return plan.Budgets{Tiers: tiers}, notes, fmt.Sprintf("%d people in %d tiers", plan.Budgets{Tiers: tiers}.Len(), len(tiers)), nil
}

func runPlan(a *app, cmd *cobra.Command, f *planFlags) error {
	if err := f.options(cmd); err != nil {
		return err
	}
	b, notes, what, err := f.budgets(cmd)
	if err != nil {
		return err
	}
	res, err := plan.Make(f.opt, b)
	if _, ok := field.As(err); ok {
		return flagError(err, nil) // a field of plan.Options is the flag of the same name
	} else if err != nil {
		return badInput("%v", err)
	}
	res.Notes = append(notes, res.Notes...)
	out := &planResult{Command: "plan", Result: res}
	if res.Infeasible != nil {
		return planInfeasible(a, f, what, out)
	}
	if f.out != "" {
		if err := streamFileAtomic(f.out, res.Plan.WriteTo); err != nil {
			return err
		}
		out.PlanFile = f.out
	}
	if f.plotPath != "" {
		if err := planPlot(res, f.plotPath); err != nil {
			return err
		}
		out.PlotFile = f.plotPath
	}
	if a.mode.csv {
		return res.WriteCSV(a.out)
	}
	return render(a.out, a.mode, planReport(f, what, out))
}

func planReport(f *planFlags, what string, out *planResult) *report {
	res, p := out.Result, out.Plan
	u, uu := res.Utility, res.Uniform.Utility
	r := &report{Title: fmt.Sprintf("privamp plan: a per-person privacy schedule for %s (%s, δ = %s)", what, res.Run, fmtNum(res.Delta)), Result: out,
		Assumptions: res.Assumptions, Notes: res.Notes}
	order, opt := "ascending budget, strictest first", "optimal (exchange argument: package shifted/plan)"
	if res.Order == "descending" {
		order = "descending budget, strictest last"
	}
	if !res.Optimal {
		opt = "heuristic: " + res.OrderNote
	}
	e, d, _ := p.Target(res.WorstIndex)
	r.Rows = []row{
		{"people (positions 1..n)", res.N, "", what},
		{"order", order, "", opt},
		{"noise σ", res.Sigma, "", res.SigmaSource + "; per-person curves: " + res.Source},
		{"step size η", res.Eta, "", res.EtaSource},
		{"utility bound E[F(W)] − F*", planBound(u.Bound), "", u.Source},
		{"every target met", "yes: largest achieved/target = " + strconv.FormatFloat(res.MaxAchievedRatio, 'f', 10, 64), "", "every person's ε recomputed with package shifted at σ, η and their δ; " + f.opt.Conversion.Source()},
		{"worst person (sets σ)", fmt.Sprintf("position %d (%s, ε = %s, δ = %s)", res.WorstIndex, p.Who(res.WorstIndex), fmtNum(e), fmtNum(d)), "", "the position with the largest achieved/target"},
		{fmt.Sprintf("uniform plan σ (everyone ε = %s, δ = %s)", fmtNum(res.Uniform.Epsilon), fmtNum(res.Uniform.Delta)), res.Uniform.Sigma, "", "the same computation with every budget set to the strictest"},
		{"noise versus uniform", planRatio(float64(res.Uniform.Sigma), float64(res.Sigma), "less noise"), "", fmt.Sprintf("σ/σ_uniform = %s", res.NoiseRatio)},
		{"utility bound, uniform plan", planBound(uu.Bound), "", uu.Source},
		{"utility bound versus uniform", planRatio(float64(uu.Bound), float64(u.Bound), "better"), "", "ratio of the two bounds above"},
	}
	if f.out != "" {
		r.Rows = append(r.Rows, row{"plan written to", f.out, "", fmt.Sprintf("JSON, format %q version %d", plan.Format, plan.Version)})
	}
	if f.plotPath != "" {
		r.Rows = append(r.Rows, row{"plot written to", f.plotPath, "", "target and achieved ε per position, log-spaced positions"})
	}
	if len(res.Groups) > 0 && len(res.Groups) <= planMaxTable {
		r.Table = planGroupTable(p, res.Groups)
		return r
	}
	tb := &table{Header: []string{"position", "who", "target ε", "δ", "achieved ε", "slack"}}
	pts, _ := res.Profile(24)
	for _, pt := range pts {
		tb.Rows = append(tb.Rows, []string{fmtInt(float64(pt.Index)), pt.ID, fmtNum(pt.Epsilon), fmtNum(pt.Delta), pt.Achieved.String(), fmtDown(pt.Epsilon - float64(pt.Achieved))})
	}
	r.Table = tb
	r.Notes = append(r.Notes, "many budget groups: the table shows log-spaced positions; --csv prints every person")
	return r
}

// planBound prints a utility bound ("none" when the variant has none).
func planBound(b quantity.Loss) string {
	if math.IsNaN(float64(b)) {
		return "none"
	}
	return b.String()
}

// planGroupTable lists runs of positions with one budget and their achieved ε.
func planGroupTable(p *plan.Plan, groups []plan.GroupResult) *table {
	tb := &table{Header: []string{"positions", "count", "who", "target ε", "δ", "achieved ε (min – max)", "min slack"}}
	for _, gr := range groups {
		tb.Rows = append(tb.Rows, []string{planPositions(gr.First, gr.Last), fmtInt(float64(gr.Last - gr.First + 1)), planWho(p, gr),
			fmtNum(gr.Epsilon), fmtNum(gr.Delta), fmtEps(gr.AchievedMin) + " – " + fmtEps(gr.AchievedMax), fmtDown(gr.SlackMin)})
	}
	return tb
}

// planGroupsJSON is the groups for --json (their own json tags).
func planGroupsJSON(gs []plan.GroupResult) []plan.GroupResult { return gs }

// planPositions formats a run of positions.
func planPositions(first, last int64) string {
	if last == first {
		return fmtInt(float64(first))
	}
	return fmt.Sprintf("%d–%d", first, last)
}

// planWhoAt names the person at position t for a parenthesis: `"id", ` or `tier, `.
func planWhoAt(p *plan.Plan, t int64) string {
	if p.People != nil {
		return fmt.Sprintf("%q, ", p.Who(t))
	}
	return p.Who(t) + ", "
}

// planRatio formats how many times a exceeds b.
func planRatio(a, b float64, word string) string {
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || !(b > 0):
		return "n/a"
	case math.Abs(a/b-1) < 1e-9:
		return "the same"
	}
	return fmt.Sprintf("%s× %s", fmtNum(a/b), word)
}

// planWho names the people of a group: the tier, or up to three ids.
func planWho(p *plan.Plan, gr plan.GroupResult) string {
	if gr.Tier != "" || p.People == nil {
		return gr.Tier
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

// planInfeasible reports a cap that some budgets cannot meet (exit 1).
func planInfeasible(a *app, f *planFlags, what string, out *planResult) error {
	res, inf := out.Result, out.Infeasible
	flag := "--" + strings.ReplaceAll(inf.CapField, "_", "-")
	capFlag := fmt.Sprintf("%s %g", flag, map[bool]float64{true: f.maxSigma, false: f.targetRisk}[inf.CapField == "max_sigma"])
	r := &report{Title: fmt.Sprintf("privamp plan: INFEASIBLE under %s — %d of %d people cannot get their budget", capFlag, inf.UnreachableCount, res.N), Result: out}
	var allowed any = inf.Cap
	if inf.Cap == 0 {
		allowed = "0 (the utility target is missed even without noise)"
	}
	r.Rows = []row{
		{"people", res.N, "", what},
		{"σ needed for every budget", inf.SigmaNeeded, "", res.SigmaSource},
		{"σ allowed", allowed, "", inf.CapSource + " (" + capFlag + ")"},
		{"people whose budget is unreachable", inf.UnreachableCount, "", "ε recomputed with package shifted at σ = the cap, in the planned order"},
		{"smallest ε anyone can have under the cap", inf.Floor, "", "the most private position at σ = the cap"},
		{"remedy: public records at the end", planRemedy(inf.Public), "", "FMTT18 Cor 31: public records after the private ones add steps after everyone"},
		{"remedy: more people with the loosest budget", planRemedy(inf.People), "", "extra records placed after the planned people (they too must meet the loosest budget)"},
	}
	for _, o := range [][2]string{{"plan", f.out}, {"plot", f.plotPath}} {
		if o[1] != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("no %s written to %s: the plan is infeasible", o[0], o[1]))
		}
	}
	tb := &table{Header: []string{"positions", "who", "target ε", "δ", "smallest ε possible under the cap"}}
	for i, u := range inf.Unreachable {
		if i == planMaxTable {
			res.Notes = append(res.Notes, fmt.Sprintf("the table lists the first %d of %d unreachable entries; --json or --csv lists them all", planMaxTable, len(inf.Unreachable)))
			break
		}
		ach := u.Achievable.String()
		if u.AchievableMin != u.Achievable {
			ach = u.AchievableMin.String() + " – " + ach
		}
		tb.Rows = append(tb.Rows, []string{planPositions(u.First, u.Last), u.ID + u.Tier, fmtNum(u.Epsilon), fmtNum(u.Delta), ach})
	}
	r.Table = tb
	res.Notes = append(res.Notes, "more noise lowers every ε: the cap comes from utility; raise it, accept the listed budgets, or add the records above")
	for _, rm := range []plan.Remedy{inf.Public, inf.People} {
		if rm.Reason != "" {
			res.Notes = append(res.Notes, rm.Reason)
		}
	}
	r.Notes = res.Notes
	write := func() error { return render(a.out, a.mode, r) }
	if a.mode.csv {
		write = func() error { return inf.WriteCSV(a.out) }
	}
	if err := write(); err != nil {
		return err
	}
	pub := "none helps"
	if inf.Public.Found {
		pub = strconv.FormatInt(inf.Public.Count, 10)
	}
	return &exitError{code: exitFailure, msg: fmt.Sprintf("plan infeasible under %s: %d people cannot get their budget (see the table; public records needed: %s)", capFlag, inf.UnreachableCount, pub)}
}

// planRemedy describes a remedy; its σ is rounded up (quantity.Noise), so
// the printed σ meets every budget too.
func planRemedy(rm plan.Remedy) string {
	if !rm.Found {
		return "none (see the notes)"
	}
	s := fmt.Sprintf("%d (then σ = %s, utility bound %s)", rm.Count, rm.Sigma, planBound(rm.Utility.Bound))
	if rm.Verified {
		return s + "; recomputed: every target met"
	}
	return s + "; " + rm.Reason
}

// planPlot draws target and achieved ε against the position on log axes,
// with the uniform plan's ε for comparison (plan.Result.Profile).
func planPlot(res *plan.Result, path string) error {
	pts, err := res.Profile(400)
	if err != nil {
		return err
	}
	var lines [3]plotter.XYs
	for _, pt := range pts {
		for i, y := range []float64{pt.Epsilon, float64(pt.Achieved), float64(pt.Uniform)} {
			if y > 0 && !math.IsInf(y, 0) {
				lines[i] = append(lines[i], plotter.XY{X: float64(pt.Index), Y: y})
			}
		}
	}
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("privamp plan: ε by position, %d people, %s, δ = %s", res.N, res.Run, fmtNum(res.Delta))
	pl.X.Label.Text, pl.Y.Label.Text = "position t", "ε" // short: gonum centres labels in data units
	pl.X.Scale, pl.Y.Scale = plot.LogScale{}, plot.LogScale{}
	pl.X.Tick.Marker, pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	pl.Legend.Left, pl.Legend.Top = true, true
	labels := []string{"target ε (budget)", fmt.Sprintf("achieved ε, this plan (σ = %s)", res.Sigma),
		fmt.Sprintf("uniform plan, everyone ε = %s (σ = %s)", fmtNum(res.Uniform.Epsilon), res.Uniform.Sigma)}
	for k, xy := range lines {
		l, err := plotter.NewLine(xy)
		if len(xy) == 0 {
			continue
		} else if err != nil {
			return err
		}
		l.Color, l.Width = plotutil.Color(k), vg.Points(1.5)
		if k == 2 {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		pl.Add(l)
		pl.Legend.Add(labels[k], l)
	}
	pl.Y.Max *= 3 // headroom above the largest budget for the legend
	return savePlot(pl, path)
}
