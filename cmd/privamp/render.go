package main

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"io"
	"slices"
	"strings"

	"github.com/privamp/privamp/internal/atomicfile"

	"github.com/privamp/privamp/internal/output"
	"github.com/privamp/privamp/internal/quantity"
)

// noFinite is how privamp prints an infinite ε.
const noFinite = dp.NoFinite

// report is what a command computes, ready to render as a table, JSON or CSV.
type report struct {
	Title       string
	Rows        []row  // headline quantities with units and sources
	Table       *table // optional tabular data; --csv prints it
	Assumptions []string
	Notes       []string
	// Result is the command's typed result (a struct with json tags, or
	// merged structs); --json prints it as one object, with "command" from
	// Command when the result has none. Numbers in it use the
	// internal/quantity kinds, so non-finite values encode as null.
	Result  any
	Command string
	// CSVAll makes --csv print the headline rows too (quantity, value,
	// unit, source), then a blank line, then the table: for commands whose
	// answer (a verdict, a certified ε) is in the rows and whose table holds
	// the checks.
	CSVAll bool
}

// row is one headline quantity. Value is a string or a value whose kind
// (internal/quantity: Loss, Max, Noise, Num) decides how it is rounded.
type row struct {
	Quantity string
	Value    any
	Unit     string
	Source   string
}

// text prints a row's value.
func (x row) text() string {
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

type table struct {
	Header []string
	Rows   [][]string
}

// outputMode is the --json/--csv choice.
type outputMode struct{ json, csv, markdown bool }

func (m outputMode) validate() error {
	if m.json && m.csv {
		return badInput("--json and --csv cannot be used together")
	}
	return nil
}

func render(w io.Writer, m outputMode, r *report) error {
	d := output.Doc{Title: r.Title, Assumptions: r.Assumptions, Notes: r.Notes, Result: r.Result, Command: r.Command, CSVAll: r.CSVAll}
	if r.Table != nil {
		d.Table = &output.Table{Header: r.Table.Header, Rows: r.Table.Rows}
	}
	for _, x := range r.Rows {
		d.Rows = append(d.Rows, [4]string{x.Quantity, x.text(), x.Unit, x.Source})
	}
	return output.Render(w, output.Mode{JSON: m.json, CSV: m.csv, Markdown: m.markdown, Width: output.WidthFor(w)}, d)
}

// merged is a result made of several typed parts whose keys are merged.
type merged = output.Merged

// Files, by package internal/atomicfile: outputs never half-written, "-" and
// special files written directly, inputs never overwritten, "-" as stdin.
var (
	writeFileAtomic  = atomicfile.Write
	streamFileAtomic = atomicfile.Stream
	samePath         = atomicfile.Same
	checkOutputs     = atomicfile.Check
	flagged          = atomicfile.Flag
	openInput        = atomicfile.Open
)

// joinNonEmpty joins the non-empty strings with sep.
func joinNonEmpty(sep string, ss ...string) string {
	return strings.Join(slices.DeleteFunc(slices.Clone(ss), func(s string) bool { return s == "" }), sep)
}

// addPLD inserts the PLD accountant's sound ε and optimistic estimate (nil:
// none about the mechanism) as row at, or notes why there is none.
func addPLD(r *report, at int, eps dp.Loss, opt *dp.Max, src, note string) {
	if eps > 0 && opt != nil {
		r.Rows = slices.Insert(r.Rows, at, row{"ε by PLD / optimistic estimate", fmt.Sprintf("%s / %s", eps, *opt), "the truth lies above the estimate", src})
	} else if eps > 0 { // the optimistic value of a dominating pair is not about the mechanism
		r.Rows = slices.Insert(r.Rows, at, row{"ε by PLD", eps, "no optimistic estimate (see the notes)", src})
	}
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
}
