package zcdp_test

import (
	"github.com/privamp/privamp/dp"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"testing"

	"github.com/privamp/privamp/internal/numeric/hp"
	"github.com/privamp/privamp/zcdp"
)

// deltaExactAt is the smaller of the δ's the improved conversion
// (α−1)(ρα − ε + ln(1 − 1/α)) − ln α and Bretagnolle–Huber
// √(1 − e^{−ρα}) give at the order α, capped at 1, in 200 bits.
func deltaExactAt(rho, eps, alpha float64) *big.Float {
	a := hp.New(alpha, prec)
	am1 := hp.Sub(prec, a, hp.New(1, prec))
	ra := hp.Mul(prec, hp.New(rho, prec), a)
	t2 := hp.Log(hp.Quo(prec, am1, a), prec)
	ld := hp.Sub(prec, hp.Mul(prec, am1, hp.Add(prec, hp.Sub(prec, ra, hp.New(eps, prec)), t2)), hp.Log(a, prec))
	if ra.Sign() > 0 {
		bh := hp.Quo(prec, hp.Log(hp.Neg(hp.Expm1(hp.Neg(ra), prec)), prec), hp.New(2, prec))
		if bh.Cmp(ld) < 0 {
			ld = bh
		}
	}
	if ld.Sign() > 0 {
		return hp.New(1, prec)
	}
	return hp.Exp(ld, prec)
}

// Issue 22 hole 7, the zCDP side: ρ-zCDP → δ at ε is never printed as 0
// where the bound is positive, and the δ printed (float64 and 6-digit
// text) is at least the exact bound at the order it reports.
func TestToDeltaRoundsUp(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewSource(7))
	tiny := 0
	for i := 0; i < n; i++ {
		rho := math.Pow(10, -8+9*rng.Float64())
		eps := math.Pow(10, -3+4.5*rng.Float64())
		r, err := zcdp.ToDelta(rho, eps)
		if err != nil {
			t.Fatal(err)
		}
		got := float64(r.Delta)
		want := deltaExactAt(rho, eps, float64(r.Order))
		p, _ := strconv.ParseFloat(dp.Loss(got).String(), 64)
		if got <= 0 || hp.New(got, prec).Cmp(want) < 0 || hp.New(p, prec).Cmp(want) < 0 {
			t.Errorf("ρ=%v ε=%v: δ = %v (printed %v) below the exact %.6g at α = %v", rho, eps, got, p, want, r.Order)
		}
		if got < 1e-300 {
			tiny++
		}
	}
	t.Logf("%d conversions, %d with δ < 1e-300", n, tiny)
}
