package jsonin

import (
	"errors"
	"strings"
	"testing"
)

// total folds a list of {"x": …} into a sum and a count, keeping nothing
// per element.
type total struct {
	started bool
	sum     float64
	n       int
	cur     struct {
		X float64 `json:"x"`
	}
	refuseOver float64
}

func (t *total) Start() error { t.started = true; return nil }
func (t *total) Element(i int) any {
	t.cur.X = 0
	return &t.cur
}
func (t *total) Added(i int) error {
	if t.refuseOver > 0 && t.cur.X > t.refuseOver {
		return errors.New("too big")
	}
	t.sum += t.cur.X
	t.n++
	return nil
}

type withTotal struct {
	Name  string `json:"name"`
	Items total  `json:"items"`
}

func TestElements(t *testing.T) {
	var w withTotal
	err := Decode(strings.NewReader(`{"items": [{"x": 1}, {"x": 2.5}, {}], "name": "a"}`), 1<<20, &w)
	if err != nil || !w.Items.started || w.Items.sum != 3.5 || w.Items.n != 3 || w.Name != "a" {
		t.Fatalf("%v %+v", err, w)
	}
	for in, want := range map[string]string{
		`{"items": null}`: "",
		`{"items": []}`:   "",
		`{"items": 3}`:    `line 1: field "items": expected a list […], got the number 3`,
		"{\"items\": [{\"x\": 1},\n {\"y\": 2}]}":  `line 2: field "items[1].y": unknown field; did you mean "x"?`,
		"{\"items\": [{\"x\": 1},\n {\"x\": 20}]}": `line 2: field "items[1]": too big`,
		`{"items": [{"x": 1} {"x": 2}]}`:           `line 1: invalid JSON: an object after a list element (expected ',' or ']')`,
	} {
		w := withTotal{Items: total{refuseOver: 10}}
		err := Decode(strings.NewReader(in), 1<<20, &w)
		if got := ""; err != nil {
			got = err.Error()
			if got != want {
				t.Errorf("%s: got %q, want %q", in, got, want)
			}
		} else if want != "" {
			t.Errorf("%s: no error, want %q", in, want)
		}
		if in == `{"items": null}` && w.Items.started {
			t.Error("null started the list")
		}
	}
}
