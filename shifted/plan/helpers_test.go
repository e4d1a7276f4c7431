package plan

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/privamp/privamp/internal/numeric"
	"github.com/privamp/privamp/rdp"
	"github.com/privamp/privamp/shifted"
	"github.com/privamp/privamp/zcdp"
)

// The variants, as the tests spell them.
type Variant = shifted.Variant

const (
	PNSGD = shifted.VariantPNSGD
	Skip  = shifted.VariantSkip
	Stop  = shifted.VariantStop
)

func baseSetting(v Variant) Options {
	return Options{Training: shifted.Training{Variant: v, Loss: shifted.Loss{Lipschitz: 1}, Delta: 1e-6},
		Radius: 1, Dimension: 10, Conversion: rdp.Improved}
}

// withCaps returns s with the caps on σ and on the utility bound.
func withCaps(s Options, maxSigma, risk float64) Options {
	s.MaxSigma, s.TargetExcessRisk = maxSigma, risk
	return s
}

// permutations calls f with every permutation of 0..n−1.
func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// epsDirect is ε of position t at σ, straight from package shifted.
func epsDirect(t *testing.T, s Options, n int64, sigma float64, pos int64, delta float64) float64 {
	t.Helper()
	g, _, err := s.Guarantee(n, sigma)
	if err != nil {
		t.Fatal(err)
	}
	dp, err := shifted.Epsilon(g, pos, delta, s.Conversion)
	if err != nil {
		t.Fatal(err)
	}
	return dp.Epsilon
}

// bisectOrder is the smallest σ at which people in the order perm (indices
// into eps, del) all meet (1 − Margin)·target, by bisection with package
// shifted at every position: independent of the package's closed form and
// feasibility tree.
func bisectOrder(t *testing.T, s Options, eps, del []float64, perm []int) float64 {
	t.Helper()
	n := int64(len(perm))
	ok := func(sigma float64) bool {
		g, _, err := s.Guarantee(n, sigma)
		if err != nil {
			t.Fatal(err)
		}
		for pos, i := range perm {
			dp, err := shifted.Epsilon(g, int64(pos)+1, del[i], s.Conversion)
			if err != nil {
				t.Fatal(err)
			}
			if dp.Epsilon > eps[i]*(1-Margin) {
				return false
			}
		}
		return true
	}
	hi := 1.0
	for !ok(hi) {
		hi *= 2
	}
	lo := hi / 2
	for ok(lo) {
		lo /= 2
	}
	sig, err := numeric.Bisect(ok, lo, hi, 1e-11, true)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// randomPeople draws m budgets: ε log-uniform in [0.05, 8], δ the default
// or (perDelta) log-uniform in [1e-9, 1e-3].
func randomPeople(r *rand.Rand, m int, perDelta bool) *People {
	p := &People{}
	if perDelta {
		p.Delta = make([]float64, 0, m)
	}
	for i := 0; i < m; i++ {
		p.ID.Append("p" + string(rune('a'+i%26)) + itoa(i))
		p.Epsilon = append(p.Epsilon, 0.05*math.Pow(160, r.Float64()))
		if perDelta {
			p.Delta = append(p.Delta, math.Pow(10, -9+6*r.Float64()))
		}
	}
	return p
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// RhoStar is zcdp.RhoFor for the plan's conversion (test shorthand).
func RhoStar(eps, delta float64, conv rdp.Conversion) float64 {
	m := zcdp.RDP
	if conv == rdp.Classic {
		m = zcdp.BunSteinke
	}
	r, err := zcdp.RhoFor(eps, delta, m)
	if err != nil {
		return math.NaN()
	}
	return r
}
