package main

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/spf13/cobra"
)

// Exit statuses. A verdict exits with dp.Verdict.ExitStatus (verify: 0 valid, 1 invalid, 3 unsupported).
const (
	exitOK       = 0
	exitFailure  = 1
	exitBadInput = 2
)

// inputError is bad input: a flag, argument or file line outside its allowed
// range. It exits with status 2 and a one-line message.
type inputError struct{ msg, flag, value, reason string } // flag, value, reason: from flagError

func (e *inputError) Error() string { return e.msg }

func badInput(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

// exitError carries a specific exit status with a message (may be empty).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// exitCode is 2 for bad input: an inputError, or a library's *dp.Error of
// any kind (a parameter, an input file's key or line, an output file).
func exitCode(err error) int {
	var ie *inputError
	var ee *exitError
	var de *dp.Error
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ie), errors.As(err, &de):
		return exitBadInput
	case errors.As(err, &ee):
		return ee.code
	}
	return exitFailure
}

// flagError turns a library *dp.Error about a parameter into bad input that
// names the flag which set the field: the flag is rename[field] if given,
// else the field's name with "_" and "." read as "-" ("strong_convexity" →
// --strong-convexity). A field that cannot be a flag ("line 3: score") is
// named without "--". Other errors, and a *dp.Error about an input file's
// content or an output file (which reads as it should already), are
// returned unchanged. A library error that reaches run() unmapped is
// reported the same way with the default names (then unflag).
func flagError(err error, rename map[string]string) error {
	var fe *dp.Error
	if !errors.As(err, &fe) || fe.Where != dp.Parameter {
		return err
	}
	name, ok := rename[fe.Field]
	if !ok {
		name = strings.NewReplacer("_", "-", ".", "-").Replace(fe.Field)
	}
	got := ""
	if fe.Value != nil {
		got = ", got " + field.FormatValue(fe.Value)
	}
	if strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" { // "line 3: score" names no flag
		return badInput("%s %s%s", map[bool]string{true: name, false: fe.Field}[ok], fe.Reason, got)
	}
	return &inputError{"--" + name + " " + fe.Reason + got, name, strings.Replace(got, ", got", " =", 1), fe.Reason}
}

// unflag rewords a flagError naming a flag c lacks (dpsgd's PLD discretization).
func unflag(c *cobra.Command, err error) error {
	if ie := (*inputError)(nil); errors.As(err, &ie) && ie.flag != "" && c.Flag(ie.flag) == nil {
		return badInput("%s%s (a setting of the computation, not a flag of privamp %s) %s", ie.flag, ie.value, c.Name(), ie.reason)
	}
	return err
}

// finite reports a non-finite flag value as bad input.
func finite(flag string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return badInput("--%s must be a finite number, got %v", flag, v)
	}
	return nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
