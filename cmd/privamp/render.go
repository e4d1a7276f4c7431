package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
)

// noFinite is how privamp prints an infinite ε.
const noFinite = "no finite guarantee"

// report is what a command computes, ready to render as a table, JSON or CSV.
type report struct {
	Title       string
	Rows        []row   // headline quantities with units and sources
	Table       *table  // optional tabular data; --csv prints it
	Assumptions []string
	Notes       []string
	// JSON is the --json object (snake_case keys). render adds "assumptions"
	// and "notes" when they are not set. Use num() for floats that may be
	// infinite.
	JSON map[string]any
}

type row struct{ Quantity, Value, Unit, Source string }

type table struct {
	Header []string
	Rows   [][]string
}

// outputMode is the --json/--csv choice.
type outputMode struct{ json, csv bool }

func (m outputMode) validate() error {
	if m.json && m.csv {
		return badInput("--json and --csv cannot be used together")
	}
	return nil
}

func render(w io.Writer, m outputMode, r *report) error {
	switch {
	case m.json:
		obj := r.JSON
		if obj == nil {
			obj = map[string]any{}
		}
		if _, ok := obj["assumptions"]; !ok && len(r.Assumptions) > 0 {
			obj["assumptions"] = r.Assumptions
		}
		if _, ok := obj["notes"]; !ok && len(r.Notes) > 0 {
			obj["notes"] = r.Notes
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(obj)
	case m.csv:
		cw := csv.NewWriter(w)
		if r.Table != nil {
			_ = cw.Write(r.Table.Header)
			_ = cw.WriteAll(r.Table.Rows)
		} else {
			_ = cw.Write([]string{"quantity", "value", "unit", "source"})
			for _, x := range r.Rows {
				_ = cw.Write([]string{x.Quantity, x.Value, x.Unit, x.Source})
			}
		}
		cw.Flush()
		return cw.Error()
	}
	if r.Title != "" {
		fmt.Fprintln(w, r.Title)
	}
	if len(r.Rows) > 0 {
		t := tablewriter.NewWriter(w)
		t.Header("quantity", "value", "unit", "source")
		for _, x := range r.Rows {
			_ = t.Append(x.Quantity, x.Value, x.Unit, x.Source)
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if r.Table != nil {
		t := tablewriter.NewWriter(w)
		t.Header(anySlice(r.Table.Header)...)
		for _, rr := range r.Table.Rows {
			_ = t.Append(anySlice(rr)...)
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if len(r.Assumptions) > 0 {
		fmt.Fprintln(w, "Assumptions:")
		for _, a := range r.Assumptions {
			fmt.Fprintf(w, "  - %s\n", a)
		}
	}
	if len(r.Notes) > 0 {
		fmt.Fprintln(w, "Notes:")
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  - %s\n", n)
		}
	}
	return nil
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// num returns x for JSON, or nil when x is not finite (JSON has no Inf/NaN).
func num(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

// fmtEps formats an ε: "no finite guarantee" when infinite.
func fmtEps(x float64) string {
	if math.IsInf(x, 1) || math.IsNaN(x) {
		return noFinite
	}
	return fmtNum(x)
}

// fmtNum formats a number with 6 significant digits; ∞ for +Inf.
func fmtNum(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "-∞"
	case math.IsNaN(x):
		return "undefined"
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// fmtInt formats an integer-valued float without exponent.
func fmtInt(x float64) string {
	if math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return fmtNum(x)
}

// epsJSON sets key to ε, or to null with key+"_reason" when ε is infinite.
func epsJSON(obj map[string]any, key string, x float64) {
	obj[key] = num(x)
	if num(x) == nil {
		obj[key+"_reason"] = noFinite
	}
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so a failure never leaves a half-written file.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".privamp-*")
	if err != nil {
		return badInput("cannot write %s: %v", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %v", path, firstErr(werr, cerr))
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %v", path, err)
	}
	return nil
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
