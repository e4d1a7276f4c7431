package composition

import (
	"fmt"
	"math"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// gaussDelta is the analytic Gaussian profile (Balle–Wang 2018, Thm 8),
// written here independently with math.Erfc.
func gaussDelta(mu, eps float64) float64 {
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	return phi(mu/2-eps/mu) - math.Exp(eps)*phi(-mu/2-eps/mu)
}

func TestGaussianMechanismExact(t *testing.T) {
	cases := []struct{ sigma, k, delta float64 }{{10, 100, 1e-6}, {2, 1, 1e-5}, {0.8, 10, 1e-3}, {5, 1000, 1e-9}}
	if testing.Short() {
		cases = cases[:3] // the 1000-fold composition at δ = 1e-9 is make test's
	}
	for _, c := range cases {
		r, err := GaussianMechanism{Sigma: c.sigma, Sensitivity: 1, Compositions: c.k, Delta: c.delta}.Account()
		if err != nil {
			t.Fatal(err)
		}
		mu := math.Sqrt(c.k) / c.sigma
		e := float64(r.Epsilon)
		// δ(ε) ≤ δ at the reported ε, and slightly below ε it exceeds δ.
		if d := gaussDelta(mu, e); d > c.delta*(1+1e-9) {
			t.Errorf("%+v: δ(ε = %v) = %v > δ", c, e, d)
		}
		if d := gaussDelta(mu, e*(1-1e-6)); d <= c.delta {
			t.Errorf("%+v: ε = %v is not the smallest (δ(0.999999ε) = %v)", c, e, d)
		}
		if r.RDPEpsilon < r.Epsilon || r.ZCDPEpsilon < r.RDPEpsilon {
			t.Errorf("%+v: exact %v, rdp %v, zcdp %v out of order", c, r.Epsilon, r.RDPEpsilon, r.ZCDPEpsilon)
		}
	}
	r, err := GaussianMechanism{Sensitivity: 1, Compositions: 7, Delta: 1e-5, Calibrate: true, TargetEpsilon: 1}.Account()
	if err != nil || r.Epsilon > 1 || gaussDelta(math.Sqrt(7)/float64(r.Sigma), 1) > 1e-5 || !(r.RDPSigma > r.Sigma) {
		t.Errorf("calibrated: %+v, %v", r, err)
	}
	_, err = GaussianMechanism{Sigma: 1, Sensitivity: 1, Compositions: 2.5, Delta: 1e-5}.Account()
	if fe, ok := field.As(err); !ok || fe.Field != "compositions" {
		t.Errorf("k = 2.5: %v", err)
	}
}

func TestLaplaceMechanism(t *testing.T) {
	// One release of scale Δ/ε is ε-DP exactly: basic and optimal agree.
	r, err := LaplaceMechanism{Scale: 2, Sensitivity: 1, Compositions: 1, Delta: 1e-6, Conversion: rdp.Improved}.Account()
	if err != nil || r.BasicEpsilon != 0.5 || r.Epsilon > 0.5 || r.Epsilon < 0.4999 {
		t.Errorf("k = 1: %+v %v", r, err)
	}
	// Many releases: the chosen ε is the smallest of the three.
	r, _ = LaplaceMechanism{Scale: 10, Sensitivity: 1, Compositions: 100, Delta: 1e-6, Conversion: rdp.Improved}.Account()
	if r.Epsilon > r.BasicEpsilon || r.Epsilon > r.RDPEpsilon || r.Epsilon > r.OptimalEpsilon || r.Method == "basic" {
		t.Errorf("k = 100: %+v", r)
	}
	c, _ := LaplaceMechanism{Sensitivity: 1, Compositions: 100, Delta: 1e-6, Calibrate: true, TargetEpsilon: 1, Conversion: rdp.Improved}.Account()
	back, _ := LaplaceMechanism{Scale: float64(c.Scale), Sensitivity: 1, Compositions: 100, Delta: 1e-6, Conversion: rdp.Improved}.Account()
	if back.Epsilon > 1 || c.CalibratedBy == "" {
		t.Errorf("calibrated b = %v recomputes to %v (%s)", c.Scale, back.Epsilon, c.CalibratedBy)
	}
	_, err = LaplaceMechanism{Sensitivity: 1, Compositions: 1, Delta: 1e-6, Calibrate: true}.Account()
	if fe, ok := field.As(err); !ok || fe.Field != "target_epsilon" {
		t.Errorf("target 0: %v", err)
	}
}

func f64(x float64) *float64 { return &x }

func TestCompose(t *testing.T) {
	c, err := Compose(Query{Epsilon: 0.1, Compositions: 100, TargetDelta: f64(1e-5)})
	want, _ := Best(0.1, 0, 100, 1e-5)
	if err != nil || c.Epsilon != want.Epsilon || c.Method != want.Method || len(c.Methods) != 4 {
		t.Errorf("best: %+v, want %+v (%v)", c, want, err)
	}
	// The filter's closed form, written out: √(2 ln(1/δ') Σε²) + ½Σε².
	c, _ = Compose(Query{Method: "filter", List: []dp.Guarantee{gd(0.1, 0), gd(0.2, 0), gd(0.3, 1e-7)}, DeltaPrime: f64(1e-5)})
	sq := 0.01 + 0.04 + 0.09
	if e := math.Sqrt(2*math.Log(1e5)*sq) + sq/2; math.Abs(float64(c.Epsilon)-e) > 1e-12*e || math.Abs(float64(c.Delta)-(1e-5+1e-7)) > 1e-18 {
		t.Errorf("filter: (%v, %v), want %v", c.Epsilon, c.Delta, e)
	}
	// The filter run halts at the third mechanism (Σε² = 0.11 gives 1.646 > 1).
	c, _ = Compose(Query{Method: "filter", List: []dp.Guarantee{gd(0.1, 0), gd(0.1, 1e-6), gd(0.3, 0), gd(0.05, 0)}, TargetEpsilon: f64(1), DeltaPrime: f64(1e-5), TargetDelta: f64(2e-5)})
	if c.FilterRun == nil || c.Allowed != 2 || !c.Halted || c.Steps[2].Allowed || !c.Steps[3].Halted {
		t.Errorf("filter run: %+v", c.FilterRun)
	}
	for _, b := range []struct {
		q     Query
		field string
	}{
		{Query{Method: "magic", Epsilon: 1, Compositions: 2}, "method"},
		{Query{Epsilon: -1, Compositions: 2}, "epsilon"},
		{Query{Epsilon: 1, Compositions: 0}, "compositions"},
		{Query{Epsilon: 1, Compositions: 2, Delta: 1}, "delta"},
		{Query{Method: "optimal", Epsilon: 1, Compositions: 10}, "target_delta"},
		{Query{Method: "advanced", Epsilon: 1, Compositions: 10}, "delta_prime"},
		{Query{Method: "advanced", List: []dp.Guarantee{gd(1, 0)}}, "method"},
		{Query{List: []dp.Guarantee{gd(1, 2)}}, "guarantees"},
		{Query{Epsilon: 0.1, Compositions: 10, Delta: 0.09, DeltaPrime: f64(0.5)}, "delta_prime"},
		{Query{Epsilon: 0.1, Compositions: 10, Delta: 0.1, TargetDelta: f64(0.5)}, "target_delta"},
		{Query{Epsilon: 1, Compositions: 2, TargetEpsilon: f64(1), TargetDelta: f64(1e-5)}, "target_epsilon"},
	} {
		_, err := Compose(b.q)
		if fe, ok := field.As(err); !ok || fe.Field != b.field {
			t.Errorf("%+v: %v, want a field error on %s", b.q, err, b.field)
		}
	}
}

func ExampleCompose() {
	target := 1e-5
	c, _ := Compose(Query{Epsilon: 0.1, Compositions: 100, TargetDelta: &target})
	fmt.Println(c.Method, c.Epsilon)
	for _, m := range c.Methods {
		fmt.Println(m.Name, m.Epsilon)
	}
	// Output:
	// optimal 4.3068
	// basic 10
	// advanced 5.85024
	// filter 5.29853
	// optimal 4.3068
}

func ExampleGaussianMechanism_Account() {
	r, _ := GaussianMechanism{Sigma: 10, Sensitivity: 1, Compositions: 100, Delta: 1e-6}.Account()
	fmt.Println(r.Mu, r.Epsilon, r.RDPEpsilon)
	// Output: 1 4.88656 5.22154
}

func ExampleLaplaceMechanism_Account() {
	r, _ := LaplaceMechanism{Scale: 10, Sensitivity: 1, Compositions: 100, Delta: 1e-6}.Account()
	fmt.Println(r.Method, r.Epsilon, r.BasicEpsilon)
	// Output: pld 4.69267 10
}
