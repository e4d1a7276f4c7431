package dp

import (
	"encoding/json"
	"math"
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

// A result that embeds a Guarantee keeps flat JSON keys (epsilon, delta,
// source), and a theorem's bound, with no accountant and no assumptions,
// has neither key: embedding adds no key a result did not have.
func TestGuaranteeEmbedsFlat(t *testing.T) {
	type result struct {
		Steps int `json:"steps"`
		Guarantee
	}
	b, err := json.Marshal(result{Steps: 3, Guarantee: Guarantee{Epsilon: 1.5, Delta: 1e-5, Source: "Thm 1"}})
	if err != nil || string(b) != `{"steps":3,"epsilon":1.5,"delta":1e-05,"source":"Thm 1"}` {
		t.Errorf("%s %v", b, err)
	}
	b, _ = json.Marshal(result{Guarantee: Guarantee{Epsilon: Loss(math.Inf(1)), Accountant: "rdp", Assumptions: []string{"a"}}})
	if string(b) != `{"steps":0,"epsilon":null,"delta":0,"accountant":"rdp","source":"","assumptions":["a"]}` {
		t.Errorf("%s", b)
	}
}
