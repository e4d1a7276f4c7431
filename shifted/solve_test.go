package shifted

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// bruteForce solves min Σ a_t²/(2v_t) s.t. z_t = c_t z_{t−1} + s_t − a_t ≥ 0,
// z_T = 0 by enumerating the set of steps where z_t = 0 (the active
// constraints). Between consecutive zeros p < q the problem decouples: with
// w_i = Π_{l=i+1}^{q} c_l the end condition is Σ a_i w_i = Σ s_i w_i = R, and
// the cheapest a_i = λ v_i w_i costs R²/(2 Σ v_i w_i²). The optimum is the
// cheapest feasible choice. Independent of the convex-minorant solver.
func bruteForce(steps []Step) (best float64, alloc []float64) {
	T := len(steps)
	best = math.Inf(1)
	for mask := 0; mask < 1<<(T-1); mask++ {
		zeros := []int{0}
		for t := 1; t < T; t++ {
			if mask&(1<<(t-1)) != 0 {
				zeros = append(zeros, t)
			}
		}
		zeros = append(zeros, T)
		a := make([]float64, T)
		cost := 0.0
		for k := 0; k+1 < len(zeros); k++ {
			p, q := zeros[k], zeros[k+1] // steps p+1..q (1-based)
			w := make([]float64, q-p)
			prod := 1.0
			for i := q; i > p; i-- {
				w[i-p-1] = prod
				prod *= steps[i-1].Contraction
			}
			var R, den float64
			for i := p + 1; i <= q; i++ {
				R += steps[i-1].Sensitivity * w[i-p-1]
				den += steps[i-1].Variance * w[i-p-1] * w[i-p-1]
			}
			if R == 0 {
				continue
			}
			if den == 0 {
				cost = math.Inf(1)
				break
			}
			lam := R / den
			for i := p + 1; i <= q; i++ {
				a[i-1] = lam * steps[i-1].Variance * w[i-p-1]
			}
			cost += R * R / (2 * den)
		}
		// Feasibility.
		z, ok := 0.0, true
		for t := 0; t < T; t++ {
			z = steps[t].Contraction*z + steps[t].Sensitivity - a[t]
			if z < -1e-9*(1+steps[t].Sensitivity) {
				ok = false
				break
			}
		}
		if ok && math.Abs(z) > 1e-9 {
			ok = false
		}
		if ok && cost < best {
			best, alloc = cost, a
		}
	}
	return best, alloc
}

func randomSteps(r *rand.Rand, T int) []Step {
	steps := make([]Step, T)
	for i := range steps {
		st := Step{Variance: 0.1 + 2*r.Float64(), Contraction: 1}
		switch r.IntN(4) {
		case 0:
			st.Contraction = 0.3 + 0.7*r.Float64()
		case 1:
			st.Contraction = 0.9
		}
		if r.IntN(50) == 0 {
			st.Contraction = 0
		}
		if r.IntN(3) == 0 {
			st.Sensitivity = r.Float64() * 2
		}
		steps[i] = st
	}
	return steps
}

