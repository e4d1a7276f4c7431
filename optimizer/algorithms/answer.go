package algorithms

import "github.com/privamp/privamp/answer"

// Answer lays out the report for showing (package answer) under privamp
// run: its lines as rows (the value's kind as the unit column), then its
// checks as the table.
func (rep *Report) Answer() *answer.Report {
	r := &answer.Report{Title: rep.Title, CSVAll: true, Result: rep.Result, Command: "run", Assumptions: rep.Assumptions, Notes: rep.Notes}
	for _, l := range rep.Lines {
		r.Add(l.Quantity, l.Value, l.Column(), l.Source)
	}
	r.Table = &answer.Table{Header: []string{"check", "status", "value", "bound", "detail"}}
	for _, ch := range rep.Checks {
		r.Table.Rows = append(r.Table.Rows, []string{ch.Name, string(ch.Status), answer.CheckNum(ch.Value), answer.CheckNum(ch.Bound), ch.Detail})
	}
	return r
}
