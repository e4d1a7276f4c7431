package saddle

import (
	"math"
	"math/rand/v2"
)

// smdStep is Algorithm 1's default step (runSMDGame): min{√(2ℓ/(5L0²T))
// (the minimiser of 2ℓ/(τT) + 5τL0²), the largest τ the target ε allows}.
func smdStep(n, dx, dy, T, K int, a, eps, delta float64) (float64, error) {
	tmax, err := SMDMaxStep(n, T, K, a, eps, delta)
	if err != nil {
		return 0, err
	}
	return math.Min(tmax, math.Sqrt(2*ell(dx, dy)/(5*a*a*float64(T)))), nil
}

// scoStep is Algorithm 5's default step (runSCOProblem): min{the minimiser
// of SCOBound over τ, the largest τ the target ε allows}.
func scoStep(n, d, T, K, q int, c SCOConstants, eps, delta float64) (float64, error) {
	tmax, err := SCOMaxStep(n, T, K, q, c.L0, eps, delta)
	if err != nil {
		return 0, err
	}
	return math.Min(tmax, scoBestStep(d, T, K, q, c)), nil
}

// SMDBoundAt is Thm 3.1's explicit bound (SMDBound, the paper's form) on E
// Gap of Algorithm 1 run at its defaults (Thm 3.1 (7)'s T, the default step)
// on a bilinear dx × dy game with payoff bound a and n records, K vertex
// pairs per step, calibrated to (ε, δ): a function of declared values only,
// for asking at which n the bound would fall below a given gap. +Inf where
// the target cannot be met.
func SMDBoundAt(n, dx, dy, K int, a, eps, delta float64) float64 {
	T := SMDPlan(n, dx, dy, eps, delta)
	tau, err := smdStep(n, dx, dy, T, K, a, eps, delta)
	if err != nil {
		return math.Inf(1)
	}
	paper, _ := SMDBound(dx, dy, T, a, tau)
	return paper
}

// SCOBoundAt is the explicit bound SCOBound on E[F(ŵ_T)] − min F of
// Algorithm 5 at its defaults (Thm 4.2's T, q, K, the default step) for n
// records in dimension d with constants c, calibrated to (ε, δ). +Inf where
// the target cannot be met.
func SCOBoundAt(n, d int, c SCOConstants, eps, delta float64) float64 {
	T, q, K := SCOPlan(n, d, eps, delta)
	tau, err := scoStep(n, d, T, K, q, c, eps, delta)
	if err != nil {
		return math.Inf(1)
	}
	return SCOBound(d, T, K, q, c, tau)
}

// brBoundDraws is how many independent sequences N_1, N_2, ... BRBoundAt
// averages the conditional bound over.
const brBoundDraws = 16

// BRBoundAt is the mean of the conditional explicit bound BRBound of
// Algorithm 3 at its defaults (Thm 3.14's U, M, τ, α) for n records: the
// lengths N_t are drawn as RunBR draws them (truncated geometric, stopped
// by the budget U and by the records left), independently of any data, from
// a fixed seed, and the bound is averaged over brBoundDraws sequences, or
// fewer once 10^5 rounds were drawn in all: at large n one sequence has
// many rounds and its bound varies little. +Inf where the target
// cannot be met.
func BRBoundAt(n, dx, dy int, a, eps, delta float64) float64 {
	U, M, tau, alpha := BRPlan(n, dx, dy, a, eps, delta)
	tmax, err := BRMaxStep(U, M, alpha, a, eps, delta)
	if err != nil {
		return math.Inf(1)
	}
	tau = math.Min(tau, tmax)
	rng := rand.New(rand.NewPCG(1, 0xb0a7))
	var sum float64
	draws, rounds := 0, 0
	for ; draws < brBoundDraws && rounds < 100_000; draws++ {
		var Ns []int
		var budget float64
		used := 0
		for budget <= U-math.Ldexp(1, M) {
			N := TruncatedGeometric(M, rng)
			b := brBatch(N, alpha)
			if used+b > n {
				break
			}
			used += b
			budget += math.Ldexp(1, N)
			Ns = append(Ns, N)
		}
		sum += BRBound(dx, dy, Ns, M, a, tau)
		rounds += len(Ns)
	}
	return sum / float64(draws)
}
