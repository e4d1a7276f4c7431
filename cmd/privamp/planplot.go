package main

import (
	"fmt"
	"math"

	"github.com/privamp/privamp/shifted/plan"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

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
