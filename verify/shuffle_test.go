package verify

import (
	"math"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

// shuffled is a claim on shuffled batches at the MNIST-sized run of the
// dpsgd example over 5 epochs: n = 60,000, batch 250 (T = 240), z = 1.1,
// δ = 1e-5. Its ε lies in [4.18, 10.20] (composition/shuffle: the lower
// bound to 0.001, its loss grid's resolution; the upper bound is exact);
// Poisson accounting (privamp dpsgd's PLD) reports 0.64 for it.
const shuffled = `{"algorithm": "dpsgd", "sampling": "shuffle", "n": 60000, "batch_size": 250, "noise_multiplier": 1.1,
  "epochs": 5, "delta": 1e-5, "epsilon": EPS}`

// TestShuffleVerdicts: a claim made with Poisson accounting (ε = 0.64) is
// INVALID with the lower bound and its source; a claim inside the interval
// is UNSUPPORTED with it; a claim at or above the upper bound is VALID.
// The upper bound is the certified ε in all three.
func TestShuffleVerdicts(t *testing.T) {
	for _, c := range []struct {
		eps  string
		want dp.Verdict
	}{{"0.64", dp.Invalid}, {"6", dp.Unsupported}, {"10.2", dp.Valid}} {
		v := verifyDPSGDString(t, strings.Replace(shuffled, "EPS", c.eps, 1), rdpOnly)
		b := v.Shuffle
		if v.Verdict != c.want || v.Via != ViaShuffle || b == nil {
			t.Fatalf("ε = %s: %v via %s, %+v", c.eps, v.Verdict, v.Via, b)
		}
		lo, up := float64(b.EpsilonLower), float64(b.EpsilonUpper)
		if math.Abs(lo-4.1832) > 1e-3 || math.Abs(up-10.1998) > 1e-4 || float64(v.WorstEpsilon) != up || b.StepsPerEpoch != 240 || b.Epochs != 5 {
			t.Errorf("ε = %s: bounds [%v, %v], certified %v, %+v", c.eps, lo, up, v.WorstEpsilon, b)
		}
		notes := strings.Join(v.Notes, " ")
		for _, w := range []string{"ε lies in [4.18", "10.1998]", "Chua et al.", "for reference only"} {
			if !strings.Contains(notes, w) {
				t.Errorf("ε = %s: notes lack %q: %s", c.eps, w, notes)
			}
		}
		if c.want == dp.Invalid && (v.Source != b.LowerSource || !(float64(v.NoiseMultiplierNeeded) > 1.1)) {
			t.Errorf("invalid: source %q, noise needed %v", v.Source, v.NoiseMultiplierNeeded)
		}
	}
}

// TestShuffleNeedsWholeEpochs: a shuffled claim with a fractional number
// of epochs, or steps not a multiple of ⌈n/batch_size⌉, is not bounded:
// UNSUPPORTED with no certified ε, as before.
func TestShuffleNeedsWholeEpochs(t *testing.T) {
	for _, doc := range []string{
		strings.Replace(strings.Replace(shuffled, "EPS", "1", 1), `"epochs": 5`, `"epochs": 2.5`, 1),
		strings.Replace(strings.Replace(shuffled, "EPS", "1", 1), `"epochs": 5`, `"steps": 250`, 1),
	} {
		v := verifyDPSGDString(t, doc, rdpOnly)
		if v.Verdict != dp.Unsupported || v.Shuffle != nil || !math.IsNaN(float64(v.WorstEpsilon)) {
			t.Errorf("%s: %v %+v %v", doc, v.Verdict, v.Shuffle, v.WorstEpsilon)
		}
	}
}

// TestShuffleAuthorsExample: the configuration of the authors' example
// (google-research dpsgd_batch_sampler_accounting/example.py: noise 0.35,
// 1,000 steps per epoch, one epoch; here n = 100,000, batch 100,
// δ = 1e-5). At this noise the lower bound nearly meets the upper bound
// (the batch that holds the record stands out), so the ε a Poisson
// accountant gives (10.94 by privamp's PLD) is refuted, and a claim at the
// upper bound holds.
func TestShuffleAuthorsExample(t *testing.T) {
	doc := `{"algorithm": "dpsgd", "sampling": "shuffle", "n": 100000, "batch_size": 100, "noise_multiplier": 0.35, "epochs": 1, "delta": 1e-5, "epsilon": EPS}`
	for eps, want := range map[string]dp.Verdict{"10.94": dp.Invalid, "15.6582": dp.Valid} {
		v := verifyDPSGDString(t, strings.Replace(doc, "EPS", eps, 1), rdpOnly)
		if v.Verdict != want || v.Shuffle == nil || float64(v.Shuffle.EpsilonUpper)-float64(v.Shuffle.EpsilonLower) > 1e-3 {
			t.Errorf("ε = %s: %v, %+v", eps, v.Verdict, v.Shuffle)
		}
	}
}
