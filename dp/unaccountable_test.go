package dp

import "testing"

// The refusals every accountant shares: each fires where it should and
// nowhere else.
func TestUnaccountable(t *testing.T) {
	mix := MixtureOfGaussians{}
	for _, c := range []struct {
		e    Event
		r    Relation
		want bool
	}{
		{mix, ReplaceOne, true}, {mix, AddRemove, false},
		{UnsupportedEvent{}, AddRemove, true},
		{SampledWithReplacement{}, AddRemove, true},
		{Gaussian{NoiseMultiplier: 1}, ReplaceOne, false},
	} {
		if err := Unaccountable(c.e, c.r); (err != nil) != c.want {
			t.Errorf("%T under %v: %v, want refused %v", c.e, c.r, err, c.want)
		}
	}
}
