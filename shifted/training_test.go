package shifted

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

func baseTraining() Training {
	return Training{Variant: VariantPNSGD, N: 1000, Sigma: 2, Delta: 1e-5, Loss: Loss{Lipschitz: 1}}
}

func TestTrainingValidateNamesTheField(t *testing.T) {
	cases := []struct {
		edit  func(*Training)
		field string
	}{
		{func(r *Training) { r.Variant = "epochs" }, "variant"},
		{func(r *Training) { r.N = 0 }, "n"},
		{func(r *Training) { r.Sigma = math.NaN() }, "sigma"},
		{func(r *Training) { r.Delta = 1 }, "delta"},
		{func(r *Training) { r.Loss.Lipschitz = 0 }, "lipschitz"},
		{func(r *Training) { r.Loss.Smoothness, r.Loss.Eta = 1, 3 }, "eta"},
		{func(r *Training) { r.Loss.StrongConvexity = 1 }, "strong_convexity"},
		{func(r *Training) { r.Batch = 2000 }, "batch"},
		{func(r *Training) { r.Variant, r.Epochs = VariantSkip, 2 }, "epochs"},
		{func(r *Training) { r.Variant, r.Batch = VariantStop, 2 }, "batch"},
		{func(r *Training) { r.Tasks = 3 }, "tasks"},
		{func(r *Training) { r.Order, r.Epochs = Shuffled, 2 }, "order"},
		{func(r *Training) { r.Order = "random" }, "order"},
	}
	for _, c := range cases {
		r := baseTraining()
		c.edit(&r)
		err := r.Validate()
		var fe *dp.Error
		if !errors.As(err, &fe) {
			t.Errorf("%+v: want a *dp.Error, got %v", r, err)
			continue
		}
		if fe.Field != c.field {
			t.Errorf("%+v: field %q, want %q (%v)", r, fe.Field, c.field, err)
		}
		if strings.Contains(err.Error(), "--") {
			t.Errorf("library error names a flag: %v", err)
		}
	}
	if err := baseTraining().Validate(); err != nil {
		t.Fatal(err)
	}
}

// The one mapping from a run to its guarantee agrees with the guarantee
// types built by hand, for every variant.
func TestTrainingGuarantee(t *testing.T) {
	loss := Loss{Lipschitz: 1.5, Smoothness: 1, Eta: 0.5}
	cases := []struct {
		run  Training
		want PerPerson
	}{
		{Training{Variant: VariantPNSGD, N: 100, Public: 5, Batch: 4, Epochs: 3, Sigma: 2, Loss: loss, Delta: 1e-5},
			SGD{N: 100, Public: 5, Batch: 4, Epochs: 3, Sigma: 2, Loss: loss}},
		{Training{Variant: VariantSkip, N: 100, Sigma: 2, Loss: loss, Delta: 1e-5}, Skip{N: 100, Sigma: 2, Loss: loss}},
		{Training{Variant: VariantStop, N: 100, Sigma: 2, Loss: loss, Delta: 1e-5}, Stop{N: 100, Sigma: 2, Loss: loss}},
		{Training{Variant: VariantStop, N: 100, Tasks: 4, Sigma: 2, Loss: loss, Delta: 1e-5},
			Tasks{Stop: Stop{N: 100, Sigma: 2, Loss: loss}, K: 4}},
	}
	for _, c := range cases {
		g, err := c.run.Guarantee()
		if err != nil {
			t.Fatal(err)
		}
		for _, idx := range []int64{1, 37, 100} {
			for _, a := range []float64{1.5, 4, 32} {
				if got, want := g.Curve(idx).Epsilon(a), c.want.Curve(idx).Epsilon(a); got != want {
					t.Errorf("%s index %d α %g: %g, want %g", c.run.Name(), idx, a, got, want)
				}
			}
		}
	}
	// Skip with public records: the mixture runs over all N + Public
	// positions, and only the private ones are indices.
	r := Training{Variant: VariantSkip, N: 90, Public: 10, Sigma: 2, Loss: loss, Delta: 1e-5}
	g, err := r.Guarantee()
	if err != nil {
		t.Fatal(err)
	}
	full := Skip{N: 100, Sigma: 2, Loss: loss}
	if g.Len() != 90 || g.Curve(90).Epsilon(3) != full.Curve(90).Epsilon(3) {
		t.Errorf("public records: Len %d, ε_90(3) = %g, want %g", g.Len(), g.Curve(90).Epsilon(3), full.Curve(90).Epsilon(3))
	}
	if !strings.Contains(g.Source(), "Cor 31") {
		t.Errorf("source %q does not cite Cor 31", g.Source())
	}
}

// Composition releases every iterate: E passes of each of k tasks compose.
func TestTrainingComposition(t *testing.T) {
	r := Training{Variant: VariantStop, N: 100, Tasks: 3, Sigma: 2, Loss: Loss{Lipschitz: 1}, Delta: 1e-5}
	want := 3 * 2.0 / 4 // k·2L²/σ²
	if got := math.Exp(r.Composition().LogRho(50)); math.Abs(got/want-1) > 1e-14 {
		t.Errorf("ρ = %g, want %g", got, want)
	}
	// The composition bound needs no contraction: it holds when η > 2/β.
	r.Loss = Loss{Lipschitz: 1, Smoothness: 1, Eta: 5}
	if err := r.Composition().Check(); err != nil {
		t.Errorf("composition refused a non-contractive step: %v", err)
	}
	if _, err := r.Guarantee(); err == nil {
		t.Error("amplification accepted η > 2/β")
	}
}
