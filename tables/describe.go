package tables

import (
	"github.com/privamp/privamp/dp"
	"math"
	"strings"

	"github.com/privamp/privamp/internal/field"
)

// Description is a table, and its evaluation if any, as one typed value:
// what privamp's tables command prints (and encodes as JSON).
type Description struct {
	Table         string       `json:"table"`
	Aliases       []string     `json:"aliases"`
	Title         string       `json:"title"`
	Paper         string       `json:"paper"`
	Seed          string       `json:"seed"`
	Source        string       `json:"source"`
	Reconstructed bool         `json:"reconstructed"`
	Caption       string       `json:"caption"`
	Scale         string       `json:"scale"`
	Validity      string       `json:"validity"`
	Compare       string       `json:"compare"` // none, rows or columns
	Evaluated     bool         `json:"evaluated"`
	Columns       []ColumnInfo `json:"columns"`
	Rows          []RowInfo    `json:"rows"`
	Params        *Params      `json:"params,omitempty"`
	Defaults      []string     `json:"defaults,omitempty"` // the defaults the evaluation used
	Best          []BestInfo   `json:"best,omitempty"`
	Assumptions   []string     `json:"assumptions"`
	Notes         []string     `json:"notes"`
}

// ColumnInfo describes a column.
type ColumnInfo struct {
	Key    string `json:"key"`
	Header string `json:"header"`
	Group  string `json:"group"`
	Kind   string `json:"kind"` // upper, lower or info
	Added  bool   `json:"added"`
}

// RowInfo is a row with its cells.
type RowInfo struct {
	Key    string     `json:"key"`
	Label  string     `json:"label"`
	Source string     `json:"source"`
	Note   string     `json:"note"`
	Cells  []CellInfo `json:"cells"`
}

// CellInfo is a cell: the paper's form and, when evaluated, its value.
type CellInfo struct {
	Column          string        `json:"column"`
	Form            string        `json:"form"`
	Mark            string        `json:"mark"`
	HiddenConstants bool          `json:"hidden_constants"`
	HiddenLogs      string        `json:"hidden_logs"`
	Source          string        `json:"source"`
	Note            string        `json:"note"`
	Explicit        *ExplicitInfo `json:"explicit,omitempty"`
	Evaluable       bool          `json:"-"`
	// Value is the rate at the parameters (nil: not evaluated, or ∞ with
	// ValueReason); Exact says it is the paper's number, not "up to
	// constants".
	Value       *dp.Num `json:"value,omitempty"`
	Raw         *dp.Num `json:"raw,omitempty"`
	Exact       bool    `json:"exact"`
	Capped      bool    `json:"capped"`
	Label       string  `json:"label,omitempty"`
	ValueReason string  `json:"value_reason,omitempty"`
}

// ExplicitInfo is a bound with explicit constants behind a cell.
type ExplicitInfo struct {
	Form   string  `json:"form"`
	Source string  `json:"source"`
	Note   string  `json:"note"`
	Value  *dp.Num `json:"value,omitempty"` // nil: not evaluated or not applicable (Reason)
	Reason string  `json:"reason,omitempty"`
}

// BestInfo is the best alternative of a group and its gap to the lower bound.
type BestInfo struct {
	Group   string `json:"group"`
	Row     string `json:"row"`
	Column  string `json:"column"`
	Which   string `json:"which"` // "best row: …" or "best: …"
	Value   dp.Num `json:"value"`
	Summary string `json:"summary"`
	Lower   dp.Num `json:"lower"` // NaN (null): no lower bound
	Gap     dp.Num `json:"gap"`
}

func numPtr(x float64) *dp.Num {
	if math.IsNaN(x) {
		return nil
	}
	return ref(dp.Num(x))
}

// EvaluateGiven is Evaluate for input whose given fields are named (as
// Params' errors name them: "n", "dimension", "epsilon", "delta", "rho",
// "strong_convexity", …): the fields the table needs must be given, and a
// given field may not be 0, which Params reads as "use the default".
func (t *Table) EvaluateGiven(p Params, given map[string]bool) (*Evaluation, error) {
	required := []string{"n", "dimension"}
	if !(t.EpsilonOptional && given["rho"]) {
		required = append(required, "epsilon")
	}
	if t.NeedsDelta || (t.EpsilonOptional && !given["rho"]) {
		required = append(required, "delta")
	}
	for _, r := range required {
		if !given[r] {
			return nil, field.New(r, nil, "is required to evaluate table %s", t.Name)
		}
	}
	for name, zero := range map[string]bool{"n": p.N == 0, "dimension": p.D == 0, "epsilon": p.Epsilon == 0, "delta": p.Delta == 0,
		"lipschitz": p.Lipschitz == 0, "radius": p.Radius == 0, "diameter": p.Diameter == 0, "strong_convexity": p.StrongConvexity == 0,
		"smoothness": p.Smoothness == 0, "tasks": p.Tasks == 0, "dx": p.DX == 0, "dy": p.DY == 0, "moment_order": p.MomentOrder == 0,
		"moment_bound": p.MomentBound == 0, "second_moment": p.SecondMoment == 0, "moment_bound_2k": p.MomentBound2k == 0, "rho": p.Rho == 0} {
		if zero && given[name] {
			return nil, field.New(name, 0.0, "must be > 0")
		}
	}
	return t.Evaluate(p)
}

