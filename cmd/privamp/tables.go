package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/privamp/privamp/tables"
	"github.com/spf13/cobra"
)

func init() { register(newTablesCmd) }

// tableFlags are the numbers a table is instantiated at.
type tableFlags struct {
	p        tables.Params
	markdown bool
}

// tableParamFlags lists the numeric flags, their Params field and help.
func tableParamFlags(p *tables.Params) []struct {
	name string
	v    *float64
	help string
} {
	return []struct {
		name string
		v    *float64
		help string
	}{
		{"n", &p.N, "dataset size n (whole number ≥ 1); giving it evaluates the table"},
		{"d", &p.D, "dimension d (p in seeds 000 and 001), whole number ≥ 1"},
		{"epsilon", &p.Epsilon, "ε > 0"},
		{"delta", &p.Delta, "δ in (0, 1)"},
		{"lipschitz", &p.Lipschitz, "Lipschitz constant L > 0 (default 1)"},
		{"radius", &p.Radius, "radius R > 0 of a ball containing the constraint set (default 1; diameter 2R)"},
		{"diameter", &p.Diameter, "diameter ‖C‖₂ > 0 of the constraint set (default 2R)"},
		{"strong-convexity", &p.StrongConvexity, "strong convexity m / Δ / μ > 0 (default 1)"},
		{"smoothness", &p.Smoothness, "smoothness M / β > 0 (default 1)"},
		{"psi", &p.Psi, "Rashomon threshold ψ ≥ 0 (seed 000; default 0)"},
		{"tasks", &p.Tasks, "number of tasks k, 1 ≤ k ≤ n (seed 002; default 1)"},
		{"dx", &p.DX, "simplex dimension dx ≥ 2 (seed 003; default d)"},
		{"dy", &p.DY, "simplex dimension dy ≥ 2 (seed 003; default d)"},
		{"moment-order", &p.MomentOrder, "moment order k ≥ 2 (seed 004; default 2)"},
		{"moment-bound", &p.MomentBound, "k-th moment bound r_k > 0 (seed 004; default L)"},
		{"second-moment", &p.SecondMoment, "second moment bound r_2 ≤ r_k (seed 004; default r_k)"},
		{"moment-bound-2k", &p.MomentBound2k, "empirical 2k-th moment bound r̃_{2k,n} ≥ r_k (seed 004; default L)"},
		{"rho", &p.Rho, "ρ of ρ-zCDP > 0 (seed 004; default ρ*(ε, δ))"},
	}
}

func newTablesCmd(a *app) *cobra.Command {
	var tf tableFlags
	cmd := &cobra.Command{
		Use:   "tables [NAME]",
		Short: "The seed papers' rate tables, rendered and instantiated at your numbers",
		Long: `Without NAME, lists the rate tables reproduced from the five seed papers. With NAME, renders one
table cell by cell in the paper's form, with the hidden constants and logarithms marked, the
source of every cell, the assumptions and the validity range.

With --n (and --d, --epsilon, and --delta where the table needs it), every cell is evaluated at your
numbers: cells with explicit constants get a number marked "exact"; cells whose constants are hidden
get the rate's value marked "up to constants" (indicative only, never a bound). Where a theorem
behind a cell states explicit constants, that bound is shown too. The output names the best row
(smallest upper bound) and the gap to the paper's lower bound where it has one. Inputs outside a
table's validity range (e.g. seed 001's δ < 1/n, seed 003's ε < 8 ln(1/δ)) are refused.

Output: a table (default), --markdown, --csv or --json (one object).`,
		Args: cobra.MaximumNArgs(1),
		Example: `  privamp tables
  privamp tables bst14
  privamp tables bst14 --n 10000 --d 10 --epsilon 1 --delta 1e-6
  privamp tables ggp-l1 --n 1e5 --d 1000 --epsilon 1 --delta 1e-5 --markdown
  privamp tables lr-heavy-tailed --n 1e6 --d 100 --rho 1 --moment-order 4 --json`,
	}
	f := cmd.Flags()
	for _, pf := range tableParamFlags(&tf.p) {
		f.Float64Var(pf.v, pf.name, 0, pf.help)
	}
	f.BoolVar(&tf.markdown, "markdown", false, "print Markdown")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if tf.markdown && (a.mode.json || a.mode.csv) {
			return badInput("--markdown cannot be used with --json or --csv")
		}
		if len(args) == 0 {
			for _, pf := range tableParamFlags(&tf.p) {
				if changed(cmd, pf.name) {
					return badInput("--%s needs a table name (run 'privamp tables' to list them)", pf.name)
				}
			}
			return emit(a, tf.markdown, tablesListReport())
		}
		t, ok := tables.Lookup(args[0])
		if !ok {
			return badInput("unknown table %q (available: %s)", args[0], strings.Join(tables.Names(), ", "))
		}
		evaluate := false
		for _, pf := range tableParamFlags(&tf.p) {
			if changed(cmd, pf.name) {
				evaluate = true
				if err := finite(pf.name, *pf.v); err != nil {
					return err
				}
			}
		}
		if !evaluate {
			return emit(a, tf.markdown, tableReport(t, nil))
		}
		required := []string{"n", "d"}
		if !(t.EpsilonOptional && changed(cmd, "rho")) {
			required = append(required, "epsilon")
		}
		if t.NeedsDelta || (t.EpsilonOptional && !changed(cmd, "rho")) {
			required = append(required, "delta")
		}
		for _, r := range required {
			if !changed(cmd, r) {
				return badInput("--%s is required to evaluate table %s (given with any of --n, --d, --epsilon, --delta, …)", r, t.Name)
			}
		}
		// A flag given as 0 means "0", not "default": refuse where 0 is outside the range.
		for _, pf := range tableParamFlags(&tf.p) {
			if changed(cmd, pf.name) && *pf.v == 0 && pf.name != "psi" {
				return badInput("--%s must be > 0, got 0", pf.name)
			}
		}
		ev, err := t.Evaluate(tf.p)
		if err != nil {
			return libErr(err)
		}
		return emit(a, tf.markdown, tableReport(t, ev))
	}
	return cmd
}

