package plan

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/lines"
)

// rowsError is the error of ReadCSV: every invalid line of a people CSV,
// by line number, each a *dp.Error (Where: dp.InputFile, Line, Reason).
// errors.As finds the dp.Errors it wraps.
type rowsError struct{ rows dp.Errors }

// MaxListed is the most invalid rows ReadCSV's error spells out; the rest
// are counted (its dp.Errors always holds all of them).
const MaxListed = 10_000

// Error returns one line: "line 3: …" for one invalid row, or
// "N invalid rows: line 3: …; line 7: …".
func (e *rowsError) Error() string {
	var b strings.Builder
	if len(e.rows) > 1 {
		fmt.Fprintf(&b, "%d invalid rows: ", len(e.rows))
	}
	writeListed(&b, len(e.rows), MaxListed, func(i int) { b.WriteString(e.rows[i].Error()) })
	return b.String()
}

func (e *rowsError) Unwrap() error { return e.rows }

// badLine is the *dp.Error of line of a people CSV.
func badLine(line int, reason string) *dp.Error {
	return &dp.Error{Where: dp.InputFile, Line: line, Reason: reason}
}

// badRows is ReadCSV's error of the lines rows.
func badRows(rows ...*dp.Error) error { return &rowsError{rows} }

// writeListed writes items 0..n−1 (by item) separated by "; ", the first
// limit of them, then "; … and k more".
func writeListed(b *strings.Builder, n, limit int, item func(i int)) {
	for i := 0; i < n; i++ {
		if i == limit {
			fmt.Fprintf(b, "; … and %d more", n-limit)
			return
		}
		if i > 0 {
			b.WriteString("; ")
		}
		item(i)
	}
}

// ReadCSVFile reads the people CSV file at path with ReadCSV; a directory
// is refused.
func ReadCSVFile(path string) (*People, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err == nil && fi.IsDir() {
		return nil, errors.New("is a directory, not a CSV file")
	}
	return ReadCSV(fh)
}

// ReadCSV reads people from CSV with a header line naming the columns id,
// epsilon and, optionally, delta (in any order, case-insensitive; other
// columns are ignored). It streams the input and checks every row: a
// missing column, an empty id, an ε that is not a finite number > 0, a δ
// outside (0, 1) (an empty δ means the default) and a repeated id are all
// reported, by line number, in one error that lists every invalid row:
// errors.As finds its dp.Errors, one *dp.Error per invalid line. Nobody is dropped: the result holds every row, in file order, or
// there is an error.
//
// The input is CSV as encoding/csv reads it (leading spaces of a field
// ignored, empty lines skipped). Lines without a double quote — the usual
// case — are split by hand with no allocation per row (ids are stored in
// blocks of a megabyte); from the first line that holds a quote on,
// encoding/csv reads the rest, so quoted and multi-line fields work and
// every error keeps its line number. The result remembers that its ids
// were checked, so Make does not check them again (see People).
//
// A line may hold at most lines.MaxBytes (1 MiB) and the file at most
// MaxPeople people: past either limit ReadCSV stops with an error naming
// the line and the limit, so memory stays bounded whatever the input.
func ReadCSV(r io.Reader) (*People, error) {
	pr := &peopleReader{p: &People{}, size: inputSize(r)}
	p, err := pr.read(lines.Limit(r, lines.MaxBytes))
	var re *rowsError
	if tl := (*dp.Error)(nil); !errors.As(err, &re) && errors.As(err, &tl) {
		return nil, badRows(tl) // a line past the limit
	}
	return p, err
}

// peopleReader is the state of ReadCSV: the header's columns, the people
// read so far and the invalid rows.
type peopleReader struct {
	p                     *People
	header                []string
	idCol, epsCol, delCol int
	hasDelta, full, grown bool
	need                  int
	bad                   dp.Errors
	marks                 []lineMark // file line of every row (lineOf)
	size                  int64      // bytes of input when known, else −1
	nums                  budgetNums // the sequential path's last ε and δ parsed
	consumed              int64      // bytes the fast path has split
}

// lineMark says that row (0-based) and the rows after it, up to the next
// mark, are on consecutive lines from line: a file without blank lines,
// invalid rows or multi-line records needs a single mark.
type lineMark struct{ row, line int }

// lineOf returns the file line of row i.
func (pr *peopleReader) lineOf(i int) int {
	k := sort.Search(len(pr.marks), func(k int) bool { return pr.marks[k].row > i }) - 1
	return pr.marks[k].line + i - pr.marks[k].row
}

// inputSize returns the number of bytes r will deliver when it can tell (a
// regular file, or an in-memory reader), else −1.
func inputSize(r io.Reader) int64 {
	switch x := r.(type) {
	case *os.File:
		if st, err := x.Stat(); err == nil && st.Mode().IsRegular() {
			if off, err := x.Seek(0, io.SeekCurrent); err == nil {
				return st.Size() - off
			}
		}
	case interface{ Len() int }:
		return int64(x.Len())
	}
	return -1
}

