package audit

import (
	"github.com/privamp/privamp/dp"
	"math"

	"github.com/privamp/privamp/internal/field"
)

// OneRunSource cites the one-run estimator.
const OneRunSource = "one-run auditing of Steinke, Nasr, Jagielski 2023 (Privacy Auditing with One (1) Training Run, NeurIPS), Thm 3.1 (main theorem: P[V ≥ v] ≤ f(v) + 2mδ·max_{i≥1} (f(v − i) − f(v))/i with f(v) = P[Binomial(r, e^ε/(1 + e^ε)) ≥ v]), computed as in their Appendix D (p_value_DP_audit, get_eps_audit) with exact binomial sums"

// OneRunBound is the one-run lower bound on ε from m canaries, each
// included independently with probability 1/2, and r guesses (the rest
// abstain) of which v are right.
type OneRunBound struct {
	dp.LowerBound
	Canaries int `json:"canaries"` // m
	Guesses  int `json:"guesses"`  // r
	Correct  int `json:"correct"`  // v
	// EpsilonLower: with probability ≥ Confidence the algorithm is not
	// (ε, Delta)-DP for any ε < EpsilonLower.
	// PValue is the theorem's bound on P[V ≥ v] at EpsilonLower (≤ 1 − Confidence).
	PValue float64 `json:"p_value"`
	Reason string  `json:"reason,omitempty"`
}

