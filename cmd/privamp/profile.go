package main

import (
	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/plots"
	"github.com/privamp/privamp/rdp"
	"github.com/spf13/cobra"
)

// accountingFlags adds --conversion (conversionFlag), --at-epsilon (δ at one
// ε, into q) and --plot (the ε–δ curve, which --json shows too); its getter
// also checks --plot and asks q for the curve.
func accountingFlags(a *app, cmd *cobra.Command, q *composition.ProfileQuery, plot *string) func() (rdp.Conversion, error) {
	conv := conversionFlag(cmd)
	cmd.Flags().Var(q, "at-epsilon", "also report δ at this ε ≥ 0 (δ for a given ε); --json adds the ε–δ curve")
	cmd.Flags().StringVar(plot, "plot", "", "draw the ε–δ curve to this .png or .svg file")
	return func() (rdp.Conversion, error) {
		if q.Curve = a.mode.json || *plot != ""; *plot != "" {
			if err := plots.CheckFormat("plot", *plot); err != nil {
				return 0, flagError(err, nil)
			}
		}
		return conv()
	}
}

// withProfile renders r with δ at the ε asked for, and draws the ε–δ curve
// to plot ("": none).
func withProfile(a *app, plot string, p *composition.Profile, r *report) error {
	if p != nil && p.AtEpsilon != nil {
		r.Rows = append(r.Rows, row{"δ at ε = " + p.AtEpsilon.Epsilon.String(), p.AtEpsilon.Delta, "δ for the given ε", "the smallest sound δ of the accountants above"})
	}
	if plot != "" {
		if err := plotTo(plot)(plots.EpsilonDelta(p, r.Title+": δ against ε")); err != nil {
			return err
		}
	}
	return render(a.out, a.mode, r)
}
