package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

func init() { register(newCurveCmd) }

// curveMaxJSON is the most indices --json prints (the CSV streams any n).
const curveMaxJSON = 1_000_000

func newCurveCmd(a *app) *cobra.Command {
	var f ampFlags
	var variants, plotPath string
	var points int
	var all bool
	cmd := &cobra.Command{
		Use:   "curve",
		Short: "Per-person privacy curve ε_t(δ) over the record positions t, as CSV or a plot",
		Long: `The per-person privacy curve of noisy SGD under amplification by iteration (FMTT18): ε_t(δ) for
record positions t = 1..n, one column per variant (--variants, same flags as 'privamp pnsgd'), and
the ε of amplification by sampling for the same run (Poisson rate b/n, E·⌈n/b⌉ steps, noise multiplier
bσ/L; replace-one neighbours, like for like) unless --no-sampling.

Output is CSV (header: index, steps_to_end = n − t + 1, then epsilon_<variant> …) at about --points
indices spaced geometrically in t and in n − t + 1, or at every index with --all (streamed). The source
and assumptions of every column are printed on stderr as '#' lines (not with --quiet). --json prints one
object with the same columns (at most 1e6 indices). --plot FILE.png or FILE.svg draws ε against
n − t + 1 on log axes, one line per variant and a line for sampling; the file is written atomically.`,
		Args: cobra.NoArgs,
		Example: `  privamp curve --n 100000 --sigma 4 --variants pnsgd,skip,stop
  privamp curve --n 1e7 --sigma 4 --all > curve.csv
  privamp curve --n 60000 --sigma 0.05 --batch 100 --epochs 10 --variants pnsgd --plot curve.png`,
	}
	f.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&variants, "variants", "pnsgd", "comma list of variants: "+strings.Join(ampVariants, ", "))
	fs.IntVar(&points, "points", 60, "about how many indices to show (2 to 100000)")
	fs.BoolVar(&all, "all", false, "every index t = 1..n (n ≤ 2e8; streamed CSV)")
	fs.StringVar(&plotPath, "plot", "", "also draw the curve to this .png or .svg file")
	cmd.Flags().BoolVar(&f.noSamples, "no-sampling", false, "leave out amplification by sampling")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		conv, err := f.check(cmd)
		if err != nil {
			return err
		}
		if points < 2 || points > 100000 {
			return badInput("--points must be in [2, 100000], got %d", points)
		}
		if all && changed(cmd, "points") {
			return badInput("give only one of --all and --points")
		}
		ext := strings.ToLower(filepath.Ext(plotPath))
		if plotPath != "" && ext != ".png" && ext != ".svg" {
			return badInput("--plot must name a .png or .svg file, got %q", plotPath)
		}
		var names []string
		seen := map[string]bool{}
		for _, v := range strings.Split(variants, ",") {
			if v = strings.TrimSpace(v); v != "" && !seen[v] {
				seen[v] = true
				names = append(names, v)
			}
		}
		var models []*ampModel
		for _, v := range names {
			m, err := f.build(cmd, v, names)
			if err != nil {
				return err
			}
			models = append(models, m)
		}
		if len(models) == 0 {
			return badInput("--variants must list at least one of %s", strings.Join(ampVariants, ", "))
		}
		n := int64(f.n)
		if all && n > shifted.MaxAll {
			return badInput("--all needs n ≤ %d, got %d; use --points", shifted.MaxAll, n)
		}
		if all && a.mode.json && n > curveMaxJSON {
			return badInput("--json prints at most %d indices; use the CSV output for --all with n = %d", curveMaxJSON, n)
		}
		c, err := curveCompute(models, &f, n, points, all, conv)
		if err != nil {
			return err
		}
		if plotPath != "" {
			if err := curvePlot(c, plotPath, ext); err != nil {
				return err
			}
		}
		if !a.quiet && !a.mode.json {
			curveComments(a.errw, c)
		}
		if a.mode.json {
			return curveJSON(a.out, c)
		}
		return curveCSV(a.out, c)
	}
	return cmd
}

// curveData is the computed curve.
type curveData struct {
	n       int64
	delta   float64
	conv    rdp.Conversion
	models  []*ampModel
	idx     []int64     // nil with --all: every index
	eps     [][]float64 // per model, per index
	samp    rdp.DP
	hasSamp bool
	sampRun shifted.SGD
}

func (c *curveData) index(i int) int64 {
	if c.idx == nil {
		return int64(i) + 1
	}
	return c.idx[i]
}

func (c *curveData) rows() int {
	if c.idx == nil {
		return int(c.n)
	}
	return len(c.idx)
}

func curveCompute(models []*ampModel, f *ampFlags, n int64, points int, all bool, conv rdp.Conversion) (*curveData, error) {
	c := &curveData{n: n, delta: f.delta, conv: conv, models: models}
	if !all {
		c.idx = shifted.LogSpaced(n, points)
	}
	for _, m := range models {
		var e []float64
		var err error
		if all {
			e, err = shifted.EpsilonsAll(m.g, f.delta, conv)
		} else {
			e, err = shifted.Epsilons(m.g, c.idx, f.delta, conv)
		}
		if err != nil {
			return nil, badInput("%v", err)
		}
		c.eps = append(c.eps, e)
	}
	if !f.noSamples {
		run := models[0].full
		run.Public = 0
		q := float64(max(run.Batch, 1)) / float64(run.N)
		z := float64(max(run.Batch, 1)) * run.Sigma / run.Loss.Lipschitz
		steps := float64(max(run.Epochs, 1) * run.StepsPerEpoch())
		dp, err := rdp.EpsilonFor(rdp.Repeat(rdp.SampledGaussianReplaceOne{Q: q, Z: z}, steps), f.delta, conv)
		if err != nil {
			return nil, err
		}
		c.samp, c.hasSamp, c.sampRun = dp, true, run
	}
	return c, nil
}

