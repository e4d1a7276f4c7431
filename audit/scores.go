package audit

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/privamp/privamp/internal/field"
)

// MaxRows is the largest number of canary rows ReadCanaries accepts.
const MaxRows = 10_000_000

// maxLine is the longest line ReadCanaries accepts (bytes).
const maxLine = 1 << 16

// Kind of a canary file.
const (
	KindScore = "score" // header member,score
	KindGuess = "guess" // header member,guess
)

// Canaries are the canaries of one audit, as ReadCanaries reads them.
//
// For a score file, Members and NonMembers hold the scores, each divided
// into the selection half [0] and the evaluation half [1] by Half (a fixed
// hash of the row number, never of the scores). A threshold is chosen on
// half 0 and evaluated on half 1. Memory: 8 bytes a row.
//
// For a guess file, Guesses holds the counts one-run auditing needs.
type Canaries struct {
	Kind string `json:"kind"`
	Rows int    `json:"rows"`
	// IDs: the file has an id column, and ReadCanaries refused any id
	// given twice, so every row is a distinct canary. Without ids a canary
	// written twice cannot be told from two canaries that scored alike:
	// Evaluate then reports identical rows and bounds ε both ways.
	IDs        bool         `json:"ids"`
	Members    [2][]float64 `json:"-"`
	NonMembers [2][]float64 `json:"-"`
	Guesses    *GuessCounts `json:"guesses,omitempty"`
}

// GuessCounts summarise a member,guess file for one-run auditing.
type GuessCounts struct {
	Canaries int `json:"canaries"` // m: rows
	Members  int `json:"members"`
	Guesses  int `json:"guesses"` // r: rows whose guess is not "abstain"
	Correct  int `json:"correct"` // v: guesses equal to the member column
}

// NumMembers is the number of members (both halves, or the guess file's).
func (c *Canaries) NumMembers() int {
	if c.Guesses != nil {
		return c.Guesses.Members
	}
	return len(c.Members[0]) + len(c.Members[1])
}

// NumNonMembers is the number of non-members.
func (c *Canaries) NumNonMembers() int {
	if c.Guesses != nil {
		return c.Guesses.Canaries - c.Guesses.Members
	}
	return len(c.NonMembers[0]) + len(c.NonMembers[1])
}

// splitSeed fixes the halves once for all files, so that nobody can try
// seeds until a split happens to favour a large bound.
const splitSeed = 0x9e3779b97f4a7c15

// Half returns the half (0: selection, 1: evaluation) of the data row with
// the given 0-based index (the header is not a row): the low bit of the
// SplitMix64 hash (Steele, Lea, Flood 2014) of row ⊕ a fixed constant. The
// bits behave as fair coins that do not depend on the scores, so even a file
// sorted by score is split into two independent random halves when the
// canaries' scores are independent.
func Half(row int) int {
	z := uint64(row) ^ splitSeed
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return int(z >> 63)
}

// NewScoreCanaries builds Canaries from scores in row order (members[i] is
// row i's score when member[i]), split into halves by Half as ReadCanaries
// does. It is for callers holding scores in memory; it has no ids, so
// Evaluate treats rows equal to an earlier row as ReadCanaries' id-less files.
func NewScoreCanaries(member []bool, score []float64) (*Canaries, error) {
	if len(member) != len(score) {
		return nil, field.New("score", len(score), "must have one value per member flag (%d)", len(member))
	}
	c := &Canaries{Kind: KindScore}
	for i, s := range score {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, field.New(fmt.Sprintf("row %d: score", i+1), s, "must be a finite number")
		}
		c.add(member[i], s)
	}
	return c, c.check()
}

func (c *Canaries) add(member bool, s float64) {
	h := Half(c.Rows)
	if member {
		c.Members[h] = append(c.Members[h], s)
	} else {
		c.NonMembers[h] = append(c.NonMembers[h], s)
	}
	c.Rows++
}