// OneRun returns the largest ε (to within 10⁻⁹) whose p-value
// OneRunPValue(m, r, v, ε, δ) is at most 1 − conf: observing v right of r
// guesses then rejects (ε, δ)-DP at level 1 − conf, and with it (ε', δ)-DP
// for every ε' < ε (which implies (ε, δ)-DP). The p-value is checked at the
// returned ε against (1 − conf)(1 − 10⁻⁶), a margin for the rounding of the
// binomial sums. Errors are *field.Error values.
func OneRun(m, r, v int, delta, conf float64) (OneRunBound, error) {
	if m < 1 || m > MaxRows {
		return OneRunBound{}, field.New("canaries", m, "must be in [1, %d]", MaxRows)
	}
	if r < 0 || r > m {
		return OneRunBound{}, field.New("guesses", r, "must be in [0, canaries = %d]", m)
	}
	if v < 0 || v > r {
		return OneRunBound{}, field.New("correct", v, "must be in [0, guesses = %d]", r)
	}
	if !(delta >= 0 && delta < 1) {
		return OneRunBound{}, field.New("delta", delta, "must be in [0, 1)")
	}
	if !(conf > 0 && conf < 1) {
		return OneRunBound{}, field.New("confidence", conf, "must be in (0, 1)")
	}
	b := OneRunBound{LowerBound: dp.LowerBound{Source: OneRunSource, Confidence: conf, Delta: delta}, Canaries: m, Guesses: r, Correct: v}
	level := (1 - conf) * (1 - 1e-6)
	p0 := OneRunPValue(m, r, v, 0, delta)
	if !(p0 <= level) {
		b.PValue = p0
		b.Reason = "v right of r guesses is not unlikely even for ε = 0 at this confidence: too few guesses, too few right, or δ·m too large, for a non-trivial bound"
		return b, nil
	}
	lo, hi := 0.0, 1.0
	for OneRunPValue(m, r, v, hi, delta) <= level {
		lo = hi
		hi *= 2
		if hi > 1e4 {
			break
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-9*math.Max(1, lo); i++ {
		mid := 0.5 * (lo + hi)
		if OneRunPValue(m, r, v, mid, delta) <= level {
			lo = mid
		} else {
			hi = mid
		}
	}
	b.EpsilonLower, b.PValue = dp.Max(lo), OneRunPValue(m, r, v, lo, delta)
	return b, nil
}

// OneRunPValue is Steinke, Nasr, Jagielski's (2023) bound on the
// probability of at least v right of r guesses about m canaries under
// (ε, δ)-DP (Thm 3.1; Appendix D's p_value_DP_audit):
//
//	min(1, β + 2mδ·α), β = P[X ≥ v], α = max_{1≤i≤v} P[v − i ≤ X < v]/i,
//
// X ~ Binomial(r, q), q = e^ε/(1 + e^ε). Sums are exact binomial sums
// (log-space pmf, recurrences, tails bounded geometrically), each rounded
// up: never below the exact value by more than the rounding of about 10⁻⁹
// (relative) that OneRun's margin covers.
func OneRunPValue(m, r, v int, eps, delta float64) float64 {
	if v <= 0 {
		return 1
	}
	lq := -math.Log1p(math.Exp(-eps))        // ln q
	l1q := -eps - math.Log1p(math.Exp(-eps)) // ln(1 − q)
	q := math.Exp(lq)
	odds := math.Exp(eps) // q/(1 − q)
	rf := float64(r)
	lr1, _ := math.Lgamma(rf + 1)
	logpmf := func(k int) float64 {
		a, _ := math.Lgamma(float64(k) + 1)
		b, _ := math.Lgamma(rf - float64(k) + 1)
		return lr1 - a - b + float64(k)*lq + (rf-float64(k))*l1q
	}
	mode := int(math.Floor((rf + 1) * q))
	if mode > r {
		mode = r
	}
	// ratio p(k+1)/p(k) and p(k−1)/p(k)
	up := func(k int) float64 { return float64(r-k) / float64(k+1) * odds }
	down := func(k int) float64 { return float64(k) / float64(r-k+1) / odds }

	// β = P[X ≥ v]
	var beta float64
	if v > mode {
		t := math.Exp(logpmf(v))
		s := 0.0
		for k := v; k <= r; k++ {
			s += t
			if k == r {
				break
			}
			rho := up(k)
			t *= rho
			if t < 1e-20*s || t == 0 {
				if rho < 1 {
					s += t / (1 - rho) // remaining terms ≤ t·(1 + ρ + ρ² + …)
				}
				break
			}
		}
		beta = s
	} else {
		// 1 − P[X ≤ v − 1]; the truncated sum is a lower bound on it
		t := math.Exp(logpmf(v - 1))
		s := 0.0
		for k := v - 1; k >= 0; k-- {
			s += t
			if k == 0 {
				break
			}
			t *= down(k)
			if t < 1e-20*s || t == 0 {
				break
			}
		}
		beta = 1 - s
	}
	if delta == 0 {
		return math.Min(1, beta*(1+1e-9))
	}
	// α = max_i S_i/i, S_i = Σ_{k=v−i}^{v−1} p(k), walking k down from v − 1.
	// Terms above k1 (below e^−700 each, where the pmf rises toward the mode)
	// are bounded by their count times e^−700, added to every S_i.
	k1 := v - 1
	const floor = -700.0
	if k1 > mode && logpmf(k1) < floor {
		lo, hi := mode, k1 // logpmf(lo) ≥ floor (the mode's pmf ≥ 1/(r+1)), logpmf(hi) < floor
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if logpmf(mid) >= floor {
				lo = mid
			} else {
				hi = mid
			}
		}
		k1 = lo
	}
	skipped := float64(v-1-k1) * math.Exp(floor)
	alpha := skipped // S_i ≤ skipped for i ≤ v − 1 − k1
	s := skipped
	t := math.Exp(logpmf(k1))
	for k := k1; k >= 0; k-- {
		s += t
		i := v - k
		if a := s / float64(i); a > alpha {
			alpha = a
		}
		if k == 0 {
			break
		}
		rho := down(k)
		t *= rho
		if k-1 < mode && (t < 1e-20*s || t == 0) && rho < 1 {
			// every further S_j/j ≤ (S_i + rest)/(i + 1), rest ≤ t/(1 − ρ)
			if a := (s + t/(1-rho)) / float64(i+1); a > alpha {
				alpha = a
			}
			break
		}
	}
	return math.Min(1, (beta+2*float64(m)*delta*alpha)*(1+1e-9))
}
