package shifted

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/privamp/privamp/rdp"
)

// TestEpsilonsAllParallelIsSerial: EpsilonsAll gives the same bits on one
// goroutine as on several, for random runs of every all-index path (the
// warm starts restart at fixed chunk boundaries). Before the chunks were
// fixed, the split followed GOMAXPROCS and the first index of each part
// could differ in its last bits.
func TestEpsilonsAllParallelIsSerial(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	span := int64(2 * allChunk) // n in (allChunk, 3·allChunk]: two or three chunks
	if testing.Short() {
		span = allChunk / 8 // two chunks, the second short
	}
	n := func() int64 { return allChunk + 1 + rng.Int64N(span) }
	sig := func() float64 { return 0.5 + 4*rng.Float64() }
	smooth := Loss{Lipschitz: 1, Smoothness: 1, StrongConvexity: 0.5, Eta: 0.5}
	gs := []PerPerson{
		SGD{N: n(), Sigma: sig(), Loss: Loss{Lipschitz: 1}},
		SGD{N: n(), Batch: 3, Epochs: 2, Sigma: sig(), Loss: Loss{Lipschitz: 2}},
		SGD{N: n(), Sigma: sig(), Loss: smooth},
		Domain{SGD: SGD{N: n(), Sigma: sig(), Loss: Loss{Lipschitz: 1, Eta: 1e-4}}, Radius: 1},
		Domain{SGD: SGD{N: n(), Epochs: 3, Sigma: sig(), Loss: Loss{Lipschitz: 1, Eta: 1e-3}}, Radius: 1},
		Domain{SGD: SGD{N: n(), Epochs: 2, Sigma: sig(), Loss: smooth}, Radius: 2},
		Stop{N: n(), Sigma: sig(), Loss: Loss{Lipschitz: 1}},
		Tasks{Stop: Stop{N: n(), Sigma: sig(), Loss: Loss{Lipschitz: 1}}, K: 3},
		Skip{N: n(), Sigma: sig(), Loss: Loss{Lipschitz: 1}},
	}
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	for _, g := range gs {
		runtime.GOMAXPROCS(1)
		serial, err := EpsilonsAll(g, 1e-6, rdp.Improved)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GOMAXPROCS(5)
		par, err := EpsilonsAll(g, 1e-6, rdp.Improved)
		if err != nil {
			t.Fatal(err)
		}
		for i := range serial {
			if math.Float64bits(serial[i]) != math.Float64bits(par[i]) {
				t.Fatalf("%T n = %d: index %d: serial %v, parallel %v", g, g.Len(), i+1, serial[i], par[i])
			}
		}
		// EpsilonsAllAt gives the same bits at chosen indices: both ends,
		// the chunks' edges, repeats, in any order.
		n := g.Len()
		ts := []int64{n, 1, allChunk, allChunk + 1, n - 1, 1 + rng.Int64N(n), 1 + rng.Int64N(n), n}
		at, err := EpsilonsAllAt(g, ts, 1e-6, rdp.Improved)
		if err != nil {
			t.Fatal(err)
		}
		for i, ti := range ts {
			if math.Float64bits(at[i]) != math.Float64bits(serial[ti-1]) {
				t.Fatalf("%T n = %d: EpsilonsAllAt at %d: %v, EpsilonsAll %v", g, n, ti, at[i], serial[ti-1])
			}
		}
	}
	if _, err := EpsilonsAllAt(gs[0], []int64{0}, 1e-6, rdp.Improved); err == nil {
		t.Error("EpsilonsAllAt accepted index 0")
	}
}

// TestBestWindow1OnePass: bestWindow1's shortcut for a single pass gives
// the bits of its candidate search, for random steps, positions and
// diameters (and r = 0, where no window exists).
func TestBestWindow1OnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 17))
	for k := 0; k < 200_000; k++ {
		M := 1 + rng.Int64N(1<<uint(1+rng.IntN(30)))
		r := rng.Int64N(M)
		if k%50 == 0 {
			r = 0
		}
		d := math.Exp(60 * (rng.Float64() - 0.5))
		u1, f1 := bestWindow1(1, M, r, d)
		u2, f2 := bestWindow1Search(1, M, r, d)
		if u1 != u2 || math.Float64bits(f1) != math.Float64bits(f2) {
			t.Fatalf("M = %d, r = %d, d = %v: shortcut (%d, %v), search (%d, %v)", M, r, d, u1, f1, u2, f2)
		}
	}
}

// EpsilonsAllProgress reports every index once and computes the same values.
func TestEpsilonsAllProgress(t *testing.T) {
	g := SGD{N: 3*allChunk + 17, Sigma: 2, Loss: Loss{Lipschitz: 1}}
	want, err := EpsilonsAll(g, 1e-6, rdp.Improved)
	if err != nil {
		t.Fatal(err)
	}
	var last, calls int64
	got, err := EpsilonsAllProgress(g, 1e-6, rdp.Improved, func(done, n int64) {
		if done <= last || n != g.N {
			t.Errorf("progress %d of %d after %d", done, n, last)
		}
		last, calls = done, calls+1
	})
	if err != nil || last != g.N || calls != 4 {
		t.Fatalf("progress ended at %d after %d calls (%v), want %d after 4", last, calls, err, g.N)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("index %d: %v, want %v", i+1, got[i], want[i])
		}
	}
}