func (c *Canaries) check() error {
	if c.Rows == 0 {
		return field.New("canaries", nil, "has no data rows")
	}
	if c.NumMembers() == 0 {
		return field.New("member", nil, "is 0 on every row: an audit needs members (1) and non-members (0)")
	}
	if c.NumNonMembers() == 0 {
		return field.New("member", nil, "is 1 on every row: an audit needs members (1) and non-members (0)")
	}
	return nil
}

// ReadCanaries reads a CSV file of canaries, streaming, up to MaxRows rows.
//
// The first line is a header of exact, case-sensitive column names in any
// order: member and score (a score file) or member and guess (a guess
// file), and optionally id. Each further line is one canary:
//   - member: 1 if the canary was in the training set, 0 if not;
//   - score: a finite number, higher meaning "more likely a member";
//   - guess: 1, 0 or abstain, the auditor's guess of member;
//   - id: a non-empty name of the canary, each on one line only.
//
// A canary is one independent trial only once: an id on two lines is
// refused ("line 9: id c1 repeats line 4"), since counting a canary twice
// makes every estimator's confidence claim more than the data show. Ids are
// compared by a 64-bit hash (about 40 bytes a row more; two different ids collide
// with probability below 10⁻⁵ at MaxRows, which refuses the file, never
// inflates a bound).
//
// Fields may be double-quoted (RFC 4180, within one line); blank lines are
// skipped; a final line without a newline, CRLF line ends and spaces around
// fields are accepted. Errors are *field.Error values whose Field names the
// line and column ("line 17: score").
func ReadCanaries(r io.Reader) (*Canaries, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	lineNo := 0
	var fields [][]byte
	next := func() ([]byte, bool, error) {
		for {
			b, err := br.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				return nil, false, field.New(fmt.Sprintf("line %d", lineNo+1), nil, "is longer than %d bytes", maxLine)
			}
			if err != nil && err != io.EOF {
				return nil, false, field.New("canaries", nil, "cannot be read: %v", err)
			}
			if len(b) == 0 && err == io.EOF {
				return nil, false, nil
			}
			lineNo++
			b = bytes.TrimRight(b, "\r\n")
			if len(bytes.TrimSpace(b)) == 0 {
				if err == io.EOF {
					return nil, false, nil
				}
				continue
			}
			return b, true, nil
		}
	}
	split := func(b []byte) ([][]byte, error) {
		fields = fields[:0]
		if bytes.IndexByte(b, '"') >= 0 {
			rec, err := csv.NewReader(bytes.NewReader(b)).Read()
			if err != nil {
				var pe *csv.ParseError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				return nil, field.New(fmt.Sprintf("line %d", lineNo), nil, "is not valid CSV: %v", err)
			}
			for _, f := range rec {
				fields = append(fields, bytes.TrimSpace([]byte(f)))
			}
			return fields, nil
		}
		for {
			i := bytes.IndexByte(b, ',')
			if i < 0 {
				fields = append(fields, bytes.TrimSpace(b))
				return fields, nil
			}
			fields = append(fields, bytes.TrimSpace(b[:i]))
			b = b[i+1:]
		}
	}

	b, ok, err := next()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, field.New("canaries", nil, "is empty: the first line must be a header such as member,score")
	}
	head, err := split(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
	if err != nil {
		return nil, err
	}
	iMember, iValue, iID, kind := -1, -1, -1, ""
	seen := map[string]bool{}
	for i, h := range head {
		name := string(h)
		if seen[name] {
			return nil, field.New(fmt.Sprintf("line %d", lineNo), name, "header repeats a column")
		}
		seen[name] = true
		switch name {
		case "member":
			iMember = i
		case "score", "guess":
			if kind != "" {
				return nil, field.New(fmt.Sprintf("line %d", lineNo), name, "header has both score and guess columns: use one")
			}
			iValue, kind = i, name
		case "id":
			iID = i
		default:
			hint := ""
			if l := strings.ToLower(name); l == "member" || l == "score" || l == "guess" || l == "id" {
				hint = fmt.Sprintf(" (names are case-sensitive: %q)", l)
			}
			return nil, field.New(fmt.Sprintf("line %d", lineNo), name, "is not a known column: the header must be member,score or member,guess, with an optional id%s", hint)
		}
	}
	if iMember < 0 || iValue < 0 {
		return nil, field.New(fmt.Sprintf("line %d", lineNo), string(b), "is not a header with the columns member and score (or member and guess)")
	}
	ncol := len(head)
	c := &Canaries{Kind: kind, IDs: iID >= 0}
	var ids map[uint64]int32
	var seed maphash.Seed
	if c.IDs {
		ids, seed = map[uint64]int32{}, maphash.MakeSeed()
	}
	if kind == KindGuess {
		c.Guesses = &GuessCounts{}
	}
	for {
		b, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if c.Rows >= MaxRows {
			return nil, field.New(fmt.Sprintf("line %d", lineNo), nil, "is past the limit of %d rows", MaxRows)
		}
		rec, err := split(b)
		if err != nil {
			return nil, err
		}
		if len(rec) != ncol {
			return nil, field.New(fmt.Sprintf("line %d", lineNo), len(rec), "must have %d fields like the header", ncol)
		}
		if c.IDs {
			id := rec[iID]
			if len(id) == 0 {
				return nil, field.New(fmt.Sprintf("line %d: id", lineNo), "", "must name the canary (the header has an id column)")
			}
			h := maphash.Bytes(seed, id)
			if first, ok := ids[h]; ok {
				return nil, field.New(fmt.Sprintf("line %d: id", lineNo), string(id), "repeats line %d: a canary is one independent trial and may appear once (a canary counted twice inflates every bound's confidence)", first)
			}
			ids[h] = int32(lineNo)
		}
		var member bool
		switch m := rec[iMember]; {
		case len(m) == 1 && m[0] == '1':
			member = true
		case len(m) == 1 && m[0] == '0':
		default:
			return nil, field.New(fmt.Sprintf("line %d: member", lineNo), string(m), "must be 1 (in the training set) or 0 (not)")
		}
		v := rec[iValue]
		if kind == KindGuess {
			g := c.Guesses
			g.Canaries++
			if member {
				g.Members++
			}
			switch {
			case len(v) == 1 && (v[0] == '0' || v[0] == '1'):
				g.Guesses++
				if (v[0] == '1') == member {
					g.Correct++
				}
			case string(v) == "abstain":
			default:
				return nil, field.New(fmt.Sprintf("line %d: guess", lineNo), string(v), "must be 1, 0 or abstain")
			}
			c.Rows++
			continue
		}
		s, perr := strconv.ParseFloat(unsafe.String(unsafe.SliceData(v), len(v)), 64)
		if perr != nil || math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, field.New(fmt.Sprintf("line %d: score", lineNo), string(v), "must be a finite number")
		}
		c.add(member, s)
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

// countedOnce returns the canaries with each distinct (member, score) row
// once, and how many rows repeat an earlier one (0: once is nil). The
// distinct rows are added members first, each in increasing score, and
// split into halves by Half of their new row number, a split independent
// of the scores as for any file.
func (c *Canaries) countedOnce() (*Canaries, int) {
	in := slices.Concat(c.Members[0], c.Members[1])
	out := slices.Concat(c.NonMembers[0], c.NonMembers[1])
	slices.Sort(in)
	slices.Sort(out)
	in, out = slices.Compact(in), slices.Compact(out)
	rep := c.Rows - len(in) - len(out)
	if rep == 0 {
		return nil, 0
	}
	once := &Canaries{Kind: KindScore}
	for _, s := range in {
		once.add(true, s)
	}
	for _, s := range out {
		once.add(false, s)
	}
	return once, rep
}
