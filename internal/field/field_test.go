package field

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

func TestValidators(t *testing.T) {
	cases := []struct {
		err  error
		want string // "" means valid
	}{
		{Positive("sigma", 1), ""},
		{Positive("sigma", 0), "sigma must be a finite number > 0, got 0"},
		{Positive("sigma", math.Inf(1)), "sigma must be a finite number > 0, got +Inf"},
		{NonNegative("eta", -1e-300), "eta must be a finite number ≥ 0, got -1e-300"},
		{NonNegative("eta", 0), ""},
		{OpenUnit("delta", 1), "delta must be in (0, 1), got 1"},
		{OpenUnit("delta", math.NaN()), "delta must be in (0, 1), got NaN"},
		{OpenUnit("delta", 5e-324), ""},
		{Range("q", 1.5, 0, 1), "q must be in [0, 1], got 1.5"},
		{Count("n", 0, 1, 1_000_000_000_000), "n must be a whole number in [1, 1e12], got 0"},
		{Count("batch", 7, 1, 60000), ""},
		{New("variant", "epochs", "must be one of %s", "pnsgd, skip, stop"), `variant must be one of pnsgd, skip, stop, got "epochs"`},
		{New("trajectory", nil, "is required"), "trajectory is required"},
	}
	for _, c := range cases {
		switch {
		case c.want == "" && c.err != nil:
			t.Errorf("unexpected error %v", c.err)
		case c.want != "" && (c.err == nil || c.err.Error() != c.want):
			t.Errorf("got %v, want %q", c.err, c.want)
		}
	}
}

func TestAsAndPrefix(t *testing.T) {
	err := fmt.Errorf("reading claim: %w", Positive("lipschitz", -1))
	fe, ok := As(err)
	if !ok || fe.Field != "lipschitz" || fe.Value != -1.0 {
		t.Fatalf("As: %v %v", fe, ok)
	}
	p := Prefix("loss", Positive("lipschitz", -1))
	if fe, _ := As(p); fe.Field != "loss.lipschitz" {
		t.Errorf("Prefix: %v", p)
	}
	plain := errors.New("x")
	if Prefix("loss", plain) != plain {
		t.Error("Prefix changed a plain error")
	}
	if First(nil, nil, plain, p) != plain || First() != nil {
		t.Error("First")
	}
	if got := FormatInt(60_000_000); got != "6e7" {
		t.Errorf("FormatInt = %s", got)
	}
	if got := FormatInt(1234); got != "1234" {
		t.Errorf("FormatInt = %s", got)
	}
}

// TestWhere: the one type reads as each of its producers always printed:
// a parameter with its value after the reason, an input file's line and
// key (the reason states the value), an output file's option and path.
func TestWhere(t *testing.T) {
	for _, c := range []struct {
		e    *Error
		want string
	}{
		{&Error{Field: "sigma", Value: 0.0, Reason: "must be a finite number > 0"}, "sigma must be a finite number > 0, got 0"},
		{&Error{Where: InputFile, Field: "steps[2].variance", Line: 3, Value: -1.0, Reason: "must be > 0"}, `line 3: field "steps[2].variance": must be > 0`},
		{&Error{Where: InputFile, Field: "n", Reason: "is required"}, `field "n": is required`},
		{&Error{Where: InputFile, Line: 1, Reason: "empty input: expected a JSON object"}, "line 1: empty input: expected a JSON object"},
		{&Error{Where: InputFile, Reason: "x"}, "x"},
		{AtLine(7, "longer than %d bytes", 10), "line 7: longer than 10 bytes"},
		{&Error{Where: OutputFile, Value: "a/b.json", Reason: "cannot be created: permission denied"}, "a/b.json: cannot be created: permission denied"},
		{&Error{Where: OutputFile, Field: "out", Value: "a/b.json", Reason: "is a directory: give a file name"}, "--out a/b.json: is a directory: give a file name"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", *c.e, got, c.want)
		}
	}
	// Prefix renames parameters only: a file's key path is already whole.
	in := &Error{Where: InputFile, Field: "n", Reason: "is required"}
	if Prefix("loss", in) != error(in) {
		t.Error("Prefix renamed an input file's key")
	}
}
