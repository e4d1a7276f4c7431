package events

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

// readErr reads doc and returns its *dp.Error, failing the test if there is
// none.
func readErr(t *testing.T, doc string) *dp.Error {
	t.Helper()
	_, err := Read(strings.NewReader(doc))
	var e *dp.Error
	if !errors.As(err, &e) {
		t.Fatalf("Read(%s) = %v, want a *dp.Error", doc, err)
	}
	return e
}

const gauss = `{"type": "Gaussian", "noise_multiplier": 1}`

func sampled(q string) string {
	return `{"type": "PoissonSampled", "sampling_probability": ` + q + `, "event": ` + gauss + `}`
}

func TestValidationErrors(t *testing.T) {
	for _, c := range []struct {
		doc, field, reason string
	}{
		{`{"event": {"type": "Gaussian", "noise_multiplier": -1}}`, "event.noise_multiplier", "must be a finite number > 0"},
		{`{"event": {"type": "Gaussian", "noise_multiplier": 0}}`, "event.noise_multiplier", "no privacy"},
		{`{"event": {"type": "Laplace", "noise_multiplier": 0}}`, "event.noise_multiplier", "> 0"},
		{`{"event": {"type": "Composed", "events": [` + gauss + `, {"type": "SelfComposed", "count": 2, "event": {"type": "PoissonSampled", "sampling_probability": 0.1, "event": {"type": "Gaussian", "noise_multiplier": -2}}}]}}`,
			"event.events[1].event.event.noise_multiplier", "> 0"},
		{`{"event": ` + sampled("0") + `}`, "event.sampling_probability", "must be in (0, 1]"},
		{`{"event": ` + sampled("1.5") + `}`, "event.sampling_probability", "must be in (0, 1]"},
		{`{"event": ` + sampled("-0.1") + `}`, "event.sampling_probability", "must be in (0, 1]"},
		{`{"event": {"type": "SelfComposed", "count": 2.5, "event": ` + gauss + `}}`, "event.count", "whole number"},
		{`{"event": {"type": "SelfComposed", "count": 0, "event": ` + gauss + `}}`, "event.count", "[1, 1e12]"},
		{`{"event": {"type": "SelfComposed", "count": 2e12, "event": ` + gauss + `}}`, "event.count", "[1, 1e12]"},
		{`{"event": {"type": "SelfComposed", "count": 1e7, "event": {"type": "SelfComposed", "count": 1e6, "event": ` + gauss + `}}}`,
			"event.event.count", "1e12"},
		{`{"event": {"type": "SelfComposed", "event": ` + gauss + `}}`, "event.count", "is required for a SelfComposed event"},
		{`{"event": {"type": "SelfComposed", "count": 3}}`, "event.event", "is required"},
		{`{"event": {"type": "SelfComposed", "count": 3, "event": null}}`, "event.event", "is required"},
		{`{"event": {"type": "PoissonSampled", "sampling_probability": 0.1}}`, "event.event", "is required"},
		{`{"event": {"type": "Composed"}}`, "event.events", "is required"},
		{`{"event": {"type": "Composed", "events": []}}`, "event.events", "is empty"},
		{`{"event": {"type": "Gausian", "noise_multiplier": 1}}`, "event.type", "allowed: Gaussian, Laplace, RandomizedResponse, NoOp, PoissonSampled, SampledWithoutReplacement, SelfComposed, Composed"},
		{`{"event": {"type": "GaussianDpEvent", "noise_multiplier": 1}}`, "event.type", `write "Gaussian"`},
		{`{"event": {"noise_multiplier": 1}}`, "event.type", "is required"},
		{`{"neighbouring": "add_or_remove_one"}`, "event", "is required"},
		{`{"event": {"type": "Gaussian", "noise_multiplier": 1, "count": 3}}`, "event.count", "not a parameter of a Gaussian event (it has only noise_multiplier)"},
		{`{"event": {"type": "NoOp", "noise_multiplier": 1}}`, "event.noise_multiplier", "it has no parameters"},
		{`{"event": {"type": "Gaussian", "noise_multiplier": 1, "sigma": 3}}`, "event.sigma", "not a parameter of a Gaussian event"}, // sigma is DiscreteGaussian's
		{`{"event": {"type": "Gaussian", "noise_multiplier": 1, "sigmaa": 3}}`, "event.sigmaa", "unknown field"},
		{`{"event": {"type": "Gaussian", "noise_multiplier": 1, "noise_multiplier": 2}}`, "event.noise_multiplier", "repeated key"},
		{`{"neighbouring": "replace", "event": ` + gauss + `}`, "neighbouring", `"add_or_remove_one" or "replace_one"`},
		{`{"event": {"type": "SampledWithoutReplacement", "source_dataset_size": 100, "sample_size": 10, "event": ` + gauss + `}}`,
			"event.type", "replace_one neighbouring only"},
		{`{"neighbouring": "replace_one", "event": {"type": "SampledWithoutReplacement", "source_dataset_size": 100, "sample_size": 101, "event": ` + gauss + `}}`,
			"event.sample_size", "[1, source_dataset_size = 100]"},
		{`{"neighbouring": "replace_one", "event": {"type": "SampledWithoutReplacement", "source_dataset_size": 100, "sample_size": 0, "event": ` + gauss + `}}`,
			"event.sample_size", "[1, source_dataset_size = 100]"},
		{`{"neighbouring": "replace_one", "event": {"type": "SampledWithoutReplacement", "source_dataset_size": 0, "sample_size": 1, "event": ` + gauss + `}}`,
			"event.source_dataset_size", "[1, 1e12]"},
		{`{"neighbouring": "replace_one", "event": {"type": "SampledWithoutReplacement", "source_dataset_size": 100.5, "sample_size": 1, "event": ` + gauss + `}}`,
			"event.source_dataset_size", "whole number"},
		{`{"event": {"type": "PoissonSampled", "sampling_probability": 0.1, "event": {"type": "Laplace", "noise_multiplier": 1}}}`,
			"event.event.type", "subsampled Laplace"},
		{`{"event": {"type": "PoissonSampled", "sampling_probability": 0.1, "event": ` + sampled("0.5") + `}}`,
			"event.event.type", "wraps a Gaussian event only"},
		{`{"event": {"type": "PoissonSampled", "sampling_probability": 0.1, "event": {"type": "Gaussian", "noise_multiplier": 0}}}`,
			"event.event.noise_multiplier", "> 0"},
		{`{"event": {"type": "RandomizedResponse", "noise_parameter": 0.5, "num_buckets": 2}}`, "event.type", "replace_one neighbouring only"},
		{`{"neighbouring": "replace_one", "event": {"type": "RandomizedResponse", "noise_parameter": 0.5, "num_buckets": 3}}`, "event.num_buckets", "must be 2"},
		{`{"neighbouring": "replace_one", "event": {"type": "RandomizedResponse", "noise_parameter": 0, "num_buckets": 2}}`, "event.noise_parameter", "(0, 1]"},
		{`{"neighbouring": "replace_one", "event": {"type": "RandomizedResponse", "noise_parameter": 1.5, "num_buckets": 2}}`, "event.noise_parameter", "(0, 1]"},
	} {
		e := readErr(t, c.doc)
		if e.Field != c.field || !strings.Contains(e.Reason, c.reason) {
			t.Errorf("%s:\n got field %q reason %q\nwant field %q reason containing %q", c.doc, e.Field, e.Reason, c.field, c.reason)
		}
	}
}

