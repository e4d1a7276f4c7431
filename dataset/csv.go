package dataset

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

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
// *dp.Error naming its line number; nothing is returned then.
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
			return nil, &dp.Error{Where: dp.InputFile, Line: line + 1, Reason: err.Error()}
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
			return nil, CSVError(line, perr)
		}
		fields = rec
		if header == nil {
			header = make([]string, len(fields))
			seen := map[string]bool{}
			for i, f := range fields {
				f = strings.TrimSpace(f)
				if f == "" {
					return nil, &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("header column %d has no name", i+1)}
				}
				if seen[f] {
					return nil, &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("header repeats column %q", f)}
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
				return nil, &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("header has no column %q (columns: %s)", opt.Label, abbreviate(header))}
			}
			if opt.Key != "" && keyCol < 0 && !opt.OptionalKey {
				return nil, &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("header has no column %q (columns: %s)", opt.Key, abbreviate(header))}
			}
			ds.D = len(header) - 1
			if keyCol >= 0 {
				ds.D--
				ds.Keys = []string{}
			}
			if ds.D < 1 {
				return nil, &dp.Error{Where: dp.InputFile, Line: line, Reason: "header needs the label and at least one feature column"}
			}
			for i, h := range header {
				if i != labelCol && i != keyCol {
					ds.Names = append(ds.Names, h)
				}
			}
		} else {
			if len(fields) != len(header) {
				return nil, &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("has %d fields, the header has %d", len(fields), len(header))}
			}
			if ds.N() >= maxRows {
				return nil, &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("more than %d data rows", maxRows)}
			}
			for i, f := range fields {
				if i == keyCol {
					k := strings.TrimSpace(f)
					if k == "" {
						return nil, &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("column %q: empty", header[i])}
					}
					ds.Keys = append(ds.Keys, k)
					continue
				}
				v, perr := strconv.ParseFloat(strings.TrimSpace(f), 64)
				if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, NotANumber(line, header[i], f, "a finite number")
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
		return nil, &dp.Error{Where: dp.InputFile, Line: max(line, 1), Reason: "no header line"}
	}
	if ds.N() == 0 {
		return nil, &dp.Error{Where: dp.InputFile, Line: line, Reason: "no data rows after the header"}
	}
	return ds, nil
}

// CSVError is the *dp.Error of a CSV syntax error at line (the one way the
// data sets and the trajectories report one).
func CSVError(line int, err error) *dp.Error {
	return &dp.Error{Where: dp.InputFile, Line: max(line, 1), Reason: "not valid CSV: " + cleanCSVErr(err)}
}

// NotANumber is the *dp.Error of a field that is not a number (shown up to
// 30 characters).
func NotANumber(line int, column, field, what string) *dp.Error {
	return &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("column %q: %q is not %s", column, truncate(field, 30), what)}
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

// ReadCSVFile reads a CSV data set from a file (ReadCSV) and records the
// path as its Source. Errors are *field.Error values naming the field
// "data"; a malformed line's error carries its line number.
func ReadCSVFile(path string, opt CSVOptions) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return nil, field.New("data", path, "cannot be read: %v", err)
	}
	defer f.Close()
	ds, err := ReadCSV(f, opt)
	if err != nil {
		return nil, field.New("data", path, "%v", err)
	}
	ds.Source = path
	return ds, nil
}