func relClose(a, b, tol float64) bool {
	if a == b {
		return true
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return false
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

func TestSolveMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	trials := 400
	if testing.Short() {
		trials = 80
	}
	for trial := 0; trial < trials; trial++ {
		steps := randomSteps(r, 1+r.IntN(9))
		want, _ := bruteForce(steps)
		sol, err := Solve(FromSteps(steps))
		if err != nil {
			t.Fatal(err)
		}
		if !relClose(sol.K, want, 1e-10) && math.Abs(sol.K-want) > 1e-14 {
			t.Fatalf("trial %d: K = %.15g, brute force %.15g, steps %+v", trial, sol.K, want, steps)
		}
		// The allocation is feasible and costs K.
		a, err := sol.Shifts()
		if err != nil {
			t.Fatal(err)
		}
		z, cost := 0.0, 0.0
		for i, st := range steps {
			if a[i] < 0 {
				t.Fatalf("negative shift a_%d = %g", i+1, a[i])
			}
			z = st.Contraction*z + st.Sensitivity - a[i]
			if z < -1e-9 {
				t.Fatalf("trial %d: z_%d = %g < 0", trial, i+1, z)
			}
			cost += a[i] * a[i] / (2 * st.Variance)
			if got := sol.Shift(int64(i + 1)); !relClose(got, a[i], 1e-12) && math.Abs(got-a[i]) > 1e-15 {
				t.Fatalf("Shift(%d) = %g, Shifts()[%d] = %g", i+1, got, i, a[i])
			}
		}
		if math.Abs(z) > 1e-9 || !relClose(cost, sol.K, 1e-9) && math.Abs(cost-sol.K) > 1e-14 {
			t.Fatalf("trial %d: allocation ends at z_T = %g, costs %g, K = %g", trial, z, cost, sol.K)
		}
	}
}

func TestSolveTheorem23(t *testing.T) {
	// One participation at step t of T with c = 1: K = s²/(2v(T − t + 1)).
	const T = 10_000_000
	v, s := 0.25, 0.2
	for _, pos := range []int64{1, 2, 1000, T / 2, T - 1, T} {
		var sch Schedule
		sch = sch.Append(Step{Variance: v, Contraction: 1}, pos-1)
		sch = sch.Append(Step{Variance: v, Contraction: 1, Sensitivity: s}, 1)
		sch = sch.Append(Step{Variance: v, Contraction: 1}, T-pos)
		sol, err := Solve(sch)
		if err != nil {
			t.Fatal(err)
		}
		want := s * s / (2 * v * float64(T-pos+1))
		if !relClose(sol.K, want, 1e-11) || sol.K < want {
			t.Errorf("t = %d: K = %.16g, want %.16g", pos, sol.K, want)
		}
		if sol.Steps != T {
			t.Errorf("Steps = %d", sol.Steps)
		}
	}
}

func TestSolveExpandedMatchesRuns(t *testing.T) {
	// The same 2·10⁵-step schedule given step by step (with a per-step
	// variance wiggle so that no runs merge) and with the wiggle removed as
	// runs; also the run-wise solver against the step-wise one.
	const T = 200_000
	steps := make([]Step, T)
	for i := range steps {
		steps[i] = Step{Variance: 1, Contraction: 0.99999}
		if i%1000 == 17 {
			steps[i].Sensitivity = 0.1
		}
	}
	compact := FromSteps(steps)
	if len(compact) != 2*T/1000+1 {
		t.Fatalf("FromSteps made %d runs", len(compact))
	}
	a, _ := Solve(compact)
	// Expanded: force one run per step by alternating an equal-valued but
	// distinct representation is impossible, so solve a copy where every run
	// is split into single steps by hand.
	var split Schedule
	for _, st := range steps {
		split = append(split, Run{Step: st, Count: 1})
	}
	b, _ := Solve(split)
	// Both are rounded up by their a-priori error bounds, which grow with
	// the runs pooled (2·10⁵ here).
	if !relClose(a.K, b.K, 1e-8) {
		t.Fatalf("run-wise K = %.16g, step-wise %.16g", a.K, b.K)
	}
}

func TestSolveUnderflow(t *testing.T) {
	// c = 0.99 for 10⁷ steps: Π c underflows (ln = −1.005·10⁵). A person at
	// step t has K = (s²/2v)·c^{2(T−t)}(1 − c²)/(1 − c^{2(T−t+1)}).
	const T = 10_000_000
	c, v, s := 0.99, 1.0, 1.0
	lc := math.Log(c)
	for _, pos := range []int64{1, 100, T - 5000, T} {
		var sch Schedule
		sch = sch.Append(Step{Variance: v, Contraction: c}, pos-1)
		sch = sch.Append(Step{Variance: v, Contraction: c, Sensitivity: s}, 1)
		sch = sch.Append(Step{Variance: v, Contraction: c}, T-pos)
		sol, err := Solve(sch)
		if err != nil {
			t.Fatal(err)
		}
		m := float64(T - pos)
		want := math.Log(s*s/(2*v)) + 2*m*lc + math.Log(-math.Expm1(2*lc)) - math.Log(-math.Expm1(2*(m+1)*lc))
		if math.Abs(sol.LogK-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("t = %d: ln K = %.15g, want %.15g", pos, sol.LogK, want)
		}
		if math.IsNaN(sol.K) || math.IsInf(sol.LogK, 0) {
			t.Errorf("t = %d: K = %v, ln K = %v", pos, sol.K, sol.LogK)
		}
	}
}

func TestSolveReset(t *testing.T) {
	// A step with c = 0 forgets everything before it.
	sch := Schedule{
		{Step: Step{Variance: 1, Contraction: 1, Sensitivity: 5}, Count: 3},
		{Step: Step{Variance: 1, Contraction: 0}, Count: 2},
		{Step: Step{Variance: 1, Contraction: 1}, Count: 4},
	}
	sol, err := Solve(sch)
	if err != nil {
		t.Fatal(err)
	}
	if sol.K != 0 || !math.IsInf(sol.LogK, -1) {
		t.Fatalf("K = %g after a reset, want 0", sol.K)
	}
	sch[1].Sensitivity = 1 // the reset run's last step carries sensitivity
	sol, _ = Solve(sch)
	if want := 1.0 / (2 * 5); !relClose(sol.K, want, 1e-13) || sol.K < want {
		t.Fatalf("K = %g, want %g", sol.K, want)
	}
}

func TestScheduleValidate(t *testing.T) {
	good := Step{Variance: 1, Contraction: 1}
	cases := []struct {
		sch  Schedule
		want string
	}{
		{nil, "empty"},
		{Schedule{{Step: Step{Variance: 1, Contraction: 1.2}, Count: 1}}, "does not contract"},
		{Schedule{{Step: Step{Variance: 0, Contraction: 1}, Count: 1}}, "variance"},
		{Schedule{{Step: Step{Variance: math.NaN(), Contraction: 1}, Count: 1}}, "variance"},
		{Schedule{{Step: Step{Variance: 1, Contraction: -0.1}, Count: 1}}, "contraction"},
		{Schedule{{Step: Step{Variance: 1, Contraction: 1, Sensitivity: -1}, Count: 1}}, "sensitivity"},
		{Schedule{{Step: Step{Variance: 1, Contraction: 1, Sensitivity: math.Inf(1)}, Count: 1}}, "sensitivity"},
		{Schedule{{Step: good, Count: 0}}, "count"},
		{Schedule{{Step: good, Count: MaxSteps}, {Step: good, Count: 2}}, "more than"},
	}
	for _, c := range cases {
		err := c.sch.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%v) = %v, want an error containing %q", c.sch, err, c.want)
		}
		if _, err := Solve(c.sch); err == nil {
			t.Errorf("Solve(%v) accepted a bad schedule", c.sch)
		}
	}
	if err := (Schedule{{Step: good, Count: 3}}).Validate(); err != nil {
		t.Errorf("good schedule refused: %v", err)
	}
}

func TestSolveAllZero(t *testing.T) {
	sol, err := Solve(Schedule{{Step: Step{Variance: 1, Contraction: 0.5}, Count: 10}})
	if err != nil || sol.K != 0 || sol.Shift(3) != 0 {
		t.Fatalf("K = %g, err %v", sol.K, err)
	}
	if e, _ := sol.Epsilon(1e-5, 0); e != 0 {
		t.Fatalf("ε = %g for K = 0", e)
	}
}
