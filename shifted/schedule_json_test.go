package shifted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

func TestParseSchedule(t *testing.T) {
	src := `{
  "variance": 0.25,
  "steps": [
    {"count": 4},
    {"sensitivity": 0.2},
    {"repeat": 3, "steps": [{"count": 2, "contraction": 0.5}, {"sensitivity": 0.1}]},
    {"variance": 1, "count": 5}
  ]
}`
	sch, err := ParseSchedule(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if sch.Len() != 4+1+3*3+5 {
		t.Fatalf("Len = %d", sch.Len())
	}
	want := Schedule{
		{Step: Step{Variance: 0.25, Contraction: 1}, Count: 4},
		{Step: Step{Variance: 0.25, Contraction: 1, Sensitivity: 0.2}, Count: 1},
	}
	for k := 0; k < 3; k++ {
		want = append(want, Run{Step: Step{Variance: 0.25, Contraction: 0.5}, Count: 2},
			Run{Step: Step{Variance: 0.25, Contraction: 1, Sensitivity: 0.1}, Count: 1})
	}
	want = append(want, Run{Step: Step{Variance: 1, Contraction: 1}, Count: 5})
	if len(sch) != len(want) {
		t.Fatalf("got %d runs, want %d: %+v", len(sch), len(want), sch)
	}
	for i := range want {
		if sch[i] != want[i] {
			t.Fatalf("run %d: %+v, want %+v", i, sch[i], want[i])
		}
	}
	// A large repeat of a one-run body multiplies the count.
	big, err := ParseSchedule(strings.NewReader(`{"variance": 1, "steps": [{"repeat": 1000000, "steps": [{"count": 10000000}]}]}`))
	if err != nil || len(big) != 1 || big.Len() != 10_000_000_000_000 {
		t.Fatalf("%v %v", big, err)
	}
	// Round trip.
	data, err := json.Marshal(sch)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseSchedule(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Solve(sch)
	b, _ := Solve(back)
	if a.K != b.K || len(back) != len(sch) {
		t.Fatalf("round trip: K %g vs %g", a.K, b.K)
	}
}

func TestParseScheduleErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{`{"steps": [{"variance": 1, "contraction": 1.5}]}`, `field "steps[0]": contraction 1.5 > 1: the step does not contract`},
		{`{"steps": [{"count": 3}]}`, `field "steps[0]": no variance`},
		{`{"variance": -1, "steps": [{}]}`, "variance"},
		{`{"variance": 1, "steps": [{"count": 0}]}`, `field "steps[0].count": must be ≥ 1, got 0`},
		{`{"variance": 1, "steps": [{"repeat": 2, "steps": [{"sensitivity": -1}]}]}`, `field "steps[0].steps[0]": sensitivity`},
		{`{"variance": 1, "steps": [{"repeat": 0, "steps": [{}]}]}`, `field "steps[0].repeat": must be ≥ 1`},
		{`{"variance": 1, "steps": [{"repeat": 2, "count": 3, "steps": [{}]}]}`, "a group has only"},
		{`{"variance": 1, "steps": [{"varianse": 2}]}`, "unknown field"},
		{"{\"variance\": 1,\n \"steps\": [{\"count\": \"x\"}]}", "line 2"},
		{"{\"variance\": 1,\n\n \"steps\": [{\"count\": 1},]}", "line 3"},
		{`{"variance": 1}`, `field "steps": is required`},
		{`{"variance": 1, "steps": null}`, `field "steps": is empty`},
		{`{"variance": 1, "steps": []}`, "empty"},
		{`{"variance": 1, "steps": [{}]} {}`, "extra data after the object"},
		{`{"variance": 1, "steps": [{"repeat": 1000000, "steps": [{"repeat": 1000000, "steps": [{"count": 1000000000}]}]}]}`, "exceeds"},
		{`{"variance": 1, "steps": [{"repeat": 100000000, "steps": [{"count": 1}, {"count": 1, "sensitivity": 1}]}]}`, "runs"},
		{`{"variance": 1, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{}]}]}]}]}]}]}]}]}]}`, "nest"},
	}
	for _, c := range cases {
		_, err := ParseSchedule(strings.NewReader(c.src))
		var se *dp.Error
		if !errors.As(err, &se) || se.Where != dp.InputFile || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want a *dp.Error with %q", c.src, err, c.want)
		}
	}
}

// TestParseScheduleStrict: the rules every privamp JSON input shares
// (internal/jsonin): keys exact and unique, whole numbers in any notation
// where counts go, a stated size limit. encoding/json took "Variance" for
// "variance" and kept the last of a repeated "count", refused "count": 1e7,
// and cut an oversize file with "unexpected end of JSON input".
func TestParseScheduleStrict(t *testing.T) {
	cases := []struct {
		src, field string
		line       int
		want       string
	}{
		{`{"Variance": 1, "steps": [{}]}`, "Variance", 1, `case-sensitive; did you mean "variance"?`},
		{"{\"variance\": 1,\n \"steps\": [{\"count\": 2,\n \"count\": 3}]}", "steps[0].count", 3, "repeated key (first on line 2)"},
		{`{"variance": 1, "variance": 2, "steps": [{}]}`, "variance", 1, "repeated key"},
		{`{"variance": 1, "steps": [{"repeat": 2, "steps": [{"Count": 2}]}]}`, "steps[0].steps[0].Count", 1, "case-sensitive"},
		{`{"variance": 1, "steps": [{"count": 1.5}]}`, "steps[0].count", 1, "expected a whole number, got 1.5"},
		{`{"variance": 1, "steps": [{"count": "3"}]}`, "steps[0].count", 1, "expected a whole number"},
	}
	for _, c := range cases {
		_, err := ParseSchedule(strings.NewReader(c.src))
		var se *dp.Error
		if !errors.As(err, &se) || se.Field != c.field || se.Line != c.line || !strings.Contains(se.Reason, c.want) {
			t.Errorf("%s: %v, want line %d field %q: …%s", c.src, err, c.line, c.field, c.want)
		}
	}
	sch, err := ParseSchedule(strings.NewReader(`{"variance": 1, "steps": [{"count": 1e7}, {"repeat": 2.0, "steps": [{"count": 5E2, "sensitivity": 1}, {}]}]}`))
	if err != nil || sch.Len() != 10_000_000+2*501 {
		t.Fatalf("whole numbers: %v %v", sch, err)
	}
	defer func(l int64) { scheduleLimit = l }(scheduleLimit)
	scheduleLimit = 100
	long := `{"variance": 1, "steps": [` + strings.Repeat(`{"count": 1}, `, 20) + `{}]}`
	_, err = ParseSchedule(strings.NewReader(long))
	if err == nil || !strings.Contains(err.Error(), "exceeds the 100-byte limit") {
		t.Errorf("oversize schedule: %v", err)
	}
}

// TestParseScheduleLarge: 10⁶ runs, decoded entry by entry.
func TestParseScheduleLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("10⁶ runs")
	}
	var b strings.Builder
	b.WriteString(`{"variance": 1, "steps": [`)
	const n = 1_000_000
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"count": %d, "sensitivity": %d}`, 1+i%3, i%2)
	}
	b.WriteString("]}")
	sch, err := ParseSchedule(strings.NewReader(b.String()))
	if err != nil || len(sch) != n || sch.Len() != n/3*6+1 {
		t.Fatalf("%d runs, %d steps, %v", len(sch), sch.Len(), err)
	}
}
