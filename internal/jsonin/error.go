package jsonin

import (
	"fmt"
	"strings"
)

// Error is a bad input: Field is the path of the offending value ("n",
// "per_index[2].epsilon"; empty for the document as a whole), Line its
// 1-based line (0 when unknown, as for checks made after decoding), Value
// the value as read (nil when there is none to show) and Reason what is
// wrong.
type Error struct {
	Field  string
	Line   int
	Value  any
	Reason string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Reason)
	return b.String()
}
