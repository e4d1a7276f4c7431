package events

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
)

// FuzzLoad: Read never panics; it returns a valid file or a *dp.Error; a
// file it accepts validates again, has at least one phase, and its RDP
// account (cheap; small files only) is a finite or infinite ε ≥ 0, never
// NaN.
func FuzzLoad(f *testing.F) {
	for _, p := range []string{"../../examples/events-two-phase.json", "../../examples/events-noise-schedule.json"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		nest(3), nestComposed(4), nest(MaxDepth + 1),
		`{"event": {"type": "NoOp"}}`,
		`{"neighbouring": "replace_one", "event": {"type": "RandomizedResponse", "noise_parameter": 0.25, "num_buckets": 2}}`,
		`{"neighbouring": "replace_one", "event": {"type": "SampledWithoutReplacement", "source_dataset_size": 100, "sample_size": 10, "event": {"type": "Gaussian", "noise_multiplier": 1}}}`,
		`{"event": {"type": "SelfComposed", "count": 1e12, "event": {"type": "Laplace", "noise_multiplier": 1e300}}}`,
		`{"event": {"type": "PoissonSampled", "sampling_probability": 5e-324, "event": {"type": "Gaussian", "noise_multiplier": 1e-300}}}`,
		`{"event": {"type": "Composed", "events": [null]}}`,
		`{"event": {"type": "Composed", "events": [{"type": "Composed", "events": [{}]}]}}`,
		`{"event": {"type": "SelfComposed", "count": -1, "event": {"type": "NoOp"}}}`,
		`{"event": {"type": "PoissonSampled", "sampling_probability": 1e400}}`,
		`{"event": `, `[]`, ``, `{"event": {"type": "Gaussian", "noise_multiplier": 1}} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := Read(bytes.NewReader(data))
		if err != nil {
			var e *dp.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not a *dp.Error", err)
			}
			return
		}
		if err := ev.Validate(); err != nil {
			t.Fatalf("accepted, then invalid: %v", err)
		}
		ph, steps, err := ev.walk()
		if err != nil || len(ph) == 0 || !(steps >= 1 && steps <= MaxCount) {
			t.Fatalf("%d phases, %g steps, %v", len(ph), steps, err)
		}
		if len(ph) > 8 {
			return
		}
		r, err := Account(ev, Query{Delta: 1e-5, Accountant: composition.AccountRDP})
		if err != nil {
			if fe, ok := field.As(err); ok && fe.Field == "accountant" && strings.Contains(fe.Reason, "without replacement") {
				return // no RDP curve of sampling without replacement
			}
			t.Fatal(err)
		}
		if e := float64(r.Epsilon); math.IsNaN(e) || e < 0 {
			t.Fatalf("ε = %v", e)
		}
	})
}
