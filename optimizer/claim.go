package optimizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// Claim is a training run's stated privacy guarantee, as read by
// privamp verify. See the package documentation for the file format.
type Claim struct {
	Algorithm       string       `json:"algorithm"` // "pnsgd" (with epochs > 1: Alg. 2), "skip", "stop"
	N               int          `json:"n"`
	Batch           int          `json:"batch"`
	Epochs          int          `json:"epochs"`
	Order           string       `json:"order"` // "fixed" (default) or "shuffled"
	Eta             float64      `json:"eta"`
	Sigma           float64      `json:"sigma"`
	Lipschitz       float64      `json:"lipschitz"`
	Smoothness      float64      `json:"smoothness"`
	StrongConvexity float64      `json:"strong_convexity"`
	Radius          float64      `json:"radius"`
	Public          int          `json:"public"`
	Tasks           int          `json:"tasks"`
	Delta           float64      `json:"delta"`
	Epsilon         *float64     `json:"epsilon"`
	PerIndex        []IndexClaim `json:"per_index"`
	Trajectory      string       `json:"trajectory"`
	Description     string       `json:"description"`

	Variant Variant `json:"-"`
}

// IndexClaim is a claimed ε for one index (1-based position in the data
// order).
type IndexClaim struct {
	Index   int     `json:"index"`
	Epsilon float64 `json:"epsilon"`
}

// ClaimError is a bad claim file: the field (or the line, for a JSON syntax
// error) and what is wrong.
type ClaimError struct {
	Field string
	Line  int
	Msg   string
}

