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

// joined keeps a list of strings as one byte string, one string at a time
// (StringElements).
type joined struct {
	hint  int
	all   []byte
	n     int
	limit int
}

func (j *joined) StartStrings(hint int) error { j.hint, j.all, j.n = hint, nil, 0; return nil }
func (j *joined) AddString(b []byte) error {
	if j.limit > 0 && j.n == j.limit {
		return errors.New("too many")
	}
	j.all = append(append(j.all, b...), '|')
	j.n++
	return nil
}

type withJoined struct {
	IDs  joined `json:"ids"`
	Name string `json:"name"`
}

func TestStringElements(t *testing.T) {
	var w withJoined
	err := DecodeSized(strings.NewReader(`{"ids": ["a", "b\"c", "", "é\u00e9"], "name": "x"}`), 1<<20, &w,
		func(path string) int {
			if path == "ids" {
				return 4
			}
			return 0
		})
	if err != nil || string(w.IDs.all) != `a|b"c||éé|` || w.IDs.n != 4 || w.IDs.hint != 4 || w.Name != "x" {
		t.Fatalf("%v %+v", err, w)
	}
	for in, want := range map[string]string{
		`{"ids": null}`:                      "",
		`{"ids": []}`:                        "",
		`{"ids": "a"}`:                       `line 1: field "ids": expected a list […], got the string "a"`,
		"{\"ids\": [\"a\",\n 7]}":            `line 2: field "ids[1]": expected a string, got the number 7`,
		"{\"ids\": [\"a\", \"b\",\n \"c\"]}": `line 2: field "ids[2]": too many`,
		`{"ids": ["a" "b"]}`:                 `line 1: invalid JSON: a string after a list element (expected ',' or ']')`,
		`{"ids": ["a",]}`:                    `line 1: invalid JSON: unexpected ']' where a value belongs`,
		`{"ids": ["a"`:                       `unexpected end`,
	} {
		w := withJoined{IDs: joined{limit: 2}}
		err := Decode(strings.NewReader(in), 1<<20, &w)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
}
