package flagconfig

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
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

// Issue 23 item 8: integer flags read exact whole numbers in float
// notation (as float flags read 1e12) and refuse other numbers naming the
// range their usage writes.
func TestWholeNumbers(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("points", 60, "about how many (2 to 100000)")
	m := fs.Int64("index", 0, "a position")
	x := fs.Float64("sigma", 1, "noise")
	WholeNumbers(fs)
	WholeNumbers(fs) // idempotent
	for _, c := range []struct {
		args   []string
		n, m   int64
		errHas string
	}{
		{[]string{"--points", "1e3", "--index", "2.5e4"}, 1000, 25000, ""},
		{[]string{"--points", "500.0", "--index", "-7"}, 500, -7, ""},
		{[]string{"--points", "12"}, 12, 0, ""},
		{[]string{"--index", "9.2e18"}, 60, 9_200_000_000_000_000_000 / 1000 * 1000, ""},
		{[]string{"--points", "2.5"}, 0, 0, `"--points" flag: must be a whole number in [2, 100000]`},
		{[]string{"--points", "1e300"}, 0, 0, "must be a whole number in [2, 100000]"},
		{[]string{"--index", "1e19"}, 0, 0, `"--index" flag: must be a whole number (written`},
		{[]string{"--index", "NaN"}, 0, 0, "must be a whole number"},
		{[]string{"--index", "x"}, 0, 0, "must be a whole number"},
	} {
		*n, *m = 60, 0
		err := fs.Parse(c.args)
		if c.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), c.errHas) {
				t.Errorf("%v: %v, want %q", c.args, err, c.errHas)
			}
			continue
		}
		if err != nil || int64(*n) != c.n || *m != c.m {
			t.Errorf("%v: %v, points %d, index %d", c.args, err, *n, *m)
		}
	}
	if err := fs.Parse([]string{"--sigma", "1e12"}); err != nil || *x != 1e12 {
		t.Errorf("float flag: %v %v", err, *x)
	}
}

// TestOnlyRoot checks that a root built for one subcommand reads no version
// and has no completion command, and one built for all has both.
func TestOnlyRoot(t *testing.T) {
	calls := 0
	version := func() string { calls++; return "v1" }
	one := &cobra.Command{Use: "p"}
	OnlyRoot(one, "gaussian", version)
	if calls != 0 || one.Version != "" || !one.CompletionOptions.DisableDefaultCmd {
		t.Errorf("one command: version read %d times, Version %q, completion disabled %v", calls, one.Version, one.CompletionOptions.DisableDefaultCmd)
	}
	all := &cobra.Command{Use: "p"}
	OnlyRoot(all, "*", version)
	if calls != 1 || all.Version != "v1" || all.CompletionOptions.DisableDefaultCmd {
		t.Errorf("all commands: version read %d times, Version %q, completion disabled %v", calls, all.Version, all.CompletionOptions.DisableDefaultCmd)
	}
}
