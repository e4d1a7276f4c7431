package jsonin

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/privamp/privamp/internal/field"
)

type item struct {
	Index   int     `json:"index"`
	Epsilon float64 `json:"epsilon"`
}

type doc struct {
	Name    string    `json:"name" jsonin:"required"`
	N       int       `json:"n"`
	Count   int64     `json:"count"`
	Small   int8      `json:"small"`
	Eta     float64   `json:"eta"`
	Opt     *float64  `json:"opt"`
	Flag    bool      `json:"flag"`
	Items   []item    `json:"items"`
	Xs      []float64 `json:"xs"`
	IDs     []string  `json:"ids"`
	Sub     *doc      `json:"sub"`
	Skipped int       `json:"-"`
	Bare    int
}

func decodeString(t *testing.T, in string) (*doc, error) {
	t.Helper()
	d := &doc{N: -7}
	err := Decode(strings.NewReader(in), 1<<20, d)
	if err != nil {
		var e *field.Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: error %v is not a *field.Error", in, err)
		}
		if strings.Contains(err.Error(), "--") {
			t.Fatalf("%q: error names a flag: %v", in, err)
		}
	}
	return d, err
}

func TestDecode(t *testing.T) {
	in := `{
  "name": "a\"b\u00e9\ud83d\ude00",
  "n": 1e12, "count": 500.0, "small": -128,
  "eta": 0.25, "opt": null, "flag": true,
  "items": [{"index": 5E2, "epsilon": 1}, {"epsilon": 2.5}],
  "xs": [1, -2.5e-3, 0], "ids": ["x", "y"],
  "sub": {"name": "inner", "xs": []},
  "Bare": 3
}`
	d, err := decodeString(t, in)
	if err != nil {
		t.Fatal(err)
	}
	want := &doc{Name: "a\"bé😀", N: 1_000_000_000_000, Count: 500, Small: -128, Eta: 0.25, Flag: true,
		Items: []item{{500, 1}, {0, 2.5}}, Xs: []float64{1, -2.5e-3, 0}, IDs: []string{"x", "y"},
		Sub: &doc{Name: "inner", Xs: []float64{}}, Bare: 3}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("got  %+v\nwant %+v", d, want)
	}
	// Absent fields keep their defaults.
	d, err = decodeString(t, `{"name": "x"}`)
	if err != nil || d.N != -7 {
		t.Fatalf("default: %+v %v", d, err)
	}
}

