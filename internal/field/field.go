// Package field is privamp's one description of bad input: which field, what
// value, and why it is refused; for an input file, its line. Library packages
// return *Error values (never messages that name a command-line flag); the
// command line maps Field to the flag that set it, or names the file. Its
// public name is dp.Error.
//
// The checks here are the ones every package repeats (finite and positive, a
// probability, a whole number in a range); each returns nil or an *Error.
package field

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Error is a refused input: which field, what value, and why. It is the one
// error type of bad input in privamp, whatever the input: a parameter of a
// library call, a key or line of an input file (JSON or CSV), or an output
// file that cannot be created. Where says which, and so how it reads.
type Error struct {
	// Field is the name of the input, as the library spells it: a
	// parameter ("sigma", "loss.lipschitz"), the path of a key in an input
	// file ("steps[3].variance"; empty for the file as a whole or a CSV
	// line), or the option that named an output file ("out"; empty until
	// the caller sets it).
	Field string
	// Value is the refused value (nil when there is none, e.g. a missing
	// field); for an output file, its path.
	Value any
	// Reason says what is allowed or what is wrong, as a phrase that
	// follows the field's name: "must be in (0, 1)".
	Reason string
	// Line is the 1-based line of an input file that holds the value (0
	// when unknown, as for checks made after reading, or not a file).
	Line int
	// Where is what Field names: a parameter (the zero value), a key of an
	// input file, or an output file's option.
	Where Where
}

// Where is what an Error's Field names; it decides how the error reads.
type Where uint8

const (
	// Parameter: "sigma must be a finite number > 0, got 0" (the value
	// follows the reason).
	Parameter Where = iota
	// InputFile: `line 3: field "steps[2].variance": must be > 0` (the
	// line and the field only when known; the reason states the value).
	InputFile
	// OutputFile: "--out results/x.json: cannot be created: no such file
	// or directory" (the option only when known; Value is the path).
	OutputFile
)

func (e *Error) Error() string {
	switch {
	case e.Where == OutputFile:
		path := fmt.Sprint(e.Value)
		if e.Field != "" {
			return "--" + e.Field + " " + path + ": " + e.Reason
		}
		return path + ": " + e.Reason
	case e.Where == InputFile || e.Line > 0:
		var b strings.Builder
		if e.Line > 0 {
			fmt.Fprintf(&b, "line %d: ", e.Line)
		}
		if e.Field != "" {
			fmt.Fprintf(&b, "field %q: ", e.Field)
		}
		b.WriteString(e.Reason)
		return b.String()
	case e.Value == nil:
		return e.Field + " " + e.Reason
	}
	return fmt.Sprintf("%s %s, got %s", e.Field, e.Reason, FormatValue(e.Value))
}

// FormatValue prints a refused value compactly (floats with every digit).
func FormatValue(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return strconv.Quote(x)
	}
	return fmt.Sprint(v)
}

// New returns an *Error.
func New(name string, value any, reason string, args ...any) *Error {
	if len(args) > 0 {
		reason = fmt.Sprintf(reason, args...)
	}
	return &Error{Field: name, Value: value, Reason: reason}
}

// AtLine returns the *Error of line (1-based) of an input file: "line 3:
// reason".
func AtLine(line int, reason string, args ...any) *Error {
	if len(args) > 0 {
		reason = fmt.Sprintf(reason, args...)
	}
	return &Error{Line: line, Reason: reason, Where: InputFile}
}

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var fe *Error
	ok := errors.As(err, &fe)
	return fe, ok
}

// Prefix returns err with its field renamed to prefix.field (for nested
// inputs); other errors, and errors that do not name a parameter, are
// returned unchanged.
func Prefix(prefix string, err error) error {
	if fe, ok := As(err); ok && fe.Where == Parameter {
		c := *fe
		c.Field = prefix + "." + c.Field
		return &c
	}
	return err
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Positive checks 0 < v < ∞.
func Positive(name string, v float64) error {
	if !finite(v) || !(v > 0) {
		return New(name, v, "must be a finite number > 0")
	}
	return nil
}

// NonNegative checks 0 ≤ v < ∞.
func NonNegative(name string, v float64) error {
	if !finite(v) || v < 0 {
		return New(name, v, "must be a finite number ≥ 0")
	}
	return nil
}

// OpenUnit checks 0 < v < 1.
func OpenUnit(name string, v float64) error {
	if !(v > 0 && v < 1) {
		return New(name, v, "must be in (0, 1)")
	}
	return nil
}

// Range checks lo ≤ v ≤ hi (finite).
func Range(name string, v, lo, hi float64) error {
	if !finite(v) || v < lo || v > hi {
		return New(name, v, "must be in [%s, %s]", FormatValue(lo), FormatValue(hi))
	}
	return nil
}

// Count checks that v is a whole number in [lo, hi].
func Count(name string, v, lo, hi int64) error {
	if v < lo || v > hi {
		return New(name, v, "must be a whole number in [%s, %s]", FormatInt(lo), FormatInt(hi))
	}
	return nil
}

// FormatInt prints large bounds readably: 1e12 rather than 1000000000000.
func FormatInt(v int64) string {
	if v >= 1_000_000 && v%1_000_000 == 0 {
		e, m := 0, v
		for m%10 == 0 {
			m /= 10
			e++
		}
		if m < 10 {
			if m == 1 {
				return "1e" + strconv.Itoa(e)
			}
			return strconv.FormatInt(m, 10) + "e" + strconv.Itoa(e)
		}
	}
	return strconv.FormatInt(v, 10)
}

// First returns the first non-nil error.
func First(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
