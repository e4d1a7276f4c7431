// Package output renders a privamp command's result as tables, as one JSON
// object or as CSV: the presentation layer all of cmd/privamp's commands
// share (in the manner of the gh CLI's shared packages), so that a command
// is an options struct, one library call and a Doc.
package output

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/privamp/privamp/internal/quantity"
)

// Mode is the choice between tables (the default), JSON and CSV.
// Markdown renders pipe tables (privamp tables --markdown). Width > 0 (a
// terminal's width) wraps the tables' cells and the footnotes to it; JSON,
// CSV and Markdown are never wrapped.
type Mode struct {
	JSON, CSV, Markdown bool
	Width               int
}

// Table is tabular data under a header.
type Table struct {
	Header []string
	Rows   [][]string
}

// Doc is what a command shows.
type Doc struct {
	Title string
	// Rows are the headline quantities: quantity, value (already
	// formatted, rounded in the direction its kind requires), unit, source.
	Rows        [][4]string
	Table       *Table
	Assumptions []string
	Notes       []string
	// Result is the typed result (a struct with json tags, or Merged
	// structs) that JSON prints as one object, with "command" from
	// Command when the result has none.
	Result  any
	Command string
	// CSVAll makes CSV print the headline rows, a blank line, then the table.
	CSVAll bool
}

