package pld

import (
	"strings"
	"testing"
)

// Both spellings of each relation parse to it; anything else is a field
// error naming the field.
func TestParseRelation(t *testing.T) {
	for s, want := range map[string]Relation{"": AddRemove, "add-remove": AddRemove, "add_or_remove_one": AddRemove, "replace-one": ReplaceOne, "replace_one": ReplaceOne} {
		if r, err := ParseRelation("neighbours", s); err != nil || r != want {
			t.Errorf("%q: %v %v", s, r, err)
		}
	}
	if _, err := ParseRelation("neighbours", "Replace-One"); err == nil || !strings.HasPrefix(err.Error(), "neighbours ") {
		t.Errorf("Replace-One: %v", err)
	}
	if AddRemove.Sensitivity() != 1 || ReplaceOne.Sensitivity() != 2 || ReplaceOne.String() != "replace-one" {
		t.Error("sensitivity or name")
	}
}
