package plan

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// RowError is one invalid line of a people CSV.
type RowError struct {
	Line int
	Msg  string
}

func (e RowError) String() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ParseError lists every invalid line of a people CSV, by line number.
type ParseError struct {
	Rows []RowError
}

// MaxListed is the most invalid rows ParseError.Error spells out; the rest
// are counted (Rows always holds all of them).
const MaxListed = 10_000

// Error returns one line: "line 3: …" for one invalid row, or
// "N invalid rows: line 3: …; line 7: …".
func (e *ParseError) Error() string {
	var b strings.Builder
	if len(e.Rows) > 1 {
		fmt.Fprintf(&b, "%d invalid rows: ", len(e.Rows))
	}
	for i, r := range e.Rows {
		if i == MaxListed {
			fmt.Fprintf(&b, "; … and %d more", len(e.Rows)-MaxListed)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(r.String())
	}
	return b.String()
}

// ReadCSV reads people from CSV with a header line naming the columns id,
// epsilon and, optionally, delta (in any order, case-insensitive; other
// columns are ignored). It streams the input and checks every row: a
// missing column, an empty id, an ε that is not a finite number > 0, a δ
// outside (0, 1) (an empty δ means the default) and a repeated id are all
// reported, by line number, in one *ParseError that lists every invalid
// row. Nobody is dropped: the result holds every row, in file order, or
// there is an error.
func ReadCSV(r io.Reader) (*People, error) {
	rd := csv.NewReader(bufio.NewReaderSize(r, 1<<20))
	rd.FieldsPerRecord = -1
	rd.ReuseRecord = true
	rd.TrimLeadingSpace = true
	header, err := rd.Read()
	if err == io.EOF {
		return nil, &ParseError{Rows: []RowError{{1, "empty file: expected a header line with the columns id, epsilon and optionally delta"}}}
	}
	if err != nil {
		return nil, &ParseError{Rows: []RowError{{csvLine(err, 1), "header: " + csvMsg(err)}}}
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if h == "id" || h == "epsilon" || h == "delta" {
			if _, dup := col[h]; dup {
				return nil, &ParseError{Rows: []RowError{{1, fmt.Sprintf("header names the column %q twice", h)}}}
			}
			col[h] = i
		}
	}
	var missing []string
	for _, c := range []string{"id", "epsilon"} {
		if _, ok := col[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return nil, &ParseError{Rows: []RowError{{1, fmt.Sprintf("header lacks the column(s) %s (want id, epsilon and optionally delta; got %q)", strings.Join(missing, ", "), strings.Join(header, ","))}}}
	}
	idCol, epsCol := col["id"], col["epsilon"]
	delCol, hasDelta := col["delta"]
	need := max(idCol, epsCol) + 1
	if hasDelta {
		need = max(need, delCol+1)
	}
	p := &People{}
	var lines []int32
	var bad []RowError
	lastErrLine := -1
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return nil, err // an I/O error, not a bad row
			}
			l := csvLine(err, 0)
			if l == lastErrLine {
				break // no progress: the rest of the file is unreadable
			}
			lastErrLine = l
			bad = append(bad, RowError{l, csvMsg(err)})
			continue
		}
		line, _ := rd.FieldPos(0)
		if len(rec) < need {
			var miss []string
			for _, c := range []struct {
				name string
				at   int
			}{{"id", idCol}, {"epsilon", epsCol}, {"delta", delCol}} {
				if (c.name != "delta" || hasDelta) && c.at >= len(rec) {
					miss = append(miss, c.name)
				}
			}
			bad = append(bad, RowError{line, fmt.Sprintf("missing column(s) %s: the row has %d field(s), the header %d", strings.Join(miss, ", "), len(rec), len(header))})
			continue
		}
		if len(rec) > len(header) {
			bad = append(bad, RowError{line, fmt.Sprintf("the row has %d fields, the header %d", len(rec), len(header))})
			continue
		}
		id := strings.TrimSpace(rec[idCol])
		var msgs []string
		if id == "" {
			msgs = append(msgs, "empty id")
		}
		eps, err := parseBudget(rec[epsCol])
		switch {
		case err != nil:
			msgs = append(msgs, fmt.Sprintf("epsilon %q is not a number", strings.TrimSpace(rec[epsCol])))
		case math.IsNaN(eps) || math.IsInf(eps, 0):
			msgs = append(msgs, fmt.Sprintf("epsilon must be a finite number > 0, got %q", strings.TrimSpace(rec[epsCol])))
		case eps <= 0:
			msgs = append(msgs, fmt.Sprintf("epsilon must be > 0, got %v", eps))
		}
		var del float64
		if hasDelta {
			if s := strings.TrimSpace(rec[delCol]); s != "" {
				d, err := parseBudget(s)
				switch {
				case err != nil:
					msgs = append(msgs, fmt.Sprintf("delta %q is not a number", s))
				case !(d > 0 && d < 1):
					msgs = append(msgs, fmt.Sprintf("delta must be in (0, 1), got %q", s))
				default:
					del = d
				}
			}
		}
		if len(msgs) > 0 {
			bad = append(bad, RowError{line, strings.Join(msgs, "; ")})
			continue
		}
		if int64(len(p.ID)) >= MaxPeople {
			bad = append(bad, RowError{line, fmt.Sprintf("more than %d people", MaxPeople)})
			break
		}
		if del != 0 && p.Delta == nil {
			p.Delta = make([]float64, len(p.ID), cap(p.ID))
		}
		p.ID = append(p.ID, strings.Clone(id))
		p.Epsilon = append(p.Epsilon, eps)
		if p.Delta != nil {
			p.Delta = append(p.Delta, del)
		}
		lines = append(lines, int32(min(line, math.MaxInt32)))
	}
	for _, d := range duplicates(p.ID) {
		bad = append(bad, RowError{int(lines[d[1]]), fmt.Sprintf("duplicate id %q (first on line %d)", p.ID[d[1]], lines[d[0]])})
	}
	if len(bad) > 0 {
		slices.SortStableFunc(bad, func(a, b RowError) int { return cmp.Compare(a.Line, b.Line) })
		return nil, &ParseError{Rows: bad}
	}
	if len(p.ID) == 0 {
		return nil, &ParseError{Rows: []RowError{{2, "no people: the file has a header but no rows"}}}
	}
	return p, nil
}

