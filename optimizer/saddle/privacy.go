package saddle

import (
	"math"

	"github.com/privamp/privamp/composition"
	"github.com/privamp/privamp/dp"
	"github.com/privamp/privamp/internal/field"
	"github.com/privamp/privamp/rdp"
)

// Privacy is the certificate of one run: every released vertex sample is an
// exponential mechanism (seed 003 Thm 3.4: sampling ∝ exp(s) is 2Δs-DP),
// pure VertexEpsilon-DP conditionally on the samples before it, and Samples
// of them compose by fully adaptive composition (Thm 3.5, Whitehouse et al.
// 2023) to Epsilon = ε₀√(2k ln(1/δ)) + kε₀²/2 (composition.FilterEpsilon).
// EpsilonRDP is the same composition through the RDP curve of pure ε₀-DP
// (rdp.PureDP, improved conversion): valid as well, never larger.
type Privacy struct {
	// ScoreSensitivity Δs bounds the change of the exponential mechanism's
	// score τ·Σ g when one record is replaced.
	ScoreSensitivity float64 `json:"score_sensitivity"`
	VertexEpsilon    float64 `json:"vertex_epsilon"`
	Samples          int64   `json:"samples"`
	dp.Guarantee
	EpsilonRDP float64 `json:"epsilon_rdp"`
	// Paper* are the paper's own constants at the same parameters, for
	// comparison (Prop. 3.3 / Prop. 3.17): the step size Prop. 3.3's
	// sufficient condition allows (Algorithm 1 only; 0 otherwise), and the
	// per-vertex ε the paper prints.
	PaperMaxStep       float64 `json:"paper_max_step,omitempty"`
	PaperVertexEpsilon float64 `json:"paper_vertex_epsilon"`
}

// compose fills Epsilon and EpsilonRDP from VertexEpsilon and Samples.
func (p *Privacy) compose(name string, value any) error {
	k := p.Samples
	if k > composition.MaxK {
		return field.New(name, value, "makes %d vertex samples, more than the %d composition accepts", k, composition.MaxK)
	}
	e, err := composition.FilterEpsilon(p.VertexEpsilon, int(k), float64(p.Delta))
	if err != nil {
		return field.New("delta", float64(p.Delta), "%v", err)
	}
	p.Epsilon = dp.Loss(e)
	p.EpsilonRDP = e
	if r, err := rdp.EpsilonFor(rdp.Repeat(rdp.PureDP{Eps: p.VertexEpsilon}, float64(k)), float64(p.Delta), rdp.Improved); err == nil && r.Epsilon < e {
		p.EpsilonRDP = r.Epsilon
	}
	return nil
}

// maxEta bounds the step size (beyond it the log-weights could overflow).
const maxEta = 1e6

// SMDPrivacy is the privacy of Algorithm 1 (seed 003 Prop. 3.3) with n
// records, T steps of batch B = ⌊n/T⌋ (disjoint batches, each record used
// once), K gradient samples per step, step size τ and payoff bound a (L0 =
// a: ‖∇f‖∞ ≤ a on the simplices). One replaced record changes one batch's
// gradient by ≤ 2a/B in ‖·‖∞, so every score −τΣg moves by Δs ≤ 2aτ/B and
// every vertex sample is 4aτ/B-DP; each step draws K + 1 pairs (K for the
// gradient, one released), k = 2T(K+1) vertices in all (the paper's count;
// the t = 1 samples are data-independent, so it is conservative).
func SMDPrivacy(n, T, K int, a, tau, delta float64) (Privacy, error) {
	if err := smdCheck(n, T, K, a, delta); err != nil {
		return Privacy{}, err
	}
	if err := field.First(field.Positive("eta", tau), field.Range("eta", tau, 0, maxEta)); err != nil {
		return Privacy{}, err
	}
	B := float64(n / T)
	p := Privacy{Guarantee: dp.Guarantee{Delta: dp.Loss(delta), Source: "seed 003 Prop. 3.3: Δs = 2L0τ/B, each vertex 4L0τ/B-DP, k = 2T(K+1) vertices, Thm 3.5 (composition.FilterEpsilon)"}, ScoreSensitivity: 2 * a * tau / B, VertexEpsilon: 4 * a * tau / B, Samples: 2 * int64(T) * int64(K+1),
		PaperMaxStep: paperSMDStep(n, T, K, a, 1, delta)}
	p.PaperVertexEpsilon = p.VertexEpsilon
	return p, p.compose("steps", T)
}

