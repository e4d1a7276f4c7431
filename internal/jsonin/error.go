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

// path is the location of a value, built on the stack as the decoder
// descends and rendered only when an error names it.
type path struct {
	parent *path
	key    string // "" for a list element
	index  int
}

func (p *path) String() string {
	if p == nil {
		return ""
	}
	var parts []*path
	for q := p; q != nil; q = q.parent {
		parts = append(parts, q)
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		q := parts[i]
		if q.key == "" {
			fmt.Fprintf(&b, "[%d]", q.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(q.key)
	}
	return b.String()
}
