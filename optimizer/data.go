package optimizer

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Dataset is n examples (x_i, y_i) with d numeric features, stored row-major.
type Dataset struct {
	X      []float64 // n·d features, row i at X[i*D:(i+1)*D]
	Y      []float64 // n labels
	D      int       // number of features
	Names  []string  // feature names (may be nil)
	Label  string    // label column name (may be empty)
	Source string    // where the data came from, for reports
	Lines  []int     // file line of each row (CSV data; nil otherwise)
	// Keys holds each row's value of the key column (CSVOptions.Key: an id
	// or a tier name); nil without one.
	Keys []string
}

// N is the number of examples.
func (s *Dataset) N() int { return len(s.Y) }

// Row returns the features of example i (a view, not a copy).
func (s *Dataset) Row(i int) []float64 { return s.X[i*s.D : (i+1)*s.D : (i+1)*s.D] }

// MaxNorm is max_i ‖x_i‖.
func (s *Dataset) MaxNorm() float64 {
	var m float64
	for i := 0; i < s.N(); i++ {
		m = math.Max(m, norm(s.Row(i)))
	}
	return m
}

// MaxAbsLabel is max_i |y_i|.
func (s *Dataset) MaxAbsLabel() float64 {
	var m float64
	for _, y := range s.Y {
		m = math.Max(m, math.Abs(y))
	}
	return m
}

// Clone returns a deep copy.
func (s *Dataset) Clone() *Dataset {
	c := *s
	c.X = append([]float64(nil), s.X...)
	c.Y = append([]float64(nil), s.Y...)
	c.Names = append([]string(nil), s.Names...)
	c.Lines = append([]int(nil), s.Lines...)
	c.Keys = append([]string(nil), s.Keys...)
	return &c
}

// Subset returns the examples in idx (copied, in that order, with their
// lines and keys when the data set has them).
func (s *Dataset) Subset(idx []int) *Dataset {
	c := &Dataset{D: s.D, Names: s.Names, Label: s.Label, Source: s.Source,
		X: make([]float64, 0, len(idx)*s.D), Y: make([]float64, 0, len(idx))}
	for _, i := range idx {
		c.X = append(c.X, s.Row(i)...)
		c.Y = append(c.Y, s.Y[i])
		if s.Lines != nil {
			c.Lines = append(c.Lines, s.Lines[i])
		}
		if s.Keys != nil {
			c.Keys = append(c.Keys, s.Keys[i])
		}
	}
	return c
}

// Append adds the rows of o after those of s. Both must have the same
// feature columns (names, when both have them, in the same order); lines
// are kept only when both have them, keys only when both have them.
func (s *Dataset) Append(o *Dataset) error {
	if o.D != s.D {
		return fmt.Errorf("%d feature columns, the data has %d", o.D, s.D)
	}
	if s.Names != nil && o.Names != nil {
		for j := range s.Names {
			if s.Names[j] != o.Names[j] {
				return fmt.Errorf("feature column %d is %q, the data's is %q", j+1, o.Names[j], s.Names[j])
			}
		}
	}
	n := s.N()
	s.X = append(s.X, o.X...)
	s.Y = append(s.Y, o.Y...)
	if s.Lines != nil && o.Lines != nil && len(s.Lines) == n {
		s.Lines = append(s.Lines, o.Lines...)
	} else {
		s.Lines = nil
	}
	if s.Keys != nil && o.Keys != nil && len(s.Keys) == n {
		s.Keys = append(s.Keys, o.Keys...)
	} else {
		s.Keys = nil
	}
	return nil
}

// NormalizeRows scales every row with ‖x_i‖ > bound down to norm bound, so
// that ‖x_i‖ ≤ bound for all i (rows already inside are unchanged). It
// returns the number of rows scaled.
func (s *Dataset) NormalizeRows(bound float64) int {
	k := 0
	for i := 0; i < s.N(); i++ {
		r := s.Row(i)
		if nr := norm(r); nr > bound {
			f := bound / nr
			for j := range r {
				r[j] *= f
			}
			k++
		}
	}
	return k
}

// Standardize centres every feature column and divides it by its standard
// deviation (columns with zero spread are only centred). The statistics come
// from the data themselves and are not privatised: a report that uses them
// must say so.
func (s *Dataset) Standardize() {
	n := s.N()
	if n == 0 {
		return
	}
	for j := 0; j < s.D; j++ {
		var mean float64
		for i := 0; i < n; i++ {
			mean += s.X[i*s.D+j]
		}
		mean /= float64(n)
		var v float64
		for i := 0; i < n; i++ {
			d := s.X[i*s.D+j] - mean
			v += d * d
		}
		sd := math.Sqrt(v / float64(n))
		for i := 0; i < n; i++ {
			x := s.X[i*s.D+j] - mean
			if sd > 0 {
				x /= sd
			}
			s.X[i*s.D+j] = x
		}
	}
}

// MapBinaryLabels maps labels in {0, 1} to {−1, +1} for classification
// losses; it fails when a label is neither 0/1 nor ±1.
func (s *Dataset) MapBinaryLabels() error {
	for i, y := range s.Y {
		switch y {
		case 0:
			s.Y[i] = -1
		case 1, -1:
		default:
			if i < len(s.Lines) {
				return fmt.Errorf("line %d: label %v is not 0/1 or ±1, as a classification loss needs", s.Lines[i], y)
			}
			return fmt.Errorf("row %d: label %v is not 0/1 or ±1, as a classification loss needs", i+1, y)
		}
	}
	return nil
}

