package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/privamp/privamp/internal/quantity"
)

// Arrange returns the order in which a run feeds the private records:
// rows[p] is the index into keys of the record at position p + 1. keys
// holds one key per private record of the data set: its id for a people
// plan, its tier name for a tier plan (records of one tier keep their
// order). Every planned person must appear exactly once and every record
// must have a place; otherwise the error is an *ArrangeError that lists
// every record without a place and every position without a record. The
// public records (Public of them) are not part of keys and follow the
// private ones.
func (p *Plan) Arrange(keys []string) ([]int, error) {
	e := &ArrangeError{}
	rows := make([]int, p.N)
	filled := make([]bool, p.N)
	if p.People != nil {
		pos := make(map[string]int32, len(p.People.ID))
		for i, id := range p.People.ID {
			pos[id] = int32(i)
		}
		for i, k := range keys {
			t, ok := pos[k]
			switch {
			case !ok:
				e.add(i, 0, fmt.Sprintf("id %q is not in the plan", k))
			case filled[t]:
				e.add(i, int64(t)+1, fmt.Sprintf("id %q appears twice in the data (first at record %d)", k, rows[t]+1))
			default:
				filled[t], rows[t] = true, i
			}
		}
		for t, ok := range filled {
			if !ok {
				e.add(-1, int64(t)+1, fmt.Sprintf("planned person %q is not in the data", p.People.ID[t]))
			}
		}
	} else {
		next := map[string]int64{}
		tier := map[string]Tier{}
		for _, t := range p.Tiers {
			next[t.Name], tier[t.Name] = t.First, t
		}
		for i, k := range keys {
			t, ok := next[k]
			switch {
			case !ok:
				e.add(i, 0, fmt.Sprintf("tier %q is not in the plan", k))
			case t > tier[k].Last:
				e.add(i, 0, fmt.Sprintf("more records of tier %q than the plan's %d", k, tier[k].Count))
			default:
				filled[t-1], rows[t-1] = true, i
				next[k] = t + 1
			}
		}
		for _, t := range p.Tiers {
			if got := next[t.Name] - t.First; got < t.Count {
				e.add(-1, next[t.Name], fmt.Sprintf("tier %q: the data has %s, the plan %d", t.Name, quantity.Count(got, "record", "records"), t.Count))
			}
		}
	}
	if len(e.Issues) > 0 {
		return nil, e
	}
	return rows, nil
}

// ArrangeIssue is one record without a place in a plan, or one planned
// position without a record.
type ArrangeIssue struct {
	Record   int   // index into the keys (0-based); −1 when the issue is a position
	Position int64 // planned position (1-based); 0 when none
	Msg      string
}

// ArrangeError lists every mismatch between the data's records and a plan.
type ArrangeError struct {
	Issues []ArrangeIssue
}

func (e *ArrangeError) add(record int, pos int64, msg string) {
	e.Issues = append(e.Issues, ArrangeIssue{Record: record, Position: pos, Msg: msg})
}

// Error describes the records as "record N" (1-based).
func (e *ArrangeError) Error() string {
	return e.Describe(func(i int) string { return "record " + strconv.Itoa(i+1) })
}

// maxArrangeListed is the most issues a message spells out.
const maxArrangeListed = 20

// Describe returns one line: how many records have no place in the plan
// and how many planned positions no record, then the first issues, each
// named by where(record) (for example the file line) or its position.
func (e *ArrangeError) Describe(where func(record int) string) string {
	var recs, poss int
	for _, is := range e.Issues {
		if is.Record >= 0 {
			recs++
		} else {
			poss++
		}
	}
	var parts []string
	if recs > 0 {
		parts = append(parts, fmt.Sprintf("%s of the data: no place in the plan", quantity.Count(recs, "record", "records")))
	}
	if poss > 0 {
		parts = append(parts, fmt.Sprintf("%s: no record in the data", quantity.Count(poss, "planned position", "planned positions")))
	}
	var b strings.Builder
	b.WriteString(strings.Join(parts, " and "))
	b.WriteString(": ")
	writeListed(&b, len(e.Issues), maxArrangeListed, func(i int) {
		is := e.Issues[i]
		if is.Record >= 0 {
			b.WriteString(where(is.Record))
		} else {
			fmt.Fprintf(&b, "position %d", is.Position)
		}
		b.WriteString(": " + is.Msg)
	})
	return b.String()
}
