package algorithms

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/optimizer"
)

// Input is what every algorithm is run on: the records and their declared
// bounds, the loss, and the domain. An algorithm that needs no loss (a
// matrix game) ignores Loss.
type Input struct {
	Data optimizer.DataSpec `json:"data"`
	Loss optimizer.LossSpec `json:"loss"`
	// Radius R of the domain {‖θ‖ ≤ R}; +Inf: no projection.
	Radius float64 `json:"radius"`
	// Set names the parameters and problem inputs the caller gave
	// explicitly (by their param tags, and l2, dimension, synthetic, ... in
	// snake_case); an algorithm may choose defaults by it (a calibration
	// target when no noise level was given, its own synthetic data or ℓ2
	// weight when none was given). Defaults are declared constants: never
	// read from the records.
	Set map[string]bool `json:"-"`
	// Progress, if not nil, is told how many of the work's units are done.
	Progress dp.Progress `json:"-"`
}

// Algorithm is one runnable algorithm.
type Algorithm struct {
	// Name is the algorithm's name on the command line.
	Name string
	// Source is the paper and algorithm, e.g. "seed 000, GTU Lemma 3.1".
	Source string
	// Summary is one line for a listing.
	Summary string
	// Params returns a pointer to a new parameter struct with its defaults.
	Params func() any
	// Run runs the algorithm with the parameters Params returned.
	Run func(in Input, params any) (*Report, error)
	// Ignores names the inputs the algorithm does not use, in snake_case
	// (loss, huber_delta, smoothing, l2, radius, no_projection): a caller
	// refuses them rather than let a setting pass silently.
	Ignores []string
}

// NoLoss is what an algorithm that builds its own objective from the
// records (a game, an ℓ1 problem) ignores.
var NoLoss = []string{"loss", "huber_delta", "smoothing", "l2", "radius", "no_projection"}

// Kinds of a Line's value.
const (
	Declared  = "declared"  // stated by the user, enforced by clipping
	Derived   = "derived"   // computed from declared values and parameters
	Certified = "certified" // a guarantee privamp's accounting proves
	Measured  = "measured"  // from the run; a check, never a guarantee
	Given     = "given"     // a parameter of the run
)

// Line is one quantity of a Report: its value (a string or an
// internal/quantity kind, which decides its rounding), its kind (one of
// Kinds; CompareNeighbours holds the covered kinds fixed across neighbours),
// an optional unit a table shows instead of the kind (such as "δ = 1e-05"
// for a certified ε), and where it comes from (a theorem, a formula, a flag).
type Line struct {
	Quantity string `json:"quantity"`
	Value    any    `json:"value"`
	Kind     string `json:"kind"`
	Unit     string `json:"unit,omitempty"`
	Source   string `json:"source"`
}

// Column is what a table shows beside the value: the unit if the line has
// one, else its kind. Measured lines never carry a unit, so a table always
// labels them measured.
func (l Line) Column() string {
	if l.Unit != "" && l.Kind != Measured {
		return l.Unit
	}
	return l.Kind
}

// Report is what Run returns.
type Report struct {
	// Title says what ran on what.
	Title string
	// Lines are the headline quantities, in reading order.
	Lines []Line
	// Checks are the run's checks against the derived constants and bounds.
	Checks []dp.Check
	// OK is false when a check failed.
	OK bool
	// Result is the algorithm's typed result (a struct with json tags).
	Result      any
	Assumptions []string
	Notes       []string
	// Figure, if not nil, is what the result can be drawn as.
	Figure *Figure
}

// Verdict is the run's verdict: dp.Failed when a check failed (OK is
// false), dp.Passed otherwise.
func (r *Report) Verdict() dp.Verdict {
	if r.OK {
		return dp.Passed
	}
	return dp.Failed
}

// AddVerdict appends the verdict line of the report's checks
// (dp.VerdictLine: a FAIL, a WORSE output); source says what they check.
func (r *Report) AddVerdict(source string) {
	r.Add("verdict", dp.VerdictLine(r.Checks), Measured, source)
}

// Add appends a line.
func (r *Report) Add(quantity string, value any, kind, source string) {
	r.Lines = append(r.Lines, Line{Quantity: quantity, Value: value, Kind: kind, Source: source})
}

// AddUnit appends a line that a table shows with a unit instead of its kind.
func (r *Report) AddUnit(quantity string, value any, kind, unit, source string) {
	r.Lines = append(r.Lines, Line{Quantity: quantity, Value: value, Kind: kind, Unit: unit, Source: source})
}

var (
	mu       sync.Mutex
	registry = map[string]Algorithm{}
)

// Register adds an algorithm to the catalogue; it panics on a duplicate
// name (a programming error). A parameter struct that Describe refuses is
// found by TestCatalogueParameters, not here: describing every struct by
// reflection at every start-up was a twentieth of privamp's start-up time.
func Register(a Algorithm) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[a.Name]; dup || a.Name == "" || a.Run == nil || a.Params == nil {
		panic("algorithms: bad or duplicate registration " + a.Name)
	}
	registry[a.Name] = a
}

