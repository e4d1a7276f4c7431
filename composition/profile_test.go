package composition

import (
	"math"
	"testing"

	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// A Gaussian run's δ(ε) by the accountants is never below the exact
// profile's (Balle–Wang 2018) and within the PLD's grid error of it.
func TestProfileAgainstExactGaussian(t *testing.T) {
	e := dp.SelfComposed{Event: dp.Gaussian{NoiseMultiplier: 2}, Count: 9} // μ = 3/2
	at, tol, t0 := 1.5, 1.01, Tightest()
	if testing.Short() {
		tol, t0 = math.Inf(1), Tight{Only: AccountRDP} // soundness only, without the PLD's grid
	}
	p, err := t0.Profile(e, dp.AddRemove, 1e-5, ProfileQuery{At: &at, Curve: true})
	if err != nil {
		t.Fatal(err)
	}
	ex := ExactGaussianProfile(1.5, 0, ProfileQuery{At: &at})
	if p.AtEpsilon == nil || len(p.Curve) != CurvePoints+1 || ex.AtEpsilon == nil {
		t.Fatalf("profile %+v", p)
	}
	for _, d := range append([]DeltaAt{*p.AtEpsilon}, p.Curve...) {
		exact := GaussianDelta(1.5, float64(d.Epsilon))
		if got := float64(d.Delta); got < exact || got > exact*tol+1e-12 {
			t.Errorf("δ(%v) = %v, exact %v", d.Epsilon, got, exact)
		}
	}
	if float64(ex.AtEpsilon.Delta) != GaussianDelta(1.5, at) {
		t.Errorf("exact profile %v", ex.AtEpsilon.Delta)
	}
}

// δ at the headline ε of a DP-SGD run is δ again, to the accountant's
// precision: the two sides of one accounting (DPSGDProfile); the profile
// is computed in the same accounting, so the headline is unchanged.
func TestDPSGDProfileRoundTrip(t *testing.T) {
	d := rdp.DPSGD{SamplingRate: 0.01, Steps: 200, Noise: 1, Delta: 1e-5, Sampling: dp.Poisson}
	acc := AccountBest
	if testing.Short() {
		acc = AccountRDP // the same path, without the PLD's grids
	}
	plain, err := DPSGDWith(d, acc)
	if err != nil {
		t.Fatal(err)
	}
	eps := float64(plain.Epsilon)
	res, err := DPSGDProfile(d, acc, ProfileQuery{At: &eps, Curve: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Epsilon != plain.Epsilon || res.Profile == nil || res.AtEpsilon == nil {
		t.Fatalf("ε %v (plain %v), profile %+v", res.Epsilon, plain.Epsilon, res.Profile)
	}
	if got := float64(res.AtEpsilon.Delta); got > 1e-5*1.001 || got < 1e-5*0.9 {
		t.Errorf("δ at the headline ε %v = %v, want about 1e-5", eps, got)
	}
	prev := math.Inf(1)
	for _, c := range res.Curve { // δ(ε) falls as ε grows
		if float64(c.Delta) > prev {
			t.Errorf("δ(%v) = %v above δ at a smaller ε (%v)", c.Epsilon, c.Delta, prev)
		}
		prev = float64(c.Delta)
	}
}

// k pure ε₀-DP mechanisms: compose's δ(ε) is at least the exact δ of the
// optimal composition (Kairouz–Oh–Viswanath 2015), i.e. the optimal ε at
// that δ is at most the ε asked.
func TestComposeProfileAgainstOptimal(t *testing.T) {
	at, target := 2.0, 1e-5
	c, err := Compose(Query{Epsilon: 0.3, Compositions: 20, TargetDelta: &target, Profile: ProfileQuery{At: &at}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Profile == nil || c.AtEpsilon == nil {
		t.Fatalf("no profile: %+v", c.Profile)
	}
	d := float64(c.AtEpsilon.Delta)
	opt, err := OptimalEpsilon(0.3, 0, 20, d)
	if err != nil {
		t.Fatal(err)
	}
	if opt > at*(1+1e-9) || opt < at*0.99 {
		t.Errorf("δ(2) = %v, at which the optimal ε is %v", d, opt)
	}
	// A filter has no δ at a given ε: refused, not ignored.
	te := 1.0
	dp2 := 1e-6
	_, err = Compose(Query{Method: "filter", List: []dp.Guarantee{{Epsilon: 0.1}, {Epsilon: 0.2}}, DeltaPrime: &dp2, TargetDelta: &target, TargetEpsilon: &te, Profile: ProfileQuery{At: &at}})
	if fe, ok := field.As(err); !ok || fe.Field != "at_epsilon" {
		t.Errorf("filter with --at-epsilon: %v", err)
	}
}

func TestProfileQueryFlag(t *testing.T) {
	var q ProfileQuery
	for _, bad := range []string{"-1", "NaN", "Inf", "x", "-0.5"} {
		if err := q.Set(bad); err == nil || q.At != nil {
			t.Errorf("Set(%q): %v", bad, err)
		}
	}
	if err := q.Set("0.5"); err != nil || q.At == nil || *q.At != 0.5 || q.String() != "0.5" || !q.Asked() {
		t.Errorf("Set(0.5): %v %+v", err, q)
	}
	if xs := CurveEpsilons(math.Inf(1)); len(xs) != CurvePoints+1 || xs[0] != 0 || xs[CurvePoints] != 10 {
		t.Errorf("grid without a finite ε: %v", xs)
	}
	if (ProfileQuery{}).Split([]DeltaAt{{}}) != nil {
		t.Error("a query that asks nothing has a profile")
	}
}
