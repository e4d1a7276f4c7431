package query

import (
	"fmt"

	"github.com/privamp/privamp/dp"
)

func init() { Register("format", format) }

// FormatRequest is the "format" request: values printed as the command
// line prints a quantity of the kind (dp.Loss: rounded up, "no finite
// guarantee" for +∞; max: rounded down; noise: rounded up; num: to
// nearest; 6 significant digits). Null values stand for +∞.
type FormatRequest struct {
	Kind   string     `json:"kind" jsonin:"required"`
	Values []*float64 `json:"values" jsonin:"required"`
}

// FormatResult is the "format" answer: the printed strings, in order.
type FormatResult struct {
	Command string   `json:"command"`
	Strings []string `json:"strings"`
}

func format(request []byte, _ bool) (*Result, error) {
	var q FormatRequest
	if err := decode(request, &q); err != nil {
		return nil, err
	}
	kinds := map[string]func(float64) fmt.Stringer{
		"loss":  func(x float64) fmt.Stringer { return dp.Loss(x) },
		"max":   func(x float64) fmt.Stringer { return dp.Max(x) },
		"noise": func(x float64) fmt.Stringer { return dp.Noise(x) },
		"num":   func(x float64) fmt.Stringer { return dp.Num(x) },
	}
	k, ok := kinds[q.Kind]
	if !ok {
		return nil, badInput("kind", q.Kind, "must be loss, max, noise or num")
	}
	out := FormatResult{Command: "format", Strings: make([]string, len(q.Values))}
	for i, v := range q.Values {
		x := inf
		if v != nil {
			x = *v
		}
		out.Strings[i] = k(x).String()
	}
	return &Result{Command: "format", Value: out}, nil
}
