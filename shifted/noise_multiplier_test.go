package shifted

import (
	"math/rand/v2"
	"testing"
)

// SigmaFor never gives more noise than the noise multiplier stated: the σ
// it returns has NoiseMultiplier ≤ z, within a few ulps below (issue 27).
func TestSigmaForNeverAddsNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		z := 0.1 + 20*rng.Float64()
		r := Training{Batch: 1 + rng.Int64N(5000), Loss: Loss{Lipschitz: 0.01 + 10*rng.Float64()}}
		r.Sigma = r.SigmaFor(z)
		if got := r.NoiseMultiplier(); got > z || got < z*(1-1e-14) {
			t.Fatalf("b = %d, L = %v, z = %v: σ = %v gives z = %v", r.Batch, r.Loss.Lipschitz, z, r.Sigma, got)
		}
	}
	r := Training{Batch: 256, Sigma: 1.1, Loss: Loss{Lipschitz: 1}}
	if !r.LikelyNoiseMultiplier() || r.NoiseForms() != "σ = 1.1 (noise multiplier z = bσ/L = 281.6)" {
		t.Errorf("%v %q", r.LikelyNoiseMultiplier(), r.NoiseForms())
	}
	if r.Sigma = r.SigmaFor(1.1); r.LikelyNoiseMultiplier() {
		t.Error("z = 1.1 flagged as a likely noise multiplier")
	}
}