func smdCheck(n, T, K int, a, delta float64) error {
	return field.First(field.Count("n", int64(n), 2, 1<<40), field.Count("steps", int64(T), 1, int64(max(n, 1))),
		field.Count("samples", int64(K), 1, 1_000_000), field.Positive("payoff_bound", a), field.OpenUnit("delta", delta))
}

// SMDMaxStep returns the largest step size τ for which Algorithm 1 is
// (ε, δ)-DP by SMDPrivacy: the exact inverse of Thm 3.5 for k = 2T(K+1)
// (composition.FilterMaxStep, rounded down) times B/(4a). It is about twice
// Prop. 3.3's τ ≤ Bε/(16L0√(T(K+1) ln(1/δ))), which goes through Cor. 3.6.
func SMDMaxStep(n, T, K int, a, eps, delta float64) (float64, error) {
	if err := smdCheck(n, T, K, a, delta); err != nil {
		return 0, err
	}
	if err := epsCheck(eps, delta); err != nil {
		return 0, err
	}
	k := 2 * int64(T) * int64(K+1)
	if k > composition.MaxK {
		return 0, field.New("steps", T, "make %d vertex samples, more than the %d composition accepts", k, composition.MaxK)
	}
	e0, err := composition.FilterMaxStep(eps, int(k), delta)
	if err != nil {
		return 0, field.New("target_epsilon", eps, "%v", err)
	}
	tau := e0 * float64(n/T) / (4 * a) * (1 - 1e-12)
	for tau > 0 {
		if p, err := SMDPrivacy(n, T, K, a, tau, delta); err == nil && float64(p.Epsilon) <= eps {
			break
		}
		tau *= 1 - 1e-9
	}
	return tau, nil
}

// paperSMDStep is Prop. 3.3's sufficient step size Bε/(16L0√(T(K+1) ln(1/δ))).
func paperSMDStep(n, T, K int, a, eps, delta float64) float64 {
	return float64(n/T) * eps / (16 * a * math.Sqrt(float64(T)*float64(K+1)*math.Log(1/delta)))
}

// PaperSMDStep is Prop. 3.3's sufficient condition on τ, as printed, for
// comparison with SMDMaxStep.
func PaperSMDStep(n, T, K int, a, eps, delta float64) (float64, error) {
	if err := field.First(smdCheck(n, T, K, a, delta), epsCheck(eps, delta)); err != nil {
		return 0, err
	}
	return paperSMDStep(n, T, K, a, eps, delta), nil
}

func epsCheck(eps, delta float64) error {
	if err := field.Positive("target_epsilon", eps); err != nil {
		return err
	}
	if lim := 8 * math.Log(1/delta); !(eps < lim) {
		return field.New("target_epsilon", eps, "must be < 8 ln(1/δ) = %.6g (seed 003 assumes 0 < ε < 8 log(1/δ) throughout)", lim)
	}
	return nil
}

