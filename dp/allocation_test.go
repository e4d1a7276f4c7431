package dp

import (
	"reflect"
	"strings"
	"testing"
)

// Balls-in-bins is a sampling scheme with a flag spelling and an event:
// epochs of k = 1/q steps, ⌈steps/k⌉ of them, add/remove only.
func TestBallsInBins(t *testing.T) {
	for _, s := range []string{"balls-in-bins", "balls_in_bins"} {
		if got, err := ParseSampling("sampling", s); err != nil || got != BallsInBins {
			t.Errorf("ParseSampling(%q) = %v, %v", s, got, err)
		}
	}
	if BallsInBins.String() != "balls_in_bins" {
		t.Errorf("String = %q", BallsInBins.String())
	}
	if _, err := ParseSampling("sampling", "balls"); err == nil || !strings.Contains(err.Error(), "balls-in-bins") {
		t.Errorf("an unknown scheme is refused naming the allowed ones: %v", err)
	}
	got := DPSGD(0.25, 1.5, 10, BallsInBins)
	want := SelfComposed{Event: RandomAllocation{NumSteps: 4, Event: Gaussian{NoiseMultiplier: 1.5}}, Count: 3}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DPSGD = %#v, want %#v", got, want)
	}
	if err := Validate(got, AddRemove); err != nil {
		t.Errorf("add/remove: %v", err)
	}
	if err := Validate(got, ReplaceOne); err == nil || !strings.Contains(err.Error(), "neighbouring") {
		t.Errorf("replace-one is refused naming the relation: %v", err)
	}
	if err := Validate(RandomAllocation{NumSteps: 0, Event: Gaussian{NoiseMultiplier: 1}}, AddRemove); err == nil || !strings.Contains(err.Error(), "num_steps") {
		t.Errorf("num_steps 0: %v", err)
	}
	if err := Validate(RandomAllocation{NumSteps: 3, Event: Laplace{NoiseMultiplier: 1}}, AddRemove); err == nil {
		t.Error("a Laplace event cannot be allocated")
	}
	// The runs count every step of every epoch.
	if err := Validate(SelfComposed{Event: RandomAllocation{NumSteps: 1e6, Event: Gaussian{NoiseMultiplier: 1}}, Count: 1e7}, AddRemove); err == nil {
		t.Error("1e13 runs accepted")
	}
	if as := strings.Join(Assumptions(got, AddRemove), "\n"); !strings.Contains(as, "balls-in-bins") {
		t.Errorf("assumptions do not say balls-in-bins: %s", as)
	}
}