// All returns the catalogue sorted by name.
func All() []Algorithm {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Algorithm, 0, len(registry))
	for _, a := range registry {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Algorithm) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Lookup finds an algorithm by name; the error is a field error on
// "algorithm" listing the names.
func Lookup(name string) (Algorithm, error) {
	mu.Lock()
	a, ok := registry[name]
	why, no := refused[name]
	mu.Unlock()
	if no {
		return Algorithm{}, field.New("algorithm", name, "is not runnable as a certified algorithm: %s", why)
	}
	if !ok {
		return Algorithm{}, field.New("algorithm", name, "must be pnsgd, skip or stop (projected noisy SGD, package optimizer) or one of %s", strings.Join(Names(), ", "))
	}
	return a, nil
}

// Names lists the catalogue's names, sorted.
func Names() []string {
	var out []string
	for _, a := range All() {
		out = append(out, a.Name)
	}
	return out
}

// Param describes one parameter of an algorithm.
type Param struct {
	// Name is the snake_case name (the field errors' and JSON's name).
	Name string
	Doc  string
	// Type is "float", "int", "uint", "bool" or "string".
	Type string
	// Default is the default value as text.
	Default string
}

// Describe lists the parameters of a parameter struct (a pointer to a
// struct whose fields carry `param` and `doc` tags; untagged fields are not
// parameters).
func Describe(params any) ([]Param, error) {
	v := reflect.ValueOf(params)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("parameters must be a pointer to a struct, got %T", params)
	}
	var out []Param
	err := walk(v.Elem(), func(f reflect.StructField, x reflect.Value) error {
		name, ok := f.Tag.Lookup("param")
		if !ok {
			return nil
		}
		typ := typeName(x.Kind())
		if typ == "" || name == "" || f.Tag.Get("doc") == "" {
			return fmt.Errorf("field %s: a parameter needs a name, a doc tag and a number, bool or string type", f.Name)
		}
		out = append(out, Param{name, f.Tag.Get("doc"), typ, fmt.Sprint(x.Interface())})
		return nil
	})
	return out, err
}

// walk visits the struct's fields, descending into embedded structs.
func walk(v reflect.Value, fn func(reflect.StructField, reflect.Value) error) error {
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if f.Anonymous && v.Field(i).Kind() == reflect.Struct {
			if err := walk(v.Field(i), fn); err != nil {
				return err
			}
			continue
		}
		if err := fn(f, v.Field(i)); err != nil {
			return err
		}
	}
	return nil
}

func typeName(k reflect.Kind) string {
	switch k {
	case reflect.Float64:
		return "float"
	case reflect.Int, reflect.Int64:
		return "int"
	case reflect.Uint64:
		return "uint"
	case reflect.Bool:
		return "bool"
	case reflect.String:
		return "string"
	}
	return ""
}

// Set sets the parameter name of params from its text; the error is a field
// error naming the parameter.
func Set(params any, name, text string) error {
	found := false
	err := walk(reflect.ValueOf(params).Elem(), func(f reflect.StructField, x reflect.Value) error {
		if f.Tag.Get("param") != name {
			return nil
		}
		found = true
		var err error
		switch x.Kind() {
		case reflect.Float64:
			var v float64
			if v, err = strconv.ParseFloat(text, 64); err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				return field.New(name, text, "must be a finite number")
			}
			x.SetFloat(v)
		case reflect.Int, reflect.Int64:
			var v int64
			v, err = strconv.ParseInt(text, 10, 64)
			x.SetInt(v)
		case reflect.Uint64:
			var v uint64
			v, err = strconv.ParseUint(text, 10, 64)
			x.SetUint(v)
		case reflect.Bool:
			var v bool
			v, err = strconv.ParseBool(text)
			x.SetBool(v)
		case reflect.String:
			x.SetString(text)
		}
		if err != nil {
			return field.New(name, text, "must be a %s", typeName(x.Kind()))
		}
		return nil
	})
	if err == nil && !found {
		err = field.New(name, text, "is not a parameter of this algorithm")
	}
	return err
}

var refused = map[string]string{}

// Refuse records a name that is not runnable as a certified algorithm and
// why; Lookup answers it with the reason.
func Refuse(name, reason string) {
	mu.Lock()
	defer mu.Unlock()
	refused[name] = reason
}

// Refused lists the refused names and their reasons.
func Refused() map[string]string {
	mu.Lock()
	defer mu.Unlock()
	return maps.Clone(refused)
}

// Figure is a chart of a report's result (privamp run --plot draws it):
// curves of means with their confidence limits.
type Figure struct {
	Title, X, Y string
	LogX, LogY  bool
	Curves      []Curve
	// Bars says what the error bars are ("95% confidence interval of the
	// mean over 20 repeats"); the plot's legend states it.
	Bars string
}

// Curve is one named curve; Lower and Upper (optional) are its confidence
// limits at each X.
type Curve struct {
	Name               string
	X, Y, Lower, Upper []float64
}
