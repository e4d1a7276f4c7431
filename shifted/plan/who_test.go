package plan

import "testing"

func TestWhoInAndPositions(t *testing.T) {
	p := &Plan{People: &People{ID: NewIDs("a", "b", "c", "d", "e")}}
	if got := p.WhoIn(1, 5, ""); got != "a, b, c, +2 more" {
		t.Errorf("WhoIn(1, 5) = %q", got)
	}
	if got := p.WhoIn(2, 3, ""); got != "b, c" {
		t.Errorf("WhoIn(2, 3) = %q", got)
	}
	if got := (&Plan{}).WhoIn(1, 9, "tier2"); got != "tier2" {
		t.Errorf("tier plan: %q", got)
	}
	if Positions(7, 7) != "7" || Positions(1, 36) != "1–36" {
		t.Errorf("Positions: %q %q", Positions(7, 7), Positions(1, 36))
	}
}
