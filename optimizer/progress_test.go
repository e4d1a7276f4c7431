package optimizer

import (
	"testing"

	"github.com/privamp/privamp/shifted"
)

// Progress covers the whole of Train: the run, then every repeat (issue
// 27: run --repeats 20 took 33–43 s and its bar covered under a second).
// It never goes back, and ends at its total.
func TestProgressCoversRepeats(t *testing.T) {
	var done, total, calls int64
	spec := Spec{Data: DataSpec{Synthetic: "linear", N: 300, Dimension: 2, Seed: 1}, Loss: LossSpec{Name: "squared"}, Radius: 1,
		Training: shifted.Training{Variant: shifted.VariantStop, Epochs: 1, Batch: 1, Delta: 1e-5, Sigma: 0.05}, Seed: 1,
		Repeats: 4, Confidence: 0.95, MaxPoints: 50}
	spec.Progress = func(d, tot int64) {
		if d < done || (total != 0 && tot != total) || d > tot {
			t.Errorf("progress %d/%d after %d/%d", d, tot, done, total)
		}
		done, total, calls = d, tot, calls+1
	}
	if _, err := Train(spec); err != nil {
		t.Fatal(err)
	}
	if total != 300*5 || done != total || calls < 5 {
		t.Errorf("progress ended at %d/%d after %d calls, want 1500/1500 (the run and 4 repeats of 300 steps)", done, total, calls)
	}
}
