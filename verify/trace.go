package verify

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/privamp/privamp/dataset"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/lines"
	"github.com/privamp/privamp/optimizer"
)

// TracePoint is one row of a user-supplied trajectory. Loss, Contraction,
// Dist, NoiseSq and NoiseDOF are NaN when not recorded (column absent or
// field empty; a NoiseDOF of 0 also records no noise);
// GradNorm and StepSize are NaN when the field is empty. ReadTrace keeps
// every value as written, impossible ones included (negative, infinite,
// steps that do not increase): judging them is Verify's job, which fails a
// trajectory that cannot be evidence.
type TracePoint struct {
	Step        int
	Loss        float64 // mean objective at the iterate
	GradNorm    float64 // max per-example gradient norm since the previous row
	StepSize    float64 // largest step size since the previous row
	Contraction float64 // largest measured ‖ψ(u) − ψ(v)‖/‖u − v‖ of the step map
	Dist        float64 // ‖w_t − w*‖
	NoiseSq     float64 // Σ‖Z_s‖² of the Gaussian noise drawn since the previous row
	NoiseDOF    float64 // the number of Gaussian coordinates drawn since the previous row
	Line        int     // line in the file
}

// MaxTraceRows is the most rows a trajectory may have (ReadTrace,
// ScanTrace); a longer one is refused on its first row past the limit.
const MaxTraceRows = 10_000_000

// ReadTrace reads a trajectory CSV: a header naming the columns of
// optimizer.TraceHeader (step, grad_norm and step_size required, any order; each
// name at most once and exactly as written there: "Contraction" is refused,
// not ignored; other columns are ignored), then at most MaxTraceRows rows
// of numbers, the step a whole number, each line at most lines.MaxBytes
// (1 MiB) long. A field that is not a number is an error; an empty field
// is NaN. Errors are *dp.Error (Line, Reason).
//
// ReadTrace keeps every row (56 bytes each); ScanTrace reads the same
// format into the running maxima Verify needs, in constant memory.
func ReadTrace(r io.Reader) (Rows, error) {
	var out Rows
	if err := scanTrace(r, func(p TracePoint) { out = append(out, p) }); err != nil {
		return nil, err
	}
	return out, nil
}

// traceReader is the state of scanTrace: the header's columns.
type traceReader struct {
	col    map[string]int
	header bool
	idx    [8]int // column of each name of optimizer.TraceHeader, −1 if absent
	rows   int
	each   func(TracePoint)
}

// scanTrace reads a trajectory CSV (the format of ReadTrace) and calls
// each for every row, in order. Lines without a double quote — the usual
// case — are split at commas without encoding/csv; from the first line
// that holds a quote on, encoding/csv reads the rest (quoted fields work
// and every error keeps its line number). Both read CSV the same way:
// lines starting with '#' are comments, empty lines are skipped.
func scanTrace(r io.Reader, each func(TracePoint)) error {
	return scanLines(lines.Limit(r, lines.MaxBytes), each) // a line past the limit is its *dp.Error
}

func scanLines(r io.Reader, each func(TracePoint)) error {
	tr := &traceReader{col: map[string]int{}, each: each}
	var fields []string
	slowed := false
	err := lines.Fields(r, '#', func(line int, raw [][]byte) (bool, error) {
		fields = fields[:0]
		for _, f := range raw { // fields view the buffer: record copies what it keeps (header names)
			fields = append(fields, unsafe.String(unsafe.SliceData(f), len(f)))
		}
		return false, tr.record(line, fields)
	}, func(rest io.Reader, line int) error {
		slowed = true
		return tr.slow(rest, line) // reads the rest and finishes
	}, nil)
	if err != nil || slowed {
		return err
	}
	return tr.finish()
}

// slow reads the rest of the input with encoding/csv; its first line is
// line first of the file.
func (tr *traceReader) slow(r io.Reader, first int) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.Comment = '#'
	cr.ReuseRecord = true
	off := first - 1
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if tl := (*dp.Error)(nil); errors.As(err, &tl) {
			return tl // a line past the limit: its line counts from the start of the input
		}
		if err != nil {
			l := 1
			if pe, ok := err.(*csv.ParseError); ok {
				l = pe.Line
			}
			return dataset.CSVError(l+off, err)
		}
		line, _ := cr.FieldPos(0)
		if err := tr.record(line+off, rec); err != nil {
			return err
		}
	}
	return tr.finish()
}

func (tr *traceReader) finish() error {
	if !tr.header {
		return &dp.Error{Where: dp.InputFile, Line: 1, Reason: "no header line"}
	}
	if tr.rows == 0 {
		return &dp.Error{Where: dp.InputFile, Line: 2, Reason: "no rows after the header"}
	}
	return nil
}

// record reads the header or one row. The strings of rec may view a
// buffer that the next read overwrites.
func (tr *traceReader) record(line int, rec []string) error {
	col := tr.col
	if !tr.header {
		known := map[string]bool{}
		for _, h := range optimizer.TraceHeader {
			known[h] = true
		}
		for i, h := range rec {
			h = strings.Clone(strings.TrimSpace(h))
			if _, dup := col[h]; dup && known[h] {
				return &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("header repeats column %q", h)}
			}
			if !known[h] {
				for _, k := range optimizer.TraceHeader {
					if strings.EqualFold(h, k) {
						return &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("header column %q: column names are case-sensitive; did you mean %q?", h, k)}
					}
				}
			}
			col[h] = i
		}
		for _, need := range []string{"step", "grad_norm", "step_size"} {
			if _, ok := col[need]; !ok {
				return &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("header has no column %q (need step, grad_norm, step_size)", need)}
			}
		}
		for k, name := range optimizer.TraceHeader {
			tr.idx[k] = -1
			if i, ok := col[name]; ok {
				tr.idx[k] = i
			}
		}
		tr.header = true
		return nil
	}
	if tr.rows == MaxTraceRows {
		return &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("more than %d rows", MaxTraceRows)}
	}
	// The columns of TraceHeader: step, loss, grad_norm, step_size,
	// contraction, dist_to_opt, noise_sq, noise_dof (−1: absent).
	var v [8]float64
	for k, i := range tr.idx {
		name := optimizer.TraceHeader[k]
		switch {
		case i < 0:
			v[k] = math.NaN()
			continue
		case i >= len(rec):
			return &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("missing column %q", name)}
		}
		x := math.NaN() // an empty field
		if f := strings.TrimSpace(rec[i]); f != "" {
			var perr error
			x, perr = strconv.ParseFloat(f, 64)
			if perr != nil && !errors.Is(perr, strconv.ErrRange) {
				return dataset.NotANumber(line, name, strings.Clone(rec[i]), "a number")
			}
		}
		v[k] = x
		if k == 0 && (x != math.Trunc(x) || math.Abs(x) > 1e15) { // NaN too
			return &dp.Error{Where: dp.InputFile, Line: line, Reason: fmt.Sprintf("column \"step\": %v is not a whole number of steps", x)}
		}
	}
	p := TracePoint{Step: int(v[0]), Loss: v[1], GradNorm: v[2], StepSize: v[3], Contraction: v[4], Dist: v[5], NoiseSq: v[6], NoiseDOF: v[7], Line: line}
	tr.rows++
	tr.each(p)
	return nil
}
