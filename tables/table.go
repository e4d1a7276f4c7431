package tables

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
)

// Kind says what a column holds.
type Kind int

const (
	// Upper columns hold upper bounds (rates achieved by an algorithm).
	Upper Kind = iota
	// Lower columns hold lower bounds.
	Lower
	// Info columns hold anything else (a privacy level, a running time).
	Info
)

// Compare says which cells of a table are alternatives to each other.
type Compare int

const (
	// CompareNone: the rows are settings, not alternatives.
	CompareNone Compare = iota
	// CompareRows: the rows are algorithms; in each upper-bound column the
	// best row is the one with the smallest value.
	CompareRows
	// CompareColumns: within each row and column group the upper-bound
	// columns are alternatives (for example "previous" and "this work"),
	// and the group's lower-bound column gives the gap.
	CompareColumns
)

// Column is a column of a table.
type Column struct {
	Key    string // snake_case identifier
	Header string // as printed in the paper
	Group  string // column group, e.g. "ε-DP"; "" if none
	Kind   Kind
	// Added marks a column that is not in the paper's table (for example a
	// lower bound the paper states elsewhere); Header says where it is from.
	Added bool
}

// Hidden says what a cell's printed form leaves out.
type Hidden struct {
	Constants bool   // leading multiplicative constants are hidden
	Logs      string // which logarithmic factors are hidden, e.g. "poly ln(1/δ)"; "" if none
}

func (h Hidden) String() string {
	var parts []string
	if h.Constants {
		parts = append(parts, "constants")
	}
	if h.Logs != "" {
		parts = append(parts, h.Logs)
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " and ")
}

// Cell is one entry of a table.
type Cell struct {
	// Form is the paper's printed form, e.g. "Õ(√(d/(ε²n)))". Empty cells
	// (the paper prints nothing, or "None") have Form "—" or "None" and no
	// Eval.
	Form   string
	Hidden Hidden
	Mark   string // the paper's marks, e.g. "(*)"
	Source string // theorem or reference behind the cell
	Note   string // how the evaluator reads the form, reconstruction flags
	// Eval instantiates the rate. exact is true when the form has no hidden
	// constant or logarithm, so the value is the paper's number. The value
	// may be +Inf (e.g. "∞"); it is never NaN.
	Eval func(p Params) (value float64, exact bool)
	// Valid reports why the cell does not apply at p (nil if it does).
	Valid func(p Params) error
	// Explicit is the bound with explicit constants from a theorem behind
	// the cell, if the paper gives one.
	Explicit *Explicit
	// Cap, if set, is the paper's cap on the rate (e.g. BST14's min(n, ·)):
	// the displayed value is min(rate, Cap(p)).
	Cap func(p Params) float64
	// Monotone is −1 if the value is non-increasing in n for n ≥ 3, +1 if
	// non-decreasing, 0 if not claimed.
	Monotone int
}

// Explicit is a bound with every constant stated, from a named theorem.
type Explicit struct {
	Form   string
	Source string
	Note   string
	Eval   func(p Params) float64
	Valid  func(p Params) error // nil if always valid where the table is
}

// Row is one row of a table.
type Row struct {
	Key    string
	Label  string
	Source string // the row's reference in the paper (algorithm, citation)
	Note   string
	Cells  []Cell // one per column
}

// Table is one of the papers' summary tables.
type Table struct {
	Name    string   // CLI name, e.g. "bst14"
	Aliases []string // e.g. "seed-001"
	Title   string
	Paper   string // authors, title, year
	Seed    string // e.g. "001"
	Source  string // e.g. "Table 1" or "Figure 1 (reconstructed)"
	Caption string // the paper's caption, abridged
	Columns []Column
	Rows    []Row
	Compare Compare
	// Scale says how the values are expressed (units and normalisation).
	Scale       string
	Assumptions []string
	Notes       []string
	// Reconstructed marks a table that the text dump lost and that was
	// rebuilt from the paper's theorems.
	Reconstructed bool
	// NeedsDelta is true if some cell depends on δ or is stated for (ε, δ)-DP.
	NeedsDelta bool
	// EpsilonOptional is true if ε is used only to derive another parameter
	// (seed 004's ρ) that may be given directly.
	EpsilonOptional bool
	// Check returns an error if p is outside the table's validity range
	// (after Resolve). nil means every p accepted by Resolve is in range.
	Check func(p Params) error
	// Validity describes the table's validity range for humans.
	Validity string
	// Uses lists the optional parameters (flag names) the table reads, so
	// that only their defaults are reported.
	Uses []string
}

