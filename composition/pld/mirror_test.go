package pld

import (
	"slices"
	"testing"
)

// TestMirroredTailsSameGrid: the add direction of the subsampled Gaussian,
// built from the remove direction's tails read backwards (mirrorTails),
// is the one its own tails give, bit for bit, on every discretization.
func TestMirroredTailsSameGrid(t *testing.T) {
	cases := [][2]float64{{256.0 / 60000, 1.1}, {0.01, 0.8}, {0.3, 2}, {0.9, 1}, {1e-4, 5}}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		for _, d := range []Discretization{ConnectDots, Pessimistic, Optimistic} {
			o, err := Options{Discretization: d}.tailFor(1000, 1e-6).withDefaults()
			if err != nil {
				t.Fatal(err)
			}
			var cache [2][]tl
			p, err := subsampledGaussian(c[0], c[1], o, &cache)
			if err != nil {
				t.Fatal(err)
			}
			if len(cache[1]) == 0 {
				t.Errorf("q %g z %g: the add table was not mirrored", c[0], c[1])
			}
			for _, w := range []struct {
				got *pmf
				l   sampledLoss
			}{{p.remove, sampledLoss{q: c[0], z: c[1]}}, {p.add, sampledLoss{q: c[0], z: c[1], add: true}}} {
				want, err := discretize(w.l, o, nil)
				if err != nil {
					t.Fatal(err)
				}
				g := w.got
				if g.lo != want.lo || !slices.Equal(g.p, want.p) || g.tail != want.tail || g.err1 != want.err1 || g.lnR != want.lnR {
					t.Errorf("q %g z %g %v add=%v: lo %d/%d, %d/%d points, tail %g/%g, err1 %g/%g, lnR %g/%g",
						c[0], c[1], d, w.l.add, g.lo, want.lo, len(g.p), len(want.p), g.tail, want.tail, g.err1, want.err1, g.lnR, want.lnR)
				}
			}
		}
	}
}
