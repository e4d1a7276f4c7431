package query_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/query"
)

// A DP-SGD question as privamp dpsgd --accountant rdp --json answers it.
func ExampleDo() {
	out, err := query.Do("dpsgd", []byte(`{"n":60000,"batch":256,"epochs":60,"noise":1.1,"delta":1e-5,"accountant":"rdp"}`))
	if err != nil {
		panic(err)
	}
	var r struct {
		Epsilon    float64 `json:"epsilon"`
		Accountant string  `json:"accountant"`
		Steps      int     `json:"steps"`
	}
	_ = json.Unmarshal(out, &r)
	fmt.Printf("%s by %s over %d steps\n", dp.Loss(r.Epsilon), r.Accountant, r.Steps) // an ε printed rounded up
	// Output: 2.59665 by rdp over 14063 steps
}

// Bad input is an *Error naming the request's key.
func ExampleDo_error() {
	_, err := query.Do("dpsgd", []byte(`{"sampling_rate":0.01,"steps":100,"noise":1,"delta":2}`))
	var e *query.Error
	if errors.As(err, &e) {
		fmt.Println(e.Kind, e.Field, e.Reason)
	}
	// Output: bad_input delta must be in (0, 1)
}

// The per-person ε of every position, as float arrays.
func ExampleFloats() {
	_, cols, err := query.Floats("curve", []byte(`{"n":1000,"sigma":4,"all":true}`))
	if err != nil {
		panic(err)
	}
	idx, eps := cols[0].Values, cols[1].Values
	fmt.Println(cols[1].Name, len(eps), idx[0], eps[0] < eps[len(eps)-1])
	// Output: epsilon_pnsgd 1000 1 true
}
