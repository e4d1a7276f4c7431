package rdp

import (
	"github.com/privamp/privamp/dp"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"testing"

	"github.com/privamp/privamp/internal/numeric/hp"
)

// bigPointLogDelta is the exact ln δ that (α, ε(α))-RDP implies at ε by
// the conversion privamp prints: Improved (α−1)(ε(α) − ε + ln(1 − 1/α)) −
// ln α, lowered to ½ ln(1 − e^{−ε(α)}) by Bretagnolle–Huber; Classic
// (α−1)(ε(α) − ε); both capped at 0. rdp is exact (high precision).
func bigPointLogDelta(alpha float64, rdp *big.Float, eps float64, conv Conversion) *big.Float {
	P := uint(bigPrec)
	a := bf(alpha)
	am1 := hp.Sub(P, a, bf(1))
	d := hp.Sub(P, rdp, bf(eps))
	var ld *big.Float
	if conv == Classic {
		ld = hp.Mul(P, am1, d)
	} else {
		t2 := hp.Log(hp.Quo(P, am1, a), P)
		ld = hp.Sub(P, hp.Mul(P, am1, hp.Add(P, d, t2)), hp.Log(a, P))
		if rdp.Sign() > 0 {
			e := new(big.Float).Neg(hp.Expm1(new(big.Float).Neg(rdp), P)) // 1 − e^{−ε(α)}
			if bh := hp.Quo(P, hp.Log(e, P), bf(2)); bh.Cmp(ld) < 0 {
				ld = bh
			}
		}
	}
	if ld.Sign() > 0 {
		ld = bf(0)
	}
	return ld
}

// printed is the value a reader of the text output takes: the 6-digit
// string of the loss, parsed back.
func printed(t *testing.T, x float64) *big.Float {
	t.Helper()
	v, err := strconv.ParseFloat(dp.Loss(x).String(), 64)
	if err != nil {
		t.Fatalf("printed %v: %v", x, err)
	}
	return bf(v)
}

// Issue 22 hole 7: an RDP point → δ conversion printed δ = 0 (pure DP)
// where the true δ is about 10^−43438 (order 1000, ε(α) = 0.01, ε = 2; 6
// of 120 random cases). A sweep over random points, ε and δ: no printed δ
// is 0 where the exact one is positive, and every printed ε and δ (the
// float64 in JSON and the rounded text) is at least the exact value of the
// bound it names. The zCDP path (ToDelta's DeltaFor) is swept in zcdp.
func TestPointConversionsRoundUp(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewSource(22))
	logU := func(lo, hi float64) float64 { return math.Pow(10, lo+(hi-lo)*rng.Float64()) }
	underflows := 0
	for i := 0; i < n; i++ {
		alpha := 1 + logU(-3, 4)
		if i%4 == 0 {
			alpha = math.Round(alpha) + 1
		}
		rdpEps, eps, delta := logU(-6, 2), logU(-4, 1.5), logU(-300, -1)
		if i%10 == 0 {
			eps = 0
		}
		res, err := PointToDelta(alpha, rdpEps, eps)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			conv Conversion
			got  float64
		}{{Improved, float64(res.Delta)}, {Classic, float64(res.ClassicDelta)}} {
			want := hp.Exp(bigPointLogDelta(alpha, bf(rdpEps), eps, c.conv), bigPrec)
			if hp.Float64(want) == 0 {
				underflows++
			}
			if c.got <= 0 || bf(c.got).Cmp(want) < 0 || printed(t, c.got).Cmp(want) < 0 {
				t.Errorf("α=%v ε(α)=%v ε=%v %v: δ = %v (printed %s), exact %.6g", alpha, rdpEps, eps, c.conv, c.got, dp.Loss(c.got), want)
			}
		}
		e, err := PointToEpsilon(alpha, rdpEps, delta)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			conv Conversion
			got  float64
		}{{Improved, float64(e.Epsilon)}, {Classic, float64(e.ClassicEpsilon)}} {
			want := bigConversion(alpha, bf(rdpEps), delta, c.conv)
			if !atLeast(c.got, want) || printed(t, c.got).Cmp(want) < 0 {
				t.Errorf("α=%v ε(α)=%v δ=%v %v: ε = %v (printed %s), exact %.17g", alpha, rdpEps, delta, c.conv, c.got, dp.Loss(c.got), want)
			}
		}
	}
	if underflows == 0 {
		t.Errorf("no case's δ underflows a float64: the sweep does not reach the bug")
	}
	t.Logf("%d points, %d conversions to δ underflowing float64", n, underflows)
	// The case.
	if r, _ := PointToDelta(1000, 0.01, 2); r.Delta != 0x1p-1074 || r.ClassicDelta != 0x1p-1074 {
		t.Errorf("order 1000, ε(α) 0.01, ε 2: δ = %v, classic %v; want the smallest positive float64", r.Delta, r.ClassicDelta)
	}
}
