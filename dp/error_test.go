package dp_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/atomicfile"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/shifted/plan"
)

// TestOneErrorType: every kind of bad input — a parameter, a key of a JSON
// file, a line of a CSV file, a list of CSV lines, an output file — is a
// *dp.Error that errors.As finds, and reads as privamp has always printed it.
func TestOneErrorType(t *testing.T) {
	_, eParam := shifted.ParseVariant("epochs")
	_, eKey := shifted.ParseSchedule(strings.NewReader("{\"variance\": 1,\n \"steps\": [{\"count\": 1.5}]}"))
	_, eAfter := shifted.ParseSchedule(strings.NewReader(`{"variance": 1, "steps": []}`))
	_, eRows := plan.ReadCSV(strings.NewReader("id,epsilon\na,-1\nb,1\nc,x\n"))
	_, eRow := plan.ReadCSV(strings.NewReader("id,epsilon\na,-1\n"))
	out := filepath.Join(t.TempDir(), "missing", "x.json")
	eOut := atomicfile.Flag("out", atomicfile.Write(out, nil))
	for _, c := range []struct {
		err   error
		where dp.ErrorWhere
		field string
		line  int
		msg   string
	}{
		{eParam, dp.Parameter, "variant", 0, `variant must be one of pnsgd, skip, stop, got "epochs"`},
		{eKey, dp.InputFile, "steps[0].count", 2, `line 2: field "steps[0].count": expected a whole number, got 1.5`},
		{eAfter, dp.InputFile, "steps", 0, `field "steps": is empty: the schedule needs at least one step`},
		{eRows, dp.InputFile, "", 2, `2 invalid rows: line 2: epsilon must be > 0, got -1; line 4: epsilon "x" is not a number`},
		{eRow, dp.InputFile, "", 2, `line 2: epsilon must be > 0, got -1`},
		{eOut, dp.OutputFile, "out", 0, "--out " + out + ": cannot be created: no such file or directory"},
	} {
		var e *dp.Error
		if !errors.As(c.err, &e) {
			t.Errorf("%v: not a *dp.Error", c.err)
			continue
		}
		if e.Where != c.where || e.Field != c.field || e.Line != c.line || c.err.Error() != c.msg {
			t.Errorf("got %+v %q\nwant where %d field %q line %d %q", *e, c.err, c.where, c.field, c.line, c.msg)
		}
	}
	var rows dp.Errors
	if !errors.As(eRows, &rows) || len(rows) != 2 || rows[1].Line != 4 || rows.Error() != `line 2: epsilon must be > 0, got -1; line 4: epsilon "x" is not a number` {
		t.Errorf("the rows of %v: %v", eRows, rows)
	}
}

// A program tells bad input from other failures with errors.As, whichever
// package refused it.
func ExampleError() {
	_, err := shifted.ParseSchedule(strings.NewReader(`{"variance": 1, "steps": [{"count": 0}]}`))
	var e *dp.Error
	if errors.As(err, &e) {
		fmt.Printf("field %s, value %v: %s\n", e.Field, e.Value, e.Reason)
	}
	// Output: field steps[0].count, value 0: must be ≥ 1, got 0
}
