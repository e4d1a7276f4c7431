package tables

import "strings"

// Grid is the paper's table as text, one row per table row: the label, each
// cell's printed form with its mark (hidden constants, logarithms), and the
// row's source.
func (d Description) Grid() (header []string, rows [][]string) {
	header = []string{"row"}
	for _, c := range d.Columns {
		header = append(header, c.Header)
	}
	for _, rw := range d.Rows {
		line := []string{rw.Label}
		for _, c := range rw.Cells {
			line = append(line, joinNonEmpty(" ", c.Form, c.Mark))
		}
		rows = append(rows, append(line, rw.Source))
	}
	return append(header, "source"), rows
}

// EvaluatedGrid lists an evaluated table one line per evaluated cell (and
// one per explicit bound behind a cell): row, column, the paper's form, the
// value ("∞" where none is finite, "—" where none is given; a capped rate
// with the rate beside it), its label and its source.
func (d Description) EvaluatedGrid() (header []string, rows [][]string) {
	header = []string{"row", "column", "form in the paper", "value", "label", "source"}
	for _, rw := range d.Rows {
		for ci, c := range rw.Cells {
			if !c.Evaluable {
				continue
			}
			val := "—"
			switch {
			case c.Value != nil && c.Capped:
				val = c.Value.String() + " (capped; rate " + c.Raw.String() + ")"
			case c.Value != nil:
				val = c.Value.String()
			case c.ValueReason != "":
				val = "∞"
			}
			rows = append(rows, []string{rw.Label, d.Columns[ci].Header, joinNonEmpty(" ", c.Form, c.Mark), val, c.Label, c.Source})
			if e := c.Explicit; e != nil {
				val, lab := "—", "n/a: "+e.Reason
				if e.Reason == "" && e.Value != nil {
					val, lab = e.Value.String(), "exact: explicit constants"
				}
				rows = append(rows, []string{rw.Label, d.Columns[ci].Header + " (explicit)", e.Form, val, lab, e.Source})
			}
		}
	}
	return header, rows
}

// joinNonEmpty joins the non-empty strings with sep.
func joinNonEmpty(sep string, ss ...string) string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, sep)
}