// BRPrivacy is the privacy of Algorithm 3 (seed 003 Prop. 3.17, with the
// sensitivity recounted; docs/saddle.md). Round t uses a fresh batch of
// b(N) = max{1, ⌈2^N/α⌉} records and the gradient
// g = w_N[∇f(p̄₊; B) − ∇f(p̄₋; B)] + ∇f(p̂₁; B) with w_N = Z·2^N (the
// unbiased weight of TG(½, M), Z = 2 − 2^{−M}). Replacing one record moves
// each of the three batch gradients by ≤ 2L0/b in ‖·‖∞, so the score moves by
//
//	Δs(N) ≤ 2τL0(2w_N + 1)/b(N),
//
// and every vertex sample is ε₀ = 2·max_{0≤N≤M} Δs(N)-DP (the round holding
// the record is not known in advance). The paper prints Δs ≤ 4.5ταL0
// (per-vertex 9ταL0), counting each gradient difference as L0 instead of
// 2L0, the weight as 2^N and 1/2^N ≤ ½ also at N = 0: optimistic by about 2×.
// Round t draws 2^{N+1} pairs for the gradient and one released pair, 4·2^N +
// 2 ≤ 6·2^N vertices, and Σ_t 2^{N_t} ≤ U, so k ≤ 6U (the proof's count).
// The N_t do not depend on the data, so the count is public.
func BRPrivacy(U float64, M int, alpha, a, tau, delta float64) (Privacy, error) {
	if err := field.First(field.Range("stop_budget", U, 1, 1e8), field.Count("truncation", int64(M), 0, 30),
		field.Positive("batch_parameter", alpha), field.Positive("payoff_bound", a), field.Positive("eta", tau), field.Range("eta", tau, 0, maxEta), field.OpenUnit("delta", delta)); err != nil {
		return Privacy{}, err
	}
	z := tgNorm(M)
	var worst float64
	for N := 0; N <= M; N++ {
		worst = math.Max(worst, 2*tau*a*(2*z*math.Ldexp(1, N)+1)/float64(brBatch(N, alpha)))
	}
	p := Privacy{Guarantee: dp.Guarantee{Delta: dp.Loss(delta), Source: "seed 003 Prop. 3.17 recounted: Δs = max_N 2τL0(2w_N+1)/b(N), each vertex 2Δs-DP, k ≤ 6U vertices, Thm 3.5 (composition.FilterEpsilon)"}, ScoreSensitivity: worst, VertexEpsilon: 2 * worst, Samples: int64(math.Floor(6 * U)),
		PaperVertexEpsilon: 9 * tau * alpha * a}
	return p, p.compose("stop_budget", U)
}

// brBatch is Algorithm 3's batch size max{1, ⌈2^N/α⌉} (the ceiling only
// lowers the sensitivity).
func brBatch(N int, alpha float64) int {
	b := math.Ceil(math.Ldexp(1, N) / alpha)
	if b < 1 {
		return 1
	}
	if b > 1<<40 {
		return 1 << 40
	}
	return int(b)
}

// tgNorm is Z = Σ_{k=0}^{M} 2^{−k} = 2 − 2^{−M}: TG(½, M) has P[N = k] =
// 2^{−k}/Z (the normaliser that makes Algorithm 2 unbiased; the printed
// definition with "p ≤ C_M ≤ 1" cannot be, seed 003 notes §2.2).
func tgNorm(M int) float64 { return 2 - math.Ldexp(1, -M) }

// BRMaxStep is the largest τ for which BRPrivacy certifies (ε, δ).
func BRMaxStep(U float64, M int, alpha, a, eps, delta float64) (float64, error) {
	if err := epsCheck(eps, delta); err != nil {
		return 0, err
	}
	p, err := BRPrivacy(U, M, alpha, a, 1, delta)
	if err != nil {
		return 0, err
	}
	e0, err := composition.FilterMaxStep(eps, int(p.Samples), delta)
	if err != nil {
		return 0, field.New("target_epsilon", eps, "%v", err)
	}
	tau := e0 / p.VertexEpsilon * (1 - 1e-12)
	for tau > 0 {
		if q, err := BRPrivacy(U, M, alpha, a, tau, delta); err == nil && float64(q.Epsilon) <= eps {
			break
		}
		tau *= 1 - 1e-9
	}
	return tau, nil
}

// SCORounds is the number of sampling rounds of Algorithm 5 (seed 003):
// the steps t ≤ T with t ≤ q or q | t, plus the final draw. For T ≥ q it is
// q + ⌊T/q⌋ − 1 + 1 = q + ⌊T/q⌋ ≤ T/q + q, so k = K·SCORounds is at most
// the TK/q + qK of Prop. 4.3's statement (its proof counts K more).
func SCORounds(T, q int) int64 {
	if T <= q {
		return int64(T) + 1
	}
	return int64(q) + int64(T/q)
}

func scoCheck(n, T, K, q int, l0, delta float64) error {
	return field.First(field.Count("n", int64(n), 2, 1<<40), field.Count("steps", int64(T), 1, int64(max(n, 1))),
		field.Count("samples", int64(K), 1, 1_000_000), field.Count("round_length", int64(q), 1, 1<<40),
		field.Positive("lipschitz", l0), field.OpenUnit("delta", delta))
}

