package main

import (
	"math"
	"strconv"

	"github.com/privamp/privamp/internal/quantity"
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

// fmtOrder prints an RDP order; ∞ means a pure-DP bound.
func fmtOrder(a float64) string {
	if math.IsInf(a, 1) {
		return "∞ (pure DP)"
	}
	return quantity.Nearest(a)
}

// fmtFull formats x with every digit needed to read it back exactly.
func fmtFull(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