// TestDecodeRefuses: every rule of the package documentation, with the
// field, line and value each error names.
func TestDecodeRefuses(t *testing.T) {
	cases := []struct {
		in, field string
		line      int
		value     any
		reason    string
	}{
		// keys are exact
		{"{\"name\": \"x\",\n \"N\": 2}", "N", 2, nil, `case-sensitive; did you mean "n"?`},
		{`{"name": "x", "Eta": 0.01, "eta": 2}`, "Eta", 1, nil, `did you mean "eta"?`},
		{`{"name": "x", "items": [{"Index": 1}]}`, "items[0].Index", 1, nil, "case-sensitive"},
		{`{"name": "x", "etta": 1}`, "etta", 1, nil, `unknown field; did you mean "eta"?`},
		{`{"name": "x", "zzzzzz": 1}`, "zzzzzz", 1, nil, "unknown field"},
		{`{"name": "x", "Skipped": 1}`, "Skipped", 1, nil, "unknown field"},
		// keys are unique
		{"{\"name\": \"x\",\n\"eta\": 0.01,\n\"eta\": 2}", "eta", 3, nil, "repeated key (first on line 2)"},
		{`{"name": "x", "sub": {"name": "y", "n": 1, "n": 1}}`, "sub.n", 1, nil, "repeated key"},
		// whole numbers where integers go
		{`{"name": "x", "n": 1.5}`, "n", 1, Number("1.5"), "expected a whole number, got 1.5"},
		{`{"name": "x", "n": 1e-3}`, "n", 1, Number("1e-3"), "whole number"},
		{`{"name": "x", "n": 1e19}`, "n", 1, Number("1e19"), "outside the range of a 64-bit integer"},
		{`{"name": "x", "small": 128}`, "small", 1, Number("128"), "8-bit"},
		{`{"name": "x", "items": [{"index": 2}, {"index": 0.5}]}`, "items[1].index", 1, Number("0.5"), "whole number"},
		{`{"name": "x", "n": 1e99999999999999999999}`, "n", 1, Number("1e99999999999999999999"), "outside the range"},
		// numbers
		{`{"name": "x", "eta": 1e400}`, "eta", 1, Number("1e400"), "outside the range of a 64-bit float"},
		{`{"name": "x", "xs": [1, 2, -1e999]}`, "xs[2]", 1, Number("-1e999"), "outside the range"},
		{`{"name": "x", "eta": "1"}`, "eta", 1, "1", `expected a number, got the string "1"`},
		{`{"name": "x", "n": true}`, "n", 1, true, "expected a whole number, got true"},
		{`{"name": "x", "xs": [1, "a"]}`, "xs[1]", 1, "a", "expected a number"},
		{`{"name": "x", "ids": [1]}`, "ids[0]", 1, Number("1"), "expected a string"},
		{`{"name": "x", "items": {}}`, "items", 1, nil, "expected a list […], got an object"},
		{`{"name": "x", "sub": 3}`, "sub", 1, Number("3"), "expected an object"},
		// null only for pointers and lists
		{`{"name": "x", "eta": null}`, "eta", 1, nil, "expected a number, got null"},
		{`{"name": null}`, "name", 1, nil, "expected a string, got null"},
		{`{"name": "x", "flag": null}`, "flag", 1, nil, "got null"},
		// required
		{`{"n": 1}`, "name", 0, nil, "is required"},
		{`{"name": "x", "sub": {}}`, "sub.name", 0, nil, "is required"},
		// the document
		{"", "", 1, nil, "empty input"},
		{"  \n ", "", 1, nil, "empty input"},
		{"[1]", "", 1, nil, "expected a JSON object {…}, got a list"},
		{"null", "", 1, nil, "expected a JSON object {…}, got null"},
		{`{"name": "x"} {}`, "", 1, nil, "extra data after the object"},
		{`{"name": "x"} x`, "", 1, nil, "extra data"},
		{"{\"name\": \"x\",\n\"n\": 3,,\n}", "", 2, nil, "where a key belongs"},
		{"{\"name\": \"x\",\n\"n\": 3,\n}", "", 3, nil, "where a key belongs"},
		{"{\"name\": \"x\",\n\"xs\": [1,]}", "", 2, nil, "invalid JSON"},
		{`{"name": "x", "n": 01}`, "", 1, nil, `"01" is not a number`},
		{`{"name": "x", "n": 1.}`, "", 1, nil, "not a number"},
		{`{"name": "x", "n": +1}`, "", 1, nil, "invalid JSON"},
		{`{"name": "x", "eta": NaN}`, "", 1, nil, "invalid JSON"},
		{`{"name": "x", "flag": tru}`, "", 1, nil, `"tru" is not a value`},
		{`{"name": "x" "n": 1}`, "", 1, nil, "a string after a value (expected ',' or '}')"},
		{`{"name" "x"}`, "", 1, nil, "expected ':'"},
		{`{"name": "x", "n": 1`, "", 1, nil, "unexpected end of input"},
		{`{"name": "x`, "", 1, nil, "unexpected end of input"},
		{"{\"name\": \"a\tb\"}", "", 1, nil, "control character"},
		{`{"name": "a\qb"}`, "", 1, nil, `unknown escape \q`},
		{`{"name": "a\u12"}`, "", 1, nil, `4 hexadecimal digits`},
		{`{name: "x"}`, "", 1, nil, "where a key belongs"},
		{`{"name": "x", "sub": ` + strings.Repeat(`{"sub": `, 70) + `{}` + strings.Repeat("}", 70) + "}}", "sub" + strings.Repeat(".sub", 63), 1, nil, "nested more than 64 deep"},
	}
	for _, c := range cases {
		_, err := decodeString(t, c.in)
		var e *field.Error
		if !errors.As(err, &e) {
			t.Errorf("%.60q: accepted", c.in)
			continue
		}
		if e.Field != c.field || e.Line != c.line || !reflect.DeepEqual(e.Value, c.value) || !strings.Contains(e.Reason, c.reason) {
			t.Errorf("%.60q:\n got field %q line %d value %#v reason %q\nwant field %q line %d value %#v reason ~%q",
				c.in, e.Field, e.Line, e.Value, e.Reason, c.field, c.line, c.value, c.reason)
		}
	}
}