// parseBudget parses a number, refusing hexadecimal floats and
// underscores, which strconv accepts but a CSV of budgets should not hold.
func parseBudget(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "_xXpP") {
		return 0, errors.New("not a decimal number")
	}
	return strconv.ParseFloat(s, 64)
}

func csvLine(err error, def int) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if pe.StartLine > 0 {
			return pe.StartLine
		}
		return pe.Line
	}
	return def
}

func csvMsg(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return "malformed CSV: " + pe.Err.Error()
	}
	return err.Error()
}

// duplicates returns, for every id that repeats an earlier one, the pair
// (index of the first occurrence, index of the repeat), ordered by the
// repeat. It sorts 64-bit hashes (radix sort, with the index) instead of
// building a map of strings (linear time, 16 bytes per id).
func duplicates(ids []string) [][2]int {
	seed := maphash.MakeSeed()
	hs := make([]keyed, len(ids))
	for i, id := range ids {
		hs[i] = keyed{maphash.String(seed, id), int32(i)}
	}
	radixSort(hs) // stable: equal hashes stay in index order
	var out [][2]int
	for lo := 0; lo < len(hs); {
		hi := lo + 1
		for hi < len(hs) && hs[hi].k == hs[lo].k {
			hi++
		}
		if hi-lo > 1 { // equal hashes: compare the strings (first index first)
			for a := lo; a < hi; a++ {
				if hs[a].i < 0 {
					continue
				}
				for b := a + 1; b < hi; b++ {
					if hs[b].i >= 0 && ids[hs[a].i] == ids[hs[b].i] {
						out = append(out, [2]int{int(hs[a].i), int(hs[b].i)})
						hs[b].i = -1
					}
				}
			}
		}
		lo = hi
	}
	slices.SortFunc(out, func(a, b [2]int) int { return cmp.Compare(a[1], b[1]) })
	return out
}
