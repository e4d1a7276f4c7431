package shifted

import (
	"github.com/privamp/privamp/dp"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"testing"

	"github.com/privamp/privamp/internal/numeric/hp"
)

// Issue 22 hole 7, cni: {"variance": 0.5, "steps": [{"sensitivity": 1},
// {"count": 9}]} printed "rho": 0.09999999999999998, below the exact 0.1.
// A sweep over random one-participation schedules (leading steps, random
// variance, sensitivity and contraction) whose K is known in closed form,
// s²c^{2(m−1)} / (2v Σ_{k<m} c^{2k}) with m the steps from the
// participation to the end (Theorem 23 for c = 1), evaluated in 200 bits:
// K, every segment's share and the printed K are at least the exact value.
func TestSolveRoundsUp(t *testing.T) {
	const P = 200
	bf := func(x float64) *big.Float { return hp.New(x, P) }
	sch := Schedule{{Step: Step{Variance: 0.5, Contraction: 1, Sensitivity: 1}, Count: 1}, {Step: Step{Variance: 0.5, Contraction: 1}, Count: 9}}
	if sol, _ := Solve(sch); bf(sol.K).Cmp(hp.Quo(P, bf(1), bf(10))) < 0 {
		t.Errorf("the issue's schedule: K = %.17g", sol.K)
	}
	n := 2000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewSource(23))
	for i := 0; i < n; i++ {
		v := math.Pow(10, -3+4*rng.Float64())
		s := math.Pow(10, -2+3*rng.Float64())
		m := int64(1 + rng.Intn(1000))
		if i%5 == 0 {
			m = 1 + rng.Int63n(10_000_000)
		}
		c := 1.0
		if i%2 == 1 {
			c = 1 - math.Pow(10, -6+5*rng.Float64())
		}
		sch := Schedule{}
		if lead := int64(rng.Intn(50)); lead > 0 {
			sch = append(sch, Run{Step: Step{Variance: v * (1 + rng.Float64()), Contraction: c}, Count: lead})
		}
		sch = append(sch, Run{Step: Step{Variance: v, Contraction: c, Sensitivity: s}, Count: 1})
		if m > 1 {
			sch = append(sch, Run{Step: Step{Variance: v, Contraction: c}, Count: m - 1})
		}
		sol, err := Solve(sch)
		if err != nil {
			t.Fatal(err)
		}
		// Exact K: Σ_{k<m} c^{2k} = (1 − c^{2m})/(1 − c²) for c < 1.
		c2 := hp.Mul(P, bf(c), bf(c))
		var sum *big.Float
		if c == 1 {
			sum = bf(float64(m))
		} else {
			lc2 := hp.Log(c2, P)
			num := hp.Neg(hp.Expm1(hp.Mul(P, bf(float64(m)), lc2), P))
			sum = hp.Quo(P, num, hp.Neg(hp.Expm1(lc2, P)))
		}
		pow := bf(1)
		if m > 1 && c < 1 {
			pow = hp.Exp(hp.Mul(P, bf(float64(m-1)), hp.Log(c2, P)), P)
		}
		want := hp.Quo(P, hp.Mul(P, hp.Mul(P, bf(s), bf(s)), pow), hp.Mul(P, hp.Mul(P, bf(2), bf(v)), sum))
		p, _ := strconv.ParseFloat(dp.Loss(sol.K).String(), 64)
		if bf(sol.K).Cmp(want) < 0 || bf(p).Cmp(want) < 0 || hp.Exp(bf(sol.LogK), P).Cmp(want) < 0 {
			t.Errorf("v=%v s=%v c=%v m=%d: K = %.17g (printed %v, ln K %v) below the exact %.17g", v, s, c, m, sol.K, p, sol.LogK, want)
		}
		var share float64
		for _, g := range sol.Segments {
			share += g.K
		}
		if bf(share).Cmp(want) < 0 {
			t.Errorf("v=%v s=%v c=%v m=%d: segment shares sum to %.17g below the exact %.17g", v, s, c, m, share, want)
		}
		if w := hp.Float64(want); w > 1e-300 && sol.K > w*(1+1e-9) {
			t.Errorf("v=%v s=%v c=%v m=%d: K = %.17g, exact %.17g: too loose", v, s, c, m, sol.K, w)
		}
	}
}
