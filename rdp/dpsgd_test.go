package rdp

import (
	"fmt"
	"github.com/privamp/privamp/dp"
	"math"
	"testing"

	"github.com/privamp/privamp/internal/field"
)

func TestDPSGD(t *testing.T) {
	// The TF-Privacy MNIST tutorial: ε ≈ 2.5966 at δ = 1e-5 (the value the
	// tutorial's compute_dp_sgd_privacy prints is 2.60 with integer orders).
	mnist := DPSGD{N: 60000, Batch: 256, Epochs: 60, Noise: 1.1, Delta: 1e-5}
	r, err := mnist.Account()
	if err != nil || math.Abs(float64(r.Epsilon)-2.5966) > 1e-3 || r.Steps != 14063 {
		t.Fatalf("MNIST: %+v %v", r, err)
	}
	// The same run given by its sampling rate and steps.
	byRate, _ := DPSGD{SamplingRate: 256.0 / 60000, Steps: 14063, Noise: 1.1, Delta: 1e-5}.Account()
	if byRate.Epsilon != r.Epsilon {
		t.Errorf("by rate: %v, by n and batch: %v", byRate.Epsilon, r.Epsilon)
	}
	// Independent check at one order: the RDP of T steps at the reported
	// order, converted by hand, is at least the reported ε.
	a := float64(r.Order)
	rdpEps := 14063 * SampledGaussian{Q: 256.0 / 60000, Z: 1.1}.Epsilon(a)
	byHand := rdpEps + math.Log((a-1)/a) - (math.Log(1e-5)+math.Log(a))/(a-1)
	if math.Abs(byHand-float64(r.Epsilon)) > 1e-9*byHand {
		t.Errorf("ε %v, by hand at α = %v: %v", r.Epsilon, a, byHand)
	}
	cal, _ := DPSGD{N: 60000, Batch: 256, Epochs: 60, Delta: 1e-5, Calibrate: true, TargetEpsilon: 3}.Account()
	back, _ := DPSGD{N: 60000, Batch: 256, Epochs: 60, Delta: 1e-5, Noise: float64(cal.NoiseMultiplier)}.Account()
	if back.Epsilon > 3 {
		t.Errorf("calibrated z = %v gives ε = %v > 3", cal.NoiseMultiplier, back.Epsilon)
	}
	for _, b := range []struct {
		d     DPSGD
		field string
	}{
		{DPSGD{Batch: 100000, Steps: 10, Noise: 1, Delta: 1e-5}, "n"},
		{DPSGD{N: 100, Steps: 10, Noise: 1, Delta: 1e-5}, "batch"},
		{DPSGD{N: 100, Batch: 200, Steps: 10, Noise: 1, Delta: 1e-5}, "batch"},
		{DPSGD{SamplingRate: 0.1, Noise: 1, Delta: 1e-5}, "steps"},
		{DPSGD{SamplingRate: 0.1, Epochs: -2, Noise: 1, Delta: 1e-5}, "epochs"}, // with a rate, epochs give ⌈epochs/q⌉ steps (issue 26)
		{DPSGD{SamplingRate: 2, Steps: 1, Noise: 1, Delta: 1e-5}, "sampling_rate"},
		{DPSGD{N: 10, Batch: 1, Epochs: -1, Noise: 1, Delta: 1e-5}, "epochs"},
		{DPSGD{N: 10, Batch: 1, Steps: 1, Delta: 1e-5}, "noise"},
		{DPSGD{N: 10, Batch: 1, Steps: 1, Noise: 1, Delta: 1}, "delta"},
		// fixed-size batches: add/remove has no pair; RDP has no bound
		{DPSGD{N: 10, Batch: 1, Steps: 1, Noise: 1, Delta: 1e-5, Sampling: dp.WithoutReplacement}, "sampling"},
	} {
		_, err := b.d.Account()
		if fe, ok := field.As(err); !ok || fe.Field != b.field {
			t.Errorf("%+v: %v, want a field error on %s", b.d, err, b.field)
		}
	}
}

// Fixed-size batches of the whole data set are the full batch: RDP
// accounts them (as q = 1); Rate refuses fixed-size without replace-one.
func TestDPSGDFixedSizeFullBatch(t *testing.T) {
	d := DPSGD{N: 10, Batch: 10, Steps: 3, Noise: 2, Delta: 1e-5, Sampling: dp.WithoutReplacement, Neighbours: dp.ReplaceOne}
	r, err := d.Account()
	d.Sampling = dp.Poisson
	p, _ := d.Account()
	if err != nil || r.Epsilon != p.Epsilon {
		t.Errorf("γ = 1: %+v %v, Poisson %v", r, err, p.Epsilon)
	}
	if _, _, err := (DPSGD{SamplingRate: 0.1, Steps: 1, Sampling: dp.WithoutReplacement}).Rate(); err == nil {
		t.Error("Rate accepted fixed-size add/remove")
	}
}

func TestPointConversion(t *testing.T) {
	// Improved conversion written out (Canonne–Kamath–Steinke 2020, Prop. 12).
	a, e, d := 10.0, 0.5, 1e-5
	want := e + math.Log((a-1)/a) - (math.Log(d)+math.Log(a))/(a-1)
	r, err := PointToEpsilon(a, e, d)
	if err != nil || math.Abs(float64(r.Epsilon)-want) > 1e-12 || r.ClassicEpsilon < r.Epsilon {
		t.Errorf("point → ε: %+v, want %v", r, want)
	}
	back, _ := PointToDelta(a, e, float64(r.Epsilon))
	if float64(back.Delta) > d*(1+1e-9) {
		t.Errorf("round trip δ = %v > %v", back.Delta, d)
	}
	if _, err := PointToEpsilon(1, 1, 0.1); err == nil {
		t.Error("order 1 accepted")
	}
}

// The RDP accountant's ε of a DP-SGD run: one sound bound, not the
// tightest (composition.Tightest gives 2.38178 for this run, the smaller of
// this and the PLD's bound; see composition's ExampleTightest).
func ExampleAccountant() {
	e := dp.DPSGD(256.0/60000, 1.1, 14063, dp.Poisson)
	g, _ := Accountant{}.Epsilon(e, dp.AddRemove, 1e-5)
	fmt.Println(g.Accountant, g.Epsilon)
	// Output: rdp 2.59665
}