// SCOPrivacy is the privacy of Algorithm 5 (seed 003 Prop. 4.3) with n
// records, T steps of batch B = ⌊n/T⌋ (disjoint, each record used once), K
// vertex samples per sampling round, round length q, step size τ and
// Lipschitz constant L0 (‖∇f(·; z)‖∞ ≤ L0 on the simplex, declared).
//
// One replaced record moves one batch gradient by ≤ 2L0/B in ‖·‖∞, so every
// cumulative score s^i = −τΣ_{k<i} g^k moves by Δs ≤ 2τL0/B and each
// iterate's coordinate x^i_j = e^{s^i_j}/Σ_l e^{s^i_l} by a factor in
// [e^{−2Δs}, e^{2Δs}]; the running average w^t_j = (1/t)Σ_i x^i_j is a
// mixture of such ratios, so one vertex drawn from P_{w^t} is 2Δs =
// 4τL0/B-DP conditionally on the earlier draws. Prop. 4.3's proof reaches
// the same constant through log-sum-exp but drops the iterates'
// normalisers; the mixture argument above does not need them
// (docs/saddle.md §7). k = K·SCORounds(T, q) draws compose by Thm 3.5
// (composition.FilterEpsilon, the same implementation as Algorithms 1, 3).
func SCOPrivacy(n, T, K, q int, l0, tau, delta float64) (Privacy, error) {
	if err := scoCheck(n, T, K, q, l0, delta); err != nil {
		return Privacy{}, err
	}
	if err := field.First(field.Positive("eta", tau), field.Range("eta", tau, 0, maxEta)); err != nil {
		return Privacy{}, err
	}
	B := float64(n / T)
	p := Privacy{Guarantee: dp.Guarantee{Delta: dp.Loss(delta), Source: "seed 003 Prop. 4.3: Δs = 2L0τ/B, each vertex of P_{w^t} 4L0τ/B-DP (mixture of the iterates), k = K(q + ⌊T/q⌋) draws, Thm 3.5 (composition.FilterEpsilon)"}, ScoreSensitivity: 2 * l0 * tau / B, VertexEpsilon: 4 * l0 * tau / B, Samples: int64(K) * SCORounds(T, q)}
	p.PaperVertexEpsilon = p.VertexEpsilon
	return p, p.compose("steps", T)
}

// PaperSCOStep is Prop. 4.3's sufficient condition on τ as printed,
// Bε/(8L0√(2(TK/q + qK) ln(1/δ))), for comparison with SCOMaxStep.
func PaperSCOStep(n, T, K, q int, l0, eps, delta float64) (float64, error) {
	if err := field.First(scoCheck(n, T, K, q, l0, delta), epsCheck(eps, delta)); err != nil {
		return 0, err
	}
	k := float64(T)*float64(K)/float64(q) + float64(q)*float64(K)
	return float64(n/T) * eps / (8 * l0 * math.Sqrt(2*k*math.Log(1/delta))), nil
}

// SCOMaxStep is the largest τ for which SCOPrivacy certifies (ε, δ): the
// exact inverse of Thm 3.5 for k = K·SCORounds(T, q) draws, times B/(4L0).
func SCOMaxStep(n, T, K, q int, l0, eps, delta float64) (float64, error) {
	if err := field.First(scoCheck(n, T, K, q, l0, delta), epsCheck(eps, delta)); err != nil {
		return 0, err
	}
	k := int64(K) * SCORounds(T, q)
	if k > composition.MaxK {
		return 0, field.New("samples", K, "make %d vertex samples, more than the %d composition accepts", k, composition.MaxK)
	}
	e0, err := composition.FilterMaxStep(eps, int(k), delta)
	if err != nil {
		return 0, field.New("target_epsilon", eps, "%v", err)
	}
	tau := e0 * float64(n/T) / (4 * l0) * (1 - 1e-12)
	for tau > 0 {
		if p, err := SCOPrivacy(n, T, K, q, l0, tau, delta); err == nil && float64(p.Epsilon) <= eps {
			break
		}
		tau *= 1 - 1e-9
	}
	return tau, nil
}
