// Package field is privamp's one description of bad input to a library
// function: which field, what value, and why it is refused. Library packages
// return *Error values (never messages that name a command-line flag); the
// command line maps Field to the flag or file key that set it.
//
// The checks here are the ones every package repeats (finite and positive, a
// probability, a whole number in a range); each returns nil or an *Error.
package field

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Error is a refused input value.
type Error struct {
	// Field is the name of the input, as the library spells it
	// ("sigma", "loss.lipschitz", "people line 17").
	Field string
	// Value is the refused value (nil when there is none, e.g. a missing field).
	Value any
	// Reason says what is allowed, as a phrase that follows the field's
	// name: "must be in (0, 1)".
	Reason string
}

func (e *Error) Error() string {
	if e.Value == nil {
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

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var fe *Error
	ok := errors.As(err, &fe)
	return fe, ok
}

// Prefix returns err with its field renamed to prefix.field (for nested
// inputs); other errors are returned unchanged.
func Prefix(prefix string, err error) error {
	if fe, ok := As(err); ok {
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
