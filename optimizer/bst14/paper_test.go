package bst14

import (
	"math"
	"testing"
)

// Theorem 2.1's σ and the paper's own proof chain at the test vectors of
// docs/seeds.md#seed-001-test-vectors and #seed-001-noisy-sgd-noise-rule.
func TestSGDPaperSigma(t *testing.T) {
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol*math.Abs(want) {
			t.Errorf("%s = %.10g, want %.10g (rel tol %g)", name, got, want, tol)
		}
	}
	for _, c := range []struct{ n, eps, delta, s2, s, z float64 }{
		{1000, 1, 1e-5, 6.786430e9, 82379.7887, 41.18989},
		{100, 0.5, 1e-4, 1.628743e8, 12762.2220, 63.81111},
		{1e4, 1, 1e-6, 1.017964e12, 1008942.237, 50.44711},
	} {
		s := SGDPaperSigma(c.n, c.eps, c.delta, 1)
		near("σ²", s*s, c.s2, 1e-6)
		near("σ", s, c.s, 1e-8)
		near("z", s/(2*c.n), c.z, 1e-6)
	}
	near("paper chain", SGDPaperChain(1000, 1, 1e-5), 1.543035, 1e-6)
}
