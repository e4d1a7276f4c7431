package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/quantity"
)

// Arrange returns the order in which a run feeds the private records:
// rows[p] is the index into keys of the record at position p + 1. keys
// holds one key per private record of the data set: its id for a people
// plan, its tier name for a tier plan (records of one tier keep their
// order). Every planned person must appear exactly once and every record
// must have a place; otherwise the error lists every record without a place
// and every position without a record: errors.As finds its dp.Errors, one
// *dp.Error per mismatch. lines, if not nil, holds the file line of each
// record (then a record's error is `line 7: …`, Where dp.InputFile);
// without it a record's error has the Field "record 5" and a position's
// always the Field "position 3". The public records (Public of them) are
// not part of keys and follow the private ones.
func (p *Plan) Arrange(keys []string, lines []int) ([]int, error) {
	e := &arrangeError{lines: lines}
	rows := make([]int, p.N)
	filled := make([]bool, p.N)
	if p.People != nil {
		pos := make(map[string]int32, p.People.Len())
		for i := range p.People.Len() {
			id := p.People.ID.At(i)
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
				e.add(-1, int64(t)+1, fmt.Sprintf("planned person %q is not in the data", p.People.ID.At(t)))
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
	if len(e.issues) > 0 {
		return nil, e
	}
	return rows, nil
}

// arrangeError is the error of Arrange: every mismatch between the data's
// records and a plan.
type arrangeError struct {
	lines  []int // file line of each record, or nil
	issues dp.Errors
	recs   int // how many of issues are records (the others are positions)
}

// add records a mismatch of record (an index into the keys; −1 when the
// mismatch is a position without a record) or of position pos.
func (e *arrangeError) add(record int, pos int64, msg string) {
	is := &dp.Error{Field: fmt.Sprintf("position %d", pos), Reason: msg}
	switch {
	case record >= 0 && record < len(e.lines) && e.lines[record] > 0:
		is = &dp.Error{Where: dp.InputFile, Line: e.lines[record], Reason: msg}
	case record >= 0:
		is.Field = "record " + strconv.Itoa(record+1)
	}
	if record >= 0 {
		e.recs++
	}
	e.issues = append(e.issues, is)
}

func (e *arrangeError) Unwrap() error { return e.issues }

// maxArrangeListed is the most issues a message spells out.
const maxArrangeListed = 20

// Error returns one line: how many records have no place in the plan and
// how many planned positions no record, then the first mismatches, each
// named by its file line, its record number or its position.
func (e *arrangeError) Error() string {
	recs, poss := e.recs, len(e.issues)-e.recs
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
	writeListed(&b, len(e.issues), maxArrangeListed, func(i int) {
		if is := e.issues[i]; is.Line > 0 {
			b.WriteString(is.Error())
		} else {
			b.WriteString(is.Field + ": " + is.Reason)
		}
	})
	return b.String()
}