// Describe returns t, and ev if not nil, as a Description.
func (t *Table) Describe(ev *Evaluation) Description {
	d := Description{Table: t.Name, Aliases: t.Aliases, Title: t.Title, Paper: t.Paper, Seed: t.Seed, Source: t.Source,
		Reconstructed: t.Reconstructed, Caption: t.Caption, Scale: t.Scale, Validity: t.Validity,
		Compare: []string{"none", "rows", "columns"}[t.Compare], Evaluated: ev != nil}
	d.Assumptions = append(append([]string{}, t.Assumptions...), "validity range: "+t.Validity, "scale: "+t.Scale)
	d.Notes = append([]string{"caption: " + t.Caption}, t.Notes...)
	if t.Reconstructed {
		d.Notes = append([]string{"RECONSTRUCTED: the paper's figure was lost in the text; rebuilt from its theorems"}, d.Notes...)
	}
	for _, c := range t.Columns {
		d.Columns = append(d.Columns, ColumnInfo{c.Key, c.Header, c.Group, []string{"upper", "lower", "info"}[c.Kind], c.Added})
	}
	hidden := map[string]bool{}
	for ri, r := range t.Rows {
		row := RowInfo{Key: r.Key, Label: r.Label, Source: r.Source, Note: r.Note}
		for ci, c := range r.Cells {
			ci2 := CellInfo{Column: t.Columns[ci].Key, Form: c.Form, Mark: c.Mark, HiddenConstants: c.Hidden.Constants,
				HiddenLogs: c.Hidden.Logs, Source: c.Source, Note: c.Note, Evaluable: c.Eval != nil}
			if c.Eval != nil {
				h := "none"
				if c.Hidden.Constants || c.Hidden.Logs != "" {
					h = c.Hidden.String()
				}
				hidden[h] = true
			}
			if c.Explicit != nil {
				ci2.Explicit = &ExplicitInfo{Form: c.Explicit.Form, Source: c.Explicit.Source, Note: c.Explicit.Note}
			}
			if ev != nil {
				v := ev.Values[ri][ci]
				ci2.Value, ci2.Raw, ci2.Exact, ci2.Capped, ci2.Label = numPtr(v.Value), numPtr(v.Raw), v.Exact, v.Capped, v.Label
				if math.IsInf(v.Value, 0) {
					ci2.Value, ci2.ValueReason = nil, v.Label
					if v.Exact {
						ci2.ValueReason = "∞ (the paper's entry)"
					}
				}
				if e := v.Explicit; e != nil {
					ci2.Explicit.Value, ci2.Explicit.Reason = numPtr(e.Value), e.Reason
				}
			}
			row.Cells = append(row.Cells, ci2)
		}
		d.Rows = append(d.Rows, row)
	}
	if ev == nil {
		var hs []string
		for h := range hidden {
			hs = append(hs, h)
		}
		sortStrings(hs)
		d.Notes = append(d.Notes, "hidden in the printed forms: "+strings.Join(hs, "; "))
		return d
	}
	d.Params, d.Defaults = &ev.Params, t.RelevantDefaults(ev.Params)
	for _, b := range ev.Best {
		which := "best: " + t.Columns[b.Column].Header
		if t.Compare == CompareRows {
			which = "best row: " + t.Rows[b.Row].Label
		}
		d.Best = append(d.Best, BestInfo{b.Group, t.Rows[b.Row].Key, t.Columns[b.Column].Key, which, dp.Num(b.Value), b.Summary, dp.Num(b.Lower), dp.Num(b.Gap)})
	}
	for _, x := range d.Defaults {
		d.Assumptions = append(d.Assumptions, "default: "+x)
	}
	d.Notes = append(d.Notes, ev.Notes...)
	return d
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