// Render writes r to w: one JSON object of r.Result, CSV, or the tables
// with footnoted sources, then the assumptions and notes.
func Render(w io.Writer, m Mode, r Doc) error {
	switch {
	case m.Markdown:
		return markdown(w, r)
	case m.JSON && r.Result != nil:
		obj, err := resultObject(r)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(obj)
	case m.JSON:
		return fmt.Errorf("internal error: no typed result to print as JSON")
	case m.CSV:
		cw := csv.NewWriter(w)
		if r.Table == nil || r.CSVAll {
			_ = cw.Write([]string{"quantity", "value", "unit", "source"})
			for _, x := range r.Rows {
				_ = cw.Write(x[:])
			}
		}
		if r.Table != nil {
			if r.CSVAll {
				cw.Flush()
				fmt.Fprintln(w)
			}
			_ = cw.Write(r.Table.Header)
			_ = cw.WriteAll(r.Table.Rows)
		}
		cw.Flush()
		return cw.Error()
	}
	if r.Title != "" {
		fmt.Fprintln(w, r.Title)
	}
	var sources []string // footnotes, so long citations keep tables narrow
	if len(r.Rows) > 0 {
		index := map[string]int{}
		t := newTable(w, m.Width)
		t.Header("quantity", "value", "unit", "source")
		for _, x := range r.Rows {
			ref := ""
			if x[3] != "" {
				k, ok := index[x[3]]
				if !ok {
					sources = append(sources, x[3])
					k = len(sources)
					index[x[3]] = k
				}
				ref = "[" + strconv.Itoa(k) + "]"
			}
			_ = t.Append(x[0], x[1], x[2], ref)
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if r.Table != nil {
		t := newTable(w, m.Width)
		t.Header(anySlice(r.Table.Header)...)
		for _, rr := range r.Table.Rows {
			_ = t.Append(anySlice(rr)...)
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if len(sources) > 0 {
		fmt.Fprintln(w, "Sources:")
		for i, src := range sources {
			fmt.Fprintf(w, "  [%d] %s\n", i+1, wrap(src, m.Width, 6))
		}
	}
	if len(r.Assumptions) > 0 {
		fmt.Fprintln(w, "Assumptions:")
		for _, a := range r.Assumptions {
			fmt.Fprintf(w, "  - %s\n", wrap(a, m.Width, 4))
		}
	}
	if len(r.Notes) > 0 {
		fmt.Fprintln(w, "Notes:")
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  - %s\n", wrap(n, m.Width, 4))
		}
	}
	return nil
}

// Object is the one --json object of r (its Result, Command, Assumptions
// and Notes), as Render prints it: what package query returns, so that a
// library call and the command line give the same object.
func Object(r Doc) (map[string]any, error) { return resultObject(r) }

// Merged is a result made of several typed parts whose keys are merged.
type Merged []any

// resultObject is the one --json object of a typed result: its fields, plus
// "assumptions" and "notes" from the report when the result has none, and
// "<key>_reason": "no finite guarantee" beside every ε that encodes as null
// (at any depth). Numbers keep their exact encoding.
func resultObject(r Doc) (map[string]any, error) {
	parts, ok := r.Result.(Merged)
	if !ok {
		parts = Merged{r.Result}
	}
	obj := map[string]any{}
	for _, p := range parts {
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&obj); err != nil {
			return nil, err
		}
	}
	if _, ok := obj["command"]; !ok && r.Command != "" {
		obj["command"] = r.Command
	}
	for _, k := range []string{"assumptions", "notes"} {
		if v, ok := obj[k]; ok && v == nil {
			delete(obj, k) // an empty list, not null
		}
	}
	if _, ok := obj["assumptions"]; !ok && len(r.Assumptions) > 0 {
		obj["assumptions"] = r.Assumptions
	}
	if _, ok := obj["notes"]; !ok && len(r.Notes) > 0 {
		obj["notes"] = r.Notes
	}
	var reasons func(v any)
	reasons = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if e == nil && strings.Contains(k, "epsilon") {
					if _, ok := x[k+"_reason"]; !ok {
						x[k+"_reason"] = quantity.NoFinite
					}
				}
				reasons(e)
			}
		case []any:
			for _, e := range x {
				reasons(e)
			}
		}
	}
	reasons(obj)
	return obj, nil
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// markdown prints a document as Markdown: a heading, the headline rows
// and the table as pipe tables, then assumptions and notes as lists.
func markdown(w io.Writer, r Doc) error {
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }
	pipe := func(cells []string) string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = esc(c)
		}
		return "| " + strings.Join(out, " | ") + " |\n"
	}
	var b strings.Builder
	if r.Title != "" {
		fmt.Fprintf(&b, "## %s\n\n", esc(r.Title))
	}
	if len(r.Rows) > 0 {
		b.WriteString(pipe([]string{"quantity", "value", "unit", "source"}))
		b.WriteString("|---|---|---|---|\n")
		for _, x := range r.Rows {
			b.WriteString(pipe(x[:]))
		}
		b.WriteString("\n")
	}
	if r.Table != nil {
		b.WriteString(pipe(r.Table.Header))
		b.WriteString("|" + strings.Repeat("---|", len(r.Table.Header)) + "\n")
		for _, rr := range r.Table.Rows {
			b.WriteString(pipe(rr))
		}
		b.WriteString("\n")
	}
	for _, sec := range []struct {
		name  string
		items []string
	}{{"Assumptions", r.Assumptions}, {"Notes", r.Notes}} {
		if len(sec.items) == 0 {
			continue
		}
		fmt.Fprintf(&b, "**%s**\n\n", sec.name)
		for _, it := range sec.items {
			fmt.Fprintf(&b, "- %s\n", esc(it))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// newTable is a table writer that wraps its cells to width (0: no limit).
func newTable(w io.Writer, width int) *tablewriter.Table {
	if width <= 0 {
		return tablewriter.NewWriter(w)
	}
	return tablewriter.NewTable(w, tablewriter.WithMaxWidth(width), tablewriter.WithRowAutoWrap(tw.WrapNormal), tablewriter.WithHeaderAutoWrap(tw.WrapNormal))
}

// wrap breaks s at spaces so that each line, after an indent of indent
// columns, fits in width (0: no limit); continuation lines get the indent.
func wrap(s string, width, indent int) string {
	if width <= 0 || utf8.RuneCountInString(s)+indent <= width {
		return s
	}
	var b strings.Builder
	col := indent
	for i, word := range strings.Fields(s) {
		n := utf8.RuneCountInString(word)
		if i > 0 && col+1+n > width {
			b.WriteString("\n" + strings.Repeat(" ", indent))
			col = indent
		} else if i > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += n
	}
	return b.String()
}
