package main

import (
	"math"
	"strconv"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/internal/quantity"
	"github.com/privamp/privamp/plots"
	"github.com/privamp/privamp/rdp"
	"github.com/spf13/cobra"
)

// positiveInt checks that v is a whole number in [1, max].
func positiveInt(flag string, v, max float64) error {
	if err := finite(flag, v); err != nil {
		return err
	}
	if !(v >= 1 && v <= max && v == math.Trunc(v)) {
		return badInput("--%s must be a whole number in [1, %s], got %v", flag, quantity.Int(max), v)
	}
	return nil
}

// conversionFlag adds --conversion and returns a getter that validates it.
func conversionFlag(cmd *cobra.Command) func() (rdp.Conversion, error) {
	s := cmd.Flags().String("conversion", "improved", "RDP → (ε, δ) conversion: improved (Canonne–Kamath–Steinke 2020) or classic (Mironov 2017)")
	return func() (rdp.Conversion, error) {
		c, err := rdp.ParseConversion(*s)
		if err != nil {
			return 0, badInput("--conversion must be improved or classic, got %q", *s)
		}
		return c, nil
	}
}

// changed reports whether the user set the flag.
func changed(cmd *cobra.Command, name string) bool { return cmd.Flags().Changed(name) }

// firstChanged returns the first of the flags the user set, or "".
func firstChanged(cmd *cobra.Command, names ...string) string {
	for _, n := range names {
		if changed(cmd, n) {
			return n
		}
	}
	return ""
}

// fmtFull formats x with every digit needed to read it back exactly.
func fmtFull(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// accountingFlags adds --conversion (conversionFlag), --at-epsilon (δ at one
// ε, into q) and --plot (the ε–δ curve, which --json then shows too, as it
// does with --at-epsilon); its getter also checks --plot and asks q for the
// curve.
func accountingFlags(a *app, cmd *cobra.Command, q *composition.ProfileQuery, plot *string) func() (rdp.Conversion, error) {
	conv := conversionFlag(cmd)
	cmd.Flags().Var(q, "at-epsilon", "also report δ at this ε ≥ 0 (δ for a given ε); with --json, also the ε–δ curve")
	cmd.Flags().StringVar(plot, "plot", "", "draw the ε–δ curve to this .png or .svg file")
	return func() (rdp.Conversion, error) {
		if q.Curve = *plot != "" || a.mode.json && q.At != nil; *plot != "" { // a curve costs a second pass over the PLD
			if err := plots.CheckFormat("plot", *plot); err != nil {
				return 0, flagError(err, nil)
			}
		}
		return conv()
	}
}

// withProfile draws the ε–δ curve of p (the library put δ at the ε asked
// for in r) when plot is set, and renders r.
func withProfile(a *app, plot string, p *composition.Profile, r *report) error {
	if plot != "" {
		if err := plotTo(plot)(plots.EpsilonDelta(p, r.Title+": δ against ε")); err != nil {
			return err
		}
	}
	return render(a.out, a.mode, r)
}

// flagSpelling spells an option the libraries name by its field
// ("target_epsilon") as its flag ("--target-epsilon").
func flagSpelling(name string) string { return "--" + kebab(name) }