// read is the fast path (lines.Fields): lines without quotes are split at
// commas; from the first quote on, slow reads the rest.
func (pr *peopleReader) read(r io.Reader) (*People, error) {
	if pr.size >= csvParallelMin && runtime.GOMAXPROCS(0) > 1 {
		return pr.readParallel(r)
	}
	var out *People
	slowed := false
	err := lines.Fields(r, 0, func(line int, fields [][]byte) (bool, error) {
		if pr.header == nil {
			return false, pr.setHeader(headerNames(fields))
		}
		pr.row(line, fields)
		return pr.full, nil
	}, func(rest io.Reader, line int) error {
		slowed = true
		var err error
		out, err = pr.slow(rest, line)
		return err
	}, func(consumed int64) {
		pr.consumed = consumed
		pr.prealloc()
	})
	if err != nil {
		return nil, err
	}
	if slowed {
		return out, nil
	}
	return pr.finish()
}

// headerNames returns the header line's fields without leading spaces.
func headerNames(fields [][]byte) []string {
	h := make([]string, len(fields))
	for i, f := range fields {
		h[i] = strings.TrimLeftFunc(string(f), unicode.IsSpace)
	}
	return h
}

// slow reads the rest of the input with encoding/csv; its first line is
// line first of the file.
func (pr *peopleReader) slow(r io.Reader, first int) (*People, error) {
	rd := csv.NewReader(r)
	rd.FieldsPerRecord = -1
	rd.ReuseRecord = true
	rd.TrimLeadingSpace = true
	off := first - 1
	lastErrLine := -1
	var fields [][]byte
	for !pr.full {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return nil, err // an I/O error, not a bad row
			}
			l := csvLine(err, 1) + off
			if pr.header == nil {
				return nil, badRows(badLine(l, "header: "+csvMsg(err)))
			}
			if l == lastErrLine {
				break // no progress: the rest of the file is unreadable
			}
			lastErrLine = l
			pr.bad = append(pr.bad, badLine(l, csvMsg(err)))
			continue
		}
		if pr.header == nil {
			if err := pr.setHeader(slices.Clone(rec)); err != nil {
				return nil, err
			}
			continue
		}
		line, _ := rd.FieldPos(0)
		fields = fields[:0]
		for _, f := range rec {
			fields = append(fields, []byte(f))
		}
		pr.row(line+off, fields)
	}
	return pr.finish()
}

