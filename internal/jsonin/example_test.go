package jsonin_test

import (
	"fmt"
	"strings"

	"github.com/privamp/privamp/internal/jsonin"
)

func ExampleDecode() {
	type run struct {
		Steps   int64   `json:"steps" jsonin:"required"`
		Epsilon float64 `json:"epsilon"`
	}
	var r run
	err := jsonin.Decode(strings.NewReader(`{"steps": 1e12, "epsilon": 0.5}`), 1<<20, &r)
	fmt.Println(r.Steps, r.Epsilon, err)

	// A key that differs only by case, a repeated key, a fraction where an
	// integer belongs, an input over its limit:
	for _, in := range []string{
		`{"steps": 10, "Epsilon": 0.01, "epsilon": 2}`,
		"{\"steps\": 10,\n \"epsilon\": 0.01,\n \"epsilon\": 2}",
		`{"steps": 1.5}`,
		`{"steps": 10, "epsilon": 0.000000000000000000000000000001}`,
	} {
		fmt.Println(jsonin.Decode(strings.NewReader(in), 48, &r))
	}
	// Output:
	// 1000000000000 0.5 <nil>
	// line 1: field "Epsilon": unknown field: keys are case-sensitive; did you mean "epsilon"?
	// line 3: field "epsilon": repeated key (first on line 2): each key may appear once
	// line 1: field "steps": expected a whole number, got 1.5
	// line 1: the input exceeds the 48-byte limit
}
