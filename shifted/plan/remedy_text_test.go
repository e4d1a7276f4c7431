package plan

import (
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

// A remedy's one line: none, verified, or with the reason it is not.
func TestRemedySummary(t *testing.T) {
	if s := (Remedy{}).Summary(); s != "none (see the notes)" {
		t.Errorf("not found: %q", s)
	}
	rm := Remedy{Found: true, Count: 6, Sigma: dp.Noise(0.123456789), Utility: &Utility{Bound: dp.Loss(0.5)}, Verified: true}
	if s := rm.Summary(); !strings.HasPrefix(s, "6 (then σ = 0.123457, utility bound 0.5)") || !strings.HasSuffix(s, "every target met") {
		t.Errorf("verified: %q", s)
	}
	rm.Verified, rm.Reason = false, "not recomputed"
	if s := rm.Summary(); !strings.HasSuffix(s, "; not recomputed") {
		t.Errorf("unverified: %q", s)
	}
}
