package optimizer

import (
	"encoding/csv"
	"errors"
)

// cleanCSVErr and truncate shape the messages of ReadTrace's
// *dataset.LineError values as package dataset shapes those of ReadCSV.

func cleanCSVErr(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
