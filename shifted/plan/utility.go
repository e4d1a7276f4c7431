package plan

import (
	"math"

	"github.com/privamp/privamp/internal/numeric"
)

// Utility is a bound on the expected excess population risk
// E[F(W)] − F* of the planned run for i.i.d. data, with its source.
type Utility struct {
	Bound  float64 // NaN when seed 002 gives no bound for the variant
	Eta    float64 // the step size it holds at
	Source string
}

// Utility returns the excess-risk bound of the run with n private people at
// noise σ (FMTT18 §5, with L_G² = L² + dσ² the second moment of a noisy
// gradient and S = Steps(n)):
//
//	Skip (Thm 30; Cor 31 with public records): 4√2·R·L_G/√S at η = √8·R/(L_G√S)
//	Stop (Thm 29):                             4·R·L_G/√S  at η = 2R/(L_G√S)
//	k Stop tasks (Thm 32, per task):           4·R·L_G/√S  at η = 4R/(L_G√S)
//
// Thm 29, 30 and Cor 31 state these for σ = 2L√(2 ln(1.25/δ))/ε (and its
// public-data version); their proofs (Thm 28 applied to the noisy gradient
// oracle) hold for every σ, which is how they are used here. Seed 002 has no
// bound for the last iterate of PNSGD: for that variant the bound is Thm
// 30's, i.e. for running the same plan as Skip-PNSGD, whose per-person
// guarantee is never weaker (Thm 24; the exact mixture of notes §3 is at
// most αρ_t). When η is fixed or lowered to 2/β, the bound is Thm 28's
// regret argument at that η, D²/(2ηT) + ηL_G²/2 + DL/T with D = 2R and T
// the iterates the output is drawn from (S for Stop, ⌊S/2⌋ + 1 for Skip),
// the form of optimizer.UtilityBound. Several passes (Epochs > 1) reuse the
// data, so no population bound applies: Bound is NaN.
func (s Setting) Utility(n int64, sigma float64) Utility {
	eta, _, paper := s.EtaRule(n, sigma)
	u := Utility{Bound: math.NaN(), Eta: eta}
	if s.epochs() > 1 {
		u.Source = "none: seed 002 bounds the excess population risk of a single pass over i.i.d. data (Thm 28); later passes reuse the data"
		return u
	}
	S := float64(s.Steps(n))
	L, R := s.Lipschitz, s.Radius
	lg := math.Sqrt(L*L + float64(s.Dimension)*sigma*sigma)
	stop := s.Variant == Stop
	if paper {
		switch {
		case stop && s.tasks() > 1:
			u.Bound, u.Source = 4*R*lg/math.Sqrt(S), "FMTT18 Thm 32 (per task): 4R·√(L² + dσ²)/√S"
		case stop:
			u.Bound, u.Source = 4*R*lg/math.Sqrt(S), "FMTT18 Thm 29: 4R·√(L² + dσ²)/√S"
		default:
			u.Bound = 4 * math.Sqrt2 * R * lg / math.Sqrt(S)
			u.Source = "FMTT18 Thm 30: 4√2·R·√(L² + dσ²)/√S"
			if s.Public > 0 {
				u.Source = "FMTT18 Cor 31: 4√2·R·√(L² + dσ²)/√S, S including the public records"
			}
		}
	} else {
		T := S
		if !stop {
			T = math.Floor(S/2) + 1
		}
		D := 2 * R
		u.Bound = D*D/(2*eta*T) + eta*lg*lg/2 + D*L/T
		u.Source = "FMTT18 Thm 28's regret argument at this η: D²/(2ηT) + η(L² + dσ²)/2 + DL/T, D = 2R (as optimizer.UtilityBound)"
	}
	if s.Variant == PNSGD {
		u.Source += "; for the plan run as Skip-PNSGD (same order and σ; never less private, Thm 24): seed 002 has no bound for the last iterate"
	}
	return u
}

// SigmaForUtility returns the largest σ whose utility bound (Utility) is at
// most target, and false when even σ → 0 misses it (more records are
// needed) or the variant has no bound. The bound is non-decreasing in σ.
func (s Setting) SigmaForUtility(n int64, target float64) (float64, bool) {
	if math.IsNaN(s.Utility(n, 0).Bound) {
		return 0, false
	}
	ok := func(sig float64) bool { return s.Utility(n, sig).Bound <= target }
	lo := s.Lipschitz / math.Sqrt(float64(s.Dimension)) * 1e-12
	if !ok(lo) {
		return 0, false
	}
	hi := s.Lipschitz / math.Sqrt(float64(s.Dimension))
	for ok(hi) {
		lo = hi
		hi *= 4
		if hi > 1e300 {
			return lo, true
		}
	}
	sig, err := numeric.Bisect(ok, lo, hi, 1e-13, false)
	if err != nil {
		return lo, true
	}
	return sig, true
}