// LineError is a malformed CSV line.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// CSVOptions chooses the label column of a CSV file.
type CSVOptions struct {
	// Label is the name of the label column (required).
	Label string
	// Key names a column read as text, not as a feature (an id, or a tier
	// name for a privacy plan): Dataset.Keys holds its values, which must
	// not be empty. "" means none.
	Key string
	// OptionalKey accepts a file without the Key column (Keys is then nil).
	OptionalKey bool
	// MaxRows bounds the number of data rows (0: 10^7), so that a huge file
	// fails early instead of exhausting memory.
	MaxRows int
}

// ReadCSV reads a data set: a header line of column names, then one example
// per line with numeric (finite) values in every column. The column named
// opt.Label is the label, the column opt.Key (if any) a text key; every
// other column is a feature. Empty lines and
// lines starting with '#' are skipped. A malformed line is reported as a
// *LineError naming its line number; nothing is returned then.
func ReadCSV(r io.Reader, opt CSVOptions) (*Dataset, error) {
	if opt.Label == "" {
		return nil, errors.New("no label column given")
	}
	maxRows := opt.MaxRows
	if maxRows <= 0 {
		maxRows = 10_000_000
	}
	br := bufio.NewReader(r)
	line := 0
	var header []string
	labelCol, keyCol := -1, -1
	ds := &Dataset{Label: opt.Label}
	var fields []string
	for {
		text, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, &LineError{Line: line + 1, Msg: err.Error()}
		}
		if len(text) == 0 && err == io.EOF {
			break
		}
		line++
		text = strings.TrimRight(text, "\r\n")
		trim := strings.TrimSpace(text)
		if trim == "" || strings.HasPrefix(trim, "#") {
			if err == io.EOF {
				break
			}
			continue
		}
		cr := csv.NewReader(strings.NewReader(text))
		cr.FieldsPerRecord = -1
		rec, perr := cr.Read()
		if perr != nil {
			return nil, &LineError{Line: line, Msg: "not valid CSV: " + cleanCSVErr(perr)}
		}
		fields = rec
		if header == nil {
			header = make([]string, len(fields))
			seen := map[string]bool{}
			for i, f := range fields {
				f = strings.TrimSpace(f)
				if f == "" {
					return nil, &LineError{Line: line, Msg: fmt.Sprintf("header column %d has no name", i+1)}
				}
				if seen[f] {
					return nil, &LineError{Line: line, Msg: fmt.Sprintf("header repeats column %q", f)}
				}
				seen[f] = true
				header[i] = f
				switch {
				case f == opt.Label:
					labelCol = i
				case opt.Key != "" && f == opt.Key:
					keyCol = i
				}
			}
			if labelCol < 0 {
				return nil, &LineError{Line: line, Msg: fmt.Sprintf("header has no column %q (columns: %s)", opt.Label, abbreviate(header))}
			}
			if opt.Key != "" && keyCol < 0 && !opt.OptionalKey {
				return nil, &LineError{Line: line, Msg: fmt.Sprintf("header has no column %q (columns: %s)", opt.Key, abbreviate(header))}
			}
			ds.D = len(header) - 1
			if keyCol >= 0 {
				ds.D--
				ds.Keys = []string{}
			}
			if ds.D < 1 {
				return nil, &LineError{Line: line, Msg: "header needs the label and at least one feature column"}
			}
			for i, h := range header {
				if i != labelCol && i != keyCol {
					ds.Names = append(ds.Names, h)
				}
			}
		} else {
			if len(fields) != len(header) {
				return nil, &LineError{Line: line, Msg: fmt.Sprintf("has %d fields, the header has %d", len(fields), len(header))}
			}
			if ds.N() >= maxRows {
				return nil, &LineError{Line: line, Msg: fmt.Sprintf("more than %d data rows", maxRows)}
			}
			for i, f := range fields {
				if i == keyCol {
					k := strings.TrimSpace(f)
					if k == "" {
						return nil, &LineError{Line: line, Msg: fmt.Sprintf("column %q: empty", header[i])}
					}
					ds.Keys = append(ds.Keys, k)
					continue
				}
				v, perr := strconv.ParseFloat(strings.TrimSpace(f), 64)
				if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, &LineError{Line: line, Msg: fmt.Sprintf("column %q: %q is not a finite number", header[i], truncate(f, 30))}
				}
				if i == labelCol {
					ds.Y = append(ds.Y, v)
				} else {
					ds.X = append(ds.X, v)
				}
			}
			ds.Lines = append(ds.Lines, line)
		}
		if err == io.EOF {
			break
		}
	}
	if header == nil {
		return nil, &LineError{Line: max(line, 1), Msg: "no header line"}
	}
	if ds.N() == 0 {
		return nil, &LineError{Line: line, Msg: "no data rows after the header"}
	}
	return ds, nil
}

func cleanCSVErr(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func abbreviate(cols []string) string {
	if len(cols) <= 8 {
		return strings.Join(cols, ", ")
	}
	return strings.Join(cols[:8], ", ") + fmt.Sprintf(", … (%d in all)", len(cols))
}