// TestWholeNumbers compares the exact integer reading with big decimal
// arithmetic done by hand on chosen cases, and with strconv on random
// integers written in several notations.
func TestWholeNumbers(t *testing.T) {
	for _, c := range []struct {
		text  string
		want  int64
		whole bool
		ok    bool
	}{
		{"0", 0, true, true}, {"-0", 0, true, true}, {"0.000", 0, true, true}, {"0e999999999999", 0, true, true},
		{"1e12", 1e12, true, true}, {"500.0", 500, true, true}, {"5E2", 500, true, true}, {"1.5e1", 15, true, true},
		{"12345.6789e4", 123456789, true, true}, {"1234567.8e-1", 0, false, false}, {"1.50", 0, false, false},
		{"9223372036854775807", math.MaxInt64, true, true}, {"-9223372036854775808", math.MinInt64, true, true},
		{"9223372036854775808", 0, true, false}, {"-9223372036854775809", 0, true, false},
		{"9.223372036854775807e18", math.MaxInt64, true, true}, {"922337203685477580.7e1", math.MaxInt64, true, true},
		{"1e18", 1e18, true, true}, {"1e19", 0, true, false}, {"1e-999999999999", 0, false, false},
		{"100000000000000000000000e-5", 1e18, true, true}, {"0.0000000000000000000000001e25", 1, true, true},
	} {
		got, reason := parseInt([]byte(c.text), 64)
		switch {
		case c.whole && c.ok && (reason != "" || got != c.want):
			t.Errorf("%s: %d %q, want %d", c.text, got, reason, c.want)
		case !c.whole && !strings.Contains(reason, "whole number"):
			t.Errorf("%s: %q, want a whole-number refusal", c.text, reason)
		case c.whole && !c.ok && !strings.Contains(reason, "range"):
			t.Errorf("%s: %q, want a range refusal", c.text, reason)
		}
	}
	r := uint64(12345)
	for i := 0; i < 20000; i++ {
		r = r*6364136223846793005 + 1442695040888963407
		x := int64(r) >> (r % 60)
		s := strconv.FormatInt(x, 10)
		for _, text := range []string{s, s + ".000", withExponent(s)} {
			got, reason := parseInt([]byte(text), 64)
			if reason != "" || got != x {
				t.Fatalf("%s: %d %q, want %d", text, got, reason, x)
			}
		}
	}
}

// withExponent writes the integer s as d.ddd…e+k.
func withExponent(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	out := s[:1]
	if len(s) > 1 {
		out += "." + s[1:]
	}
	out += "e" + strconv.Itoa(len(s)-1)
	if neg {
		out = "-" + out
	}
	return out
}

// TestSizeLimit: an input of exactly the limit is read; one byte more is
// refused as too large, whatever else is wrong with it (here: it is cut).
func TestSizeLimit(t *testing.T) {
	in := `{"name": "x", "xs": [1, 2, 3]}`
	var d doc
	if err := Decode(strings.NewReader(in), int64(len(in)), &d); err != nil || len(d.Xs) != 3 {
		t.Fatalf("at the limit: %v", err)
	}
	for _, lim := range []int64{int64(len(in)) - 1, 10, 1} {
		err := Decode(strings.NewReader(in), lim, &d)
		var e *field.Error
		if !errors.As(err, &e) || !strings.Contains(e.Reason, "exceeds the "+strconv.FormatInt(lim, 10)+"-byte") || strings.Contains(e.Reason, "end of input") {
			t.Errorf("limit %d: %v", lim, err)
		}
	}
	// trailing white space counts too
	if err := Decode(strings.NewReader(in+"\n\n"), int64(len(in)+1), &d); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("trailing space past the limit: %v", err)
	}
	if err := Decode(strings.NewReader(in), 8<<20, &doc{}); err != nil {
		t.Fatal(err)
	}
	if got := (&field.Error{Where: field.InputFile, Reason: "x"}).Error(); got != "x" {
		t.Errorf("%q", got)
	}
	err := Decode(strings.NewReader(strings.Repeat(" ", 9<<20)), 8<<20, &d)
	if err == nil || !strings.Contains(err.Error(), "8388608-byte (8 MiB) limit") {
		t.Errorf("8 MiB: %v", err)
	}
}

// TestStreaming: long lists decode through a reader that returns one byte
// at a time (every token crosses buffer refills) and one that fails.
func TestStreaming(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("{\"name\": \"x\",\n \"xs\": [")
	const n = 200_000
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(strconv.FormatFloat(float64(i)/7, 'g', -1, 64))
	}
	b.WriteString("],\n \"ids\": [")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(strings.Repeat("é", i%100)))
	}
	b.WriteString("],\n \"items\": [")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"index": ` + strconv.Itoa(i) + `, "epsilon": 0.5}`)
	}
	b.WriteString("],\n \"n\": 1.5}")
	data := b.Bytes()
	var d doc
	err := Decode(iotest.OneByteReader(bytes.NewReader(data)), 1<<30, &d)
	var e *field.Error
	if !errors.As(err, &e) || e.Field != "n" || e.Line != n+4 {
		t.Fatalf("error %v, want field n on line %d", err, n+4)
	}
	if len(d.Xs) != n || d.Xs[n-1] != float64(n-1)/7 || len(d.IDs) != 1000 || d.IDs[999] != strings.Repeat("é", 99) || len(d.Items) != 1000 || d.Items[999].Index != 999 {
		t.Fatalf("decoded %d xs, %d ids, %d items", len(d.Xs), len(d.IDs), len(d.Items))
	}
	err = Decode(iotest.TimeoutReader(bytes.NewReader(data)), 1<<30, &d)
	if err == nil || !strings.Contains(err.Error(), "cannot read the input") {
		t.Fatalf("read error: %v", err)
	}
}

// TestAgainstEncodingJSON: on valid documents without repeated or
// case-variant keys, Decode agrees with encoding/json value for value.
func TestAgainstEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"name": "plain", "xs": [0.1, 1e-320, 1.7976931348623157e308, -0, 123456789012345678901234567890]}`,
		`{"name": "\u00e9\ud800x\udc00\ud83d\ude00\\\/\b\f\n\r\t", "ids": ["\ud83d", "a\u0000b", "` + "\xff\xfe" + `"]}`,
		`{"name": "x", "sub": {"name": "y", "items": [{"index": 3, "epsilon": 1e-5}], "opt": 2}, "opt": 0}`,
	} {
		var a, b doc
		if err := json.Unmarshal([]byte(in), &a); err != nil {
			t.Fatal(err)
		}
		if err := Decode(strings.NewReader(in), 1<<20, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s:\nencoding/json %+v\njsonin        %+v", in, a, b)
		}
	}
}

