package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/jsonin"
	"github.com/privamp/privamp/internal/lines"
	"github.com/privamp/privamp/shifted"
)

// Claim is a training run's stated privacy guarantee, as read by
// privamp verify. See the package documentation for the file format.
type Claim struct {
	Algorithm       string       `json:"algorithm" jsonin:"required"` // "pnsgd" (with epochs > 1: Alg. 2), "skip", "stop"
	N               int          `json:"n" jsonin:"required"`
	Batch           int          `json:"batch"`
	Epochs          int          `json:"epochs"`
	Order           string       `json:"order"` // "fixed" (default) or "shuffled"
	Eta             float64      `json:"eta" jsonin:"required"`
	Sigma           float64      `json:"sigma" jsonin:"required"`
	Lipschitz       float64      `json:"lipschitz" jsonin:"required"`
	Smoothness      float64      `json:"smoothness"`
	StrongConvexity float64      `json:"strong_convexity"`
	Radius          float64      `json:"radius"`
	Public          int          `json:"public"`
	Tasks           int          `json:"tasks"`
	Delta           float64      `json:"delta" jsonin:"required"`
	Epsilon         *float64     `json:"epsilon"`
	PerIndex        []IndexClaim `json:"per_index"`
	Trajectory      string       `json:"trajectory"`
	Description     string       `json:"description"`

	// Variant is Algorithm as a shifted.Variant (set by ParseClaim).
	Variant shifted.Variant `json:"-"`
	// DPSGD is the claim when its algorithm is "dpsgd" (set by ParseClaim;
	// then only Algorithm, Delta, Epsilon and Description of the fields
	// above are set, copied from it). Verify dispatches on it.
	DPSGD *DPSGDClaim `json:"-"`
}

// IndexClaim is a claimed ε for one index (1-based position in the data
// order).
type IndexClaim struct {
	Index   int     `json:"index"`
	Epsilon float64 `json:"epsilon"`
}

// MaxBytes is the largest claim ParseClaim reads: 8 MiB, room for the
// most per_index entries a claim may hold (100000).
const MaxBytes = 8 << 20

