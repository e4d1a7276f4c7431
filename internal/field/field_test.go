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
