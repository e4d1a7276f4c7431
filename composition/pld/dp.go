package pld

import (
	"math"

	"github.com/privamp/privamp/internal/field"
)

// dpLoss is the dominating pair of every (ε₀, δ₀)-DP mechanism (Kairouz–
// Oh–Viswanath 2015, Thm 2.1; Murtagh–Vadhan 2016): on four outcomes
//
//	P = (δ₀, (1−δ₀)p, (1−δ₀)(1−p), 0),  Q = (0, (1−δ₀)(1−p), (1−δ₀)p, δ₀),
//
// p = e^{ε₀}/(1 + e^{ε₀}). Its privacy loss is +∞ with probability δ₀, ε₀
// with probability (1−δ₀)p and −ε₀ otherwise (under Q, −∞ has mass δ₀).
type dpLoss struct{ eps0, delta0 float64 }

func (g dpLoss) bounds(float64) (float64, float64) { return -g.eps0, g.eps0 }

func (g dpLoss) tails(l float64) (pa, pb, qa, qb, r float64) {
	d, c := g.delta0, 1-g.delta0
	switch {
	case l >= g.eps0:
		return d, c, 0, 1, 4
	case l < -g.eps0:
		return 1, 0, c, d, 4
	}
	p := 1 / (1 + math.Exp(-g.eps0))
	pc := 1 / (1 + math.Exp(g.eps0))
	return d + c*p, c * pc, c * pc, d + c*p, 8
}

// PrivacyParameters returns the PLD of the worst (ε₀, δ₀)-DP mechanism:
// a pair that dominates every (ε₀, δ₀)-DP mechanism under adaptive
// composition (Kairouz–Oh–Viswanath 2015, Thm 2.1 and Thm 3.3; the same
// pair as dp_accounting's from_privacy_parameters). Its +∞ mass δ₀ is
// carried, in a sound PLD, with the truncated mass that is added to every
// δ(ε). It is symmetric. Composing such PLDs bounds the heterogeneous
// composition of (ε_i, δ_i)-DP mechanisms, whose exact optimum is #P-hard
// (Murtagh–Vadhan 2016), to within the discretization error.
func PrivacyParameters(eps0, delta0 float64, opt Options) (*PLD, error) {
	if !(eps0 >= 0 && eps0 <= 1e6) {
		return nil, field.New("epsilon", eps0, "must be in [0, 1e6]")
	}
	if !(delta0 >= 0 && delta0 < 1) {
		return nil, field.New("delta", delta0, "must be in [0, 1)")
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	f, err := discretize(dpLoss{eps0, delta0}, o, nil)
	if err != nil {
		return nil, err
	}
	return &PLD{opt: o, remove: f}, nil
}

// Account builds a PLD with build twice, once with the sound
// discretization of opt (connect-the-dots unless Pessimistic is asked) and
// once with the Optimistic one, and returns ε at delta for both: the sound
// value is an upper bound on the exact ε, the optimistic one an estimate
// from below. opt must not ask for the Optimistic discretization.
func Account(delta float64, opt Options, build func(Options) (*PLD, error)) (Result, error) {
	return accountBoth(delta, 1, opt, build)
}

// LaplaceComposed accounts for k runs of the Laplace mechanism
// (ℓ1-sensitivity Δ, scale b).
func LaplaceComposed(sensitivity, scale float64, k int, delta float64, opt Options) (Result, error) {
	if k < 1 {
		return Result{}, field.New("compositions", k, "must be a whole number ≥ 1")
	}
	if err := field.OpenUnit("delta", delta); err != nil {
		return Result{}, err
	}
	return accountBoth(delta, k, opt.tailFor(k, delta), func(o Options) (*PLD, error) {
		return Laplace(sensitivity, scale, o)
	})
}
