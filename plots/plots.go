// Package plots draws privamp's results with gonum/plot: per-person ε
// curves (shifted.Curves), ε against passes (shifted.EpochCurve), a plan's
// ε by position (plan.Result), an audit's trade-off curve
// (audit.Evaluation), a training trace (optimizer.Point) and a catalogued
// algorithm's report figure (algorithms.Figure), an accounting's ε–δ curve
// (composition.Profile); Image stacks the plots into
// one PNG or SVG. It stands above the packages whose results it draws, so
// that internal/ (the ground floor) imports nothing above it.
package plots

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/audit"
	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/algorithms"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	// The two formats Image writes, registered here so that a build with
	// -tags minimal (gonum/plot then links no other back end: no PDF, EPS or
	// TeX writer, and their package initialisation is skipped) still has
	// them.
	_ "gonum.org/v1/plot/vg/vgimg"
	_ "gonum.org/v1/plot/vg/vgsvg"
)

// Image renders plots stacked top to bottom, 7 inches wide and ht high
// each, with aligned axes, in format ("png" or "svg"). A single plot's
// legend is drawn below its axes, outside the data, so it never covers a
// curve or the title; the image grows by the legend's height.
func Image(format string, ht vg.Length, ps ...*plot.Plot) ([]byte, error) {
	var legend vg.Length
	if len(ps) == 1 {
		if r := ps[0].Legend.Rectangle(draw.Canvas{}); r.Max.Y > r.Min.Y {
			legend = r.Max.Y - r.Min.Y + 3*vg.Millimeter
		}
	}
	c, err := draw.NewFormattedCanvas(7*vg.Inch, ht*vg.Length(len(ps))+legend, format)
	if err != nil {
		return nil, err
	}
	if len(ps) == 1 {
		dc := draw.New(c)
		p, leg := ps[0], ps[0].Legend
		if legend > 0 {
			p.Legend = plot.NewLegend()
			defer func() { p.Legend = leg }()
			leg.Top, leg.Left, leg.XOffs, leg.YOffs = true, true, 0, 0
			leg.Draw(draw.Crop(dc, 6*vg.Millimeter, 0, 0, -(dc.Max.Y - dc.Min.Y - legend + vg.Millimeter)))
		}
		p.Draw(draw.Crop(dc, 0, 0, legend, 0))
	} else {
		rows := make([][]*plot.Plot, len(ps))
		for i, p := range ps {
			rows[i] = []*plot.Plot{p}
		}
		tiles := draw.Tiles{Rows: len(ps), Cols: 1, PadX: vg.Millimeter, PadY: 4 * vg.Millimeter, PadTop: 2 * vg.Millimeter,
			PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
		for i, canv := range plot.Align(rows, tiles, draw.New(c)) {
			ps[i].Draw(canv[0])
		}
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ErrNothingToPlot is returned when every value is 0 or infinite (a log
// axis cannot show them).
var ErrNothingToPlot = errors.New("nothing to plot, every ε is 0 or has no finite guarantee")

// Trace returns the panels of a training trace: the empirical risk and the distance
// to the non-private optimum against the step (points without a distance
// are left out; a non-finite loss is an error).
func Trace(pts []optimizer.Point, name string) ([]*plot.Plot, error) {
	loss, dist := plotter.XYs{}, plotter.XYs{}
	for _, p := range pts {
		loss = append(loss, plotter.XY{X: float64(p.Step), Y: p.Loss})
		if !math.IsNaN(p.Dist) {
			dist = append(dist, plotter.XY{X: float64(p.Step), Y: p.Dist})
		}
	}
	xlabel := "step"
	if len(pts) > 0 && pts[0].Step > 1 { // Skip-PNSGD: the steps before its secret random start do not run
		xlabel = fmt.Sprintf("step (the run skipped steps 1–%d: its random start)", pts[0].Step-1)
	}
	var ps []*plot.Plot
	for _, pn := range []struct {
		title, ylabel string
		xy            plotter.XYs
	}{{name + ": empirical risk", "loss", loss}, {"distance to the non-private optimum", "‖w_t − w*‖", dist}} {
		p := plot.New()
		p.Title.Text, p.X.Label.Text, p.Y.Label.Text = pn.title, xlabel, pn.ylabel
		p.X.Tick.Marker = plainTicks{}
		p.Add(plotter.NewGrid())
		if len(pn.xy) > 0 {
			l, err := plotter.NewLine(pn.xy)
			if err != nil {
				return nil, err
			}
			p.Add(l)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// Plan draws target and achieved ε against the position on log axes,
// with the uniform plan's ε for comparison (plan.Result.Profile).
func Plan(res *plan.Result) (*plot.Plot, error) {
	pts, err := res.Profile(400)
	if err != nil {
		return nil, err
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
	pl.Title.Text = fmt.Sprintf("privamp plan: ε by position, %d people, %s, δ = %s", res.N, res.Run, quantity.Nearest(res.Delta))
	pl.X.Label.Text, pl.Y.Label.Text = "position t", "ε" // short: gonum centres labels in data units
	pl.X.Scale, pl.Y.Scale = plot.LogScale{}, plot.LogScale{}
	pl.X.Tick.Marker, pl.Y.Tick.Marker = logTicks{}, logTicks{}
	pl.Legend.Left, pl.Legend.Top = true, true
	labels := []string{"target ε (budget)", fmt.Sprintf("achieved ε, this plan (σ = %s)", res.Sigma),
		fmt.Sprintf("uniform plan, everyone ε = %s (σ = %s)", quantity.Nearest(res.Uniform.Epsilon), res.Uniform.Sigma)}
	for k, xy := range lines {
		l, err := plotter.NewLine(xy)
		if len(xy) == 0 {
			continue
		} else if err != nil {
			return nil, err
		}
		l.Color, l.Width = plotutil.Color(k), vg.Points(1.5)
		if k == 2 {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		pl.Add(l)
		pl.Legend.Add(labels[k], l)
	}
	return pl, nil
}

// Tradeoff draws an audit's empirical trade-off curve (FNR against
// FPR, log axes) and the claimed (ε, δ)'s curve: a claim is contradicted
// where the empirical curve passes below its curve.
func Tradeoff(ev *audit.Evaluation) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Membership test on the canaries: trade-off curve"
	p.X.Label.Text, p.Y.Label.Text = "false positive rate", "false negative rate"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = logTicks{}, logTicks{}
	labels := []string{"empirical (evaluation canaries)", "upper bound's (ε, δ) curve"}
	if cm := ev.Comparison; cm != nil {
		labels = []string{"empirical (evaluation canaries): below the claimed curve beyond sampling error = a violation",
			fmt.Sprintf("claimed ε = %s at δ = %s: (ε, δ)-DP keeps every test on or above this curve (%s)", cm.EpsilonUpper, quantity.Nearest(cm.Delta), cm.Verdict)}
	}
	for i, c := range [][]audit.TradeoffPoint{ev.Curve, ev.ClaimedCurve} {
		xy := plotter.XYs{}
		for _, q := range c {
			if q.FPR > 0 && q.FNR > 0 {
				xy = append(xy, plotter.XY{X: q.FPR, Y: q.FNR})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		p.Add(l)
		p.Legend.Add(labels[i], l)
	}
	p.Legend.Left = true
	return p, nil
}

// Curve draws ε against n − t + 1 on log axes (at most about 2000
// log-spaced rows). Points with ε = 0 or no
// finite guarantee cannot be drawn on a log axis and are left out.
func Curve(c shifted.Curves) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Per-person privacy, n = %d, δ = %s", c.N, quantity.Nearest(c.Delta))
	p.X.Label.Text, p.Y.Label.Text = "steps from the record to the end, n − t + 1", "ε"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = logTicks{}, logTicks{}
	p.Legend.Left = true
	rows := shifted.LogSpaced(c.Rows(), 2000) // row numbers: every row up to 2000 rows
	xmin, xmax := math.Inf(1), math.Inf(-1)
	add := func(k int, xy plotter.XYs, label string) error {
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color, l.Dashes, l.Width = plotutil.Color(k), plotutil.Dashes(k), vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(label, l)
		return nil
	}
	drawn := 0
	for k, col := range c.Columns {
		var xy plotter.XYs
		for _, i := range rows {
			if e := col.Epsilon[i-1]; e > 0 && !math.IsInf(e, 1) {
				x := float64(c.N - c.At(i-1) + 1)
				xy, xmin, xmax = append(xy, plotter.XY{X: x, Y: e}), math.Min(xmin, x), math.Max(xmax, x)
			}
		}
		if len(xy) > 0 {
			if err := add(k, xy, col.Name+" ("+col.RunName+", replace-one)"); err != nil {
				return nil, err
			}
			drawn++
		}
	}
	if s := c.Sampling; s != nil && drawn > 0 && s.Epsilon > 0 && !math.IsInf(float64(s.Epsilon), 1) {
		if err := add(len(c.Columns), plotter.XYs{{X: xmin, Y: float64(s.Epsilon)}, {X: xmax, Y: float64(s.Epsilon)}}, "sampling (replace-one, loose)"); err != nil {
			return nil, err
		}
	}
	if drawn == 0 {
		return nil, ErrNothingToPlot
	}
	return p, nil
}

// Epochs draws the worst record's ε against the number of passes on log
// axes: FMTT18, the bounded domain (with its burn-in marked) and DP-SGD.
func Epochs(c shifted.EpochCurve) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("ε of the worst record against passes, n = %d, δ = %s", c.N, quantity.Nearest(c.Delta))
	p.X.Label.Text, p.Y.Label.Text = "passes over the data", "ε"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = logTicks{}, logTicks{}
	p.Legend.Left, p.Legend.Top = true, true
	var lines [3]plotter.XYs
	for _, pt := range c.Points {
		for i, e := range []*dp.Loss{&pt.FMTT18, pt.Domain, pt.Sampling} {
			if e != nil && *e > 0 && !math.IsInf(float64(*e), 1) {
				lines[i] = append(lines[i], plotter.XY{X: float64(pt.Epochs), Y: float64(*e)})
			}
		}
	}
	labels := []string{"FMTT18 (Thm 22, replace-one)", fmt.Sprintf("bounded domain, R = %s (replace-one)", quantity.Nearest(c.Radius)), "DP-SGD, Poisson sampling (replace-one)"}
	drawn := 0
	for k, xy := range lines {
		if len(xy) == 0 {
			continue
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color, l.Dashes, l.Width = plotutil.Color(k), plotutil.Dashes(k), vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(labels[k], l)
		drawn++
	}
	if drawn == 0 {
		return nil, ErrNothingToPlot
	}
	if c.BurnIn > 0 && c.LimitEpsilon != nil {
		s, err := plotter.NewScatter(plotter.XYs{{X: float64(c.BurnIn), Y: float64(*c.LimitEpsilon)}})
		if err != nil {
			return nil, err
		}
		s.Shape, s.Color, s.Radius = draw.CrossGlyph{}, plotutil.Color(1), vg.Points(6)
		p.Add(s)
		p.Legend.Add(fmt.Sprintf("burn-in: %s", quantity.Count(c.BurnIn, "pass", "passes")), s)
	}
	return p, nil
}

// Figure draws a report's figure: each curve's means joined by a line,
// with error bars at its confidence limits (points that a log axis cannot
// show are left out).
func Figure(f *algorithms.Figure) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = f.Title, f.X, f.Y
	if f.LogX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, logTicks{}
	}
	if f.LogY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
	}
	if len(f.Curves) > 0 && f.LogX { // a log axis over less than a decade shows no tick: mark the X values
		var ticks []plot.Tick
		for _, x := range f.Curves[0].X {
			ticks = append(ticks, plot.Tick{Value: x, Label: quantity.Nearest(x)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	drawn := 0
	for k, c := range f.Curves {
		var pts plotter.XYs
		var errs plotter.YErrors
		for i := range c.X {
			lo, hi := c.Y[i], c.Y[i]
			if i < len(c.Lower) && i < len(c.Upper) {
				lo, hi = c.Lower[i], c.Upper[i]
			}
			if (f.LogX && !(c.X[i] > 0)) || (f.LogY && !(lo > 0)) || math.IsNaN(c.Y[i]) || math.IsInf(hi, 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: c.X[i], Y: c.Y[i]})
			errs = append(errs, struct{ Low, High float64 }{c.Y[i] - lo, hi - c.Y[i]})
		}
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.Color, l.Dashes, l.Width = plotutil.Color(k), plotutil.Dashes(k), vg.Points(1.5)
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return nil, err
		}
		eb.Color = plotutil.Color(k)
		p.Add(l, eb)
		p.Legend.Add(c.Name, l)
		drawn++
	}
	if drawn == 0 {
		return nil, ErrNothingToPlot
	}
	if f.Bars != "" {
		p.Legend.Add(f.Bars) // what the error bars mean, in the legend every reader looks at
	}
	return p, nil
}

// EpsilonDelta draws an accounting's ε–δ curve (δ on a log axis against ε;
// points with δ = 0 cannot be drawn there and are left out), with the δ at
// the ε asked for marked, under title.
func EpsilonDelta(pr *composition.Profile, title string) (*plot.Plot, error) {
	if pr == nil {
		return nil, ErrNothingToPlot
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = "ε", "δ(ε) (sound: the smaller of the accountants' bounds)"
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
	var xy plotter.XYs
	for _, d := range pr.Curve {
		if d.Delta > 0 && !math.IsInf(float64(d.Delta), 1) {
			xy = append(xy, plotter.XY{X: float64(d.Epsilon), Y: float64(d.Delta)})
		}
	}
	if len(xy) == 0 {
		return nil, ErrNothingToPlot
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return nil, err
	}
	l.Color, l.Width = plotutil.Color(0), vg.Points(1.5)
	p.Add(l)
	p.Legend.Add("δ(ε)", l)
	if a := pr.AtEpsilon; a != nil && a.Delta > 0 {
		s, err := plotter.NewScatter(plotter.XYs{{X: float64(a.Epsilon), Y: float64(a.Delta)}})
		if err != nil {
			return nil, err
		}
		s.Color = plotutil.Color(1)
		p.Add(s)
		p.Legend.Add("δ at the ε asked for", s)
	}
	return p, nil
}

// CheckFormat is nil if path is "" or names a file Image can write (.png
// or .svg, any case), else a field error on name.
func CheckFormat(name, path string) error {
	if e := strings.ToLower(filepath.Ext(path)); path != "" && e != ".png" && e != ".svg" {
		return field.New(name, path, "must name a .png or .svg file")
	}
	return nil
}

// logTicks marks a log axis so that it always carries several labels:
// the powers of ten when the axis spans three decades or more, else also
// 2 and 5 times them (and every whole multiple under a decade), with
// unlabelled minor ticks at the other whole multiples. gonum's LogTicks
// labels only the powers of ten, so an axis from 3 to 20 had one label.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return nil
	}
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	labelled := map[float64]bool{1: true}
	switch span := math.Log10(max / min); {
	case span < 1:
		labelled = map[float64]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true}
	case span < 3:
		labelled = map[float64]bool{1: true, 2: true, 5: true}
	}
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		for m := 1.0; m <= 9; m++ {
			v := m * math.Pow(10, e)
			if v < min*(1-1e-12) || v > max*(1+1e-12) {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[m] {
				t.Label = quantity.Nearest(v)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// plainTicks are gonum's default ticks labelled with the shortest form of
// their value ("500", not "500.00").
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = quantity.Nearest(ts[i].Value)
		}
	}
	return ts
}
