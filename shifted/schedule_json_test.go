package shifted

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
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
		{`{"steps": [{"variance": 1, "contraction": 1.5}]}`, "steps[0]: contraction 1.5 > 1: the step does not contract"},
		{`{"steps": [{"count": 3}]}`, "steps[0]: no variance"},
		{`{"variance": -1, "steps": [{}]}`, "variance"},
		{`{"variance": 1, "steps": [{"count": 0}]}`, "steps[0].count must be ≥ 1"},
		{`{"variance": 1, "steps": [{"repeat": 2, "steps": [{"sensitivity": -1}]}]}`, "steps[0].steps[0]: sensitivity"},
		{`{"variance": 1, "steps": [{"repeat": 0, "steps": [{}]}]}`, "repeat must be ≥ 1"},
		{`{"variance": 1, "steps": [{"repeat": 2, "count": 3, "steps": [{}]}]}`, "a group has only"},
		{`{"variance": 1, "steps": [{"varianse": 2}]}`, "unknown field"},
		{"{\"variance\": 1,\n \"steps\": [{\"count\": \"x\"}]}", "line 2"},
		{"{\"variance\": 1,\n\n \"steps\": [{\"count\": 1},]}", "line 3"},
		{`{"variance": 1}`, "missing \"steps\""},
		{`{"variance": 1, "steps": []}`, "empty"},
		{`{"variance": 1, "steps": [{}]} {}`, "unexpected data"},
		{`{"variance": 1, "steps": [{"repeat": 1000000, "steps": [{"repeat": 1000000, "steps": [{"count": 1000000000}]}]}]}`, "exceeds"},
		{`{"variance": 1, "steps": [{"repeat": 100000000, "steps": [{"count": 1}, {"count": 1, "sensitivity": 1}]}]}`, "runs"},
		{`{"variance": 1, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{"repeat": 2, "steps": [{}]}]}]}]}]}]}]}]}]}`, "nest"},
	}
	for _, c := range cases {
		_, err := ParseSchedule(strings.NewReader(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
}