func (e *ClaimError) Error() string {
	switch {
	case e.Field != "" && e.Line > 0:
		return fmt.Sprintf("line %d: field %q: %s", e.Line, e.Field, e.Msg)
	case e.Field != "":
		return fmt.Sprintf("field %q: %s", e.Field, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// ParseClaim reads and validates a claim. Errors are *ClaimError.
func ParseClaim(r io.Reader) (*Claim, error) {
	data, err := io.ReadAll(io.LimitReader(r, 8<<20))
	if err != nil {
		return nil, &ClaimError{Line: 1, Msg: err.Error()}
	}
	// required numeric fields must be present: decode once into a map
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return nil, jsonError(data, err)
	}
	if dec.More() {
		return nil, &ClaimError{Line: lineOf(data, int(dec.InputOffset())), Msg: "extra data after the claim object"}
	}
	c := &Claim{}
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		return nil, jsonError(data, err)
	}
	for _, f := range []string{"algorithm", "n", "eta", "sigma", "lipschitz", "delta"} {
		if _, ok := raw[f]; !ok {
			return nil, &ClaimError{Field: f, Msg: "is required"}
		}
	}
	if c.Epsilon == nil && len(c.PerIndex) == 0 {
		return nil, &ClaimError{Field: "epsilon", Msg: "give the claimed ε (\"epsilon\", worst case) or \"per_index\" claims, or both"}
	}
	if _, ok := raw["batch"]; !ok {
		c.Batch = 1
	}
	if _, ok := raw["epochs"]; !ok {
		c.Epochs = 1
	}
	if _, ok := raw["tasks"]; !ok {
		c.Tasks = 1
	}
	if _, ok := raw["radius"]; !ok {
		c.Radius = math.Inf(1)
	}
	return c, c.validate()
}

func (c *Claim) validate() error {
	bad := func(f, format string, a ...any) error {
		return &ClaimError{Field: f, Msg: fmt.Sprintf(format, a...)}
	}
	v, err := ParseVariant(c.Algorithm)
	if err != nil || c.Algorithm == "" {
		return bad("algorithm", "must be one of pnsgd, skip, stop; got %q", c.Algorithm)
	}
	c.Variant = v
	pos := func(f string, x float64) error {
		if !(x > 0) || math.IsInf(x, 0) {
			return bad(f, "must be a finite number > 0, got %v", x)
		}
		return nil
	}
	nonneg := func(f string, x float64) error {
		if !(x >= 0) || math.IsInf(x, 0) {
			return bad(f, "must be a finite number ≥ 0, got %v", x)
		}
		return nil
	}
	switch c.Order {
	case "", "fixed":
		c.Order = "fixed"
	case "shuffled":
	default:
		return bad("order", "must be \"fixed\" or \"shuffled\", got %q", c.Order)
	}
	switch {
	case c.N < 1 || c.N > 1_000_000_000_000:
		return bad("n", "must be an integer in [1, 10^12], got %d", c.N)
	case c.Batch < 1 || c.Batch > c.N:
		return bad("batch", "must be an integer in [1, n = %d], got %d", c.N, c.Batch)
	case c.Epochs < 1 || c.Epochs > 1_000_000:
		return bad("epochs", "must be an integer in [1, 10^6], got %d", c.Epochs)
	case c.Public < 0 || c.Public >= c.N:
		return bad("public", "must be an integer in [0, n−1 = %d], got %d", c.N-1, c.Public)
	case c.Tasks < 1 || c.Tasks > 1_000_000:
		return bad("tasks", "must be an integer in [1, 10^6], got %d", c.Tasks)
	}
	for _, e := range []error{pos("eta", c.Eta), pos("sigma", c.Sigma), pos("lipschitz", c.Lipschitz),
		nonneg("smoothness", c.Smoothness), nonneg("strong_convexity", c.StrongConvexity)} {
		if e != nil {
			return e
		}
	}
	if !(c.Radius > 0) {
		return bad("radius", "must be > 0 (omit it when there is no projection), got %v", c.Radius)
	}
	if !(c.Delta > 0 && c.Delta < 1) {
		return bad("delta", "must be in (0, 1), got %v", c.Delta)
	}
	if c.Epsilon != nil && (!(*c.Epsilon >= 0) || math.IsInf(*c.Epsilon, 0)) {
		return bad("epsilon", "must be a finite number ≥ 0, got %v", *c.Epsilon)
	}
	if c.Smoothness > 0 && c.StrongConvexity > c.Smoothness {
		return bad("strong_convexity", "m = %v exceeds the smoothness β = %v; no function is both", c.StrongConvexity, c.Smoothness)
	}
	if c.Tasks > 1 && c.Variant != Stop {
		return bad("tasks", "k tasks (Thm 32) are defined for algorithm \"stop\"")
	}
	seen := map[int]bool{}
	for i, p := range c.PerIndex {
		f := fmt.Sprintf("per_index[%d]", i)
		if p.Index < 1 || p.Index > c.N {
			return bad(f+".index", "must be in [1, n = %d], got %d", c.N, p.Index)
		}
		if p.Index > c.N-c.Public {
			return bad(f+".index", "index %d is one of the %d public examples, which have no privacy claim", p.Index, c.Public)
		}
		if seen[p.Index] {
			return bad(f+".index", "index %d appears twice", p.Index)
		}
		seen[p.Index] = true
		if !(p.Epsilon >= 0) || math.IsInf(p.Epsilon, 0) {
			return bad(f+".epsilon", "must be a finite number ≥ 0, got %v", p.Epsilon)
		}
	}
	if len(c.PerIndex) > 100_000 {
		return bad("per_index", "at most 100000 entries, got %d", len(c.PerIndex))
	}
	return nil
}

// Steps is the number of steps the claimed run made.
func (c *Claim) Steps() int {
	return c.Epochs * ((c.N + c.Batch - 1) / c.Batch)
}

func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &ClaimError{Line: lineOf(data, int(se.Offset)), Msg: "invalid JSON: " + se.Error()}
	case errors.As(err, &te):
		f := te.Field
		if f == "" {
			f = "(top level)"
		}
		return &ClaimError{Field: f, Line: lineOf(data, int(te.Offset)), Msg: fmt.Sprintf("expected %s, got JSON %s", kindName(te.Type.Kind().String()), te.Value)}
	case errors.Is(err, io.EOF):
		return &ClaimError{Line: 1, Msg: "empty file: expected a JSON object"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &ClaimError{Line: lineOf(data, len(data)), Msg: "unexpected end of file"}
	}
	msg := err.Error()
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		name := strings.Trim(msg[i+len("unknown field "):], "\"")
		if name == "" {
			name = "(empty name)"
		}
		return &ClaimError{Field: name, Msg: "unknown field (see the claim format in 'privamp verify --help')"}
	}
	return &ClaimError{Line: 1, Msg: strings.TrimPrefix(msg, "json: ")}
}

func kindName(k string) string {
	switch k {
	case "int", "int64":
		return "an integer"
	case "float64":
		return "a number"
	case "string":
		return "a string"
	case "slice":
		return "a list"
	case "ptr":
		return "a number"
	case "struct", "map":
		return "an object"
	}
	return k
}

func lineOf(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	return 1 + bytes.Count(data[:off], []byte("\n"))
}
