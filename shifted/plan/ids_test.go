package plan

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestIDs: ids kept compactly read back as appended, across block
// boundaries (an id longer than a block, ids straddling two), after a
// reordering, and as JSON.
func TestIDs(t *testing.T) {
	var want []string
	var s IDs
	long := strings.Repeat("x", idsBlock+17)
	for i := range 3000 {
		id := itoa(i) + strings.Repeat("é", i%700)
		if i == 1234 {
			id = long
		}
		if i == 7 {
			id = ""
		}
		want = append(want, id)
		s.Append(id)
	}
	if s.Len() != len(want) || !slices.Equal(s.Strings(), want) || len(s.blocks) < 3 {
		t.Fatalf("%d ids in %d blocks; read back differ", s.Len(), len(s.blocks))
	}
	straddles := 0
	for i := range want {
		if s.At(i) != want[i] || !bytes.Equal(s.bytes(i), []byte(want[i])) {
			t.Fatalf("id %d differs", i)
		}
		var start uint64
		if i > 0 {
			start = s.end(i - 1)
		}
		if end := s.end(i); end > start && start/idsBlock != (end-1)/idsBlock {
			straddles++
		}
	}
	if straddles < 2 {
		t.Errorf("only %d ids straddle two blocks: the test does not cover them", straddles)
	}
	// Reorder twice: position pos holds want[perm2[perm1[pos]]]...
	perm := make([]int32, len(want))
	for i := range perm {
		perm[i] = int32(len(want) - 1 - i)
	}
	s.reorder(perm)
	perm2 := make([]int32, len(want))
	for i := range perm2 {
		perm2[i] = int32((i * 7) % len(want))
	}
	if len(want)%7 == 0 {
		t.Fatal("7 must be coprime to the length")
	}
	s.reorder(slices.Clone(perm2))
	for pos := range want {
		if got, w := s.At(pos), want[len(want)-1-int(perm2[pos])]; got != w {
			t.Fatalf("after two reorderings, position %d holds %.20q, want %.20q", pos, got, w)
		}
	}
	s.Append("last")
	if s.At(s.Len()-1) != "last" {
		t.Error("an id appended after a reordering is not at the end")
	}
	b, err := json.Marshal(NewIDs("a", "b\"", "<"))
	if err != nil || string(b) != `["a","b\"","\u003c"]` {
		t.Errorf("JSON %s %v", b, err)
	}
}

// TestLoadRefusesBadIDs: a plan file whose id list is not a list of strings
// is refused naming the element and its line, as before ids were stored
// compactly, and a repeated id is refused.
func TestLoadRefusesBadIDs(t *testing.T) {
	pp := &People{ID: NewIDs("a", "b", "c"), Epsilon: []float64{1, 2, 1}}
	res, err := Make(baseSetting(PNSGD), Budgets{People: pp})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res.Plan.WriteTo(&buf)
	good := buf.String()
	if !strings.Contains(good, `"id": ["a","c","b"]`) {
		t.Fatalf("unexpected plan:\n%s", good)
	}
	for edit, want := range map[string]string{
		`"id": ["a",3,"b"]`:       `field "people.id[1]": expected a string, got the number 3`,
		`"id": ["a","c",]`:        `invalid JSON: unexpected ']' where a value belongs`,
		`"id": ["a","a","b"]`:     `duplicate id "a"`,
		`"id": ["a","c","b","d"]`: `people columns have different lengths`,
		`"id": "a"`:               `field "people.id": expected a list […], got the string "a"`,
		`"id": ["a","","b"]`:      `empty id`,
	} {
		in := strings.Replace(good, `"id": ["a","c","b"]`, edit, 1)
		_, err := Load(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", edit, err, want)
		}
		if err != nil && !strings.Contains(err.Error(), "line ") && !strings.Contains(want, "duplicate") && !strings.Contains(want, "lengths") && !strings.Contains(want, "empty") {
			t.Errorf("%s: %v names no line", edit, err)
		}
	}
}
