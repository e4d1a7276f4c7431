package shifted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
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
	Steps       []jsonEntry `json:"steps"`
}

const maxDepth = 8

// ParseSchedule reads a schedule in the JSON format of the package
// documentation. Errors name the entry (e.g. steps[3].steps[1].variance) or,
// for malformed JSON, the line.
func ParseSchedule(r io.Reader) (Schedule, error) {
	data, err := io.ReadAll(io.LimitReader(r, 1<<30))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var js jsonSchedule
	if err := dec.Decode(&js); err != nil {
		return nil, jsonError(data, err)
	}
	if dec.More() {
		return nil, errors.New("unexpected data after the schedule object")
	}
	if js.Steps == nil {
		return nil, errors.New(`missing "steps": the schedule needs a list of steps`)
	}
	def := Step{Variance: math.NaN(), Contraction: 1}
	if js.Variance != nil {
		def.Variance = *js.Variance
		if err := (Step{Variance: def.Variance, Contraction: 1}).check(); err != nil {
			return nil, fmt.Errorf("variance: %v", err)
		}
	}
	if js.Contraction != nil {
		def.Contraction = *js.Contraction
		if err := (Step{Variance: 1, Contraction: def.Contraction}).check(); err != nil {
			return nil, fmt.Errorf("contraction: %v", err)
		}
	}
	sch, _, err := expand(js.Steps, def, "steps", 0)
	if err != nil {
		return nil, err
	}
	if len(sch) == 0 {
		return nil, errors.New(`"steps" is empty: the schedule needs at least one step`)
	}
	return sch, nil
}

// expand returns the schedule of a list of entries and its number of steps,
// with groups multiplied out: a group whose body is one run multiplies that
// run's count; any other group is appended repeat times, after checking that
// the result stays within MaxSteps and MaxRuns.
func expand(entries []jsonEntry, def Step, path string, depth int) (Schedule, int64, error) {
	if depth >= maxDepth {
		return nil, 0, fmt.Errorf("%s: groups nest more than %d deep", path, maxDepth)
	}
	var sch Schedule
	var steps int64
	push := func(p string, r Run) error {
		if steps > MaxSteps-r.Count {
			return fmt.Errorf("%s: the schedule exceeds %d steps", p, MaxSteps)
		}
		steps += r.Count
		sch = sch.Append(r.Step, r.Count)
		if len(sch) > MaxRuns {
			return fmt.Errorf("%s: the schedule exceeds %d runs once groups are expanded", p, MaxRuns)
		}
		return nil
	}
	for i, e := range entries {
		p := fmt.Sprintf("%s[%d]", path, i)
		if e.Repeat != nil || e.Steps != nil {
			if e.Variance != nil || e.Contraction != nil || e.Sensitivity != nil || e.Count != nil {
				return nil, 0, fmt.Errorf("%s: a group has only \"repeat\" and \"steps\"", p)
			}
			k := int64(1)
			if e.Repeat != nil {
				k = *e.Repeat
			}
			if k < 1 {
				return nil, 0, fmt.Errorf("%s.repeat must be ≥ 1, got %d", p, k)
			}
			if len(e.Steps) == 0 {
				return nil, 0, fmt.Errorf("%s.steps must list at least one step", p)
			}
			body, n, err := expand(e.Steps, def, p+".steps", depth+1)
			if err != nil {
				return nil, 0, err
			}
			if n > MaxSteps/k {
				return nil, 0, fmt.Errorf("%s: the schedule exceeds %d steps", p, MaxSteps)
			}
			if len(body) == 1 {
				if err := push(p, Run{Step: body[0].Step, Count: body[0].Count * k}); err != nil {
					return nil, 0, err
				}
				continue
			}
			if int64(len(body)-1) > int64(MaxRuns)/k {
				return nil, 0, fmt.Errorf("%s: the schedule exceeds %d runs once groups are expanded", p, MaxRuns)
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
			return nil, 0, fmt.Errorf("%s: no variance (give \"variance\" here or at the top level)", p)
		}
		if err := st.check(); err != nil {
			return nil, 0, fmt.Errorf("%s: %v", p, err)
		}
		count := int64(1)
		if e.Count != nil {
			count = *e.Count
		}
		if count < 1 {
			return nil, 0, fmt.Errorf("%s.count must be ≥ 1, got %d", p, count)
		}
		if err := push(p, Run{Step: st, Count: count}); err != nil {
			return nil, 0, err
		}
	}
	return sch, steps, nil
}

// jsonError turns a decoding error into a message with a line number.
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
		err = fmt.Errorf("%s must be a %s, got %s", te.Field, te.Type, te.Value)
	}
	if off < 0 {
		return fmt.Errorf("bad schedule JSON: %v", err)
	}
	line := 1 + bytes.Count(data[:min(off, int64(len(data)))], []byte("\n"))
	return fmt.Errorf("line %d: %v", line, err)
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