// validJSON reports whether the scanner accepts data as one JSON value.
func validJSON(data []byte) bool {
	s := newScanner(bytes.NewReader(data), int64(len(data)))
	if err := s.skipValue(0); err != nil {
		return false
	}
	return s.skipSpace() == io.EOF
}

func FuzzScanner(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5e-3, "x\u00e9", true, null, {}]}`, `"\ud83d\ude00"`, `-0.0e+1`, `[01]`, `{"a" 1}`, "\"\xff\"", `[1,]`, `"\u12"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > 60 {
			return // nesting past maxDepth is refused on purpose
		}
		if got, want := validJSON(data), json.Valid(data); got != want {
			t.Fatalf("%q: scanner says valid=%v, encoding/json %v", data, got, want)
		}
		// Strings and numbers decode as encoding/json decodes them.
		var want struct {
			Name string    `json:"name"`
			Xs   []float64 `json:"xs"`
		}
		in := append([]byte(`{"name": `), data...)
		in = append(in, '}')
		if json.Unmarshal(in, &want) == nil && json.Valid(data) && data[0] == '"' {
			var got doc
			if err := Decode(bytes.NewReader(in), 1<<20, &got); err != nil || got.Name != want.Name {
				t.Fatalf("%q: %q %v, encoding/json %q", data, got.Name, err, want.Name)
			}
		}
		in = append(append([]byte(`{"name": "", "xs": [`), data...), ']', '}')
		if json.Unmarshal(in, &want) == nil {
			var got doc
			if err := Decode(bytes.NewReader(in), 1<<20, &got); err != nil || !reflect.DeepEqual(got.Xs, want.Xs) {
				t.Fatalf("%q: %v %v, encoding/json %v", data, got.Xs, err, want.Xs)
			}
		}
	})
}

func TestDecodeNotJSON(t *testing.T) {
	for in, want := range map[string]string{
		"id,epsilon\na,1\n": `line 1: expected a JSON object {…}, got 'i', which is not JSON`,
		"\xef\xbb\xbf{}":    `line 1: expected a JSON object {…}, got byte 0xef, which is not JSON`,
	} {
		if err := Decode(strings.NewReader(in), 100, &doc{}); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", in, err, want)
		}
	}
}

// TestDecodeSized: with a capacity hint the lists of numbers and strings
// decode to the same values as without, whether the hint is short, exact or
// long; a hint that fits is the slice's capacity (one allocation), and the
// hint is asked with each list's path.
func TestDecodeSized(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"name": "x", "xs": [`)
	const n = 70_000 // more than one block of the unhinted path
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString(`], "sub": {"name": "y", "ids": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"id-` + strconv.Itoa(i) + `"`)
	}
	b.WriteString(`]}}`)
	in := b.String()
	want := &doc{}
	if err := Decode(strings.NewReader(in), 1<<30, want); err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, n - 1, n, 2 * n} {
		var asked []string
		got := &doc{}
		err := DecodeSized(strings.NewReader(in), 1<<30, got, func(path string) int {
			asked = append(asked, path)
			return k
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("hint %d: decoded differently", k)
		}
		if k >= n && (cap(got.Xs) != k || cap(got.Sub.IDs) != k) {
			t.Errorf("hint %d: capacities %d, %d", k, cap(got.Xs), cap(got.Sub.IDs))
		}
		if !reflect.DeepEqual(asked, []string{"xs", "sub.ids"}) {
			t.Errorf("hint asked for %q", asked)
		}
	}
}
