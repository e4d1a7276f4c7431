package pld

import (
	"testing"

	"github.com/privamp/privamp/dp"
)

// TestSoundOnlySameEpsilon: Options.SoundOnly skips the optimistic
// estimate and nothing else: the sound ε (and δ(ε)) is the same bit for
// bit, for a DP-SGD run under both relations and for an event tree.
func TestSoundOnlySameEpsilon(t *testing.T) {
	full, so := Options{}, Options{SoundOnly: true}
	for _, c := range []struct {
		name string
		f    func(Options) (Result, error)
	}{
		{"dpsgd", func(o Options) (Result, error) { return DPSGD(0.01, 1.1, 200, 1e-5, o) }},
		{"replace-one", func(o Options) (Result, error) { return DPSGDReplaceOne(0.01, 1.1, 50, 1e-5, o) }},
		{"gaussian", func(o Options) (Result, error) { return GaussianComposed(1, 3, 50, 1e-6, o) }},
		{"laplace", func(o Options) (Result, error) { return LaplaceComposed(1, 20, 40, 1e-6, o) }},
	} {
		if testing.Short() && c.name != "dpsgd" {
			continue // make test runs them (a second each on a loaded VM)
		}
		a, err := c.f(full)
		if err != nil {
			t.Fatal(c.name, err)
		}
		b, err := c.f(so)
		if err != nil {
			t.Fatal(c.name, err)
		}
		if a.Epsilon != b.Epsilon || a.Points != b.Points || a.Source != b.Source {
			t.Errorf("%s: sound-only ε %v (%d points), with the optimistic estimate %v (%d)", c.name, b.Epsilon, b.Points, a.Epsilon, a.Points)
		}
		if !(a.EpsilonOptimistic > 0) || b.EpsilonOptimistic != 0 {
			t.Errorf("%s: optimistic %v with, %v without (want > 0 and 0)", c.name, a.EpsilonOptimistic, b.EpsilonOptimistic)
		}
	}
	ev := dp.Composed{Events: []dp.Event{
		dp.SelfComposed{Event: dp.PoissonSampled{SamplingProbability: 0.02, Event: dp.Gaussian{NoiseMultiplier: 1.5}}, Count: 50},
		dp.SelfComposed{Event: dp.Laplace{NoiseMultiplier: 30}, Count: 5},
	}}
	for _, rel := range []dp.Relation{dp.AddRemove, dp.ReplaceOne} {
		if testing.Short() && rel == dp.ReplaceOne {
			continue
		}
		a, err := Accountant{}.Account(ev, rel, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Accountant{Options: so}.Account(ev, rel, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		if a.Epsilon != b.Epsilon || b.EpsilonOptimistic != 0 || !(a.EpsilonOptimistic > 0) {
			t.Errorf("%v tree: ε %v / %v, optimistic %v / %v", rel, a.Epsilon, b.Epsilon, a.EpsilonOptimistic, b.EpsilonOptimistic)
		}
		sf, of, err := Accountant{}.PLDs(ev, rel, 1e-6)
		if err != nil || of == nil {
			t.Fatal(err, of)
		}
		ss, os, err := Accountant{Options: so}.PLDs(ev, rel, 1e-6)
		if err != nil || os != nil {
			t.Fatalf("sound-only PLDs: optimistic %v, err %v (want nil, nil)", os, err)
		}
		for _, x := range []float64{0.5, 2} {
			if sf.Delta(x) != ss.Delta(x) {
				t.Errorf("%v tree: δ(%g) %g / %g", rel, x, sf.Delta(x), ss.Delta(x))
			}
		}
	}
}

// A sound ε alone, as dp_accounting's PLDAccountant computes it (Python's
// drop-in PLDAccountant asks for this; BenchmarkMNIST adds the optimistic
// estimate).
func BenchmarkMNISTSound(b *testing.B) {
	for b.Loop() {
		if _, err := DPSGD(256.0/60000, 1.1, 14063, 1e-5, Options{SoundOnly: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMillionSteps's sound ε alone.
func BenchmarkMillionStepsSound(b *testing.B) {
	for b.Loop() {
		if _, err := DPSGD(256.0/60000, 1.1, 1_000_000, 1e-5, Options{SoundOnly: true}); err != nil {
			b.Fatal(err)
		}
	}
}
