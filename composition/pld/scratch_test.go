package pld

import (
	"testing"
	"time"
	"github.com/privamp/privamp/composition"
)

func TestScratch(t *testing.T) {
	for _, d := range []Discretization{ConnectDots, Pessimistic, Optimistic} {
		p, err := Gaussian(1, 2, Options{Discretization: d})
		if err != nil { t.Fatal(err) }
		e, _ := p.Epsilon(1e-5)
		g, _ := composition.GaussianEpsilon(0.5, 1e-5)
		t.Logf("%v single: %v exact %v n=%d", d, e, g, p.Len())
		pk, err := p.SelfCompose(100)
		if err != nil { t.Fatal(err) }
		e, _ = pk.Epsilon(1e-5)
		g, _ = composition.GaussianEpsilon(5, 1e-5)
		t.Logf("%v k=100: %v exact %v n=%d tail %g err %g", d, e, g, pk.Len(), pk.remove.tail, pk.remove.errL2)
	}
	t0 := time.Now()
	r, err := DPSGD(256.0/60000, 1.1, 14063, 1e-5, Options{})
	t.Logf("%+v %v %v", r, err, time.Since(t0))
	t0 = time.Now()
	r, err = DPSGD(256.0/60000, 1.1, 14063, 1e-5, Options{Discretization: Pessimistic})
	t.Logf("%+v %v %v", r, err, time.Since(t0))
}
