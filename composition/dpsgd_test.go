package composition

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// Issue 10: at q = 1 DP-SGD is the plain Gaussian mechanism, and its exact
// profile is the headline (4.377 at z = 1, one step, δ = 1e-5) instead of
// RDP's 4.728. Fails on the old code, which had only the RDP value.
func TestDPSGDFullBatch(t *testing.T) {
	r, err := DPSGD(rdp.DPSGD{SamplingRate: 1, Steps: 1, Noise: 1, Delta: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	if e := float64(r.Epsilon); math.Abs(e-4.377) > 5e-4 || r.Method != "analytic-gaussian" {
		t.Errorf("q = 1, z = 1, T = 1: ε = %v (%s), want 4.377 exact", e, r.Method)
	}
	if e := float64(r.RDPEpsilon); math.Abs(e-4.728) > 5e-4 {
		t.Errorf("RDP beside: %v, want 4.728", e)
	}
	// Independent check: the exact Gaussian of composition's own mechanism,
	// and Balle–Wang's δ(ε) evaluated at the headline ε by the textbook
	// formula with math.Erfc: Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) ≤ δ.
	g, _ := GaussianMechanism{Sigma: 1, Sensitivity: 1, Compositions: 1, Delta: 1e-5}.Account()
	if g.Epsilon != r.Epsilon {
		t.Errorf("DPSGD %v, GaussianMechanism %v", r.Epsilon, g.Epsilon)
	}
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	e := float64(r.Epsilon)
	if d := phi(-e+0.5) - math.Exp(e)*phi(-e-0.5); d > 1e-5*(1+1e-9) || d < 0.999e-5 {
		t.Errorf("δ(%v) = %v, want just below 1e-5", e, d)
	}
	// T steps compose to μ = √T/z: 100 steps at z = 10 are one step at z = 1.
	many, _ := DPSGD(rdp.DPSGD{N: 500, Batch: 500, Steps: 100, Noise: 10, Delta: 1e-5})
	if math.Abs(float64(many.Epsilon-r.Epsilon)) > 1e-9 || float64(many.Mu) != 1 {
		t.Errorf("100 steps at z = 10: %v (μ %v), want %v", many.Epsilon, many.Mu, r.Epsilon)
	}
	// Replace-one: sensitivity 2, μ = 2/z.
	ro, _ := DPSGD(rdp.DPSGD{SamplingRate: 1, Steps: 1, Noise: 2, Delta: 1e-5, Neighbours: dp.ReplaceOne})
	if ro.Epsilon != r.Epsilon || !(ro.RDPEpsilon >= ro.Epsilon) {
		t.Errorf("replace-one at z = 2: %v (RDP %v), want %v", ro.Epsilon, ro.RDPEpsilon, r.Epsilon)
	}
	// Calibration at q = 1 is exact: the z found meets the target and is
	// below what RDP needs.
	cal, err := DPSGD(rdp.DPSGD{SamplingRate: 1, Steps: 10, Delta: 1e-5, Calibrate: true, TargetEpsilon: 2})
	if err != nil || cal.Epsilon > 2 || !cal.Calibrated {
		t.Fatalf("calibrate: %+v %v", cal, err)
	}
	viaRDP, _ := rdp.DPSGD{SamplingRate: 1, Steps: 10, Delta: 1e-5, Calibrate: true, TargetEpsilon: 2}.Account()
	if !(cal.NoiseMultiplier < viaRDP.NoiseMultiplier) {
		t.Errorf("exact z %v not below RDP's %v", cal.NoiseMultiplier, viaRDP.NoiseMultiplier)
	}
	// Below q = 1 nothing changes; bad input is still a field error.
	sub, _ := DPSGD(rdp.DPSGD{N: 60000, Batch: 256, Epochs: 60, Noise: 1.1, Delta: 1e-5})
	want, _ := rdp.DPSGD{N: 60000, Batch: 256, Epochs: 60, Noise: 1.1, Delta: 1e-5}.Account()
	if !reflect.DeepEqual(sub.DPSGDResult, want) || sub.RDPEpsilon != 0 {
		t.Errorf("q < 1: %+v, want rdp's %+v", sub, want)
	}
	for _, b := range []struct {
		d     rdp.DPSGD
		field string
	}{
		{rdp.DPSGD{SamplingRate: 1, Steps: 1, Delta: 1e-5}, "noise"},
		{rdp.DPSGD{SamplingRate: 1, Steps: 1, Noise: 1, Delta: 2}, "delta"},
		{rdp.DPSGD{SamplingRate: 1, Steps: 1, Delta: 1e-5, Calibrate: true}, "target_epsilon"},
		{rdp.DPSGD{SamplingRate: 1, Noise: 1, Delta: 1e-5}, "steps"},
	} {
		if _, err := DPSGD(b.d); func() bool { fe, ok := field.As(err); return !ok || fe.Field != b.field }() {
			t.Errorf("%+v: %v, want a field error on %s", b.d, err, b.field)
		}
	}
}

func ExampleDPSGD() {
	r, _ := DPSGD(rdp.DPSGD{SamplingRate: 1, Steps: 1, Noise: 1, Delta: 1e-5})
	fmt.Println(r.Epsilon, r.Method, "RDP:", r.RDPEpsilon)
	// Output: 4.37718 analytic-gaussian RDP: 4.72839
}
