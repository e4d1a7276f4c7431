package composition

import (
	"testing"
	"time"

	"github.com/privamp/privamp/rdp"
)

// A DP-SGD calibration by PLD reports its progress from 0 to the total,
// never moving back, over the whole call: the last report comes after the
// final accounting (issue 27: dpsgd --target-epsilon shows a bar for its
// whole duration).
func TestDPSGDCalibrationProgress(t *testing.T) {
	var done, total []int64
	var lastAt time.Time
	pq := ProfileQuery{Progress: func(d, n int64) { done, total, lastAt = append(done, d), append(total, n), time.Now() }}
	res, err := DPSGDProfile(rdp.DPSGD{SamplingRate: 0.01, Steps: 1000, Delta: 1e-5, Calibrate: true, TargetEpsilon: 1}, AccountBest, pq)
	end := time.Now()
	if err != nil || !res.Calibrated {
		t.Fatal(err, res.Calibrated)
	}
	k := len(done) - 1
	if k < 3 || done[0] != 0 || done[k] != total[k] {
		t.Fatalf("progress %v of %v: want from 0 to the total in several steps", done, total)
	}
	for i := 1; i <= k; i++ {
		if done[i] < done[i-1] || done[i] > total[i] {
			t.Fatalf("progress %v of %v moves back or past its total", done, total)
		}
	}
	// The final accounting at the noise found takes about as long as this:
	// a last report made before it would come that long before the end.
	start := time.Now()
	if _, err := DPSGDProfile(rdp.DPSGD{SamplingRate: 0.01, Steps: 1000, Delta: 1e-5, Noise: float64(res.NoiseMultiplier)}, AccountBest, ProfileQuery{}); err != nil {
		t.Fatal(err)
	}
	if final := time.Since(start); end.Sub(lastAt) > final/2 {
		t.Errorf("the last report came %v before the call returned, the final accounting takes %v: it is not covered", end.Sub(lastAt), final)
	}
}
