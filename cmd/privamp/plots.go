package main

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/shifted/plan"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// savePlot renders p at 7 × 4.5 inches in the format named by path's
// extension (.png or .svg; callers validate it) and writes it atomically.
func savePlot(p *plot.Plot, path string) error { return savePlots(path, 4.5*vg.Inch, p) }

// savePlots renders plots stacked top to bottom, 7 inches wide and ht high
// each, with aligned axes, in the format named by path's extension (.png or
// .svg; callers validate it), and writes the file atomically.
func savePlots(path string, ht vg.Length, ps ...*plot.Plot) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	c, err := draw.NewFormattedCanvas(7*vg.Inch, ht*vg.Length(len(ps)), format)
	if err != nil {
		return err
	}
	if len(ps) == 1 {
		ps[0].Draw(draw.New(c))
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
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}

// tracePlots are run's --plot panels: the empirical risk and the distance
// to the non-private optimum against the step (points without a distance
// are left out; a non-finite loss is an error).
func tracePlots(pts []optimizer.Point, name string) ([]*plot.Plot, error) {
	loss, dist := plotter.XYs{}, plotter.XYs{}
	for _, p := range pts {
		loss = append(loss, plotter.XY{X: float64(p.Step), Y: p.Loss})
		if !math.IsNaN(p.Dist) {
			dist = append(dist, plotter.XY{X: float64(p.Step), Y: p.Dist})
		}
	}
	var ps []*plot.Plot
	for _, pn := range []struct {
		title, ylabel string
		xy            plotter.XYs
	}{{name + ": empirical risk", "loss", loss}, {"distance to the non-private optimum", "‖w_t − w*‖", dist}} {
		p := plot.New()
		p.Title.Text, p.X.Label.Text, p.Y.Label.Text = pn.title, "step", pn.ylabel
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
