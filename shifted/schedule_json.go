package shifted

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/privamp/privamp/internal/jsonin"
)

// jsonEntry is one element of a "steps" list: a run of identical steps, or
// a group {"repeat": k, "steps": [...]}.
type jsonEntry struct {
	Variance    *float64    `json:"variance,omitempty"`
	Contraction *float64    `json:"contraction,omitempty"`
	Sensitivity *float64    `json:"sensitivity,omitempty"`
	Count       *int64      `json:"count,omitempty"`
	Repeat      *int64      `json:"repeat,omitempty"`
	Steps       []jsonEntry `json:"steps,omitempty"`
}

type jsonSchedule struct {
	Variance    *float64    `json:"variance,omitempty"`
	Contraction *float64    `json:"contraction,omitempty"`
	Steps       []jsonEntry `json:"steps" jsonin:"required"`
}

const maxDepth = 8

// ScheduleMaxBytes is the largest schedule file ParseSchedule reads: 1 GiB,
// room for MaxRuns written out one entry per run at about 20 bytes each.
const ScheduleMaxBytes = 1 << 30

// scheduleLimit is ScheduleMaxBytes, lowered by tests.
var scheduleLimit int64 = ScheduleMaxBytes

// ScheduleError is a bad schedule file: the field (a path such as
// "steps[3].steps[1].variance"; empty for the file as a whole), its line
// (0 for checks made after reading), the value and the reason. It is the
// error of every privamp JSON reader (internal/jsonin).
type ScheduleError = jsonin.Error

// ParseSchedule reads a schedule in the JSON format of the package
// documentation: one JSON object of at most ScheduleMaxBytes bytes, keys
// exact and unique, counts and repeats whole numbers in any notation (1e7).
// Entries are decoded one by one as they are read. Errors are
// *ScheduleError naming the entry (e.g. steps[3].steps[1].variance) and, for
// what is wrong with the text itself, the line.
func ParseSchedule(r io.Reader) (Schedule, error) {
	var js jsonSchedule
	if err := jsonin.Decode(r, scheduleLimit, &js); err != nil {
		return nil, err
	}
	def := Step{Variance: math.NaN(), Contraction: 1}
	if js.Variance != nil {
		def.Variance = *js.Variance
		if err := (Step{Variance: def.Variance, Contraction: 1}).check(); err != nil {
			return nil, &ScheduleError{Field: "variance", Value: def.Variance, Reason: err.Error()}
		}
	}
	if js.Contraction != nil {
		def.Contraction = *js.Contraction
		if err := (Step{Variance: 1, Contraction: def.Contraction}).check(); err != nil {
			return nil, &ScheduleError{Field: "contraction", Value: def.Contraction, Reason: err.Error()}
		}
	}
	sch, _, err := expand(js.Steps, def, "steps", 0)
	if err != nil {
		return nil, err
	}
	if len(sch) == 0 {
		return nil, &ScheduleError{Field: "steps", Reason: "is empty: the schedule needs at least one step"}
	}
	return sch, nil
}

// expand returns the schedule of a list of entries and its number of steps,
// with groups multiplied out: a group whose body is one run multiplies that
// run's count; any other group is appended repeat times, after checking that
// the result stays within MaxSteps and MaxRuns.
func expand(entries []jsonEntry, def Step, path string, depth int) (Schedule, int64, error) {
	if depth >= maxDepth {
		return nil, 0, &ScheduleError{Field: path, Reason: fmt.Sprintf("groups nest more than %d deep", maxDepth)}
	}
	var sch Schedule
	var steps int64
	push := func(p string, r Run) error {
		if steps > MaxSteps-r.Count {
			return &ScheduleError{Field: p, Reason: fmt.Sprintf("the schedule exceeds %d steps", MaxSteps)}
		}
		steps += r.Count
		sch = sch.Append(r.Step, r.Count)
		if len(sch) > MaxRuns {
			return &ScheduleError{Field: p, Reason: fmt.Sprintf("the schedule exceeds %d runs once groups are expanded", MaxRuns)}
		}
		return nil
	}
	for i, e := range entries {
		p := fmt.Sprintf("%s[%d]", path, i)
		if e.Repeat != nil || e.Steps != nil {
			if e.Variance != nil || e.Contraction != nil || e.Sensitivity != nil || e.Count != nil {
				return nil, 0, &ScheduleError{Field: p, Reason: "a group has only \"repeat\" and \"steps\""}
			}
			k := int64(1)
			if e.Repeat != nil {
				k = *e.Repeat
			}
			if k < 1 {
				return nil, 0, &ScheduleError{Field: p + ".repeat", Value: k, Reason: fmt.Sprintf("must be ≥ 1, got %d", k)}
			}
			if len(e.Steps) == 0 {
				return nil, 0, &ScheduleError{Field: p + ".steps", Reason: "must list at least one step"}
			}
			body, n, err := expand(e.Steps, def, p+".steps", depth+1)
			if err != nil {
				return nil, 0, err
			}
			if n > MaxSteps/k {
				return nil, 0, &ScheduleError{Field: p, Reason: fmt.Sprintf("the schedule exceeds %d steps", MaxSteps)}
			}
			if len(body) == 1 {
				if err := push(p, Run{Step: body[0].Step, Count: body[0].Count * k}); err != nil {
					return nil, 0, err
				}
				continue
			}
			if int64(len(body)-1) > int64(MaxRuns)/k {
				return nil, 0, &ScheduleError{Field: p, Reason: fmt.Sprintf("the schedule exceeds %d runs once groups are expanded", MaxRuns)}
			}
			for rep := int64(0); rep < k; rep++ {
				for _, r := range body {
					if err := push(p, r); err != nil {
						return nil, 0, err
					}
				}
			}
			continue
		}
		st := def
		if e.Variance != nil {
			st.Variance = *e.Variance
		}
		if e.Contraction != nil {
			st.Contraction = *e.Contraction
		}
		if e.Sensitivity != nil {
			st.Sensitivity = *e.Sensitivity
		}
		if math.IsNaN(st.Variance) {
			return nil, 0, &ScheduleError{Field: p, Reason: "no variance (give \"variance\" here or at the top level)"}
		}
		if err := st.check(); err != nil {
			return nil, 0, &ScheduleError{Field: p, Reason: err.Error()}
		}
		count := int64(1)
		if e.Count != nil {
			count = *e.Count
		}
		if count < 1 {
			return nil, 0, &ScheduleError{Field: p + ".count", Value: count, Reason: fmt.Sprintf("must be ≥ 1, got %d", count)}
		}
		if err := push(p, Run{Step: st, Count: count}); err != nil {
			return nil, 0, err
		}
	}
	return sch, steps, nil
}

// MarshalJSON writes the schedule in the format ParseSchedule reads, one
// entry per run.
func (s Schedule) MarshalJSON() ([]byte, error) {
	js := jsonSchedule{Steps: make([]jsonEntry, len(s))}
	for i, r := range s {
		v, c, sen, n := r.Variance, r.Contraction, r.Sensitivity, r.Count
		js.Steps[i] = jsonEntry{Variance: &v, Contraction: &c, Sensitivity: &sen, Count: &n}
	}
	return json.Marshal(js)
}
