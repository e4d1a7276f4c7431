package verify

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
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
	if c.Training().Steps() != 1000 {
		t.Fatalf("steps %d", c.Training().Steps())
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
		var ce *dp.Error
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
	var ce *dp.Error
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
	if v.Verdict != dp.Valid {
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
			var ce *dp.Error
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
			if v.Verdict == dp.Valid && c.Epsilon != nil && !math.IsNaN(float64(v.WorstEpsilon)) && *c.Epsilon < float64(v.WorstEpsilon) {
				t.Fatalf("VALID with claimed %v < certified %v", *c.Epsilon, float64(v.WorstEpsilon))
			}
		}
	})
}

// TestParseClaimIssue9Hole4: keys are exact and unique, and a claim over
// the size limit says so. The old parser matched "Epsilon" to "epsilon"
// and kept the last of a repeated key ("Epsilon": 0.01, "epsilon": 2 read
// as ε = 2, VALID), and cut an oversize file at 8 MiB ("unexpected end of
// file").
func TestParseClaimIssue9Hole4(t *testing.T) {
	withEps := func(eps string) string { return replaceField(baseClaim, `"epsilon"`, eps) }
	cases := []struct {
		in, field string
		line      int
		reason    string
	}{
		{withEps(`"Epsilon": 0.01, "epsilon": 2`), "Epsilon", 3, `case-sensitive; did you mean "epsilon"?`},
		{withEps(`"epsilon": 2, "Epsilon": 0.01`), "Epsilon", 3, `case-sensitive`},
		{withEps(`"EPSILON": 2`), "EPSILON", 3, `case-sensitive`},
		{withEps("\"epsilon\": 0.01,\n\"epsilon\": 2"), "epsilon", 4, "repeated key (first on line 3)"},
		{withEps(`"epsilon": 2, "per_index": [{"index": 1, "epsilon": 1, "epsilon": 0.1}]`), "per_index[0].epsilon", 3, "repeated key"},
		{withEps(`"epsilon": 2, "per_index": [{"Index": 1, "epsilon": 1}]`), "per_index[0].Index", 3, "case-sensitive"},
		{strings.Replace(baseClaim, `"lipschitz"`, `"Lipschitz"`, 1), "Lipschitz", 3, "case-sensitive"},
		{strings.Replace(baseClaim, `"n": 1000`, `"n": 1000.5`, 1), "n", 2, "expected a whole number, got 1000.5"},
		{strings.Replace(baseClaim, `"n": 1000`, `"n": 1e13`, 1), "n", 0, "must be an integer in [1, 10^12]"},
	}
	for _, c := range cases {
		_, err := ParseClaim(strings.NewReader(c.in))
		var ce *dp.Error
		if !errors.As(err, &ce) || ce.Field != c.field || ce.Line != c.line || !strings.Contains(ce.Reason, c.reason) {
			t.Errorf("%s:\n got %v\nwant line %d, field %q: …%s", c.in, err, c.line, c.field, c.reason)
		}
	}
	// Whole numbers however written.
	c := parseClaimString(t, strings.Replace(baseClaim, `"n": 1000`, `"n": 1e3, "batch": 10.0, "epochs": 2E0`, 1))
	if c.N != 1000 || c.Batch != 10 || c.Epochs != 2 {
		t.Errorf("whole numbers: n %d batch %d epochs %d", c.N, c.Batch, c.Epochs)
	}
	// Over the size limit: a long description, or a long per_index list.
	for _, pad := range []string{
		`"description": "` + strings.Repeat("x", MaxBytes) + `", `,
		`"per_index": [` + strings.Repeat(`{"index": 1, "epsilon": 1}, `, MaxBytes/26) + `{"index": 2, "epsilon": 1}], `,
	} {
		in := strings.Replace(baseClaim, "{", "{"+pad, 1)
		_, err := ParseClaim(strings.NewReader(in))
		var ce *dp.Error
		if !errors.As(err, &ce) || !strings.Contains(ce.Reason, "exceeds the 8388608-byte (8 MiB) limit") || strings.Contains(err.Error(), "end of") {
			t.Errorf("oversize claim (%d bytes): %v", len(in), err)
		}
	}
	// Just under the limit is read.
	in := strings.Replace(baseClaim, "{", `{"description": "`+strings.Repeat("x", MaxBytes-len(baseClaim)-20)+`", `, 1)
	if _, err := ParseClaim(strings.NewReader(in)); err != nil {
		t.Errorf("claim of %d bytes: %v", len(in), err)
	}
}

// Claimed is the claim's epsilon, else its weakest per-index ε.
func TestClaimed(t *testing.T) {
	e := 0.7
	for _, c := range []struct {
		c    Claim
		want float64
	}{{Claim{Epsilon: &e, Delta: 1e-5}, 0.7}, {Claim{PerIndex: []IndexClaim{{1, 0.2}, {5, 0.9}, {9, 0.4}}, Delta: 1e-6}, 0.9}} {
		if got, d := c.c.Claimed(); got != c.want || d != c.c.Delta {
			t.Errorf("%+v: %v, %v", c.c, got, d)
		}
	}
}
