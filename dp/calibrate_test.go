package dp

import (
	"errors"
	"strings"
	"testing"
)

// inverse is an accountant whose ε of Gaussian{z} is c/z.
type inverse struct{ c float64 }

func (inverse) Name() string                       { return "inverse" }
func (inverse) Supports(e Event, r Relation) error { return Validate(e, r) }
func (a inverse) Epsilon(e Event, r Relation, delta float64) (Guarantee, error) {
	g, ok := e.(Gaussian)
	if !ok {
		return Guarantee{}, errors.New("not a Gaussian")
	}
	return Guarantee{Epsilon: Loss(a.c / g.NoiseMultiplier), Delta: Loss(delta), Accountant: "inverse"}, nil
}
func (inverse) Delta(Event, Relation, float64) (Guarantee, error) {
	return Guarantee{}, errors.New("no δ")
}

// The calibration meets its target, within its tolerance of the smallest
// noise that does, and says so where the range cannot.
func TestCalibrate(t *testing.T) {
	s := Search{Min: 1e-3, Max: 1e6, RelTol: 1e-6}
	family := func(z float64) Event { return Gaussian{NoiseMultiplier: z} }
	for _, c := range []float64{1e-2, 1, 3, 1e4} {
		z, g, err := Calibrate(inverse{c}, family, AddRemove, 1e-5, 0.5, s)
		if err != nil || float64(g.Epsilon) > 0.5 || z < 2*c || z > 2*c*(1+2e-6) {
			t.Errorf("c = %v: z = %v (want just above %v), ε %v, %v", c, z, 2*c, g.Epsilon, err)
		}
	}
	if z, g, err := Calibrate(inverse{1e-6}, family, AddRemove, 1e-5, 0.5, s); err != ErrBelowMin || z != 1e-3 || g.Epsilon > 0.5 {
		t.Errorf("below min: %v %v %v", z, g, err)
	}
	if _, _, err := Calibrate(inverse{1e9}, family, AddRemove, 1e-5, 0.5, s); err != ErrNoNoise {
		t.Errorf("above max: %v", err)
	}
	if _, _, err := Calibrate(inverse{1}, func(float64) Event { return NoOp{} }, AddRemove, 1e-5, 0.5, s); err != ErrNoNoise {
		t.Errorf("an accountant that cannot answer: %v", err)
	}
}

func TestParseSampling(t *testing.T) {
	for s, want := range map[string]Sampling{"": Poisson, "poisson": Poisson, "fixed-size": WithoutReplacement, "without_replacement": WithoutReplacement, "none": None, "shuffle": Shuffle} {
		if got, err := ParseSampling("sampling", s); err != nil || got != want {
			t.Errorf("%q: %v %v", s, got, err)
		}
	}
	if _, err := ParseSampling("sampling", "shuffled"); err == nil {
		t.Error("shuffled accepted")
	}
	if b, _ := Shuffle.MarshalText(); string(b) != "shuffle" {
		t.Errorf("%s", b)
	}
	if b, _ := WithoutReplacement.MarshalText(); string(b) != "without_replacement" {
		t.Errorf("%s", b)
	}
}

// Check refuses what no accountant reads, naming the parameter.
func TestValidate(t *testing.T) {
	g := Gaussian{NoiseMultiplier: 1}
	ok := []struct {
		e Event
		r Relation
	}{
		{DPSGD(0.01, 1, 100, Poisson), AddRemove}, {DPSGD(0.01, 1, 100, WithoutReplacement), ReplaceOne},
		{Composed{Events: []Event{g, Laplace{NoiseMultiplier: 2}, NoOp{}}}, AddRemove},
		{RandomizedResponse{NoiseParameter: 0.5, NumBuckets: 2}, ReplaceOne},
	}
	for _, c := range ok {
		if err := Validate(c.e, c.r); err != nil {
			t.Errorf("%+v: %v", c.e, err)
		}
	}
	bad := []struct {
		e     Event
		r     Relation
		field string
	}{
		{Gaussian{}, AddRemove, "noise_multiplier"},
		{PoissonSampled{SamplingProbability: 1.5, Event: g}, AddRemove, "sampling_probability"},
		{PoissonSampled{SamplingProbability: 0.5, Event: Laplace{NoiseMultiplier: 1}}, AddRemove, "type"},
		{DPSGD(0.01, 1, 100, WithoutReplacement), AddRemove, "neighbouring"},
		{SampledWithoutReplacement{SourceDatasetSize: 10, SampleSize: 11, Event: g}, ReplaceOne, "sample_size"},
		{SelfComposed{Event: g, Count: 0}, AddRemove, "count"},
		{SelfComposed{Event: SelfComposed{Event: g, Count: 1e7}, Count: 1e6}, AddRemove, "count"},
		{Composed{}, AddRemove, "events"},
		{RandomizedResponse{NoiseParameter: 0.5, NumBuckets: 3}, ReplaceOne, "num_buckets"},
		{RandomizedResponse{NoiseParameter: 0.5, NumBuckets: 2}, AddRemove, "neighbouring"},
		{nil, AddRemove, "event"},
	}
	for _, c := range bad {
		err := Validate(c.e, c.r)
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%+v: %v, want an error on %s", c.e, err, c.field)
		}
	}
	if run, ok := AsSampledGaussianRun(SelfComposed{Event: SelfComposed{Event: PoissonSampled{SamplingProbability: 0.1, Event: g}, Count: 3}, Count: 4}); !ok || run.Steps != 12 || run.Rate != 0.1 || run.Sampling != Poisson || run.Noise != 1 {
		t.Errorf("nested run: %+v %v", run, ok)
	}
	if _, ok := AsSampledGaussianRun(Composed{Events: []Event{g}}); ok {
		t.Error("a composition read as one run")
	}
}