// libErr maps the tables package's field errors to flags (exit 2).
func libErr(err error) error { return flagError(err, map[string]string{"dimension": "d"}) }

// emit renders r, as Markdown when asked.
func emit(a *app, markdown bool, r *report) error {
	if markdown {
		return renderMarkdown(a.out, r)
	}
	return render(a.out, a.mode, r)
}

func tablesListReport() *report {
	r := &report{Title: "Rate tables from the seed papers (privamp tables NAME renders one)"}
	r.Table = &table{Header: []string{"name", "seed", "source", "title", "paper"}}
	var list []map[string]any
	for _, t := range tables.All() {
		src := t.Source
		if t.Reconstructed {
			src = "Figure 1 (reconstructed)"
		}
		r.Table.Rows = append(r.Table.Rows, []string{t.Name, t.Seed, src, t.Title, t.Paper})
		list = append(list, map[string]any{"name": t.Name, "aliases": t.Aliases, "seed": t.Seed, "source": t.Source, "title": t.Title, "paper": t.Paper, "reconstructed": t.Reconstructed})
	}
	r.Notes = []string{"every table also answers to its aliases (e.g. seed-001 for bst14)"}
	r.JSON = map[string]any{"command": "tables", "tables": list}
	return r
}

func kindString(k tables.Kind) string {
	switch k {
	case tables.Upper:
		return "upper"
	case tables.Lower:
		return "lower"
	}
	return "info"
}

func cellForm(c tables.Cell) string {
	return joinNonEmpty(" ", c.Form, c.Mark)
}

func hiddenString(h tables.Hidden) string {
	if !h.Constants && h.Logs == "" {
		return "none"
	}
	return h.String()
}

// fmtValue prints an evaluated cell.
func fmtValue(v tables.Value) string {
	if !v.Evaluated() {
		return "—"
	}
	s := fmtNum(v.Value)
	if v.Capped {
		s += " (capped; rate " + fmtNum(v.Raw) + ")"
	}
	return s
}

