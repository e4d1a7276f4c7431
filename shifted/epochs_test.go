package shifted

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/rdp"
)

// TestBurnInDefinition checks the c = 1 burn-in against its definition over
// every pass count up to far past it: after BurnIn passes ε varies by at most
// 1%, and one pass earlier it does not.
func TestBurnInDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 4))
	seen := 0
	for trial := 0; trial < 40; trial++ {
		tr := Training{Variant: VariantPNSGD, N: 1 + r.Int64N(30), Sigma: 0.3 + 3*r.Float64(), Delta: 1e-5,
			Radius: math.Exp(3 * r.Float64()), Loss: Loss{Lipschitz: 1, Eta: 0.05 + 0.5*r.Float64()}}
		for _, t0 := range []int64{1, tr.N} {
			burn, exact, lim := domainBurnIn(tr, t0, []int64{1}, rdp.Improved)
			if !exact {
				t.Fatal("c = 1 must be exact")
			}
			const far = 3000
			eps := make([]float64, far+1)
			for E := int64(1); E <= far; E++ {
				tr.Epochs = E
				g, err := tr.Guarantee()
				if err != nil {
					t.Fatal(err)
				}
				dp, _ := Epsilon(g, t0, tr.Delta, rdp.Improved)
				eps[E] = dp.Epsilon
			}
			if !relClose(eps[far], lim, 1e-9) {
				t.Fatalf("limit %g, ε after %d passes %g", lim, far, eps[far])
			}
			spread := func(from int64) float64 {
				hi, lo := 0.0, math.Inf(1)
				for E := from; E <= far; E++ {
					hi, lo = math.Max(hi, eps[E]), math.Min(lo, eps[E])
				}
				return hi / lo
			}
			if burn < 1 || burn > far/2 || spread(burn) > 1.01*(1+1e-9) {
				t.Fatalf("trial %d index %d: burn-in %d, spread after it %g", trial, t0, burn, spread(burn))
			}
			if burn > 1 {
				seen++
				if spread(burn-1) <= 1.01 {
					t.Fatalf("trial %d index %d: burn-in %d is not the smallest (spread from %d: %g)", trial, t0, burn, burn-1, spread(burn-1))
				}
			}
		}
	}
	if seen < 10 {
		t.Fatalf("only %d burn-ins above 1 pass", seen)
	}
}

func TestEpsilonByEpochs(t *testing.T) {
	tr := Training{Variant: VariantPNSGD, N: 200, Sigma: 2, Delta: 1e-5, Radius: 1, Loss: Loss{Lipschitz: 1, Eta: 0.05}}
	c, err := EpsilonByEpochs(tr, LogSpacedEpochs(1000, 8), rdp.Improved, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.BurnIn <= 1 || c.LimitEpsilon == nil || c.Points[0].Sampling == nil {
		t.Fatalf("%+v", c)
	}
	for _, p := range c.Points {
		if p.Domain == nil || *p.Domain > p.FMTT18 {
			t.Fatalf("%+v", p)
		}
		if p.Epochs >= c.BurnIn && float64(*p.Domain) > 1.01*float64(*c.LimitEpsilon) {
			t.Fatalf("after the burn-in: %+v, limit %v", p, *c.LimitEpsilon)
		}
	}
	last := c.Points[len(c.Points)-1]
	if !(last.FMTT18 > 2**last.Domain) {
		t.Fatalf("FMTT18 should keep growing: %+v", last)
	}
	// Without a radius: FMTT18 only, and a null domain column.
	tr.Radius = 0
	c, err = EpsilonByEpochs(tr, []int64{1, 10}, rdp.Improved, false)
	if err != nil || c.Points[1].Domain != nil || c.BurnIn != 0 || c.Points[0].Sampling != nil {
		t.Fatalf("%+v %v", c, err)
	}
	var fe *dp.Error
	if _, err := EpsilonByEpochs(tr, []int64{10, 5}, rdp.Improved, false); !errors.As(err, &fe) || fe.Field != "epochs" {
		t.Fatalf("%v", err)
	}
	tr.Variant = VariantSkip
	if _, err := EpsilonByEpochs(tr, []int64{1}, rdp.Improved, false); !errors.As(err, &fe) || fe.Field != "variant" {
		t.Fatalf("%v", err)
	}
}