// nest wraps the Gaussian in depth−1 SelfComposed events (depth events in
// all).
func nest(depth int) string {
	s := gauss
	for i := 1; i < depth; i++ {
		s = `{"type": "SelfComposed", "count": 1, "event": ` + s + `}`
	}
	return `{"event": ` + s + `}`
}

// nestComposed wraps the Gaussian in depth−1 one-element Composed lists.
func nestComposed(depth int) string {
	s := gauss
	for i := 1; i < depth; i++ {
		s = `{"type": "Composed", "events": [` + s + `]}`
	}
	return `{"event": ` + s + `}`
}

func TestLimits(t *testing.T) {
	// jsonin decodes the recursive struct (a pointer field and a list of
	// structs) to the depth cap, and the cap is this package's, with the path.
	for _, doc := range []string{nest(MaxDepth), nestComposed(MaxDepth)} {
		if _, err := Read(strings.NewReader(doc)); err != nil {
			t.Errorf("depth %d: %v", MaxDepth, err)
		}
	}
	e := readErr(t, nest(MaxDepth+1))
	if want := "event" + strings.Repeat(".event", MaxDepth); e.Field != want || !strings.Contains(e.Reason, "nest more than 20 deep") {
		t.Errorf("too deep: %v", e)
	}
	e = readErr(t, nestComposed(MaxDepth+1))
	if want := "event" + strings.Repeat(".events[0]", MaxDepth); e.Field != want || !strings.Contains(e.Reason, "nest more than 20 deep") {
		t.Errorf("too deep: %v", e)
	}
	// Too many events: MaxEvents+1 NoOps (small enough for MaxBytes).
	many := `{"event": {"type": "Composed", "events": [` + strings.Repeat(`{"type":"NoOp"},`, MaxEvents) + `{"type":"NoOp"}]}}`
	e = readErr(t, many)
	if e.Field != fmt.Sprintf("event.events[%d]", MaxEvents-1) || !strings.Contains(e.Reason, "more than 10000 events") {
		t.Errorf("too many events: %v", e)
	}
	// Over the byte limit.
	big := `{"event": {"type": "Composed", "events": [` + strings.Repeat(gauss+",", MaxBytes/len(gauss)) + gauss + `]}}`
	e = readErr(t, big)
	if !strings.Contains(e.Reason, "exceeds the 1048576-byte (1 MiB) limit") {
		t.Errorf("too large: %v", e)
	}
	// Whole numbers in any notation.
	ev, err := Read(strings.NewReader(`{"event": {"type": "SelfComposed", "count": 1e3, "event": ` + gauss + `}}`))
	if err != nil || *ev.Event.Count != 1000 {
		t.Errorf("count 1e3: %v %v", ev.Event.Count, err)
	}
}

