package main

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/spf13/cobra"
)

// Issue 23 item 8: messages name only flags the command has, never print
// NaN or infinite grid sizes, say why PLD has no ε when the δ's are 0, and
// integer flags read 1e3 as float flags read 1e12.
func TestMessages(t *testing.T) {
	// dpsgd has no --discretization: the PLD grid's error is a setting of
	// the computation, and a loss without finite bounds is said as such.
	_, errs, code := runCLI("dpsgd", "--target-epsilon", "1", "--delta", "0.1", "--steps", "1", "--sampling-rate", "0.01", "--accountant", "pld")
	if code == 0 {
		t.Log("dpsgd calibration now answers (helper calib); the message plumbing is tested below")
	} else if strings.Contains(errs, "--discretization") || strings.Contains(errs, "NaN") || strings.Contains(errs, "Inf grid points") {
		t.Errorf("dpsgd: exit %d %q", code, errs)
	}
	// The plumbing itself: a field error whose name is no flag of the
	// command is reworded, one that is a flag keeps it, and a field that
	// cannot be a flag is named without "--".
	c := &cobra.Command{Use: "dpsgd"}
	c.Flags().Float64("delta", 0, "")
	for _, k := range []struct {
		field, want, not string
	}{
		{"discretization", "discretization = 0.001 (a setting of the computation, not a flag of privamp dpsgd) needs 10 points", "--"},
		{"delta", "--delta needs 10 points, got 0.001", ""},
		{"line 3: score", "line 3: score needs 10 points, got 0.001", "--"},
	} {
		err := unflag(c, flagError(field.New(k.field, 0.001, "needs 10 points"), nil))
		if msg := err.Error(); msg != k.want || k.not != "" && strings.Contains(msg, k.not) || exitCode(err) != 2 {
			t.Errorf("%s: %q (exit %d), want %q", k.field, msg, exitCode(err), k.want)
		}
	}
	// An input file's key or line and an output file already read as they
	// should (the caller names the file): flagError keeps them, and they
	// are bad input.
	for _, e := range []*dp.Error{
		{Where: dp.InputFile, Field: "delta", Reason: "is required"},
		{Where: dp.InputFile, Line: 3, Reason: "epsilon must be > 0, got -1"},
		{Where: dp.OutputFile, Field: "out", Value: "x/y.json", Reason: "cannot be created: no such file or directory"},
	} {
		if err := unflag(c, flagError(e, nil)); err != error(e) || exitCode(err) != 2 {
			t.Errorf("%q became %q (exit %d)", e, err, exitCode(err))
		}
	}
	// compose --delta 0 … --method pld: the total δ is 0, below the target.
	_, errs, code = runCLI("compose", "--epsilon", "0.1", "--delta", "0", "--compositions", "10", "--method", "pld", "--target-delta", "1e-300")
	if code != 2 || strings.Contains(errs, "exceeds") || !strings.Contains(errs, "total δ (0) is below the target") {
		t.Errorf("compose --delta 0: exit %d %q", code, errs)
	}
	// Integer flags: whole numbers in float notation are read, others
	// refused naming the flag and its range.
	if out, errs, code := runCLI("curve", "--points", "1e1", "--n", "1e2", "--sigma", "1", "--radius", "1", "--no-sampling", "--json"); code != 0 || !strings.Contains(out, `"index"`) {
		t.Errorf("curve --points 1e2: exit %d %s", code, errs)
	}
	for _, c := range [][]string{{"curve", "--points", "2.5"}, {"curve", "--points", "1e300"}, {"audit", "--trials", "2.5e3x"}} {
		_, errs, code := runCLI(c...)
		if code != 2 || !strings.Contains(errs, `for "`+c[1]+`" flag: must be a whole number in [`) {
			t.Errorf("%v: exit %d %q", c, code, errs)
		}
	}
}
