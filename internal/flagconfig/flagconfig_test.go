package flagconfig

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestApply(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	eta := fs.Float64("eta", 0, "")
	steps := fs.Int64("steps", 10, "")
	name := fs.String("data-path", "", "")
	idx := fs.Int64Slice("index", nil, "")
	if err := fs.Parse([]string{"--steps", "7"}); err != nil {
		t.Fatal(err)
	}
	err := Apply(fs, strings.NewReader(`{"eta": 0.5, "steps": 99, "data_path": "x.csv", "index": [1, 2]}`))
	if err != nil || *eta != 0.5 || *steps != 7 || *name != "x.csv" || len(*idx) != 2 {
		t.Fatalf("Apply: %v; eta %v steps %v (the command line wins) path %q index %v", err, *eta, *steps, *name, *idx)
	}
	for in, want := range map[string]string{`{"nope": 1}`: "nope", `{"eta": "x"}`: "eta", `{"eta": 1, "eta": 2}`: "eta"} {
		if err := Apply(fs, strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming %s", in, err, want)
		}
	}
	if err := Apply(fs, strings.NewReader(`{"steps": 1}`), "steps"); err == nil {
		t.Errorf("a skipped flag was configurable")
	}
}