func TestExamplesLoad(t *testing.T) {
	for _, c := range []struct {
		file   string
		phases int
		steps  float64
	}{
		{"../../examples/events-two-phase.json", 2, 1500},
		{"../../examples/events-noise-schedule.json", 4, 6001},
		{"../../examples/events-fixed-batches.json", 3, 2201},
	} {
		ev, err := Load(c.file)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		ph, steps, err := ev.walk()
		if err != nil || len(ph) != c.phases || steps != c.steps {
			t.Errorf("%s: %d phases, %g steps, %v; want %d, %g", c.file, len(ph), steps, err, c.phases, c.steps)
		}
	}
	if _, err := Load("testdata/does-not-exist.json"); err == nil {
		t.Error("a missing file loaded")
	}
}

func TestPhases(t *testing.T) {
	ev, err := Read(strings.NewReader(`{"neighbouring": "replace_one", "event": {"type": "SelfComposed", "count": 10, "event": {"type": "Composed", "events": [
		{"type": "SelfComposed", "count": 3, "event": {"type": "SampledWithoutReplacement", "source_dataset_size": 1000, "sample_size": 10, "event": {"type": "Gaussian", "noise_multiplier": 2}}},
		{"type": "Laplace", "noise_multiplier": 4},
		{"type": "RandomizedResponse", "noise_parameter": 0.5, "num_buckets": 2},
		{"type": "NoOp"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	ph, steps, _ := ev.walk()
	want := []Phase{
		{Path: "event.event.events[0].event", Mechanism: "Gaussian", Sampling: SamplingWithoutReplacement, SamplingProbability: 0.01,
			SourceDatasetSize: 1000, SampleSize: 10, NoiseMultiplier: 2, Sensitivity: 2, Count: 30, PLD: true, RDP: true},
		{Path: "event.event.events[1]", Mechanism: "Laplace", Sampling: SamplingNone, SamplingProbability: 1, NoiseMultiplier: 4, Sensitivity: 2, Count: 10, PLD: true, RDP: true},
		{Path: "event.event.events[2]", Mechanism: "RandomizedResponse", Sampling: SamplingNone, SamplingProbability: 1, NoiseParameter: 0.5, Count: 10, PLD: true, RDP: true},
		{Path: "event.event.events[3]", Mechanism: "NoOp", Sampling: SamplingNone, SamplingProbability: 1, Count: 10, PLD: true, RDP: true},
	}
	if steps != 60 || len(ph) != len(want) {
		t.Fatalf("%g steps, phases %+v", steps, ph)
	}
	for i := range want {
		if ph[i] != want[i] {
			t.Errorf("phase %d:\n got %+v\nwant %+v", i, ph[i], want[i])
		}
	}
}

// Phase.Noise names each kind of noise.
func TestPhaseNoise(t *testing.T) {
	for _, c := range []struct {
		p    Phase
		want string
	}{{Phase{Mechanism: TypeGaussian, NoiseMultiplier: 1.1}, "1.1"}, {Phase{Mechanism: TypeRandomizedResponse, NoiseParameter: 0.9}, "p = 0.9"}, {Phase{Mechanism: TypeNoOp}, "none"}} {
		if got := c.p.Noise(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
