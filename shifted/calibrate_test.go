package shifted

import (
	"errors"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

func worstEpsilon(t *testing.T, r Training, sigma float64) float64 {
	t.Helper()
	r.Sigma = sigma
	g, err := r.Guarantee()
	if err != nil {
		t.Fatal(err)
	}
	e, err := indexEpsilon(g, WorstIndex(g), r.Delta)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestCalibrateSigmaWorst: the calibrated σ meets the worst-case target and
// is the smallest that does (1e-6 below it misses), and it agrees with an
// independent closed form: the last index of convex single-pass PNSGD sees
// one noisy step of sensitivity 2ηL against noise ησ, a Gaussian mechanism
// with RDP curve α·2L²/σ² (FMTT18 Thm 23 at t = n).
func TestCalibrateSigmaWorst(t *testing.T) {
	r := Training{Variant: VariantPNSGD, N: 1000, Delta: 1e-5, Loss: Loss{Lipschitz: 1, Smoothness: 1, Eta: 0.5}}
	for _, target := range []float64{0.3, 1, 4} {
		s, err := r.CalibrateSigma(target, nil)
		if err != nil {
			t.Fatal(err)
		}
		if e := worstEpsilon(t, r, s); e > target {
			t.Errorf("target %v: ε = %v at the calibrated σ = %v", target, e, s)
		}
		if e := worstEpsilon(t, r, s*(1-1e-6)); e <= target {
			t.Errorf("target %v: σ = %v is not the smallest (ε = %v just below it)", target, s, e)
		}
		dp, err := rdp.EpsilonFor(rdp.Linear(2/(s*s)), r.Delta, rdp.Improved)
		if err != nil || dp.Epsilon > target || dp.Epsilon < target*(1-1e-5) {
			t.Errorf("target %v: closed-form ε at σ = %v is %v (%v)", target, s, dp.Epsilon, err)
		}
	}
}

// TestCalibrateSigmaPerIndex: a per-index target alone, and with a worst
// case; each calibrated σ meets every target given.
func TestCalibrateSigmaPerIndex(t *testing.T) {
	r := Training{Variant: VariantSkip, N: 500, Sigma: 2, Delta: 1e-6, Loss: Loss{Lipschitz: 1, Smoothness: 2, Eta: 0.5}}
	per := map[int64]float64{1: 0.05, 250: 0.2}
	s, err := r.CalibrateSigma(-1, per)
	if err != nil {
		t.Fatal(err)
	}
	r.Sigma = s
	g, _ := r.Guarantee()
	for i, want := range per {
		if e, _ := indexEpsilon(g, i, r.Delta); e > want {
			t.Errorf("index %d: ε = %v > %v at σ = %v", i, e, want, s)
		}
	}
	s2, err := r.CalibrateSigma(0.01, per)
	if err != nil || s2 < s || worstEpsilon(t, r, s2) > 0.01 {
		t.Errorf("with a worst-case target 0.01: σ = %v (per-index alone %v), %v", s2, s, err)
	}
}

// TestCalibrateSigmaErrors: an invalid run is a *dp.Error naming the field.
func TestCalibrateSigmaErrors(t *testing.T) {
	var fe *dp.Error
	r := Training{Variant: VariantPNSGD, N: 0, Delta: 1e-5, Loss: Loss{Lipschitz: 1}}
	if _, err := r.CalibrateSigma(1, nil); !errors.As(err, &fe) || fe.Field != "n" {
		t.Errorf("n = 0: %v", err)
	}
}
