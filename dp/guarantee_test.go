package dp

import (
	"strings"
	"testing"
)

// A guarantee's assumptions name the relation, the sensitivity and each
// sampling scheme the event uses, once.
func TestAssumptions(t *testing.T) {
	e := Composed{Events: []Event{DPSGD(0.01, 1, 10, Poisson), DPSGD(0.02, 1, 10, Poisson), DPSGD(0.1, 1, 5, WithoutReplacement)}}
	as := strings.Join(Assumptions(e, ReplaceOne), "\n")
	if !strings.Contains(as, "replace-one") || !strings.Contains(as, "sensitivity is 2") || strings.Count(as, "Poisson sampling") != 1 ||
		!strings.Contains(as, "without replacement") || !strings.Contains(as, "adaptively") {
		t.Errorf("%s", as)
	}
	if as := strings.Join(Assumptions(Gaussian{NoiseMultiplier: 1}, AddRemove), "\n"); strings.Contains(as, "sampling") || !strings.Contains(as, "sensitivity is 1") {
		t.Errorf("%s", as)
	}
}
