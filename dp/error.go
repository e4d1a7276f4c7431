package dp

import (
	"strings"

	"github.com/privamp/privamp/internal/field"
)

// Error is privamp's one error type of bad input: every package returns a
// *Error for a value it refuses, whether the value is a parameter of a
// library call, a key or line of an input file (JSON or CSV), or an output
// file that cannot be created, so that
//
//	var e *dp.Error
//	if errors.As(err, &e) { … e.Field, e.Value, e.Reason, e.Line … }
//
// finds it whatever package returned it. Its fields:
//
//   - Field: the name of the input as the library spells it — a parameter
//     ("sigma", "loss.lipschitz"), the path of a key in an input file
//     ("steps[3].variance"; empty for the file as a whole or a CSV line),
//     or the option that named an output file ("out").
//   - Value: the refused value (nil when there is none, e.g. a missing
//     field); for an output file, its path.
//   - Reason: what is allowed or what is wrong, a phrase that follows the
//     field's name ("must be in (0, 1)").
//   - Line: the 1-based line of the input file that holds the value (0 when
//     unknown or not a file).
//   - Where: what Field names ([Parameter], [InputFile], [OutputFile]),
//     which decides how the error reads:
//     "sigma must be a finite number > 0, got 0",
//     `line 3: field "steps[2].variance": must be > 0`,
//     "--out x.json: cannot be created: permission denied".
//
// An error never names a command-line flag except an output file's option:
// the command line maps Field to the flag that set it.
//
// The type is defined in internal/field, where privamp's packages under
// internal/ (which may not import dp) build it; Error is its public name.
type Error = field.Error

// ErrorWhere is what an [Error]'s Field names.
type ErrorWhere = field.Where

// The values of [ErrorWhere].
const (
	Parameter  = field.Parameter  // a parameter of a library call
	InputFile  = field.InputFile  // a key (or, with Field empty, a line) of an input file
	OutputFile = field.OutputFile // the option that named an output file
)

// Errors is several refused inputs reported together — every invalid row
// of a file, every mismatch between a data set and a plan — each an *Error,
// in order. It prints them joined by "; "; a function that returns one
// wraps it in a message that says what they are and lists at most a bounded
// number (as shifted/plan's ReadCSV and Arrange do), and errors.As finds
// both the list and, through it, its first *Error.
type Errors []*Error

func (e Errors) Error() string {
	var b strings.Builder
	for i, x := range e {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(x.Error())
	}
	return b.String()
}

// Unwrap returns the errors of the list.
func (e Errors) Unwrap() []error {
	out := make([]error, len(e))
	for i, x := range e {
		out[i] = x
	}
	return out
}
