package shifted

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/jsonin"
)

// scheduleEntry is one element of a "steps" list as decoded: a run of
// identical steps, or a group {"repeat": k, "steps": [...]}. One is reused
// for every element at a depth; what ParseSchedule keeps of it is an item.
type scheduleEntry struct {
	Variance    *float64  `json:"variance,omitempty"`
	Contraction *float64  `json:"contraction,omitempty"`
	Sensitivity *float64  `json:"sensitivity,omitempty"`
	Count       *int64    `json:"count,omitempty"`
	Repeat      *int64    `json:"repeat,omitempty"`
	Steps       entryList `json:"steps,omitempty"`
}

type jsonSchedule struct {
	Variance    *float64  `json:"variance,omitempty"`
	Contraction *float64  `json:"contraction,omitempty"`
	Steps       entryList `json:"steps" jsonin:"required"`
}

// item is one entry of a schedule file, flattened in file order (40
// bytes): a run, or a group followed by the items of its body.
type item struct {
	variance, contraction, sensitivity float64
	n                                  int64 // count of a run, repeat of a group
	body                               int32 // items in a group's body, nested groups included
	flags                              uint8
}

// Which keys an entry gave.
const (
	hasVariance = 1 << iota
	hasContraction
	hasSensitivity
	hasCount
	hasRepeat
	hasSteps
	isGroup // repeat or a steps list (not null)
)

// MaxEntries is the most entries (runs and groups, nested ones included) a
// schedule file may list: ParseSchedule keeps 40 bytes per entry until the
// schedule is built.
const MaxEntries = MaxRuns

// items is the flat list of entries, kept in blocks of 2¹⁶ so that it
// grows without copying.
type items struct {
	blocks [][]item
	n      int
}

const itemBlock = 1 << 16

func (s *items) at(i int) *item { return &s.blocks[i/itemBlock][i%itemBlock] }

func (s *items) add() int {
	if s.n%itemBlock == 0 {
		s.blocks = append(s.blocks, make([]item, itemBlock))
	}
	s.n++
	return s.n - 1
}

// entryList takes the entries of a "steps" list one at a time
// (jsonin.Elements) and appends them to the flat list of items.
type entryList struct {
	items   *items
	cur     *scheduleEntry // the element being decoded
	floats  [3]float64     // where cur's variance, contraction, sensitivity go
	head    int            // its item
	started bool           // the list was given (not absent, not null)
}

func (l *entryList) Start() error {
	l.started = true
	return nil
}

func (l *entryList) Element(i int) any {
	if l.cur == nil {
		l.cur = &scheduleEntry{}
	}
	// The floats are decoded in place: NaN, which no JSON number gives,
	// marks a key not given (and null leaves the pointer nil).
	l.floats = [3]float64{math.NaN(), math.NaN(), math.NaN()}
	*l.cur = scheduleEntry{Variance: &l.floats[0], Contraction: &l.floats[1], Sensitivity: &l.floats[2],
		Steps: entryList{items: l.items, cur: l.cur.Steps.cur}}
	if l.items.n >= MaxEntries {
		// Added refuses it; nothing more is kept.
		l.head = -1
		return l.cur
	}
	l.head = l.items.add()
	return l.cur
}

func (l *entryList) Added(i int) error {
	if l.head < 0 {
		return fmt.Errorf("the schedule file lists more than %d entries (runs and groups)", MaxEntries)
	}
	e, it := l.cur, l.items.at(l.head)
	given := func(x *float64) bool { return x != nil && !math.IsNaN(*x) }
	if given(e.Variance) {
		it.variance, it.flags = *e.Variance, it.flags|hasVariance
	}
	if given(e.Contraction) {
		it.contraction, it.flags = *e.Contraction, it.flags|hasContraction
	}
	if given(e.Sensitivity) {
		it.sensitivity, it.flags = *e.Sensitivity, it.flags|hasSensitivity
	}
	if e.Count != nil {
		it.n, it.flags = *e.Count, it.flags|hasCount
	}
	if e.Repeat != nil || e.Steps.started {
		it.flags |= isGroup
		it.n = 1
		if e.Repeat != nil {
			it.n, it.flags = *e.Repeat, it.flags|hasRepeat
		}
		it.body = int32(l.items.n - l.head - 1)
	}
	return nil
}

