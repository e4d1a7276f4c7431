package optimizer

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

const baseClaim = `{
  "algorithm": "pnsgd", "n": 1000, "eta": 0.5, "sigma": 2,
  "lipschitz": 1, "smoothness": 1, "delta": 1e-5, "epsilon": 3
}`

func parseClaimString(t *testing.T, s string) *Claim {
	t.Helper()
	c, err := ParseClaim(strings.NewReader(s))
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	return c
}

func TestParseClaimDefaults(t *testing.T) {
	c := parseClaimString(t, baseClaim)
	if c.Batch != 1 || c.Epochs != 1 || c.Tasks != 1 || c.Order != "fixed" || !math.IsInf(c.Radius, 1) || c.Variant != Final {
		t.Fatalf("defaults: %+v", c)
	}
	if c.Steps() != 1000 {
		t.Fatalf("steps %d", c.Steps())
	}
}

func TestParseClaimErrorsNameField(t *testing.T) {
	cases := []struct{ edit, field string }{
		{`"n": 1000`, "n"}, // removed below
		{`"n": 0`, "n"},
		{`"n": "x"`, "n"},
		{`"delta": 1`, "delta"},
		{`"eta": -1`, "eta"},
		{`"sigma": 0`, "sigma"},
		{`"algorithm": "sgd"`, "algorithm"},
		{`"batch": 5000`, "batch"},
		{`"order": "random"`, "order"},
		{`"smoothness": 1, "strong_convexity": 2`, "strong_convexity"},
		{`"per_index": [{"index": 0, "epsilon": 1}]`, "per_index[0].index"},
		{`"per_index": [{"index": 3, "epsilon": -1}]`, "per_index[0].epsilon"},
		{`"tasks": 3`, "tasks"},
		{`"bogus": 1`, "bogus"},
	}
	for i, c := range cases {
		var in string
		switch {
		case i == 0:
			in = strings.Replace(baseClaim, `"n": 1000,`, "", 1)
		case strings.HasPrefix(c.edit, `"n"`), strings.HasPrefix(c.edit, `"delta"`), strings.HasPrefix(c.edit, `"eta"`), strings.HasPrefix(c.edit, `"sigma"`), strings.HasPrefix(c.edit, `"algorithm"`), strings.HasPrefix(c.edit, `"smoothness"`):
			key := c.edit[:strings.Index(c.edit, ":")]
			in = replaceField(baseClaim, key, c.edit)
		default:
			in = strings.Replace(baseClaim, "{", "{"+c.edit+",", 1)
		}
		_, err := ParseClaim(strings.NewReader(in))
		var ce *ClaimError
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("case %d (%s): got %v, want an error naming %q", i, c.edit, err, c.field)
		}
	}
}

func replaceField(s, key, repl string) string {
	i := strings.Index(s, key)
	j := i + strings.IndexAny(s[i:], ",}")
	return s[:i] + repl + s[j:]
}

func TestParseClaimSyntaxErrorLine(t *testing.T) {
	_, err := ParseClaim(strings.NewReader("{\n\"n\": 3,\n\"eta\": ,\n}"))
	var ce *ClaimError
	if !errors.As(err, &ce) || ce.Line != 3 {
		t.Fatalf("got %v, want line 3", err)
	}
	for _, in := range []string{"", "[]", "null", "{} {}", `{"n": 1e400}`} {
		if _, err := ParseClaim(strings.NewReader(in)); !errors.As(err, &ce) {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestExampleClaimFile(t *testing.T) {
	f, err := os.Open("../examples/claim.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ParseClaim(f)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := os.Open("../examples/" + c.Trajectory)
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	tr, err := ReadTrace(tf)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Verify(c, tr)
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != Valid {
		t.Fatalf("examples/claim.json: %v %+v", v.Verdict, v.Checks)
	}
}

func FuzzParseClaim(f *testing.F) {
	f.Add(baseClaim)
	f.Add(`{"algorithm":"stop","n":5,"eta":1,"sigma":1,"lipschitz":1,"delta":0.1,"tasks":2,"per_index":[{"index":1,"epsilon":1}]}`)
	f.Add("{\n\"n\": [1,2]\n}")
	f.Add(`{"algorithm":"skip","n":3,"eta":1e308,"sigma":1e-308,"lipschitz":1,"delta":0.5,"epsilon":0,"public":2}`)
	f.Fuzz(func(t *testing.T, in string) {
		c, err := ParseClaim(strings.NewReader(in))
		if err != nil {
			var ce *ClaimError
			if !errors.As(err, &ce) || (ce.Field == "" && ce.Line < 1) {
				t.Fatalf("error names neither field nor line: %v", err)
			}
			return
		}
		if c.N < 1 || c.Batch < 1 || c.Batch > c.N || !(c.Delta > 0 && c.Delta < 1) || !(c.Sigma > 0) || !(c.Eta > 0) {
			t.Fatalf("invalid claim accepted: %+v", c)
		}
		if c.N <= 100_000 && c.Epochs <= 100 && c.Tasks <= 100 {
			v, err := Verify(c, nil)
			if err != nil {
				return
			}
			if v.Verdict == Valid && c.Epsilon != nil && !math.IsNaN(v.Certified) && *c.Epsilon < v.Certified {
				t.Fatalf("VALID with claimed %v < certified %v", *c.Epsilon, v.Certified)
			}
		}
	})
}
