package main

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/optimizer"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
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
