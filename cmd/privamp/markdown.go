package main

import (
	"fmt"
	"io"
	"strings"
)

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
