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
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/privamp/privamp/internal/quantity"
	"golang.org/x/term"
)

// Mode is the choice between tables (the default), JSON and CSV.
// Markdown renders pipe tables (privamp tables --markdown). Width > 0 (a
// terminal's width) wraps the tables' cells and the footnotes to it; JSON,
// CSV and Markdown are never wrapped.
type Mode struct {
	JSON, CSV, Markdown bool
	Width               int
}

// ReadableWidth is the width of output that goes to a file or a pipe: a
// reader's pager or editor, not a terminal that says how wide it is.
const ReadableWidth = 100

// WidthFor returns the width to render for w: a terminal's own width; for
// another file (a pipe, a redirection) the COLUMNS environment variable
// when it holds a number (0: no limit), else ReadableWidth; 0 (no limit)
// for a writer that is not a file (a buffer).
func WidthFor(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	if term.IsTerminal(int(f.Fd())) {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			return width
		}
	}
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c >= 0 {
		return c
	}
	return ReadableWidth
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
		return writeCSV(w, r)
	}
	if r.Title != "" {
		fmt.Fprintln(w, wrap(r.Title, m.Width, 0))
	}
	var sources []string // footnotes, so long citations keep tables narrow
	if len(r.Rows) > 0 {
		index := map[string]int{}
		cells := [][]string{{"quantity", "value", "unit", "source"}}
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
			cells = append(cells, []string{x[0], x[1], x[2], ref})
		}
		if err := renderTable(w, cells, m.Width); err != nil {
			return err
		}
	}
	if r.Table != nil {
		if err := renderTable(w, append([][]string{r.Table.Header}, r.Table.Rows...), m.Width); err != nil {
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

// LongHeader is the header of the long CSV format, in which a document
// with headline rows and a table is one table: a headline row is
// ("summary", its number, quantity, value, unit, source), and each cell of
// the table ("table", its row's number, the column's name, the cell, "",
// ""). The first cell of a table row names the row and is kept whole;
// other cells with several numbers get a row per number (numberRows).
var LongHeader = []string{"section", "row", "key", "value", "unit", "source"}

// writeCSV writes the document as one CSV table with one number per cell:
// the headline rows (quantity, value, unit, source), the table alone, or,
// with CSVAll, both in the long format (LongHeader). A headline row that
// pairs values ("ε by PLD / optimistic estimate" = "2.38 / 1.67") becomes
// one row per value.
func writeCSV(w io.Writer, r Doc) error {
	cw := csv.NewWriter(w)
	var rows [][4]string
	for _, x := range r.Rows {
		for _, y := range splitPair(x) {
			rows = append(rows, numberRows(y)...)
		}
	}
	switch {
	case r.Table != nil && r.CSVAll:
		_ = cw.Write(LongHeader)
		for i, x := range rows {
			_ = cw.Write([]string{"summary", strconv.Itoa(i + 1), x[0], x[1], x[2], x[3]})
		}
		for i, tr := range r.Table.Rows {
			for j, c := range tr {
				x := [][4]string{{r.Table.Header[j], strings.TrimPrefix(c, "—")}} // "—": empty, not a number
				if j > 0 {                                                        // the first column names the row ("δ < 1/n"): a label, kept whole
					x = numberRows(x[0])
				}
				for _, y := range x {
					_ = cw.Write([]string{"table", strconv.Itoa(i + 1), y[0], y[1], y[2], y[3]})
				}
			}
		}
	case r.Table != nil:
		_ = cw.Write(r.Table.Header)
		_ = cw.WriteAll(r.Table.Rows)
	default:
		_ = cw.Write([]string{"quantity", "value", "unit", "source"})
		for _, x := range rows {
			_ = cw.Write(x[:])
		}
	}
	cw.Flush()
	return cw.Error()
}

// splitPair splits a row whose quantity and value both list k ≥ 2 parts
// separated by " / " into k rows.
func splitPair(x [4]string) [][4]string {
	qs, vs := strings.Split(x[0], " / "), strings.Split(x[1], " / ")
	if len(qs) < 2 || len(qs) != len(vs) {
		return [][4]string{x}
	}
	out := make([][4]string, len(qs))
	for i := range qs {
		out[i] = [4]string{qs[i], vs[i], x[2], x[3]}
	}
	return out
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

// renderTable draws cells (the header first) as a box table at most width
// columns wide (0: no limit): when the cells' natural widths do not fit,
// the widest columns are narrowed first, to one common cap, and their
// cells (headers included) wrapped at spaces.
func renderTable(w io.Writer, cells [][]string, width int) error {
	cells[0] = slices.Clone(cells[0])
	for i, h := range cells[0] {
		cells[0][i] = Header(h)
	}
	if width > 0 {
		cells = fit(cells, width)
	}
	return box(w, cells)
}

// fit wraps the cells so that the table (with its borders: 3 columns per
// column and 1) is at most width wide where it can be: every column keeps
// its natural width up to a common cap, the largest that fits (at least
// 6), and longer cells are wrapped at spaces (a word longer than the cap
// is broken).
func fit(cells [][]string, width int) [][]string {
	nat := make([]int, len(cells[0]))
	for _, row := range cells {
		for j, c := range row {
			for _, l := range strings.Split(c, "\n") {
				nat[j] = max(nat[j], utf8.RuneCountInString(l))
			}
		}
	}
	room := width - 3*len(nat) - 1
	total := 0
	for _, n := range nat {
		total += n
	}
	if total <= room {
		return cells
	}
	used := func(c int) int {
		s := 0
		for _, n := range nat {
			s += min(n, c)
		}
		return s
	}
	c := 6
	for used(c+1) <= room && c < slices.Max(nat) {
		c++
	}
	out := make([][]string, len(cells))
	for i, row := range cells {
		out[i] = make([]string, len(row))
		for j, cell := range row {
			out[i][j] = wrapCell(cell, c)
		}
	}
	return out
}

// wrapCell wraps s at spaces into lines of at most width runes, breaking
// longer words.
func wrapCell(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := []rune{}
		for _, word := range strings.Fields(para) {
			wr := []rune(word)
			if len(line) > 0 && len(line)+1+len(wr) > width {
				lines, line = append(lines, string(line)), line[:0:0]
			}
			if len(line) > 0 {
				line = append(line, ' ')
			}
			for len(line)+len(wr) > width { // a word longer than a line
				k := width - len(line)
				lines, line, wr = append(lines, string(append(line, wr[:k]...))), line[:0:0], wr[k:]
			}
			line = append(line, wr...)
		}
		lines = append(lines, string(line))
	}
	return strings.Join(lines, "\n")
}

// Header formats a column name for a table: "_" as a space, Latin letters
// upper-cased, every other letter kept ("target ε" is "TARGET ε", and δ
// stays δ rather than becoming Δ, another quantity).
func Header(name string) string {
	s := strings.TrimSpace(strings.ReplaceAll(name, "_", " "))
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
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
