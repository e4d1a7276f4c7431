package main

import (
	"io"

	"github.com/privamp/privamp/answer"
	"github.com/privamp/privamp/dp"

	"github.com/privamp/privamp/internal/atomicfile"

	"github.com/privamp/privamp/internal/output"
)

// noFinite is how privamp prints an infinite ε.
const noFinite = dp.NoFinite

// report and row are package answer's: the libraries build them.
type (
	report = answer.Report
	row    = answer.Row
)

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
		d.Rows = append(d.Rows, [4]string{x.Quantity, x.Text(), x.Unit, x.Source})
	}
	return output.Render(w, output.Mode{JSON: m.json, CSV: m.csv, Markdown: m.markdown, Width: output.WidthFor(w)}, d)
}

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
