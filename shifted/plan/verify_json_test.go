package plan

import (
	"encoding/json"
	"math"
	"testing"
)

// TestVerificationJSON: snake_case keys (worst_index, not worst_position),
// the violations with their index, and a non-finite number as null rather
// than an encoding error.
func TestVerificationJSON(t *testing.T) {
	v := Verification{Checked: 3, WorstRatio: math.Inf(1), WorstPosition: 2, ViolationCount: 1,
		Violations: []Violation{{Position: 2, ID: "ann", Epsilon: 0.5, Delta: 1e-6, Achieved: math.Inf(1)}}, Source: "s"}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	vs := m["violations"].([]any)[0].(map[string]any)
	if m["ok"] != false || m["worst_index"] != 2.0 || m["worst_ratio"] != nil || m["checked"] != 3.0 ||
		vs["index"] != 2.0 || vs["id"] != "ann" || vs["achieved_epsilon"] != nil || vs["epsilon"] != 0.5 {
		t.Errorf("%s", b)
	}
	if _, ok := m["worst_position"]; ok {
		t.Errorf("worst_position key: %s", b)
	}
}
