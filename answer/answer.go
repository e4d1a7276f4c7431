// Package answer holds a question's answer laid out for showing: a title,
// headline rows (quantity, value, unit, source), an optional table, the
// assumptions and notes, and the typed result (a struct with json tags) that
// JSON prints. The library packages build their answers with it, next to the
// results they describe; the command line only renders a Report (as text,
// Markdown, CSV or JSON) and computes nothing (issue 24: a thin CLI).
//
// Row is the one model of a headline line: tables.Line is a Row.
package answer

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/quantity"
)

// Report is an answer ready to render as a table, JSON or CSV.
type Report struct {
	Title       string
	Rows        []Row  // headline quantities with units and sources
	Table       *Table // optional tabular data; CSV prints it
	Assumptions []string
	Notes       []string
	// Result is the typed result (a struct with json tags, or merged
	// structs); JSON prints it as one object, with "command" from Command
	// when the result has none. Numbers in it use the dp rounding kinds, so
	// non-finite values encode as null.
	Result  any
	Command string
	// CSVAll makes CSV print the headline rows too (quantity, value, unit,
	// source), then a blank line, then the table: for answers (a verdict, a
	// certified ε) that are in the rows and whose table holds the checks.
	CSVAll bool
}

// Flag is a caller's spelling of an option, named by its field in
// snake_case ("target_epsilon", "csv"): answers that tell the reader what to
// ask next name the option as the caller does (a command line's "--csv").
type Flag func(name string) string

// Spell is f's spelling of name; a nil Flag spells it as named.
func (f Flag) Spell(name string) string {
	if f == nil {
		return name
	}
	return f(name)
}

// Row is one headline quantity. Value is a string or a value whose kind
// (dp.Loss, dp.Max, dp.Noise, dp.Num) decides how it is rounded.
type Row struct {
	Quantity string
	Value    any
	Unit     string
	Source   string
}

// Table is tabular data under a header.
type Table struct {
	Header []string
	Rows   [][]string
}

// Text prints a row's value: a Stringer (the dp kinds) as it rounds itself,
// a float64 to the nearest, anything else as fmt prints it.
func (x Row) Text() string {
	switch v := x.Value.(type) {
	case string:
		return v
	case fmt.Stringer:
		return v.String()
	case float64:
		return quantity.Nearest(v)
	case int, int64:
		return fmt.Sprint(v)
	}
	return fmt.Sprint(x.Value)
}

// NewRow is the row (quantity, value, unit, source).
func NewRow(q string, v any, unit, src string) Row { return Row{q, v, unit, src} }

// Add appends the row (quantity, value, unit, source).
func (r *Report) Add(q string, v any, unit, src string) {
	r.Rows = append(r.Rows, Row{q, v, unit, src})
}

// Value is the text of the first row stating quantity q ("" if none).
func (r *Report) Value(q string) string {
	for _, x := range r.Rows {
		if x.Quantity == q {
			return x.Text()
		}
	}
	return ""
}

// AddPLD inserts the PLD accountant's sound ε and optimistic estimate (nil:
// none about the mechanism) as row at, or notes why there is none.
func (r *Report) AddPLD(at int, eps dp.Loss, opt *dp.Max, src, note string) {
	if eps > 0 && opt != nil {
		r.Rows = slices.Insert(r.Rows, at, Row{"ε by PLD / optimistic estimate", fmt.Sprintf("%s / %s", eps, *opt), "the truth lies above the estimate", src})
	} else if eps > 0 { // the optimistic value of a dominating pair is not about the mechanism
		r.Rows = slices.Insert(r.Rows, at, Row{"ε by PLD", eps, "no optimistic estimate (see the notes)", src})
	}
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
}

// JoinNonEmpty joins the non-empty strings with sep.
func JoinNonEmpty(sep string, ss ...string) string {
	return strings.Join(slices.DeleteFunc(slices.Clone(ss), func(s string) bool { return s == "" }), sep)
}

// Or returns s, or def when s is empty.
func Or(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

// Order prints an RDP order; ∞ means a pure-DP bound.
func Order(a float64) string {
	if math.IsInf(a, 1) {
		return "∞ (pure DP)"
	}
	return quantity.Nearest(a)
}

// CheckNum prints a check's value or bound; NaN (none) prints empty.
func CheckNum(x dp.Num) string {
	if math.IsNaN(float64(x)) {
		return ""
	}
	return x.String()
}
