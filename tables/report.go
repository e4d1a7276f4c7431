package tables

import (
	"fmt"

	show "github.com/privamp/privamp/answer" // tables has its own func answer
	"github.com/privamp/privamp/internal/output"
)

// The answers of privamp tables and calc, laid out for showing (package answer).

// Report lays out a calculator's or library's answer under a command's
// name and a title: its lines as rows, its source's assumptions and notes,
// its typed result.
func (ans Answer) Report(command, title string) *show.Report {
	r := &show.Report{Title: title, Notes: ans.Source.Notes, Assumptions: append([]string{}, ans.Source.Assumptions...), Command: command, Result: ans.Result}
	for _, l := range ans.Lines {
		r.Add(l.Quantity, l.Value, l.Unit, l.Source)
	}
	return r
}

// CalcReport lays out calculator name's answer: titled by its paper and
// theorem, with the validity range among the assumptions and the source
// merged into the result.
func (ans Answer) CalcReport(name string) *show.Report {
	src := ans.Source
	r := ans.Report("calc "+name, fmt.Sprintf("%s — %s (seed %s), %s", ans.Title, src.Paper, src.Seed, src.Theorem))
	r.Assumptions, r.Result = append(r.Assumptions, "validity range: "+src.Validity), output.Merged{src, ans.Result}
	return r
}

// CatalogueReport lists the calculators; flag spells the option that
// describes one.
func CatalogueReport(flag show.Flag) *show.Report {
	list := Catalogue()
	r := &show.Report{Title: "Calculators (privamp calc NAME " + flag.Spell("help") + ")", Table: &show.Table{Header: []string{"name", "what", "seed", "source"}}, Command: "calc",
		Result: struct {
			Calculators []CalculatorEntry `json:"calculators"`
		}{list}}
	for _, e := range list {
		r.Table.Rows = append(r.Table.Rows, []string{e.Name, e.Description, e.Seed, e.Source})
	}
	return r
}

// ListReport lists the rate tables.
func ListReport() *show.Report {
	r := &show.Report{Title: "Rate tables from the seed papers (privamp tables NAME renders one)",
		Table: &show.Table{Header: []string{"name", "seed", "source", "title", "paper"}},
		Notes: []string{"every table also answers to its aliases (e.g. seed-001 for bst14)"}, Command: "tables"}
	var list []Description
	for _, t := range All() {
		src := t.Source
		if t.Reconstructed {
			src = "Figure 1 (reconstructed)"
		}
		r.Table.Rows = append(r.Table.Rows, []string{t.Name, t.Seed, src, t.Title, t.Paper})
		d := t.Describe(nil)
		d.Columns, d.Rows, d.Assumptions, d.Notes = nil, nil, nil, nil
		list = append(list, d)
	}
	r.Result = struct {
		Tables []Description `json:"tables"`
	}{list}
	return r
}

// Report lays out a Description: the paper's grid, or when evaluated one
// line per evaluated cell (and explicit bound) with the best rows; flag
// spells the parameters a reader can evaluate it at.
func (d Description) Report(flag show.Flag) *show.Report {
	r := &show.Report{Title: d.Title + " — " + d.Paper + " (seed " + d.Seed + "), " + d.Source, Assumptions: d.Assumptions, Notes: d.Notes, Command: "tables", Result: d}
	if !d.Evaluated {
		hdr, rows := d.Grid()
		r.Table = &show.Table{Header: hdr, Rows: rows}
		r.Notes = append(r.Notes, fmt.Sprintf("evaluate at your numbers with %s, %s, %s, %s (see %s)", flag.Spell("n"), flag.Spell("dimension"), flag.Spell("epsilon"), flag.Spell("delta"), flag.Spell("help")))
		return r
	}
	hdr, rows := d.EvaluatedGrid()
	r.Table = &show.Table{Header: hdr, Rows: rows}
	for _, b := range d.Best {
		gap := ""
		if float64(b.Gap) == float64(b.Gap) { // not NaN
			gap = "gap to the lower bound ×" + b.Gap.String()
		}
		r.Add(b.Group, b.Value, b.Which, show.JoinNonEmpty("; ", gap, "up to constants unless marked exact"))
	}
	return r
}
