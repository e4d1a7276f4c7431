package pld

import (
	"github.com/privamp/privamp/dp"
	"strings"
	"testing"
)

// Both spellings of each relation parse to it; anything else is a field
// error naming the field.
func TestParseRelation(t *testing.T) {
	for s, want := range map[string]dp.Relation{"": dp.AddRemove, "add-remove": dp.AddRemove, "add_or_remove_one": dp.AddRemove, "replace-one": dp.ReplaceOne, "replace_one": dp.ReplaceOne} {
		if r, err := dp.ParseRelation("neighbours", s); err != nil || r != want {
			t.Errorf("%q: %v %v", s, r, err)
		}
	}
	if _, err := dp.ParseRelation("neighbours", "Replace-One"); err == nil || !strings.HasPrefix(err.Error(), "neighbours ") {
		t.Errorf("Replace-One: %v", err)
	}
	if dp.AddRemove.Sensitivity() != 1 || dp.ReplaceOne.Sensitivity() != 2 || dp.ReplaceOne.String() != "replace-one" {
		t.Error("sensitivity or name")
	}
}