// setHeader finds the columns.
func (pr *peopleReader) setHeader(header []string) error {
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if h == "id" || h == "epsilon" || h == "delta" {
			if _, dup := col[h]; dup {
				return badRows(badLine(1, fmt.Sprintf("header names the column %q twice", h)))
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
		return badRows(badLine(1, fmt.Sprintf("header lacks the column(s) %s (want id, epsilon and optionally delta; got %q)", strings.Join(missing, ", "), strings.Join(header, ","))))
	}
	pr.header = header
	pr.idCol, pr.epsCol = col["id"], col["epsilon"]
	pr.delCol, pr.hasDelta = col["delta"]
	pr.need = max(pr.idCol, pr.epsCol) + 1
	if pr.hasDelta {
		pr.need = max(pr.need, pr.delCol+1)
	}
	return nil
}

// row checks one data row and keeps it, or records why it is invalid.
func (pr *peopleReader) row(line int, rec [][]byte) {
	id, eps, del, bad := pr.check(line, rec, &pr.nums)
	if bad != nil {
		pr.bad = append(pr.bad, bad)
		return
	}
	pr.keep(line, id, eps, del)
}

// check checks one data row: its id (a view of rec), ε and δ (0: the
// default), or why it is invalid. It only reads pr's header columns (and
// the caller's nums), so the blocks of readParallel call it concurrently.
func (pr *peopleReader) check(line int, rec [][]byte, nums *budgetNums) (id []byte, eps, del float64, bad *dp.Error) {
	if len(rec) < pr.need {
		var miss []string
		for _, c := range []struct {
			name string
			at   int
		}{{"id", pr.idCol}, {"epsilon", pr.epsCol}, {"delta", pr.delCol}} {
			if (c.name != "delta" || pr.hasDelta) && c.at >= len(rec) {
				miss = append(miss, c.name)
			}
		}
		return nil, 0, 0, badLine(line, fmt.Sprintf("missing column(s) %s: the row has %d field(s), the header %d", strings.Join(miss, ", "), len(rec), len(pr.header)))
	}
	if len(rec) > len(pr.header) {
		return nil, 0, 0, badLine(line, fmt.Sprintf("the row has %d fields, the header %d", len(rec), len(pr.header)))
	}
	id = bytes.TrimSpace(rec[pr.idCol])
	var msgs []string
	if len(id) == 0 {
		msgs = append(msgs, "empty id")
	}
	raw := bytes.TrimSpace(rec[pr.epsCol])
	eps, err := nums.eps.parse(raw)
	switch {
	case err != nil:
		msgs = append(msgs, fmt.Sprintf("epsilon %q is not a number", raw))
	case math.IsNaN(eps) || math.IsInf(eps, 0):
		msgs = append(msgs, fmt.Sprintf("epsilon must be a finite number > 0, got %q", raw))
	case eps <= 0:
		msgs = append(msgs, fmt.Sprintf("epsilon must be > 0, got %v", eps))
	}
	if pr.hasDelta {
		if s := bytes.TrimSpace(rec[pr.delCol]); len(s) > 0 {
			d, err := nums.del.parse(s)
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
		return nil, 0, 0, badLine(line, strings.Join(msgs, "; "))
	}
	return id, eps, del, nil
}

// keep appends a checked row, or records that the file holds more than
// MaxPeople people (and stops the reading).
func (pr *peopleReader) keep(line int, id []byte, eps, del float64) {
	p := pr.p
	i := len(p.Epsilon)
	if int64(i) >= MaxPeople {
		pr.bad = append(pr.bad, badLine(line, fmt.Sprintf("more than %d people", MaxPeople)))
		pr.full = true
		return
	}
	if k := len(pr.marks); k == 0 || pr.marks[k-1].line+i-pr.marks[k-1].row != line {
		pr.marks = append(pr.marks, lineMark{i, line})
	}
	if del != 0 && p.Delta == nil {
		p.Delta = make([]float64, i, cap(p.Epsilon))
	}
	pr.p.ID.appendBytes(id)
	p.Epsilon = append(p.Epsilon, eps)
	if p.Delta != nil {
		p.Delta = append(p.Delta, del)
	}
}

// prealloc sizes the columns once, from the input size and the rows per
// byte seen in the first megabyte, so that 10⁷ rows are not copied by
// repeated growth.
func (pr *peopleReader) prealloc() {
	p := pr.p
	if pr.grown || pr.size <= 0 || pr.consumed < 1<<16 || len(p.Epsilon) < 100 {
		return
	}
	pr.grown = true
	est := float64(len(p.Epsilon)) / float64(pr.consumed) * float64(pr.size) * 1.02
	n := int(min(est, float64(MaxPeople))) + 64
	p.ID.grow(n - p.ID.Len())
	p.Epsilon = slices.Grow(p.Epsilon, n-len(p.Epsilon))
	if p.Delta != nil {
		p.Delta = slices.Grow(p.Delta, n-len(p.Delta))
	}
}

// finish checks the ids for repeats and returns the people, or every
// invalid row.
func (pr *peopleReader) finish() (*People, error) {
	if pr.header == nil {
		return nil, badRows(badLine(1, "empty file: expected a header line with the columns id, epsilon and optionally delta"))
	}
	p := pr.p
	for _, d := range duplicates(&p.ID) {
		pr.bad = append(pr.bad, badLine(pr.lineOf(d[1]), fmt.Sprintf("duplicate id %q (first on line %d)", p.ID.At(d[1]), pr.lineOf(d[0]))))
	}
	if len(pr.bad) > 0 {
		slices.SortStableFunc(pr.bad, func(a, b *dp.Error) int { return cmp.Compare(a.Line, b.Line) })
		return nil, badRows(pr.bad...)
	}
	if p.ID.Len() == 0 {
		return nil, badRows(badLine(2, "no people: the file has a header but no rows"))
	}
	p.markChecked()
	p.movable = true
	return p, nil
}

// budgetNums are the last ε and δ texts a reader parsed, with their
// values: a people CSV's budgets take few values, often in runs, and a
// repeated text is not parsed again.
type budgetNums struct{ eps, del lastBudget }

// lastBudget is the last text parseBudget parsed and its result.
type lastBudget struct {
	raw []byte
	v   float64
	err error
	ok  bool
}

// parse is parseBudget(b), reusing the last result when b repeats its text.
func (c *lastBudget) parse(b []byte) (float64, error) {
	if c.ok && bytes.Equal(b, c.raw) {
		return c.v, c.err
	}
	c.v, c.err = parseBudget(b)
	c.raw, c.ok = append(c.raw[:0], b...), true
	return c.v, c.err
}

// parseBudget parses a number, refusing hexadecimal floats and
// underscores, which strconv accepts but a CSV of budgets should not hold.
func parseBudget(b []byte) (float64, error) {
	if bytes.ContainsAny(b, "_xXpP") {
		return 0, errors.New("not a decimal number")
	}
	return strconv.ParseFloat(string(b), 64)
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
