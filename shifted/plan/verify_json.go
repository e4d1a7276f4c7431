package plan

import (
	"encoding/json"
	"github.com/privamp/privamp/dp"
)

// MarshalJSON encodes a Verification with snake_case keys, the key names
// privamp uses for these concepts everywhere: "ok", "checked",
// "worst_ratio", "worst_index" (WorstPosition), "violation_count",
// "violations" (each "index", "id" or "tier", the target "epsilon" and
// "delta", and "achieved_epsilon"), "groups", "source", "assumptions" and "summary_mismatches" (each
// "field", "stored", "recomputed").
// Non-finite numbers encode as null.
func (v Verification) MarshalJSON() ([]byte, error) {
	type violation struct {
		Index    int64   `json:"index"`
		ID       string  `json:"id,omitempty"`
		Tier     string  `json:"tier,omitempty"`
		Epsilon  dp.Num  `json:"epsilon"`
		Delta    dp.Num  `json:"delta"`
		Achieved dp.Loss `json:"achieved_epsilon"`
	}
	vs := make([]violation, len(v.Violations))
	for i, x := range v.Violations {
		vs[i] = violation{x.Position, x.ID, x.Tier, dp.Num(x.Epsilon), dp.Num(x.Delta), dp.Loss(x.Achieved)}
	}
	return json.Marshal(struct {
		OK             bool          `json:"ok"`
		Checked        int64         `json:"checked"`
		WorstRatio     dp.Loss       `json:"worst_ratio"`
		WorstIndex     int64         `json:"worst_index"`
		ViolationCount int64         `json:"violation_count"`
		Violations     []violation   `json:"violations"`
		Groups         []GroupResult `json:"groups,omitempty"`
		Source         string        `json:"source"`
		Assumptions    []string      `json:"assumptions"`
		Summary        []Mismatch    `json:"summary_mismatches"`
	}{v.OK, v.Checked, dp.Loss(v.WorstRatio), v.WorstPosition, v.ViolationCount, vs, v.Groups, v.Source, v.Assumptions, v.Summary})
}
