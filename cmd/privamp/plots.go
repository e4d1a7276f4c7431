package main

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/privamp/privamp/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// plotTo returns a function that writes a built plot (7 × 4.5 inches) to
// path, in the format its extension names (.png or .svg; callers validate
// it), atomically: plotTo(path)(plots.Curve(c)).
func plotTo(path string) func(*plot.Plot, error) error {
	return func(p *plot.Plot, err error) error {
		if errors.Is(err, plots.ErrNothingToPlot) {
			return badInput("--plot: %v", err)
		} else if err != nil {
			return err
		}
		return flagged("plot", savePlots(path, 4.5*vg.Inch, p))
	}
}

// savePlots writes plots stacked top to bottom (plots.Image) to path.
func savePlots(path string, ht vg.Length, ps ...*plot.Plot) error {
	b, err := plots.Image(strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."), ht, ps...)
	if err != nil {
		return err
	}
	return writeFileAtomic(path, b)
}