const maxDepth = 8

// ScheduleMaxBytes is the largest schedule file ParseSchedule reads: 1 GiB,
// room for MaxRuns written out one entry per run at about 20 bytes each.
const ScheduleMaxBytes = 1 << 30

// scheduleLimit is ScheduleMaxBytes, lowered by tests.
var scheduleLimit int64 = ScheduleMaxBytes

// ParseSchedule reads a schedule in the JSON format of the package
// documentation: one JSON object of at most ScheduleMaxBytes bytes, keys
// exact and unique, counts and repeats whole numbers in any notation (1e7).
// Entries are decoded one by one as they are read. Errors are *dp.Error
// values (Where: dp.InputFile) naming the entry (e.g. steps[3].steps[1].variance) and, for
// what is wrong with the text itself, the line.
func ParseSchedule(r io.Reader) (Schedule, error) {
	var items items
	js := jsonSchedule{Steps: entryList{items: &items}}
	if err := jsonin.Decode(r, scheduleLimit, &js); err != nil {
		return nil, err
	}
	def := Step{Variance: math.NaN(), Contraction: 1}
	if js.Variance != nil {
		def.Variance = *js.Variance
		if err := (Step{Variance: def.Variance, Contraction: 1}).check(); err != nil {
			return nil, &dp.Error{Where: dp.InputFile, Field: "variance", Value: def.Variance, Reason: err.Error()}
		}
	}
	if js.Contraction != nil {
		def.Contraction = *js.Contraction
		if err := (Step{Variance: 1, Contraction: def.Contraction}).check(); err != nil {
			return nil, &dp.Error{Where: dp.InputFile, Field: "contraction", Value: def.Contraction, Reason: err.Error()}
		}
	}
	sch, _, err := expand(&items, 0, items.n, def, "steps", 0)
	if err != nil {
		return nil, err
	}
	if cap(sch) > 2*len(sch)+1024 {
		sch = slices.Clip(append(Schedule(nil), sch...))
	}
	if len(sch) == 0 {
		return nil, &dp.Error{Where: dp.InputFile, Field: "steps", Reason: "is empty: the schedule needs at least one step"}
	}
	return sch, nil
}