func (c *curveData) header() []string {
	h := []string{"index", "steps_to_end"}
	for _, m := range c.models {
		h = append(h, "epsilon_"+strings.ReplaceAll(m.variant, "-", "_"))
	}
	if c.hasSamp {
		h = append(h, "epsilon_sampling_replace_one")
	}
	return h
}

func (c *curveData) sampSource() string {
	return fmt.Sprintf("Poisson sampling q = b/n, %d steps, z = bσ/L, replace-one: Mironov–Talwar–Zhang 2019 + Mironov 2017 Prop. 11; %s",
		max(c.sampRun.Epochs, 1)*c.sampRun.StepsPerEpoch(), c.conv.Source())
}

func curveComments(w io.Writer, c *curveData) {
	fmt.Fprintf(w, "# privamp curve: n = %d, δ = %s; ε by %s\n", c.n, fmtNum(c.delta), c.conv.Source())
	for i, m := range c.models {
		fmt.Fprintf(w, "# %s: %s\n", c.header()[2+i], m.source())
		for _, as := range m.assumptions {
			fmt.Fprintf(w, "#   assumes: %s\n", as)
		}
		for _, note := range m.notes {
			fmt.Fprintf(w, "#   note: %s\n", note)
		}
	}
	if c.hasSamp {
		fmt.Fprintf(w, "# epsilon_sampling_replace_one: %s (every iterate may be released; the sampling must stay secret)\n", c.sampSource())
	}
}

func curveCSV(w io.Writer, c *curveData) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(strings.Join(c.header(), ","))
	bw.WriteByte('\n')
	var buf []byte
	sampStr := ""
	if c.hasSamp {
		sampStr = curveNum(c.samp.Epsilon)
	}
	for i := 0; i < c.rows(); i++ {
		t := c.index(i)
		buf = strconv.AppendInt(buf[:0], t, 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, c.n-t+1, 10)
		for _, e := range c.eps {
			buf = append(buf, ',')
			buf = append(buf, curveNum(e[i])...)
		}
		if c.hasSamp {
			buf = append(buf, ',')
			buf = append(buf, sampStr...)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// curveNum prints ε for CSV: "inf" for no finite guarantee.
func curveNum(x float64) string {
	if math.IsInf(x, 1) || math.IsNaN(x) {
		return "inf"
	}
	return strconv.FormatFloat(x, 'g', 10, 64)
}

func curveJSON(w io.Writer, c *curveData) error {
	idx := make([]int64, c.rows())
	for i := range idx {
		idx[i] = c.index(i)
	}
	cols := map[string]any{}
	var sources []any
	for k, m := range c.models {
		col := make([]any, len(c.eps[k]))
		for i, e := range c.eps[k] {
			col[i] = num(e)
		}
		name := c.header()[2+k]
		cols[name] = col
		sources = append(sources, map[string]any{"column": name, "variant": m.variant, "source": m.source(), "assumptions": m.assumptions, "notes": m.notes, "composition_fallback": m.fallback})
	}
	obj := map[string]any{"command": "curve", "n": c.n, "delta": c.delta, "conversion": c.conv.String(), "index": idx, "epsilon": cols, "columns": sources}
	if c.hasSamp {
		s := map[string]any{"source": c.sampSource(), "neighbours": "replace-one", "order": num(c.samp.Order)}
		epsJSON(s, "epsilon", c.samp.Epsilon)
		obj["sampling"] = s
	}
	return render(w, outputMode{json: true}, &report{JSON: obj})
}

// curvePlot draws ε against n − t + 1 on log axes and writes the file
// atomically. Points with ε = 0 or no finite guarantee cannot be drawn on a
// log axis and are left out.
func curvePlot(c *curveData, path, ext string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Per-person privacy, n = %d, δ = %s", c.n, fmtNum(c.delta))
	p.X.Label.Text = "steps from the record to the end, n − t + 1"
	p.Y.Label.Text = "ε"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Left = true
	// For --all, thin the points to about 2000 per line (log-spaced).
	sel := make([]int, 0)
	if c.idx == nil {
		for _, t := range shifted.LogSpaced(c.n, 2000) {
			sel = append(sel, int(t-1))
		}
	} else {
		for i := range c.idx {
			sel = append(sel, i)
		}
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	drawn := 0
	for k, m := range c.models {
		var xy plotter.XYs
		for _, i := range sel {
			e := c.eps[k][i]
			if !(e > 0) || math.IsInf(e, 1) {
				continue
			}
			x := float64(c.n - c.index(i) + 1)
			xy = append(xy, plotter.XY{X: x, Y: e})
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		}
		if len(xy) == 0 {
			continue
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(k)
		l.Dashes = plotutil.Dashes(k)
		l.Width = vg.Points(1.5)
		p.Add(l)
		label := m.variant + " (iteration)"
		if m.fallback || m.variant == "local" {
			label = m.variant + " (every iterate released)"
		}
		p.Legend.Add(label, l)
		drawn++
	}
	if c.hasSamp && c.samp.Epsilon > 0 && !math.IsInf(c.samp.Epsilon, 1) && drawn > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: c.samp.Epsilon}, {X: xmax, Y: c.samp.Epsilon}})
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(len(c.models))
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("sampling (replace-one, b = %d, %d epoch(s))", max(c.sampRun.Batch, 1), max(c.sampRun.Epochs, 1)), l)
	}
	if drawn == 0 {
		return badInput("nothing to plot: every ε is 0 or has no finite guarantee")
	}
	return savePlot(p, path)
}