// ParseClaim reads and validates a claim: one JSON object of at most
// MaxBytes bytes whose keys are exactly the json names of Claim's
// fields, each at most once (a key that differs only by case, such as
// "Epsilon", is refused by name), with whole numbers in any notation (1e6,
// 500.0) where an integer is expected. A claim whose "algorithm" is
// "dpsgd" is read as a DPSGDClaim (into Claim.DPSGD), with its own keys
// under the same rules. Errors are *dp.Error.
func ParseClaim(r io.Reader) (*Claim, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	// The algorithm chooses the format; a syntax error, or an algorithm
	// missing or unknown, is reported as such before any format's keys
	// are checked (a broken copy of a dpsgd claim does not blame its
	// "sampling" key as unknown to the pnsgd format).
	alg, line, err := jsonin.TopString(data, MaxBytes, "algorithm")
	if err != nil {
		return nil, err
	}
	if line == 0 { // no "algorithm": the generic format's own error (an unknown key by name), unless the key is another format's
		err := jsonin.Decode(bytes.NewReader(data), MaxBytes, &Claim{})
		var fe *dp.Error
		if err != nil && !(errors.As(err, &fe) && strings.HasPrefix(fe.Reason, "unknown field") && (hasKey(DPSGDClaim{}, fe.Field) || hasKey(BST14Claim{}, fe.Field))) {
			return nil, err
		}
	}
	if err := checkAlgorithm(alg, line); err != nil {
		return nil, err
	}
	if isBST14(data) {
		d, err := parseBST14(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		return &Claim{Algorithm: d.Algorithm, Delta: d.Delta, Epsilon: d.Epsilon, Description: d.Description, DPSGD: d}, nil
	}
	if isDPSGD(data) {
		d, err := parseDPSGD(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		return &Claim{Algorithm: d.Algorithm, Delta: d.Delta, Epsilon: d.Epsilon, Description: d.Description, DPSGD: d}, nil
	}
	c := &Claim{Batch: 1, Epochs: 1, Tasks: 1, Radius: math.Inf(1)}
	if err := jsonin.Decode(bytes.NewReader(data), MaxBytes, c); err != nil {
		return nil, err
	}
	if c.Epsilon == nil && len(c.PerIndex) == 0 {
		return nil, &dp.Error{Where: dp.InputFile, Field: "epsilon", Reason: "give the claimed ε (\"epsilon\", worst case) or \"per_index\" claims, or both"}
	}
	return c, c.validate()
}

// hasKey reports whether the struct v has a field whose json key is key.
func hasKey(v any, key string) bool {
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name == key {
			return true
		}
	}
	return false
}

// Algorithms are the values of a claim's "algorithm" key.
var Algorithms = []string{string(shifted.VariantPNSGD), string(shifted.VariantSkip), string(shifted.VariantStop), AlgorithmDPSGD, AlgorithmBST14SGD}

// checkAlgorithm refuses a claim whose "algorithm" (a string on line, or
// line 0 when absent or not a string) is not one of Algorithms.
func checkAlgorithm(alg string, line int) error {
	allowed := strings.Join(Algorithms, ", ")
	if line == 0 {
		return &dp.Error{Where: dp.InputFile, Field: "algorithm", Reason: "is required: a string, one of " + allowed}
	}
	if slices.Contains(Algorithms, alg) {
		return nil
	}
	hint := ""
	norm := strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(alg))
	for _, a := range Algorithms {
		if norm == strings.ReplaceAll(a, "-", "") && alg != a {
			hint = fmt.Sprintf("; did you mean %q?", a)
		}
	}
	return &dp.Error{Where: dp.InputFile, Line: line, Field: "algorithm", Value: alg, Reason: fmt.Sprintf("unknown algorithm %q: must be one of %s%s", alg, allowed, hint)}
}