func tableReport(t *tables.Table, ev *tables.Evaluation) *report {
	title := fmt.Sprintf("%s — %s (seed %s), %s", t.Title, t.Paper, t.Seed, t.Source)
	r := &report{Title: title}
	r.Assumptions = append(r.Assumptions, t.Assumptions...)
	r.Assumptions = append(r.Assumptions, "validity range: "+t.Validity, "scale: "+t.Scale)
	r.Notes = append(r.Notes, "caption: "+t.Caption)
	r.Notes = append(r.Notes, t.Notes...)
	if t.Reconstructed {
		r.Notes = append([]string{"RECONSTRUCTED: the paper's figure was lost in the text; rebuilt from its theorems"}, r.Notes...)
	}
	obj := map[string]any{
		"command": "tables", "table": t.Name, "aliases": t.Aliases, "title": t.Title, "paper": t.Paper, "seed": t.Seed,
		"source": t.Source, "reconstructed": t.Reconstructed, "caption": t.Caption, "scale": t.Scale, "validity": t.Validity,
		"compare": []string{"none", "rows", "columns"}[t.Compare], "evaluated": ev != nil,
	}
	var cols []map[string]any
	for _, c := range t.Columns {
		cols = append(cols, map[string]any{"key": c.Key, "header": c.Header, "group": c.Group, "kind": kindString(c.Kind), "added": c.Added})
	}
	obj["columns"] = cols
	var rows []map[string]any
	for ri, rw := range t.Rows {
		var cells []map[string]any
		for ci, c := range rw.Cells {
			m := map[string]any{"column": t.Columns[ci].Key, "form": c.Form, "mark": c.Mark, "hidden_constants": c.Hidden.Constants,
				"hidden_logs": c.Hidden.Logs, "source": c.Source, "note": c.Note}
			if c.Explicit != nil {
				m["explicit"] = map[string]any{"form": c.Explicit.Form, "source": c.Explicit.Source, "note": c.Explicit.Note}
			}
			if ev != nil {
				v := ev.Values[ri][ci]
				m["value"], m["raw"], m["exact"], m["capped"], m["label"] = num(v.Value), num(v.Raw), v.Exact, v.Capped, v.Label
				if v.Evaluated() && !v.Exact && !v.Capped && num(v.Value) == nil {
					m["value_reason"] = v.Label
				}
				if v.Evaluated() && v.Exact && num(v.Value) == nil {
					m["value_reason"] = "∞ (the paper's entry)"
				}
				if e := v.Explicit; e != nil {
					em := m["explicit"].(map[string]any)
					em["value"] = num(e.Value)
					if e.Reason != "" {
						em["reason"] = e.Reason
					}
				}
			}
			cells = append(cells, m)
		}
		rows = append(rows, map[string]any{"key": rw.Key, "label": rw.Label, "source": rw.Source, "note": rw.Note, "cells": cells})
	}
	obj["rows"] = rows
	if ev == nil {
		hdr := []string{"row"}
		for _, c := range t.Columns {
			hdr = append(hdr, c.Header)
		}
		hdr = append(hdr, "source")
		r.Table = &table{Header: hdr}
		hidden := map[string]bool{}
		for _, rw := range t.Rows {
			line := []string{rw.Label}
			for _, c := range rw.Cells {
				line = append(line, cellForm(c))
				if c.Eval != nil {
					hidden[hiddenString(c.Hidden)] = true
				}
			}
			r.Table.Rows = append(r.Table.Rows, append(line, rw.Source))
		}
		var hs []string
		for h := range hidden {
			hs = append(hs, h)
		}
		sortStrings(hs)
		r.Notes = append(r.Notes, "hidden in the printed forms: "+strings.Join(hs, "; "))
		r.Notes = append(r.Notes, "evaluate at your numbers with --n, --d, --epsilon, --delta (see --help)")
		r.JSON = obj
		return r
	}
	p := ev.Params
	obj["params"] = map[string]any{
		"n": p.N, "d": p.D, "epsilon": p.Epsilon, "delta": p.Delta, "lipschitz": p.Lipschitz, "radius": p.Radius, "diameter": p.Diameter,
		"strong_convexity": p.StrongConvexity, "smoothness": p.Smoothness, "psi": p.Psi, "tasks": p.Tasks, "dx": p.DX, "dy": p.DY,
		"moment_order": p.MomentOrder, "moment_bound": p.MomentBound, "second_moment": p.SecondMoment, "moment_bound_2k": p.MomentBound2k, "rho": p.Rho,
	}
	obj["defaults"] = t.RelevantDefaults(p)
	r.Table = &table{Header: []string{"row", "column", "form in the paper", "value", "label", "source"}}
	for ri, rw := range t.Rows {
		for ci, c := range rw.Cells {
			v := ev.Values[ri][ci]
			if c.Eval == nil {
				continue
			}
			r.Table.Rows = append(r.Table.Rows, []string{rw.Label, t.Columns[ci].Header, cellForm(c), fmtValue(v), v.Label, c.Source})
			if e := v.Explicit; e != nil {
				val, lab := fmtNum(e.Value), "exact: explicit constants"
				if e.Reason != "" {
					val, lab = "—", "n/a: "+e.Reason
				}
				r.Table.Rows = append(r.Table.Rows, []string{rw.Label, t.Columns[ci].Header + " (explicit)", e.Form, val, lab, e.Source})
			}
		}
	}
	var best []map[string]any
	for _, b := range ev.Best {
		which := ""
		if t.Compare == tables.CompareRows {
			which = "best row: " + t.Rows[b.Row].Label
		} else {
			which = "best: " + t.Columns[b.Column].Header
		}
		gap := ""
		if b.Gap == b.Gap { // not NaN
			gap = "gap to the lower bound ×" + fmtNum(b.Gap)
		}
		r.Rows = append(r.Rows, row{b.Group, fmtNum(b.Value), which, joinNonEmpty("; ", gap, "up to constants unless marked exact")})
		bm := map[string]any{"group": b.Group, "row": t.Rows[b.Row].Key, "column": t.Columns[b.Column].Key, "value": num(b.Value), "summary": b.Summary,
			"lower": num(b.Lower), "gap": num(b.Gap)}
		best = append(best, bm)
	}
	obj["best"] = best
	for _, d := range t.RelevantDefaults(p) {
		r.Assumptions = append(r.Assumptions, "default: "+d)
	}
	r.Notes = append(r.Notes, ev.Notes...)
	r.JSON = obj
	return r
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// renderMarkdown prints a report as Markdown: a heading, the headline rows
// and the table as pipe tables, then assumptions and notes as lists.
func renderMarkdown(w io.Writer, r *report) error {
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
			b.WriteString(pipe([]string{x.Quantity, x.text(), x.Unit, x.Source}))
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