// expand returns the schedule of a list of entries (flattened: a group's
// body follows it) and its number of steps, with groups multiplied out: a
// group whose body is one run multiplies that run's count; any other group
// is appended repeat times, after checking that the result stays within
// MaxSteps and MaxRuns. Entry paths (steps[3].steps[1]) are written only
// for errors.
func expand(items *items, lo, hi int, def Step, path string, depth int) (Schedule, int64, error) {
	if depth >= maxDepth {
		return nil, 0, &dp.Error{Where: dp.InputFile, Field: path, Reason: fmt.Sprintf("groups nest more than %d deep", maxDepth)}
	}
	var sch Schedule
	if depth == 0 {
		sch = make(Schedule, 0, hi-lo) // at most one run per entry, unless groups repeat
	}
	var steps int64
	i := 0 // the entry's index in its list
	at := func() string { return fmt.Sprintf("%s[%d]", path, i) }
	push := func(r Run) error {
		if steps > MaxSteps-r.Count {
			return &dp.Error{Where: dp.InputFile, Field: at(), Reason: fmt.Sprintf("the schedule exceeds %d steps", MaxSteps)}
		}
		steps += r.Count
		sch = sch.Append(r.Step, r.Count)
		if len(sch) > MaxRuns {
			return &dp.Error{Where: dp.InputFile, Field: at(), Reason: fmt.Sprintf("the schedule exceeds %d runs once groups are expanded", MaxRuns)}
		}
		return nil
	}
	for pos := lo; pos < hi; pos, i = pos+1, i+1 {
		e := *items.at(pos)
		if e.flags&isGroup != 0 {
			blo, bhi := pos+1, pos+1+int(e.body)
			pos += int(e.body)
			p := at()
			if e.flags&(hasVariance|hasContraction|hasSensitivity|hasCount) != 0 {
				return nil, 0, &dp.Error{Where: dp.InputFile, Field: p, Reason: "a group has only \"repeat\" and \"steps\""}
			}
			k := e.n
			if k < 1 {
				return nil, 0, &dp.Error{Where: dp.InputFile, Field: p + ".repeat", Value: k, Reason: fmt.Sprintf("must be ≥ 1, got %d", k)}
			}
			if bhi == blo {
				return nil, 0, &dp.Error{Where: dp.InputFile, Field: p + ".steps", Reason: "must list at least one step"}
			}
			sub, n, err := expand(items, blo, bhi, def, p+".steps", depth+1)
			if err != nil {
				return nil, 0, err
			}
			if n > MaxSteps/k {
				return nil, 0, &dp.Error{Where: dp.InputFile, Field: p, Reason: fmt.Sprintf("the schedule exceeds %d steps", MaxSteps)}
			}
			if len(sub) == 1 {
				if err := push(Run{Step: sub[0].Step, Count: sub[0].Count * k}); err != nil {
					return nil, 0, err
				}
				continue
			}
			if int64(len(sub)-1) > int64(MaxRuns)/k {
				return nil, 0, &dp.Error{Where: dp.InputFile, Field: p, Reason: fmt.Sprintf("the schedule exceeds %d runs once groups are expanded", MaxRuns)}
			}
			for rep := int64(0); rep < k; rep++ {
				for _, r := range sub {
					if err := push(r); err != nil {
						return nil, 0, err
					}
				}
			}
			continue
		}
		st := def
		if e.flags&hasVariance != 0 {
			st.Variance = e.variance
		}
		if e.flags&hasContraction != 0 {
			st.Contraction = e.contraction
		}
		if e.flags&hasSensitivity != 0 {
			st.Sensitivity = e.sensitivity
		}
		if math.IsNaN(st.Variance) {
			return nil, 0, &dp.Error{Where: dp.InputFile, Field: at(), Reason: "no variance (give \"variance\" here or at the top level)"}
		}
		if err := st.check(); err != nil {
			return nil, 0, &dp.Error{Where: dp.InputFile, Field: at(), Reason: err.Error()}
		}
		count := int64(1)
		if e.flags&hasCount != 0 {
			count = e.n
		}
		if count < 1 {
			return nil, 0, &dp.Error{Where: dp.InputFile, Field: at() + ".count", Value: count, Reason: fmt.Sprintf("must be ≥ 1, got %d", count)}
		}
		if err := push(Run{Step: st, Count: count}); err != nil {
			return nil, 0, err
		}
	}
	return sch, steps, nil
}

// MarshalJSON writes the schedule in the format ParseSchedule reads, one
// entry per run.
func (s Schedule) MarshalJSON() ([]byte, error) {
	type entry struct {
		Variance    float64 `json:"variance"`
		Contraction float64 `json:"contraction"`
		Sensitivity float64 `json:"sensitivity"`
		Count       int64   `json:"count"`
	}
	js := struct {
		Steps []entry `json:"steps"`
	}{Steps: make([]entry, len(s))}
	for i, r := range s {
		js.Steps[i] = entry{r.Variance, r.Contraction, r.Sensitivity, r.Count}
	}
	return json.Marshal(js)
}

// ScheduleLimits states the limits on a schedule file, for a command's help.
func ScheduleLimits() string {
	return fmt.Sprintf("Input limits: a schedule file of at most %d GiB, at most %d entries and %d runs once groups are expanded, 2^%d steps (each refused with the limit named).",
		ScheduleMaxBytes>>30, MaxEntries, MaxRuns, bits.Len64(uint64(MaxSteps))-1)
}
