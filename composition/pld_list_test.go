package composition

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/privamp/privamp/dp"
)

// bruteDelta is the exact δ(ε) of the product of the guarantees' worst
// pairs, by enumerating all 4^n outcomes: the optimal composition of
// heterogeneous guarantees (Kairouz–Oh–Viswanath 2015, Thm 2.1).
func bruteDelta(gs []dp.Guarantee, eps float64) float64 {
	type pq struct{ p, q float64 }
	outs := []pq{{1, 1}}
	for _, g := range gs {
		p := 1 / (1 + math.Exp(-float64(g.Epsilon)))
		c := 1 - float64(g.Delta)
		pair := []pq{{float64(g.Delta), 0}, {c * p, c * (1 - p)}, {c * (1 - p), c * p}, {0, float64(g.Delta)}}
		next := make([]pq, 0, 4*len(outs))
		for _, o := range outs {
			for _, x := range pair {
				next = append(next, pq{o.p * x.p, o.q * x.q})
			}
		}
		outs = next
	}
	d := 0.0
	for _, o := range outs {
		d += math.Max(o.p-math.Exp(eps)*o.q, 0)
	}
	return d
}

func bruteEpsilon(gs []dp.Guarantee, delta float64) float64 {
	lo, hi := 0.0, 0.0
	for _, g := range gs {
		hi += float64(g.Epsilon)
	}
	for range 200 {
		mid := (lo + hi) / 2
		if bruteDelta(gs, mid) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// The PLD composition of heterogeneous guarantees is never below the exact
// optimum (brute force over all outcomes) and within 1e-3 of it.
func TestPLDListAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	trials := 12
	if testing.Short() {
		trials = 4 // 3 to 6 guarantees each, with and without δ
	}
	for trial := range trials {
		n := 3 + r.IntN(4)
		gs := make([]dp.Guarantee, n)
		for i := range gs {
			gs[i] = gd(0.05+1.5*r.Float64(), 0)
			if r.IntN(2) == 0 {
				gs[i].Delta = dp.Loss(math.Pow(10, -8+3*r.Float64()))
			}
		}
		target := 1e-4
		m := PLDList(gs, target)
		want := bruteEpsilon(gs, target)
		if !m.Valid {
			t.Fatalf("trial %d: %s", trial, m.Reason)
		}
		if e := float64(m.Epsilon); e < want-1e-9 || e > want+1e-3 {
			t.Errorf("trial %d %v: PLD ε = %.8g, exact %.8g", trial, gs, m.Epsilon, want)
		}
	}
}

// For equal guarantees the PLD agrees with the exact optimal composition
// (KOV 2015, Thm 3.3) and is never below it.
func TestPLDHomogeneousMatchesOptimal(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		k          int
	}{{0.1, 0, 100}, {0.5, 1e-7, 20}, {1, 0, 5}, {0.01, 1e-9, 1000}} {
		exact, err := OptimalEpsilon(c.eps, c.delta, c.k, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		m := pldGroups([]group{{pair{c.eps, c.delta}, c.k}}, 1e-5)
		if e := float64(m.Epsilon); !m.Valid || e < exact-1e-9 || e > exact*1.001+1e-4 {
			t.Errorf("%+v: PLD %v (valid %v), exact %v", c, m.Epsilon, m.Valid, exact)
		}
	}
}

// A list with the mechanisms' total δ above the target has no PLD bound.
func TestPLDListDeltaTooLarge(t *testing.T) {
	m := PLDList([]dp.Guarantee{gd(1, 1e-3), gd(1, 1e-3)}, 1e-4)
	if m.Valid {
		t.Fatalf("want invalid, got ε = %v", m.Epsilon)
	}
}

// Issue 23 item 8: with every δ 0 the reason was "the guarantees' total δ
// exceeds the target"; it is the PLD's own error bounds that do.
func TestPLDListReasonAtZeroDelta(t *testing.T) {
	m := PLDList([]dp.Guarantee{gd(0.1, 0), gd(0.1, 0)}, 1e-300)
	if m.Valid || strings.Contains(m.Reason, "exceeds") || !strings.Contains(m.Reason, "total δ (0) is below the target") {
		t.Errorf("δ = 0: valid %v, reason %q", m.Valid, m.Reason)
	}
	m = PLDList([]dp.Guarantee{gd(1, 1e-3), gd(1, 1e-3)}, 1e-4)
	if !strings.Contains(m.Reason, "total δ 0.002 is not below the target 0.0001") {
		t.Errorf("δ too large: %q", m.Reason)
	}
}
