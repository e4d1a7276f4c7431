package claim

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/privamp/privamp/optimizer"
	"github.com/privamp/privamp/optimizer/dataset"
)

// TracePoint is one row of a user-supplied trajectory. Loss, Contraction
// and Dist are NaN when not recorded (column absent or field empty);
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
	Line        int     // line in the file
}

// MaxTraceRows is the most rows ReadTrace reads.
const MaxTraceRows = 10_000_000

// ReadTrace reads a trajectory CSV: a header naming the columns of
// optimizer.TraceHeader (step, grad_norm and step_size required, any order; each
// name at most once and exactly as written there: "Contraction" is refused,
// not ignored; other columns are ignored), then at most MaxTraceRows rows
// of numbers, the step a whole number. A field that is not a number is an
// error; an empty field is NaN. Errors are *dataset.LineError.
func ReadTrace(r io.Reader) ([]TracePoint, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.Comment = '#'
	cr.ReuseRecord = true
	var out []TracePoint
	col := map[string]int{}
	header := false
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			l := 1
			if pe, ok := err.(*csv.ParseError); ok {
				l = pe.Line
			}
			return nil, dataset.CSVError(l, err)
		}
		line, _ := cr.FieldPos(0)
		if !header {
			known := map[string]bool{}
			for _, h := range optimizer.TraceHeader {
				known[h] = true
			}
			for i, h := range rec {
				h = strings.TrimSpace(h)
				if _, dup := col[h]; dup && known[h] {
					return nil, &dataset.LineError{Line: line, Msg: fmt.Sprintf("header repeats column %q", h)}
				}
				if !known[h] {
					for _, k := range optimizer.TraceHeader {
						if strings.EqualFold(h, k) {
							return nil, &dataset.LineError{Line: line, Msg: fmt.Sprintf("header column %q: column names are case-sensitive; did you mean %q?", h, k)}
						}
					}
				}
				col[h] = i
			}
			for _, need := range []string{"step", "grad_norm", "step_size"} {
				if _, ok := col[need]; !ok {
					return nil, &dataset.LineError{Line: line, Msg: fmt.Sprintf("header has no column %q (need step, grad_norm, step_size)", need)}
				}
			}
			header = true
			continue
		}
		if len(out) == MaxTraceRows {
			return nil, &dataset.LineError{Line: line, Msg: fmt.Sprintf("more than %d rows", MaxTraceRows)}
		}
		get := func(name string) (float64, error) {
			i, ok := col[name]
			if !ok {
				return math.NaN(), nil
			}
			if i >= len(rec) {
				return 0, &dataset.LineError{Line: line, Msg: fmt.Sprintf("missing column %q", name)}
			}
			f := strings.TrimSpace(rec[i])
			if f == "" {
				return math.NaN(), nil
			}
			v, perr := strconv.ParseFloat(f, 64)
			if perr != nil && !errors.Is(perr, strconv.ErrRange) {
				return 0, dataset.NotANumber(line, name, rec[i], "a number")
			}
			return v, nil
		}
		p := TracePoint{Line: line}
		st, err := get("step")
		if err != nil {
			return nil, err
		}
		if st != math.Trunc(st) || math.Abs(st) > 1e15 {
			return nil, &dataset.LineError{Line: line, Msg: fmt.Sprintf("column \"step\": %v is not a whole number of steps", st)}
		}
		p.Step = int(st)
		for _, f := range []struct {
			name string
			dst  *float64
		}{{"loss", &p.Loss}, {"grad_norm", &p.GradNorm}, {"step_size", &p.StepSize}, {"contraction", &p.Contraction}, {"dist_to_opt", &p.Dist}} {
			if *f.dst, err = get(f.name); err != nil {
				return nil, err
			}
		}
		out = append(out, p)
	}
	if !header {
		return nil, &dataset.LineError{Line: 1, Msg: "no header line"}
	}
	if len(out) == 0 {
		return nil, &dataset.LineError{Line: 2, Msg: "no rows after the header"}
	}
	return out, nil
}