func (c *Claim) validate() error {
	bad := func(f string, value any, format string, a ...any) error {
		return &dp.Error{Where: dp.InputFile, Field: f, Value: value, Reason: fmt.Sprintf(format, a...)}
	}
	v, err := shifted.ParseVariant(c.Algorithm)
	if err != nil || c.Algorithm == "" {
		return bad("algorithm", c.Algorithm, "must be one of pnsgd, skip, stop, dpsgd; got %q", c.Algorithm)
	}
	c.Variant = v
	pos := func(f string, x float64) error {
		if !(x > 0) || math.IsInf(x, 0) {
			return bad(f, x, "must be a finite number > 0, got %v", x)
		}
		return nil
	}
	nonneg := func(f string, x float64) error {
		if !(x >= 0) || math.IsInf(x, 0) {
			return bad(f, x, "must be a finite number ≥ 0, got %v", x)
		}
		return nil
	}
	switch c.Order {
	case "", "fixed":
		c.Order = "fixed"
	case "shuffled":
	default:
		return bad("order", c.Order, "must be \"fixed\" or \"shuffled\", got %q", c.Order)
	}
	switch {
	case c.N < 1 || c.N > 1_000_000_000_000:
		return bad("n", c.N, "must be an integer in [1, 10^12], got %d", c.N)
	case c.Public < 0 || c.Public > 1_000_000_000_000:
		return bad("public", c.Public, "must be an integer in [0, 10^12] (public records after the n private ones), got %d", c.Public)
	case c.Batch < 1 || c.Batch > c.N+c.Public:
		return bad("batch", c.Batch, "must be an integer in [1, n + public = %d], got %d", c.N+c.Public, c.Batch)
	case c.Epochs < 1 || c.Epochs > 1_000_000:
		return bad("epochs", c.Epochs, "must be an integer in [1, 10^6], got %d", c.Epochs)
	case c.Tasks < 1 || c.Tasks > 1_000_000:
		return bad("tasks", c.Tasks, "must be an integer in [1, 10^6], got %d", c.Tasks)
	}
	for _, e := range []error{pos("eta", c.Eta), pos("sigma", c.Sigma), pos("lipschitz", c.Lipschitz),
		nonneg("smoothness", c.Smoothness), nonneg("strong_convexity", c.StrongConvexity)} {
		if e != nil {
			return e
		}
	}
	if !(c.Radius > 0) {
		return bad("radius", c.Radius, "must be > 0 (omit it when there is no projection), got %v", c.Radius)
	}
	if !(c.Delta > 0 && c.Delta < 1) {
		return bad("delta", c.Delta, "must be in (0, 1), got %v", c.Delta)
	}
	if c.Epsilon != nil && (!(*c.Epsilon >= 0) || math.IsInf(*c.Epsilon, 0)) {
		return bad("epsilon", *c.Epsilon, "must be a finite number ≥ 0, got %v", *c.Epsilon)
	}
	if c.Smoothness > 0 && c.StrongConvexity > c.Smoothness {
		return bad("strong_convexity", c.StrongConvexity, "m = %v exceeds the smoothness β = %v; no function is both", c.StrongConvexity, c.Smoothness)
	}
	if c.Tasks > 1 && c.Variant != shifted.VariantStop {
		return bad("tasks", c.Tasks, "k tasks (Thm 32) are defined for algorithm \"stop\"")
	}
	seen := map[int]bool{}
	for i, p := range c.PerIndex {
		f := fmt.Sprintf("per_index[%d]", i)
		if p.Index < 1 || p.Index > c.N {
			why := ""
			if p.Index > c.N && p.Index <= c.N+c.Public {
				why = fmt.Sprintf(" (index %d is one of the %d public examples, which have no privacy claim)", p.Index, c.Public)
			}
			return bad(f+".index", p.Index, "must be in [1, n = %d], the private examples, got %d%s", c.N, p.Index, why)
		}
		if seen[p.Index] {
			return bad(f+".index", p.Index, "index %d appears twice", p.Index)
		}
		seen[p.Index] = true
		if !(p.Epsilon >= 0) || math.IsInf(p.Epsilon, 0) {
			return bad(f+".epsilon", p.Epsilon, "must be a finite number ≥ 0, got %v", p.Epsilon)
		}
	}
	if len(c.PerIndex) > 100_000 {
		return bad("per_index", len(c.PerIndex), "at most 100000 entries, got %d", len(c.PerIndex))
	}
	return nil
}

// radius is the claim's domain radius for the bounded-domain bound: 0 when
// the run does not project (radius omitted).
func (c *Claim) radius() float64 {
	if math.IsInf(c.Radius, 0) {
		return 0
	}
	return c.Radius
}

// Training is the run the claim describes, as privamp's one description of
// a training run: n private examples, then public ones (as in
// shifted.Training, plan files and privamp pnsgd --n --public).
func (c *Claim) Training() shifted.Training {
	return shifted.Training{Variant: c.Variant, N: int64(c.N), Public: int64(c.Public),
		Batch: int64(c.Batch), Epochs: int64(c.Epochs), Tasks: int64(c.Tasks), Order: shifted.Order(c.Order),
		Sigma: c.Sigma, Delta: c.Delta, Radius: c.radius(),
		Loss: shifted.Loss{Lipschitz: c.Lipschitz, Smoothness: c.Smoothness, StrongConvexity: c.StrongConvexity, Eta: c.Eta}}
}

// InputLimits states the limits on a claim and its trajectory, for a
// command's help.
func InputLimits() string {
	return fmt.Sprintf("Input limits: a claim file of at most %d MiB; a trajectory of at most %d rows, each line at most %d bytes (each refused with the limit named).",
		MaxBytes>>20, MaxTraceRows, lines.MaxBytes)
}