// RelevantDefaults returns the defaults of p (see Params.Defaults) that
// concern parameters the table uses.
func (t *Table) RelevantDefaults(p Params) []string {
	var out []string
	for _, d := range p.Defaults() {
		for _, u := range t.Uses {
			if strings.HasPrefix(d, u+" ") || (u == "diameter" || u == "radius") && (strings.HasPrefix(d, "radius ") || strings.HasPrefix(d, "diameter ")) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// Value is one evaluated cell.
type Value struct {
	Row, Column int
	Value       float64 // the displayed value (after any cap); NaN if not evaluated
	Raw         float64 // the rate before any cap
	Exact       bool
	Capped      bool   // the paper's cap (e.g. min(n, ·)) applied
	Label       string // "exact", "up to constants", "up to constants and logs", "n/a: …", "—"
	Explicit    *ExplicitValue
}

// Evaluated reports whether the cell has a number.
func (v Value) Evaluated() bool { return !math.IsNaN(v.Value) }

// ExplicitValue is an evaluated Explicit bound.
type ExplicitValue struct {
	Value  float64 // NaN if not applicable
	Reason string  // why not applicable ("" if applicable)
	Form   string
	Source string
}

// Best is the outcome of comparing alternatives.
type Best struct {
	Group   string // column header (CompareRows) or "row label · group" (CompareColumns)
	Row     int    // best row (CompareRows) or the row compared (CompareColumns)
	Column  int    // best column
	Value   float64
	Lower   float64 // lower bound's value; NaN if none
	Gap     float64 // Value/Lower; NaN if no lower bound
	Summary string
}

// Evaluation is a table instantiated at some parameters.
type Evaluation struct {
	Table  *Table
	Params Params
	Values [][]Value // [row][column]
	Best   []Best
	Notes  []string
}

// Evaluate resolves p, checks the table's validity range and instantiates
// every cell. If p is outside the range it returns a *dp.Error whose Field
// is the parameter as Params spells it in snake_case ("delta",
// "strong_convexity", "dimension").
func (t *Table) Evaluate(p Params) (*Evaluation, error) {
	p, err := p.resolve(t.NeedsDelta, !t.EpsilonOptional)
	if err != nil {
		return nil, err
	}
	if t.Check != nil {
		if err := t.Check(p); err != nil {
			return nil, err
		}
	}
	ev := &Evaluation{Table: t, Params: p}
	for ri, r := range t.Rows {
		vals := make([]Value, len(t.Columns))
		for ci := range t.Columns {
			vals[ci] = evalCell(r.Cells[ci], p, ri, ci)
		}
		ev.Values = append(ev.Values, vals)
	}
	ev.compare()
	return ev, nil
}

func evalCell(c Cell, p Params, ri, ci int) Value {
	v := Value{Row: ri, Column: ci, Value: math.NaN(), Raw: math.NaN(), Label: "—"}
	if c.Eval == nil {
		return v
	}
	if c.Valid != nil {
		if err := c.Valid(p); err != nil {
			v.Label = "n/a: " + err.Error()
			return v
		}
	}
	x, exact := c.Eval(p)
	if math.IsNaN(x) {
		v.Label = "n/a: undefined at these parameters"
		return v
	}
	v.Value, v.Raw, v.Exact = x, x, exact
	overflow := math.IsInf(x, 0) && !exact
	if c.Cap != nil {
		if cp := c.Cap(p); x > cp {
			v.Value, v.Capped = cp, true
		}
	}
	switch {
	case exact:
		v.Label = "exact"
	case c.Hidden.Logs != "":
		v.Label = "up to constants and " + c.Hidden.Logs
	default:
		v.Label = "up to constants"
	}
	if overflow && !v.Capped {
		v.Label += "; overflows float64 (> 1.8e308)"
	}
	if c.Explicit != nil {
		e := &ExplicitValue{Value: math.NaN(), Form: c.Explicit.Form, Source: c.Explicit.Source}
		if c.Explicit.Valid != nil {
			if err := c.Explicit.Valid(p); err != nil {
				e.Reason = err.Error()
			}
		}
		if e.Reason == "" {
			e.Value = c.Explicit.Eval(p)
			switch {
			case math.IsNaN(e.Value):
				e.Reason = "undefined at these parameters"
			case math.IsInf(e.Value, 0):
				e.Value, e.Reason = math.NaN(), "overflows float64 (> 1.8e308) at these parameters"
			}
		}
		v.Explicit = e
	}
	return v
}

func (ev *Evaluation) compare() {
	t := ev.Table
	switch t.Compare {
	case CompareRows:
		for ci, col := range t.Columns {
			if col.Kind != Upper {
				continue
			}
			b := Best{Group: col.Header, Row: -1, Column: ci, Value: math.Inf(1), Lower: math.NaN(), Gap: math.NaN()}
			for ri := range t.Rows {
				v := ev.Values[ri][ci]
				if v.Evaluated() && v.Value < b.Value {
					b.Row, b.Value = ri, v.Value
				}
			}
			if b.Row < 0 {
				continue
			}
			var ties []string
			for ri, r := range t.Rows {
				v := ev.Values[ri][ci]
				if ri != b.Row && v.Evaluated() && v.Value <= b.Value*(1+1e-12) {
					ties = append(ties, r.Label)
				}
			}
			b.Summary = fmt.Sprintf("%s: best row %q (%s)", col.Header, t.Rows[b.Row].Label, fmtG(b.Value))
			if len(ties) > 0 {
				b.Summary += ", tied with " + strings.Join(ties, ", ")
			}
			ev.Best = append(ev.Best, b)
		}
	case CompareColumns:
		groups := t.groups()
		for ri, r := range t.Rows {
			for _, g := range groups {
				b := Best{Group: r.Label, Row: ri, Column: -1, Value: math.Inf(1), Lower: math.NaN(), Gap: math.NaN()}
				if g != "" {
					b.Group += " · " + g
				}
				n := 0
				for ci, col := range t.Columns {
					v := ev.Values[ri][ci]
					if col.Group != g || !v.Evaluated() {
						continue
					}
					switch col.Kind {
					case Upper:
						n++
						if v.Value < b.Value {
							b.Column, b.Value = ci, v.Value
						}
					case Lower:
						b.Lower = v.Value
					}
				}
				if b.Column < 0 {
					continue
				}
				b.Summary = fmt.Sprintf("%s: best upper bound %q = %s", b.Group, t.Columns[b.Column].Header, fmtG(b.Value))
				if n == 1 {
					b.Summary = fmt.Sprintf("%s: only upper bound %q = %s", b.Group, t.Columns[b.Column].Header, fmtG(b.Value))
				}
				if !math.IsNaN(b.Lower) && b.Lower > 0 {
					b.Gap = b.Value / b.Lower
					b.Summary += fmt.Sprintf("; gap to the lower bound %s: ×%s", fmtG(b.Lower), fmtG(b.Gap))
				}
				ev.Best = append(ev.Best, b)
			}
		}
	}
	hidden := false
	for ri := range ev.Values {
		for _, v := range ev.Values[ri] {
			if v.Evaluated() && !v.Exact {
				hidden = true
			}
		}
	}
	if hidden && len(ev.Best) > 0 {
		ev.Notes = append(ev.Notes, "comparisons use the rates with hidden constants and logarithms set to 1: they are indicative, not proofs")
	}
}

// groups returns the column groups in order of first appearance.
func (t *Table) groups() []string {
	var gs []string
	seen := map[string]bool{}
	for _, c := range t.Columns {
		if !seen[c.Group] {
			seen[c.Group] = true
			gs = append(gs, c.Group)
		}
	}
	return gs
}

func fmtG(x float64) string {
	if math.IsInf(x, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.6g", x)
}

// registry builds the catalogued tables on first use. They are closures and
// cells that only the commands printing or evaluating a table need, so they
// are not built at every start of the binary (issue 27: start-up).
var registry = sync.OnceValue(func() []*Table {
	return []*Table{tableBST14(), tableFMTT18(), tableGGP(), tableGTU1(), tableGTU2(), tableLR()}
})

// All returns the tables in a fixed order (by seed, then name).
func All() []*Table {
	out := append([]*Table(nil), registry()...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Seed != out[j].Seed {
			return out[i].Seed < out[j].Seed
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Lookup returns the table with the given name or alias.
func Lookup(name string) (*Table, bool) {
	for _, t := range registry() {
		if t.Name == name {
			return t, true
		}
		for _, a := range t.Aliases {
			if a == name {
				return t, true
			}
		}
	}
	return nil, false
}

// Names returns the table names in the order of All.
func Names() []string {
	var out []string
	for _, t := range All() {
		out = append(out, t.Name)
	}
	return out
}
